// SPDX-License-Identifier: Apache-2.0
#include "graph/visdb/precision_explain.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdlib>

namespace msprobe::graph {

namespace {

using Json = nlohmann::ordered_json;

std::string field(const Json& item, const char* key)
{
    auto it = item.find(key);
    return it != item.end() && it->is_string() ? it->get<std::string>() : std::string {};
}

double fraction(const std::string& text)
{
    std::string t = text;
    const bool percent = !t.empty() && t.back() == '%';
    if (percent)
        t.pop_back();
    char* end = nullptr;
    const double value = std::strtod(t.c_str(), &end);
    if (end == t.c_str())
        return 0;
    return percent ? value / 100 : value;
}

PrecisionLevel levelOfResult(const std::string& result)
{
    if (result == "error")
        return PrecisionLevel::Error;
    if (result == "warning")
        return PrecisionLevel::Warning;
    return PrecisionLevel::Pass;
}

// The rule behind one Err_message text: the metric it reads, the value the item has, the limit.
Reason reasonFor(const std::string& name, const Json& item, const std::string& message, const std::vector<const Json*>& inputs)
{
    Reason r;
    r.item = name;
    r.message = message;
    r.level = message.starts_with("error") ? PrecisionLevel::Error : PrecisionLevel::Warning;
    auto has = [&](const char* text) { return message.find(text) != std::string::npos; };
    if (has("nan/inf/-inf")) {
        r.metric = "Max/Min";
        r.value = field(item, "Max") + " / " + field(item, "Min");
        r.threshold = "finite (the bench side is finite)";
    } else if (has("NormRelativeErr of output")) {
        r.metric = "NormRelativeErr";
        r.value = field(item, "NormRelativeErr");
        r.threshold = "> 50% while every input is below 10%";
    } else if (has("10 times")) {
        double in = 0;
        for (const auto* input : inputs)
            in = std::max(in, std::abs(fraction(field(*input, "NormRelativeErr"))));
        r.metric = "NormRelativeErr (output / input)";
        r.value = field(item, "NormRelativeErr") + " vs input max " + std::to_string(in * 100) + "%";
        r.threshold = in == 0 ? "output > 10% with exact inputs" : "output > 10 x input";
    } else if (has("One Thousandth")) {
        r.metric = "One Thousandth Err Ratio";
        r.value = field(item, "One Thousandth Err Ratio");
        r.threshold = "< 0.1 while inputs > 0.9";
    } else if (has("Cosine")) {
        r.metric = "Cosine";
        r.value = field(item, "Cosine");
        r.threshold = "input - output > 0.1 while inputs > 0.9";
    } else if (has("Required_Grad")) {
        r.metric = "requires_grad";
        r.value = field(item, "requires_grad");
        r.threshold = "equal to the bench";
    } else if (has("scalar parameters")) {
        r.metric = "scalar value";
        r.value = field(item, "value").empty() ? field(item, "Max") : field(item, "value");
        r.threshold = "equal to the bench";
    } else if (has("dtype")) {
        r.metric = "dtype";
        r.value = field(item, "dtype");
        r.threshold = "equal to the bench";
    } else if (has("shape")) {
        r.metric = "shape";
        r.value = field(item, "shape");
        r.threshold = "equal to the bench";
    } else if (has("CRC-32")) {
        r.metric = "md5";
        r.value = field(item, "md5");
        r.threshold = "equal to the bench";
    } else if (has("does not match the bench")) {
        r.metric = "md5";
        r.value = field(item, "md5");
        r.threshold = "a bench item at the same position";
    } else {
        r.metric = "rule";
        r.value = field(item, "Result");
    }
    return r;
}

bool anomalousStat(const std::string& text)
{
    std::string lower = text;
    for (char& c : lower)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    while (!lower.empty() && (lower.back() == '\t' || lower.back() == ' '))
        lower.pop_back();
    return lower == "inf" || lower == "-inf" || lower == "nan";
}

} // namespace

std::string_view toString(PrecisionLevel level)
{
    switch (level) {
    case PrecisionLevel::Unmatched: return "unmatched";
    case PrecisionLevel::NoData: return "no data";
    case PrecisionLevel::Pass: return "pass";
    case PrecisionLevel::Warning: return "warning";
    case PrecisionLevel::Error: return "error";
    }
    return "";
}

PrecisionLevel levelOfIndex(double precision)
{
    if (precision >= 0.6)
        return PrecisionLevel::Error;
    if (precision >= 0.3)
        return PrecisionLevel::Warning;
    return PrecisionLevel::Pass;
}

PrecisionLevel levelOf(const VisNode& node)
{
    if (!node.matched())
        return PrecisionLevel::Unmatched;
    if (!node.hasPrecision())
        return PrecisionLevel::NoData;
    return levelOfIndex(node.precision);
}

std::string_view colourOf(PrecisionLevel level)
{
    switch (level) {
    case PrecisionLevel::Unmatched: return "#C7C7C7";
    case PrecisionLevel::Pass: return "#FFFCF3";
    case PrecisionLevel::Warning: return "#FFDC7F";
    case PrecisionLevel::Error: return "#FF704D";
    case PrecisionLevel::NoData: break;
    }
    return "#FFFFFF";
}

std::vector<SubtreeSummary> summarizeSubtrees(const VisGraph& graph)
{
    std::vector<SubtreeSummary> out(graph.nodes.size());
    // node_order is post-order: children come before their parent.
    for (std::uint32_t i = 0; i < graph.nodes.size(); ++i) {
        SubtreeSummary& sum = out[i];
        for (auto child : graph.nodes[i].children) {
            if (child >= i)
                continue; // not post-order (a cycle in a hand-made file): skip rather than loop
            const SubtreeSummary& below = out[child];
            sum.errors += below.errors;
            sum.warnings += below.warnings;
            sum.unmatched += below.unmatched;
            sum.worst = std::max(sum.worst, below.worst);
            const PrecisionLevel own = levelOf(graph.nodes[child]);
            // API collections repeat their APIs' worst level: count real nodes only.
            if (graph.nodes[child].type != 9) {
                sum.errors += own == PrecisionLevel::Error;
                sum.warnings += own == PrecisionLevel::Warning;
                sum.unmatched += own == PrecisionLevel::Unmatched;
            }
            if (own != PrecisionLevel::Unmatched)
                sum.worst = std::max(sum.worst, own);
        }
    }
    return out;
}

Explanation explainNode(const VisGraph& graph, std::uint32_t index, const std::string& task, const std::string& inputData,
    const std::string& outputData)
{
    Explanation out;
    const VisNode& node = graph.nodes[index];
    out.level = levelOf(node);
    const Json in = inputData.empty() ? Json::object() : Json::parse(inputData, nullptr, false);
    const Json outJson = outputData.empty() ? Json::object() : Json::parse(outputData, nullptr, false);
    std::vector<std::pair<std::string, const Json*>> items;
    std::vector<const Json*> inputs;
    for (const auto* dict : { &in, &outJson })
        if (dict->is_object())
            for (const auto& [key, value] : dict->items()) {
                items.emplace_back(key, &value);
                if (dict == &in)
                    inputs.push_back(&value);
            }
    if (!node.overflow.empty())
        for (const auto& [name, item] : items)
            for (const char* stat : { "Max", "Min", "Mean" })
                if (anomalousStat(field(*item, stat))) {
                    out.overflow.push_back(name + " " + stat + " = " + field(*item, stat));
                    break;
                }
    switch (out.level) {
    case PrecisionLevel::Unmatched:
        out.summary = "no matching node on the other side";
        return out;
    case PrecisionLevel::NoData:
        out.summary = "matched, but the node has no input/output data of its own to compare";
        return out;
    default: break;
    }
    if (node.type == 9) {
        std::uint32_t worst = kNoVisNode;
        for (auto child : node.children)
            if (graph.nodes[child].hasPrecision()
                && (worst == kNoVisNode || graph.nodes[child].precision > graph.nodes[worst].precision))
                worst = child;
        out.summary = "an API collection takes the worst level of its APIs";
        if (worst != kNoVisNode) {
            Reason r;
            r.level = levelOf(graph.nodes[worst]);
            r.item = graph.nodes[worst].name;
            r.metric = "precision_index";
            r.value = std::to_string(graph.nodes[worst].precision);
            r.threshold = "max over children";
            out.reasons.push_back(r);
        }
        return out;
    }
    for (const auto& [name, item] : items) {
        const PrecisionLevel rowLevel = levelOfResult(field(*item, "Result"));
        if (rowLevel == PrecisionLevel::Pass)
            continue;
        const Json messages = Json::parse(field(*item, "Err_message"), nullptr, false);
        if (messages.is_array() && !messages.empty()) {
            for (const auto& message : messages)
                if (message.is_string())
                    out.reasons.push_back(reasonFor(name, *item, message.get<std::string>(), inputs));
        } else {
            Reason r;
            r.level = rowLevel;
            r.item = name;
            r.metric = "Result";
            r.value = field(*item, "Result");
            out.reasons.push_back(r);
        }
    }
    std::stable_sort(out.reasons.begin(), out.reasons.end(), [](const Reason& a, const Reason& b) { return a.level > b.level; });
    const auto dot = node.name.find('.');
    const std::string api = dot == std::string::npos ? std::string {} : node.name.substr(dot + 1, node.name.find('.', dot + 1) - dot - 1);
    static const char* emptyLike[] = { "empty", "empty_like", "empty_with_format", "new_empty_strided", "new_empty", "empty_strided" };
    if (std::find(std::begin(emptyLike), std::end(emptyLike), api) != std::end(emptyLike)) {
        out.summary = task == "md5" ? "empty-like API: the reference forces error in md5 mode" : "empty-like API: the reference forces pass";
        return out;
    }
    if (out.reasons.empty())
        out.summary = "every compared input and output passes the " + task + " rules";
    else
        out.summary = std::string(toString(out.reasons.front().level)) + ": " + out.reasons.front().metric + " of "
            + out.reasons.front().item + " is " + out.reasons.front().value + " (limit: " + out.reasons.front().threshold + ")";
    return out;
}

} // namespace msprobe::graph
