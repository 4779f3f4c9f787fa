// SPDX-License-Identifier: Apache-2.0
// DumpBuilder's rarer values: scalar "value"s, Python reprs of whatever a leaf carries besides its
// columns (extras), bare values, and dropping rows read before a late "type".
#include "dump/dump_json_builder.h"

#include "dump/dump_json_bytes.h"
#include "support/json_number.h"
#include "support/python_text.h"

#include <algorithm>
#include <limits>
#include <unordered_map>

namespace msprobe::dump::detail {

bool nonFiniteToken(std::string_view token, double& out)
{
    while (!token.empty() && (token.back() == ' ' || token.back() == '\n' || token.back() == '\r' || token.back() == '\t'))
        token.remove_suffix(1);
    if (token == "NaN")
        out = std::numeric_limits<double>::quiet_NaN();
    else if (token == "Infinity")
        out = std::numeric_limits<double>::infinity();
    else if (token == "-Infinity")
        out = -std::numeric_limits<double>::infinity();
    else
        return false;
    return true;
}

// Where the text's first JSON value closes (one past its last byte), or npos when the text ends
// inside it: a truncated file. Only used to explain a failure, so a plain byte scan.
std::size_t endOfFirstValue(std::string_view text)
{
    int depth = 0;
    bool inString = false;
    for (std::size_t at = 0; at < text.size(); ++at) {
        const char c = text[at];
        if (inString) {
            if (c == '\\')
                ++at;
            else if (c == '"')
                inString = false;
        } else if (c == '"') {
            inString = true;
        } else if (c == '{' || c == '[') {
            ++depth;
        } else if ((c == '}' || c == ']') && --depth <= 0) {
            return at + 1;
        }
    }
    return std::string_view::npos;
}

void DumpBuilder::readScalarValue(od::value v, LeafFields& leaf, int depth)
{
    od::json_type type;
    if (v.type().get(type)) {
        double nonFinite;
        if (!nonFiniteToken(v.raw_json_token(), nonFinite))
            failAt(v.raw_json_token().data(), "\"value\" is not valid JSON: " + tokenText(v.raw_json_token()));
        leaf.valueKind = ScalarValueKind::Float;
        leaf.number = StatValue::ofFloat(nonFinite);
        leaf.valueText = support::pythonFloatRepr(nonFinite);
        return;
    }
    switch (type) {
    case od::json_type::null:
        if (!isNullLiteral(v))
            failAt(m_pos, "\"value\" is not a valid literal");
        leaf.valueKind = ScalarValueKind::Null;
        leaf.valueText = "None";
        return;
    case od::json_type::boolean:
        leaf.valueKind = ScalarValueKind::Bool;
        leaf.number = StatValue::ofBool(v.get_bool().value());
        leaf.valueText = support::pythonBool(leaf.number.b);
        return;
    case od::json_type::number:
        leaf.number = readNumber(v, "value");
        leaf.valueKind = leaf.number.kind == StatKind::Int ? ScalarValueKind::Int : ScalarValueKind::Float;
        leaf.valueText = pythonText(leaf.number);
        return;
    case od::json_type::string:
        leaf.valueKind = ScalarValueKind::String;
        leaf.valueText = std::string(v.get_string().value());
        return;
    default:
        leaf.valueKind = ScalarValueKind::Composite;
        leaf.valueText.clear();
        appendPythonRepr(v, leaf.valueText, depth + 1);
        return;
    }
}

void DumpBuilder::addExtra(std::string_view key, od::value v, int depth)
{
    std::string text;
    appendPythonRepr(v, text, depth + 1);
    addExtraText(key, std::move(text));
}

void DumpBuilder::addExtraText(std::string_view key, std::string text)
{
    const support::StringId keyId = intern(key);
    for (std::size_t at = m_leafExtrasBegin; at < m_out.extras.size(); ++at)
        if (m_out.extras[at].key == keyId) { // a repeated key: its first position, its last value
            m_out.extras[at].text = intern(text);
            return;
        }
    m_out.extras.push_back({ keyId, intern(text) });
}

void DumpBuilder::dropRepeatedKeys(std::uint32_t index)
{
    std::vector<ValueNode>& nodes = m_out.nodes;
    struct Child {
        std::uint32_t begin, size;
    };
    std::vector<Child> kept;
    std::unordered_map<support::StringId, std::size_t> keptOf;
    std::size_t children = 0;
    for (std::uint32_t at = index + 1; at < nodes.size(); at += nodes[at].subtreeSize, ++children) {
        const auto [slot, inserted] = keptOf.try_emplace(nodes[at].key, kept.size());
        if (inserted)
            kept.push_back({ at, nodes[at].subtreeSize });
        else
            kept[slot->second] = { at, nodes[at].subtreeSize };
    }
    if (kept.size() == children)
        return;
    // The rows of dropped values stay in their tables, unreferenced (as those of a repeated entry do).
    std::vector<ValueNode> rebuilt;
    for (const Child& child : kept)
        rebuilt.insert(rebuilt.end(), nodes.begin() + child.begin, nodes.begin() + child.begin + child.size);
    nodes.resize(index + 1);
    nodes.insert(nodes.end(), rebuilt.begin(), rebuilt.end());
    nodes[index].subtreeSize = static_cast<std::uint32_t>(nodes.size() - index);
}

// Python's repr() of the JSON value as json.load would have produced it.
void DumpBuilder::appendPythonRepr(od::value v, std::string& out, int depth)
{
    if (depth > kMaxDepth)
        failAt(currentLocation(), "values nested deeper than " + std::to_string(kMaxDepth) + " levels");
    od::json_type type;
    if (v.type().get(type)) {
        double nonFinite;
        if (!nonFiniteToken(v.raw_json_token(), nonFinite))
            failAt(v.raw_json_token().data(), "invalid JSON value: " + tokenText(v.raw_json_token()));
        out += support::pythonFloatRepr(nonFinite);
        return;
    }
    switch (type) {
    case od::json_type::array: {
        out += '[';
        bool first = true;
        od::array array = v.get_array().value();
        for (auto element : array) {
            if (!first)
                out += ", ";
            first = false;
            appendPythonRepr(element.value(), out, depth + 1);
        }
        out += ']';
        return;
    }
    case od::json_type::object: {
        // A repeated key keeps its first position and its last value, as in the dict json.load makes.
        std::vector<std::pair<std::string, std::string>> items;
        od::object object = v.get_object().value();
        for (auto fieldResult : object) {
            od::field field = takeField(fieldResult);
            std::string key = support::pythonStringRepr(field.unescaped_key().value());
            std::string value;
            appendPythonRepr(field.value(), value, depth + 1);
            const auto same = std::find_if(items.begin(), items.end(), [&key](const auto& item) { return item.first == key; });
            if (same != items.end())
                same->second = std::move(value);
            else
                items.emplace_back(std::move(key), std::move(value));
        }
        out += '{';
        for (std::size_t i = 0; i < items.size(); ++i)
            out += (i ? ", " : "") + items[i].first + ": " + items[i].second;
        out += '}';
        return;
    }
    case od::json_type::string: out += support::pythonStringRepr(v.get_string().value()); return;
    case od::json_type::number: out += pythonText(readNumber(v, "a value")); return;
    case od::json_type::boolean: out += support::pythonBool(v.get_bool().value()); return;
    case od::json_type::null:
        if (!isNullLiteral(v))
            failAt(currentLocation(), "invalid literal (expected null)");
        out += "None";
        return;
    }
}

void DumpBuilder::readRawScalar(od::value v, support::StringId key)
{
    LeafFields leaf;
    readScalarValue(v, leaf, 0);
    auto& s = m_out.scalars;
    const auto row = static_cast<std::uint32_t>(s.size());
    s.type.push_back(support::kNoString);
    s.valueKind.push_back(leaf.valueKind);
    s.number.push(leaf.number);
    s.text.push_back(intern(leaf.valueText));
    s.extras.push_back({});
    pushNode(NodeKind::Raw, key, row);
}

// Drops the rows read for the children of an object that turned out to be a leaf: every column is
// cut back to its mark, so the cost is that of the dropped rows only.
void DumpBuilder::truncate(std::size_t nodes, std::size_t tensors, std::size_t scalars, std::size_t extras)
{
    m_out.nodes.resize(nodes);
    m_out.extras.resize(extras);
    auto& t = m_out.tensors;
    if (t.size() > tensors) {
        t.shapePool.resize(t.shapeBegin[tensors]);
        for (auto* column : { &t.type, &t.dtype, &t.dataName, &t.md5 })
            column->resize(tensors);
        t.shapeBegin.resize(tensors);
        t.shapeRank.resize(tensors);
        for (StatColumn* column : { &t.max, &t.min, &t.mean, &t.norm })
            column->truncate(tensors);
        t.requiresGrad.resize(tensors);
        t.extras.resize(tensors);
    }
    auto& s = m_out.scalars;
    if (s.size() > scalars) {
        s.type.resize(scalars);
        s.valueKind.resize(scalars);
        s.number.truncate(scalars);
        s.text.resize(scalars);
        s.extras.resize(scalars);
    }
}

std::string_view trimmedToken(std::string_view token)
{
    const std::size_t end = token.find_last_not_of(" \t\r\n");
    return token.substr(0, end == std::string_view::npos ? 0 : end + 1);
}

std::string tokenText(std::string_view token)
{
    constexpr std::size_t kShown = 40;
    token = trimmedToken(token);
    return printable(token.substr(0, kShown)) + (token.size() > kShown ? "..." : "");
}

// A number simdjson would not read in one pass: NaN/Infinity, an integer beyond 64 bits (kept as the
// closest double, as before), or no JSON number at all, which is an error at the token.
StatValue DumpBuilder::readUnusualNumber(od::value v, const char* name)
{
    const std::string_view token = trimmedToken(v.raw_json_token());
    double nonFinite;
    if (nonFiniteToken(token, nonFinite))
        return StatValue::ofFloat(nonFinite);
    if (!support::isJsonNumber(token))
        failAt(token.data(), std::string("\"") + name + "\" is not a valid JSON number: " + tokenText(token));
    od::number_type numberType;
    if (!v.get_number_type().get(numberType) && numberType == od::number_type::signed_integer) {
        std::int64_t i;
        if (!v.get_int64().get(i))
            return StatValue::ofInt(i);
    }
    double d;
    if (v.get_double().get(d))
        d = std::strtod(std::string(token).c_str(), nullptr);
    return StatValue::ofFloat(d);
}

// xor summaries write a number as "md5" (0-d tensors): kept as the text Python's str() gives.
void DumpBuilder::readNumericMd5(od::value v, LeafFields& leaf)
{
    od::json_type type;
    if (v.type().get(type) || type != od::json_type::number)
        failAt(m_pos, "\"md5\" must be a string or a number");
    leaf.md5Text = pythonText(readNumber(v, "md5"));
    leaf.md5 = leaf.md5Text;
}

} // namespace msprobe::dump::detail
