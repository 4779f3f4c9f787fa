// SPDX-License-Identifier: Apache-2.0
#include "graph/visdb/stored_items.h"
#include "graph/visdb/json_text.h"

#include "support/error.h"

#include <nlohmann/json.hpp>

#include <charconv>

namespace msprobe::graph {

namespace {

using Json = nlohmann::ordered_json;


bool isResultKey(std::string_view key)
{
    for (compare::CompareMode mode : { compare::CompareMode::Statistics, compare::CompareMode::Md5, compare::CompareMode::Tensor })
        for (std::string_view result : resultKeys(mode))
            if (key == result)
                return true;
    return false;
}

const std::string* stringField(const Json& item, std::string_view key)
{
    auto it = item.find(key);
    return it != item.end() && it->is_string() ? &it->get_ref<const std::string&>() : nullptr;
}

std::string_view viewOr(const std::string* text, std::string_view fallback) { return text ? std::string_view(*text) : fallback; }

// A statistic as the compare table held it before the graph rendered it as text: numbers for numbers, bools
// for scalar bools, None for "null", strings otherwise (str scalars and rank parameters stay strings).
compare::PyVal statOf(const std::string* text, bool keepString)
{
    if (!text || *text == "null")
        return compare::PyVal::str(compare::kNoneText);
    const std::string_view t = *text;
    if (keepString)
        return compare::PyVal::str(t);
    if (t == "True" || t == "False")
        return compare::PyVal::boolean(t == "True");
    std::int64_t integer = 0;
    const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), integer);
    if (ec == std::errc() && end == t.data() + t.size())
        return compare::PyVal::integer(integer);
    double real = 0;
    const bool numeric = t.find_first_not_of("0123456789.eE+-infatyINFATY") == std::string_view::npos;
    if (numeric && compare::parsePythonFloat(t, real))
        return compare::PyVal::real(real);
    return compare::PyVal::str(t);
}

void appendValue(std::string& out, const Json& value)
{
    if (value.is_string())
        appendJsonText(out, value.get_ref<const std::string&>());
    else
        out += value.dump();
}

} // namespace

struct StoredItems::Data {
    struct Entry {
        const std::string* name;
        const Json* item;
        bool output;
    };
    Json input, output;
    std::vector<Entry> entries;
};

StoredItems::StoredItems(std::string_view inputData, std::string_view outputData, const std::string& where)
    : m_data(std::make_unique<Data>())
{
    auto parse = [&](std::string_view text, Json& into, const char* column) {
        if (text.empty()) {
            into = Json::object();
            return;
        }
        into = Json::parse(text, nullptr, false);
        if (!into.is_object())
            throw support::Error(where, column, "not a JSON object");
    };
    parse(inputData, m_data->input, "input_data");
    parse(outputData, m_data->output, "output_data");
    for (const Json* dict : { &m_data->input, &m_data->output })
        for (auto it = dict->begin(); it != dict->end(); ++it)
            m_data->entries.push_back({ &it.key(), &it.value(), dict == &m_data->output });
}

StoredItems::~StoredItems() = default;
StoredItems::StoredItems(StoredItems&&) noexcept = default;
StoredItems& StoredItems::operator=(StoredItems&&) noexcept = default;

std::size_t StoredItems::size() const { return m_data->entries.size(); }
const std::string& StoredItems::name(std::size_t i) const { return *m_data->entries[i].name; }
bool StoredItems::isOutput(std::size_t i) const { return m_data->entries[i].output; }

bool StoredItems::collapsed(std::size_t i) const
{
    const Json& item = *m_data->entries[i].item;
    if (!item.is_object())
        return true;
    const std::string* value = stringField(item, "value");
    return item.size() == 1 && value && *value == "null";
}

std::vector<std::pair<std::string, std::string>> StoredItems::fields(std::size_t i) const
{
    std::vector<std::pair<std::string, std::string>> out;
    const Json& item = *m_data->entries[i].item;
    if (!item.is_object())
        return out;
    for (auto it = item.begin(); it != item.end(); ++it)
        out.emplace_back(it.key(), it->is_string() ? it->get<std::string>() : it->dump());
    return out;
}

std::string StoredItems::field(std::size_t i, std::string_view key) const
{
    const Json& item = *m_data->entries[i].item;
    if (!item.is_object())
        return {};
    auto it = item.find(key);
    if (it == item.end())
        return {};
    return it->is_string() ? it->get<std::string>() : it->dump();
}

std::vector<CompareItem> StoredItems::compareItems() const
{
    std::vector<CompareItem> out(size());
    for (std::size_t i = 0; i < size(); ++i) {
        CompareItem& c = out[i];
        const std::string& key = name(i);
        c.name = key;
        if (isOutput(i))
            c.section = 2;
        else if (key.find(".parameters_grad") != std::string::npos)
            c.section = 3;
        else if (key.find(".parameters.") != std::string::npos)
            c.section = 1;
        compare::ItemFields& f = c.fields;
        if (collapsed(i)) {
            c.null = true;
            for (auto& stat : f.stats)
                stat = compare::PyVal::str(compare::kNoneText);
            f.dtype = compare::kNoneText;
            f.shape = "None";
            f.requiresGrad = compare::kNA;
            f.md5 = "N/A";
            f.dataName = "-1";
            continue;
        }
        const Json& item = *m_data->entries[i].item;
        const std::string_view type = viewOr(stringField(item, "type"), {});
        const std::string_view last = std::string_view(key).substr(key.rfind('.') + 1);
        const bool rankParam = last == "src" || last == "dst" || last == "group_src" || last == "group_dst";
        if (type == "torch.ProcessGroup") {
            const std::string* ranks = stringField(item, "group_ranks");
            for (auto& stat : f.stats)
                stat = ranks ? compare::PyVal::str(*ranks) : compare::PyVal::str(compare::kNoneText);
        } else {
            for (int k = 0; k < 4; ++k)
                f.stats[k] = statOf(stringField(item, dump::kStatKeys[k]), type == "str" || rankParam);
        }
        f.dtype = viewOr(stringField(item, "dtype"), type == "torch.ProcessGroup" ? type : std::string_view("<class 'NoneType'>"));
        f.shape = std::string(viewOr(stringField(item, "shape"), "[]"));
        const std::string_view grad = viewOr(stringField(item, "requires_grad"), {});
        f.requiresGrad = grad == "True" ? std::string_view("True") : grad == "False" ? std::string_view("False") : compare::kNA;
        f.md5 = std::string(viewOr(stringField(item, "md5"), "N/A"));
        f.dataName = viewOr(stringField(item, "data_name"), "-1");
    }
    return out;
}

std::string StoredItems::render(bool output, compare::CompareMode mode, const std::vector<ResultCell>* cells) const
{
    const std::size_t stride = resultKeys(mode).size();
    std::string out = "{";
    bool first = true;
    for (std::size_t i = 0; i < size(); ++i) {
        if (isOutput(i) != output)
            continue;
        if (!first)
            out += ", ";
        first = false;
        appendJsonText(out, name(i));
        out += ": ";
        const Json& item = *m_data->entries[i].item;
        if (!item.is_object()) {
            appendValue(out, item);
            continue;
        }
        out += '{';
        bool firstField = true;
        auto key = [&](std::string_view k) {
            if (!firstField)
                out += ", ";
            firstField = false;
            appendJsonText(out, k);
            out += ": ";
        };
        for (auto it = item.begin(); it != item.end(); ++it) {
            if (isResultKey(it.key()))
                continue;
            key(it.key());
            appendValue(out, *it);
        }
        if (cells && !collapsed(i) && cells->size() >= (i + 1) * stride) {
            const auto keys = resultKeys(mode);
            for (std::size_t k = 0; k < stride; ++k) {
                key(keys[k]);
                appendResultCell(out, (*cells)[i * stride + k]);
            }
        }
        out += '}';
    }
    out += '}';
    return out;
}

compare::CompareMode compareModeOfTask(const std::string& task, const std::string& file)
{
    if (task == "summary")
        return compare::CompareMode::Statistics;
    if (task == "md5")
        return compare::CompareMode::Md5;
    if (task == "all")
        return compare::CompareMode::Tensor;
    throw support::Error(file, "tb_config.task", "nodes can be compared in summary, md5 or all (tensor) mode, not '" + task + "'");
}

} // namespace msprobe::graph
