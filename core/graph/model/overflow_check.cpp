// SPDX-License-Identifier: Apache-2.0
#include "graph/model/graph_passes.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <unordered_map>

namespace msprobe::graph {

namespace {

// has_nan_inf: a leaf whose Max, Min or Mean reads "inf", "-inf" or "nan" (Norm is not looked at).
bool statAnomalous(const dump::StatValue& value) { return value.kind == dump::StatKind::Float && !std::isfinite(value.f); }

bool textAnomalous(std::string_view text)
{
    if (text.size() >= 2 && (text.front() == '\'' || text.front() == '"'))
        text = text.substr(1, text.size() - 2);
    std::string lower(text);
    for (char& c : lower)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return lower == "inf" || lower == "-inf" || lower == "nan";
}

bool leafAnomalous(const dump::DumpFile& dump, std::uint32_t node)
{
    const dump::ValueNode& v = dump.nodes[node];
    if (v.kind == dump::NodeKind::Tensor) {
        const auto& t = dump.tensors;
        if (statAnomalous(t.max[v.payload]) || statAnomalous(t.min[v.payload]) || statAnomalous(t.mean[v.payload]))
            return true;
        for (const auto& extra : dump.extrasOf(t.extras[v.payload])) {
            const std::string_view key = dump.text(extra.key);
            if ((key == "Max" || key == "Min" || key == "Mean") && textAnomalous(dump.text(extra.text)))
                return true;
        }
        return false;
    }
    if (v.kind == dump::NodeKind::Scalar) {
        for (const auto& extra : dump.extrasOf(dump.scalars.extras[v.payload])) {
            const std::string_view key = dump.text(extra.key);
            if ((key == "Max" || key == "Min" || key == "Mean") && textAnomalous(dump.text(extra.text)))
                return true;
        }
    }
    return false;
}

// _has_anomaly: dicts are checked as leaves only, lists are searched recursively.
bool anomalous(const dump::DumpFile& dump, std::uint32_t node, int depth = 0)
{
    const dump::ValueNode& v = dump.nodes[node];
    if (v.kind == dump::NodeKind::Tensor || v.kind == dump::NodeKind::Scalar)
        return leafAnomalous(dump, node);
    if (v.kind == dump::NodeKind::List && depth < 400)
        for (auto child : dump.children(node))
            if (anomalous(dump, child, depth + 1))
                return true;
    return false;
}

struct Io {
    std::vector<std::uint32_t> args; // elements of input_args (or input)
    std::vector<std::pair<std::string_view, std::uint32_t>> kwargs;
    std::vector<std::uint32_t> outputs;
};

Io ioOf(const dump::DumpFile& dump, std::uint32_t body)
{
    Io io;
    if (dump.nodes[body].kind != dump::NodeKind::Dict)
        return io;
    std::int64_t args = dump.childByKey(body, "input_args");
    if (args < 0)
        args = dump.childByKey(body, "input");
    if (args >= 0 && dump.nodes[std::size_t(args)].kind == dump::NodeKind::List)
        io.args = dump.children(std::uint32_t(args));
    const std::int64_t kwargs = dump.childByKey(body, "input_kwargs");
    if (kwargs >= 0 && dump.nodes[std::size_t(kwargs)].kind == dump::NodeKind::Dict)
        for (auto child : dump.children(std::uint32_t(kwargs)))
            io.kwargs.emplace_back(dump.text(dump.nodes[child].key), child);
    const std::int64_t outputs = dump.childByKey(body, "output");
    if (outputs >= 0 && dump.nodes[std::size_t(outputs)].kind == dump::NodeKind::List)
        io.outputs = dump.children(std::uint32_t(outputs));
    return io;
}

// The top-level tensor norms that are numbers and not NaN.
std::vector<double> norms(const dump::DumpFile& dump, const std::vector<std::uint32_t>& nodes)
{
    std::vector<double> out;
    for (auto n : nodes) {
        const dump::ValueNode& v = dump.nodes[n];
        if (v.kind != dump::NodeKind::Tensor || dump.text(dump.tensors.type[v.payload]) != "torch.Tensor")
            continue;
        const dump::StatValue norm = dump.tensors.norm[v.payload];
        if (norm.isNumber() && !std::isnan(norm.asDouble()))
            out.push_back(norm.asDouble());
    }
    return out;
}

struct IgnoreRule {
    std::vector<int> inputIndex;
    std::vector<std::string_view> inputName;
    std::vector<int> outputIndex;
};

const IgnoreRule* ignoreRuleFor(std::string_view key)
{
    static const std::unordered_map<std::string_view, IgnoreRule> rules = {
        { "torch.empty", { {}, {}, { 0 } } },
        { "torch.empty_like", { {}, {}, { 0 } } },
        { "torch.empty_strided", { {}, {}, { 0 } } },
        { "distributed.recv", { { 0 }, { "tensor" }, {} } },
        { "distributed.all_gather", { { 0 }, {}, {} } },
        { "distributed.reduce_scatter", { { 0 }, { "output" }, {} } },
        { "distributed._reduce_scatter_base", { { 0 }, {}, {} } },
        { "distributed.all_gather_into_tensor", { { 0 }, {}, {} } },
        { "distributed.reduce_scatter_tensor", { { 0 }, {}, {} } },
        { "tensor.masked_fill_", { { 0 }, {}, {} } },
    };
    auto it = rules.find(key);
    return it == rules.end() ? nullptr : &it->second;
}

// The false-positive filter: every anomalous item of each kind the rule names must be one it ignores.
bool ignored(const dump::DumpFile& dump, std::string_view entryName, const Io& io)
{
    std::string key;
    const std::size_t first = entryName.find('.');
    const std::size_t second = first == std::string_view::npos ? first : entryName.find('.', first + 1);
    key = std::string(entryName.substr(0, second));
    for (char& c : key)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    const IgnoreRule* rule = ignoreRuleFor(key);
    if (!rule)
        return false;
    auto has = [](const auto& list, const auto& value) { return std::find(list.begin(), list.end(), value) != list.end(); };
    if (!rule->inputIndex.empty())
        for (std::size_t i = 0; i < io.args.size(); ++i)
            if (leafAnomalous(dump, io.args[i]) && !has(rule->inputIndex, int(i)))
                return false;
    if (!rule->inputName.empty())
        for (const auto& [name, node] : io.kwargs)
            if (leafAnomalous(dump, node) && !has(rule->inputName, name))
                return false;
    if (!rule->outputIndex.empty())
        for (std::size_t i = 0; i < io.outputs.size(); ++i)
            if (leafAnomalous(dump, io.outputs[i]) && !has(rule->outputIndex, int(i)))
                return false;
    return true;
}

} // namespace

OverflowLevel overflowLevelOf(const dump::DumpFile& dump, std::size_t entry)
{
    const Io io = ioOf(dump, dump.entries[entry].body);
    bool inputBad = false;
    for (auto n : io.args)
        inputBad = inputBad || anomalous(dump, n);
    for (const auto& kw : io.kwargs)
        inputBad = inputBad || anomalous(dump, kw.second);
    bool outputBad = false;
    for (auto n : io.outputs)
        outputBad = outputBad || anomalous(dump, n);
    OverflowLevel level = OverflowLevel::None;
    if (!inputBad && outputBad)
        level = OverflowLevel::Critical;
    else if (inputBad && outputBad)
        level = OverflowLevel::High;
    else if (inputBad)
        level = OverflowLevel::Medium;
    else {
        std::vector<std::uint32_t> inputs = io.args;
        for (const auto& kw : io.kwargs)
            inputs.push_back(kw.second);
        const auto in = norms(dump, inputs), out = norms(dump, io.outputs);
        if (!in.empty() && !out.empty()) {
            const double maxIn = *std::max_element(in.begin(), in.end());
            const double maxOut = *std::max_element(out.begin(), out.end());
            if (maxIn == 0 ? maxOut > 100.0 : maxOut / maxIn > 100.0)
                level = OverflowLevel::High;
        }
    }
    if (level != OverflowLevel::None && ignored(dump, dump.entryName(entry), io))
        return OverflowLevel::None;
    return level;
}

void checkOverflow(Graph& graph)
{
    const dump::DumpFile& dump = *graph.dump;
    for (std::size_t e = 0; e < dump.entries.size(); ++e) {
        const std::uint32_t node = graph.find(dump.entryName(e));
        if (node != kNoNode)
            graph.node(node).overflow = overflowLevelOf(dump, e); // a repeated key: the last entry wins
    }
}

} // namespace msprobe::graph
