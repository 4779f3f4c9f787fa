// SPDX-License-Identifier: Apache-2.0
#include "graph/visdb/node_data.h"
#include "graph/visdb/json_text.h"

#include "compare/items.h"

#include "support/python_text.h"

#include <array>
#include <charconv>
#include <cstdio>
#include <cstdlib>

namespace msprobe::graph {

namespace {

constexpr std::array<std::string_view, 11> kSummaryKeys = { "Max diff", "Min diff", "Mean diff", "L2norm diff",
    "MaxRelativeErr", "MinRelativeErr", "MeanRelativeErr", "NormRelativeErr", "Requires_grad Consistent", "Result",
    "Err_message" };
constexpr std::array<std::string_view, 3> kMd5Keys = { "Result", "Requires_grad Consistent", "Err_message" };
constexpr std::array<std::string_view, 9> kTensorKeys = { "Cosine", "EucDist", "MaxAbsErr", "MaxRelativeErr",
    "One Thousandth Err Ratio", "Five Thousandths Err Ratio", "Requires_grad Consistent", "Result", "Err_message" };

std::string_view extraText(const dump::DumpFile& dump, dump::ExtrasRange range, std::string_view key)
{
    for (const auto& extra : dump.extrasOf(range))
        if (dump.text(extra.key) == key)
            return dump.text(extra.text);
    return {};
}

bool hasExtra(const dump::DumpFile& dump, dump::ExtrasRange range, std::string_view key)
{
    for (const auto& extra : dump.extrasOf(range))
        if (dump.text(extra.key) == key)
            return true;
    return false;
}

// A Python repr of a string ('abc' / "it's") back to the string itself.
std::string_view unquote(std::string_view repr)
{
    if (repr.size() >= 2 && (repr.front() == '\'' || repr.front() == '"') && repr.back() == repr.front())
        return repr.substr(1, repr.size() - 2);
    return repr;
}

bool isPythonStringRepr(std::string_view repr)
{
    return repr.size() >= 2 && (repr.front() == '\'' || repr.front() == '"') && repr.back() == repr.front();
}

// One item's dict under construction: keys in insertion order, values as the reference formats them.
class ItemWriter {
public:
    explicit ItemWriter(std::string& out)
        : m_out(out)
    {
    }
    void str(std::string_view key, std::string_view text)
    {
        sep(key);
        appendFormattedString(m_out, text);
    }
    void plain(std::string_view key, std::string_view text)
    {
        sep(key);
        appendJsonText(m_out, text);
    }
    void null(std::string_view key) { plain(key, "null"); }
    // Python's str() of the value, quoted; the digits, signs, "inf" and "nan" it prints need no escaping.
    void stat(std::string_view key, const dump::StatValue& value)
    {
        sep(key);
        m_out += '"';
        switch (value.kind) {
        case dump::StatKind::Float: support::appendPythonFloatRepr(m_out, value.f); break;
        case dump::StatKind::Int: {
            char buf[24];
            m_out.append(buf, std::to_chars(buf, buf + sizeof buf, value.i).ptr);
            break;
        }
        case dump::StatKind::Bool: m_out += support::pythonBool(value.b); break;
        case dump::StatKind::Missing:
        case dump::StatKind::Null: m_out += "null"; break;
        }
        m_out += '"';
    }
    void shape(std::span<const std::int64_t> dims)
    {
        sep("shape");
        m_out += '"';
        compare::appendShapeText(m_out, dims);
        m_out += '"';
    }
    void cell(std::string_view key, const ResultCell& cell)
    {
        sep(key);
        appendResultCell(m_out, cell);
    }

private:
    void sep(std::string_view key)
    {
        if (!m_first)
            m_out += ", ";
        m_first = false;
        appendJsonText(m_out, key);
        m_out += ": ";
    }
    std::string& m_out;
    bool m_first = true;
};

// The value of a scalar leaf as Python's str() prints it, and whether it is a str (for the string rule).
struct ScalarText {
    std::string_view text;
    bool isString = false;
    bool isNone = false;
};

ScalarText scalarValue(const dump::DumpFile& dump, std::uint32_t row)
{
    const auto kind = dump.scalars.valueKind[row];
    ScalarText value;
    value.text = dump.text(dump.scalars.text[row]);
    value.isString = kind == dump::ScalarValueKind::String || kind == dump::ScalarValueKind::Composite;
    value.isNone = kind == dump::ScalarValueKind::Null || kind == dump::ScalarValueKind::Missing;
    return value;
}

void appendResults(ItemWriter& w, compare::CompareMode mode, const ResultCell* cells)
{
    if (!cells)
        return;
    const auto keys = resultKeys(mode);
    for (std::size_t k = 0; k < keys.size(); ++k)
        w.cell(keys[k], cells[k]);
}

void appendCollapsed(std::string& out) { out += "{\"value\": \"null\"}"; }

void appendTensor(std::string& out, const Graph& graph, std::uint32_t row, bool md5Mode, bool batchP2p, compare::CompareMode mode,
    const ResultCell* cells)
{
    const dump::DumpFile& dump = *graph.dump;
    const auto& t = dump.tensors;
    const dump::ExtrasRange extras = t.extras[row];
    const dump::StatValue stats[4] = { t.max[row], t.min[row], t.mean[row], t.norm[row] };
    std::string_view statText[4];
    for (int k = 0; k < 4; ++k)
        if (stats[k].kind == dump::StatKind::Missing)
            statText[k] = extraText(dump, extras, dump::kStatKeys[k]);
    // "Max" null empties the whole item.
    if (stats[0].kind == dump::StatKind::Null || (stats[0].kind == dump::StatKind::Missing && statText[0].empty())
        || (stats[0].kind == dump::StatKind::Missing && unquote(statText[0]) == "None")) {
        appendCollapsed(out);
        return;
    }
    out += '{';
    ItemWriter w(out);
    w.plain("type", dump.text(t.type[row]));
    if (t.dtype[row] != support::kNoString)
        w.str("dtype", dump.text(t.dtype[row]));
    w.shape(t.shape(row));
    for (int k = 0; k < 4; ++k) {
        if (stats[k].kind != dump::StatKind::Missing)
            w.stat(dump::kStatKeys[k], stats[k]);
        else if (!statText[k].empty())
            isPythonStringRepr(statText[k]) ? w.str(dump::kStatKeys[k], unquote(statText[k])) : w.plain(dump::kStatKeys[k], statText[k]);
    }
    if (t.requiresGrad[row] >= 0)
        w.plain("requires_grad", t.requiresGrad[row] ? "True" : "False");
    const std::string_view dataName = dump.text(t.dataName[row]);
    w.str("data_name", dataName.empty() ? std::string_view("-1") : dataName);
    if (md5Mode && t.md5[row] != support::kNoString)
        w.str("md5", dump.text(t.md5[row]));
    const bool p2p = hasExtra(dump, extras, "class_type");
    for (const auto& extra : dump.extrasOf(extras)) {
        const std::string_view key = dump.text(extra.key);
        if (key == "Max" || key == "Min" || key == "Mean" || key == "Norm")
            continue;
        if (p2p && (key == "class_type" || key == "op" || key == "peer" || key == "tag" || key == "group_id"))
            continue;
        const std::string_view text = dump.text(extra.text);
        isPythonStringRepr(text) ? w.str(key, unquote(text)) : w.str(key, text);
    }
    if (t.requiresGrad[row] < 0)
        w.null("requires_grad");
    for (int k = 0; k < 4; ++k)
        if (stats[k].kind == dump::StatKind::Missing && statText[k].empty())
            w.null(dump::kStatKeys[k]);
    if (md5Mode && t.md5[row] == support::kNoString)
        w.str("md5", compare::crc32Hex(""));
    if (p2p) {
        for (std::string_view key : { "class_type", "op", "peer", "tag", "group_id" }) {
            if (batchP2p && key != "class_type")
                continue;
            const std::string_view text = extraText(dump, extras, key);
            text.empty() ? w.null(key) : w.str(key, unquote(text));
        }
    }
    appendResults(w, mode, cells);
    out += '}';
}

void appendScalar(std::string& out, const Graph& graph, std::uint32_t row, std::string_view itemName, bool md5Mode,
    bool batchP2p, compare::CompareMode mode, const ResultCell* cells)
{
    const dump::DumpFile& dump = *graph.dump;
    const auto& s = dump.scalars;
    const std::string_view type = dump.text(s.type[row]);
    const dump::ExtrasRange extras = s.extras[row];
    const ScalarText value = scalarValue(dump, row);
    const bool hasValue = s.valueKind[row] != dump::ScalarValueKind::Missing;
    const std::string_view last = itemName.substr(itemName.rfind('.') + 1);
    const bool rankParam = last == "src" || last == "dst" || last == "group_src" || last == "group_dst";

    if (type == "torch.ProcessGroup") {
        out += '{';
        ItemWriter w(out);
        w.plain("type", type);
        for (const auto& extra : dump.extrasOf(extras)) {
            const std::string_view key = dump.text(extra.key);
            if (key == "group_ranks" || (key == "group_id" && !batchP2p))
                w.str(key, unquote(dump.text(extra.text)));
        }
        w.str("data_name", "-1");
        out += '}';
        return;
    }
    // The statistics every other scalar gets; None (or a "None" string) for Max empties the item.
    enum class StatSource { None, Value, ValueAsString };
    StatSource statSource = StatSource::Value;
    if (type == "torch.Size" || type == "slice")
        statSource = StatSource::None;
    else if (rankParam)
        statSource = StatSource::ValueAsString;
    else if (!hasValue || value.isNone)
        statSource = StatSource::None;
    if (statSource == StatSource::None) {
        appendCollapsed(out);
        return;
    }
    if (value.isString || statSource == StatSource::ValueAsString) {
        std::string probe;
        appendFormattedString(probe, value.text);
        if (probe == "\"null\"") {
            appendCollapsed(out);
            return;
        }
    }

    out += '{';
    ItemWriter w(out);
    w.plain("type", type);
    if (hasValue) {
        if (value.isString)
            w.str("value", value.text);
        else
            w.plain("value", value.text);
    }
    for (const auto& extra : dump.extrasOf(extras)) {
        const std::string_view text = dump.text(extra.text);
        isPythonStringRepr(text) ? w.str(dump.text(extra.key), unquote(text)) : w.str(dump.text(extra.key), text);
    }
    w.str("data_name", "-1");
    if (!hasExtra(dump, extras, "requires_grad"))
        w.null("requires_grad");
    for (auto key : dump::kStatKeys) {
        if (value.isString || statSource == StatSource::ValueAsString)
            w.str(key, value.text);
        else
            w.plain(key, value.text);
    }
    if (type == "ellipsis" || rankParam)
        w.str("dtype", type);
    else
        w.str("dtype", compare::pythonTypeName(s.valueKind[row], value.text));
    w.str("shape", "[]");
    if (md5Mode)
        w.str("md5", rankParam ? std::string(value.text) : compare::crc32Hex(hasValue ? value.text : std::string_view {}));
    appendResults(w, mode, cells);
    out += '}';
}

} // namespace

std::span<const std::string_view> resultKeys(compare::CompareMode mode)
{
    switch (mode) {
    case compare::CompareMode::Md5: return kMd5Keys;
    case compare::CompareMode::Tensor: return kTensorKeys;
    case compare::CompareMode::Statistics: break;
    }
    return kSummaryKeys;
}

namespace {

// ^\d{1,20}\.\d{1,20}%?$ with more than 6 decimals: the texts the reference prints with %.6f.
bool hasLongDecimals(std::string_view v)
{
    if (!v.empty() && v.back() == '%')
        v.remove_suffix(1);
    const std::size_t dot = v.find('.');
    if (dot == std::string_view::npos || dot < 1 || dot > 20 || v.size() - dot - 1 <= 6 || v.size() - dot - 1 > 20)
        return false;
    const auto isDigit = [](char c) { return c >= '0' && c <= '9'; };
    for (std::size_t k = 0; k < v.size(); ++k)
        if (k != dot && !isDigit(v[k]))
            return false;
    return true;
}

} // namespace

void appendFormattedString(std::string& out, std::string_view text)
{
    std::string cleaned;
    if (text.find('\'') != std::string_view::npos || text.find("None") != std::string_view::npos) {
        cleaned.reserve(text.size());
        for (char c : text)
            if (c != '\'')
                cleaned += c;
        for (std::size_t at = cleaned.find("None"); at != std::string::npos; at = cleaned.find("None", at + 4))
            cleaned.replace(at, 4, "null");
        text = cleaned;
    }
    if (!hasLongDecimals(text)) {
        appendJsonText(out, text);
        return;
    }
    // Printed with 6 decimals as "%.6f" would (to_chars rounds the exact binary value the same way).
    const bool percent = text.back() == '%';
    if (percent)
        text.remove_suffix(1);
    double value = 0;
    std::from_chars(text.data(), text.data() + text.size(), value);
    char buf[64];
    out += '"';
    out.append(buf, std::to_chars(buf, buf + sizeof buf, value, std::chars_format::fixed, 6).ptr);
    if (percent)
        out += '%';
    out += '"';
}

void appendResultCell(std::string& out, const ResultCell& cell)
{
    switch (cell.kind) {
    case ResultCell::Kind::Str: appendFormattedString(out, cell.text); return;
    case ResultCell::Kind::Plain: appendJsonText(out, cell.text); return;
    case ResultCell::Kind::Null: appendJsonText(out, "null"); return;
    }
}

void itemStats(const Graph& graph, std::uint32_t item, compare::PyVal out[4])
{
    const compare::Item& it = graph.items->items()[item];
    graph.items->stats(it, out);
    if (it.node == compare::kNullNode)
        return;
    const dump::DumpFile& dump = *graph.dump;
    const dump::ValueNode& v = dump.nodes[it.node];
    if (v.kind != dump::NodeKind::Tensor)
        return;
    const auto& t = dump.tensors;
    const dump::StatValue stats[4] = { t.max[v.payload], t.min[v.payload], t.mean[v.payload], t.norm[v.payload] };
    for (int k = 0; k < 4; ++k) {
        if (stats[k].kind != dump::StatKind::Missing)
            continue;
        const std::string_view text = extraText(dump, t.extras[v.payload], dump::kStatKeys[k]);
        if (!text.empty())
            out[k] = compare::PyVal::str(unquote(text));
    }
}

void appendNodeData(std::string& out, const Graph& graph, std::uint32_t node, const std::vector<NodeItem>& items,
    bool output, const RenderOptions& options, const std::vector<ResultCell>* results)
{
    const bool batchP2p = graph.node(node).id.find("batch_isend_irecv") != std::string_view::npos;
    const std::size_t stride = resultKeys(options.mode).size();
    out += '{';
    bool first = true;
    std::string name;
    for (std::size_t i = 0; i < items.size(); ++i) {
        if (items[i].output != output)
            continue;
        const compare::Item& item = graph.items->items()[items[i].item];
        name.clear();
        graph.items->appendName(name, item);
        if (!first)
            out += ", ";
        first = false;
        appendJsonText(out, name);
        out += ": ";
        const ResultCell* cells = results && results->size() >= (i + 1) * stride ? results->data() + i * stride : nullptr;
        if (item.node == compare::kNullNode) {
            appendCollapsed(out);
            continue;
        }
        const dump::ValueNode& v = graph.dump->nodes[item.node];
        if (v.kind == dump::NodeKind::Tensor)
            appendTensor(out, graph, v.payload, options.md5Mode, batchP2p, options.mode, cells);
        else
            appendScalar(out, graph, v.payload, name, options.md5Mode, batchP2p, options.mode, cells);
    }
    out += '}';
}

void renderNodeDataExact(std::string& out, const Graph& graph, std::uint32_t node, const std::vector<NodeItem>& items,
    bool output, const RenderOptions& options, const std::vector<ResultCell>* results)
{
    thread_local std::string buffer;
    buffer.clear();
    appendNodeData(buffer, graph, node, items, output, options, results);
    out.clear();
    out.shrink_to_fit();
    out.assign(buffer);
}

void renderNodeData(Graph& graph, std::uint32_t node, const RenderOptions& options)
{
    const auto items = graph.nodeItems(node);
    RenderedData& out = graph.rendered[node];
    renderNodeDataExact(out.input, graph, node, items, false, options, nullptr);
    renderNodeDataExact(out.output, graph, node, items, true, options, nullptr);
}

} // namespace msprobe::graph
