// SPDX-License-Identifier: Apache-2.0
// The cells of one item of an ItemTable as the reference's table shows them: name, dtype, shape, statistics.
#include "compare/items.h"

#include <charconv>

namespace msprobe::compare {

namespace {

PyVal statCell(const dump::StatValue& value)
{
    switch (value.kind) {
    case dump::StatKind::Int: return PyVal::integer(value.i);
    case dump::StatKind::Float: return PyVal::real(value.f);
    case dump::StatKind::Bool: return PyVal::str(value.b ? "True" : "False");
    case dump::StatKind::Null:
    case dump::StatKind::Missing: break;
    }
    return PyVal::str(kNoneText);
}

// np.shape(np.array(value)) of a slice's [start, stop, step] list, as str() prints it.
std::string npShapeText(dump::ScalarValueKind kind, std::string_view text)
{
    if (kind != dump::ScalarValueKind::Composite || text.empty() || text.front() != '[')
        return "()";
    int depth = 0;
    std::size_t elements = 0;
    bool any = false;
    char quote = 0;
    for (char c : text) {
        if (quote) {
            if (c == quote)
                quote = 0;
            continue;
        }
        if (c == '\'' || c == '"')
            quote = c;
        else if (c == '[' || c == '{')
            ++depth;
        else if (c == ']' || c == '}')
            --depth;
        else if (c == ',' && depth == 1)
            ++elements;
        else if (depth == 1 && c != ' ')
            any = true;
    }
    if (any || elements)
        ++elements;
    return "(" + std::to_string(elements) + ",)";
}

std::string_view extraText(const dump::DumpFile& dump, dump::ExtrasRange range, std::string_view key)
{
    for (const auto& extra : dump.extrasOf(range))
        if (dump.text(extra.key) == key)
            return dump.text(extra.text);
    return {};
}

std::string_view unquote(std::string_view repr)
{
    if (repr.size() >= 2 && (repr.front() == '\'' || repr.front() == '"') && repr.back() == repr.front())
        return repr.substr(1, repr.size() - 2);
    return repr;
}

} // namespace

std::string_view pythonTypeName(dump::ScalarValueKind kind, std::string_view text)
{
    switch (kind) {
    case dump::ScalarValueKind::Int: return "<class 'int'>";
    case dump::ScalarValueKind::Float: return "<class 'float'>";
    case dump::ScalarValueKind::Bool: return "<class 'bool'>";
    case dump::ScalarValueKind::String: return "<class 'str'>";
    case dump::ScalarValueKind::Composite: return !text.empty() && text.front() == '{' ? "<class 'dict'>" : "<class 'list'>";
    case dump::ScalarValueKind::Null:
    case dump::ScalarValueKind::Missing: break;
    }
    return "<class 'NoneType'>";
}

void appendShapeText(std::string& out, std::span<const std::int64_t> dims)
{
    out += '[';
    char buf[24];
    for (std::size_t i = 0; i < dims.size(); ++i) {
        if (i)
            out += ", ";
        auto r = std::to_chars(buf, buf + sizeof buf, dims[i]);
        out.append(buf, r.ptr);
    }
    out += ']';
}

std::string shapeText(std::span<const std::int64_t> dims)
{
    std::string out;
    appendShapeText(out, dims);
    return out;
}


std::string_view ItemTable::dtype(const Item& item) const
{
    if (item.node == kNullNode)
        return kNoneText;
    const dump::ValueNode& v = m_dump->nodes[item.node];
    if (v.kind == dump::NodeKind::Tensor) {
        const std::string_view d = m_dump->text(m_dump->tensors.dtype[v.payload]);
        if (!d.empty())
            return d;
        return "<class 'NoneType'>";
    }
    const auto& s = m_dump->scalars;
    const std::string_view type = m_dump->text(s.type[v.payload]);
    if (type == "torch.Size" || type == "slice" || type == "ellipsis" || type == "torch.ProcessGroup")
        return type;
    const std::string_view suffix = m_pool.view(item.suffix);
    const std::string_view last = suffix.substr(suffix.rfind('.') + 1);
    if (last == "src" || last == "dst" || last == "group_src" || last == "group_dst")
        return type;
    return pythonTypeName(s.valueKind[v.payload], m_dump->text(s.text[v.payload]));
}

std::string_view ItemTable::dataName(const Item& item) const
{
    if (item.node == kNullNode)
        return "-1";
    const dump::ValueNode& v = m_dump->nodes[item.node];
    if (v.kind != dump::NodeKind::Tensor)
        return "-1";
    const support::StringId id = m_dump->tensors.dataName[v.payload];
    const std::string_view dn = m_dump->text(id);
    return dn.empty() ? std::string_view("-1") : dn;
}

void ItemTable::stats(const Item& item, PyVal out[4]) const
{
    for (int k = 0; k < 4; ++k)
        out[k] = PyVal::str(kNoneText);
    if (item.node == kNullNode)
        return;
    const dump::DumpFile& dump = *m_dump;
    const dump::ValueNode& v = dump.nodes[item.node];
    if (v.kind == dump::NodeKind::Tensor) {
        const auto& t = dump.tensors;
        if (dump.text(t.dtype[v.payload]).empty())
            return;
        out[0] = statCell(t.max[v.payload]);
        out[1] = statCell(t.min[v.payload]);
        out[2] = statCell(t.mean[v.payload]);
        out[3] = statCell(t.norm[v.payload]);
        return;
    }
    const auto& s = dump.scalars;
    const std::string_view type = dump.text(s.type[v.payload]);
    const dump::ScalarValueKind kind = s.valueKind[v.payload];
    const std::string_view text = dump.text(s.text[v.payload]);
    if (type == "torch.Size" || type == "slice")
        return;
    PyVal cell;
    const std::string_view suffix = m_pool.view(item.suffix);
    const std::string_view last = suffix.substr(suffix.rfind('.') + 1);
    if (type == "ellipsis") {
        cell = kind == dump::ScalarValueKind::String ? PyVal::str(text) : PyVal::str(kind == dump::ScalarValueKind::Missing ? kNoneText : text);
    } else if (last == "src" || last == "dst" || last == "group_src" || last == "group_dst") {
        cell = PyVal::str(kind == dump::ScalarValueKind::Missing ? kNoneText : text);
    } else if (type == "torch.ProcessGroup") {
        const std::string_view ranks = extraText(dump, s.extras[v.payload], "group_ranks");
        cell = PyVal::str(ranks.empty() ? kNoneText : ranks);
    } else {
        switch (kind) {
        case dump::ScalarValueKind::Int: cell = PyVal::integer(s.number[v.payload].i); break;
        case dump::ScalarValueKind::Float: cell = PyVal::real(s.number[v.payload].f); break;
        case dump::ScalarValueKind::Bool: cell = PyVal::boolean(s.number[v.payload].b); break;
        case dump::ScalarValueKind::String:
        case dump::ScalarValueKind::Composite: cell = PyVal::str(text); break;
        case dump::ScalarValueKind::Null:
        case dump::ScalarValueKind::Missing: cell = PyVal::str(kNoneText); break;
        }
    }
    for (int k = 0; k < 4; ++k)
        out[k] = cell;
}

PyVal ItemTable::stat(const Item& item, int k) const
{
    if (item.node != kNullNode) {
        const dump::ValueNode& v = m_dump->nodes[item.node];
        if (v.kind == dump::NodeKind::Tensor && !m_dump->text(m_dump->tensors.dtype[v.payload]).empty()) {
            const auto& t = m_dump->tensors;
            const dump::StatColumn& column = k == 0 ? t.max : k == 1 ? t.min : k == 2 ? t.mean : t.norm;
            return statCell(column[v.payload]);
        }
    }
    PyVal all[4];
    stats(item, all);
    return all[k];
}

std::string ItemTable::shape(const Item& item) const
{
    if (item.node != kNullNode) {
        const dump::ValueNode& v = m_dump->nodes[item.node];
        if (v.kind == dump::NodeKind::Tensor && !m_dump->text(m_dump->tensors.dtype[v.payload]).empty())
            return shapeText(m_dump->tensors.shape(v.payload));
    }
    return fields(item).shape;
}

void ItemTable::appendShape(std::string& out, const Item& item) const
{
    if (item.node != kNullNode) {
        const dump::ValueNode& v = m_dump->nodes[item.node];
        if (v.kind == dump::NodeKind::Tensor && !m_dump->text(m_dump->tensors.dtype[v.payload]).empty()) {
            appendShapeText(out, m_dump->tensors.shape(v.payload));
            return;
        }
    }
    out += fields(item).shape;
}

std::string_view ItemTable::requiresGrad(const Item& item) const
{
    if (item.node != kNullNode) {
        const dump::ValueNode& v = m_dump->nodes[item.node];
        if (v.kind == dump::NodeKind::Tensor) {
            const std::int8_t flag = m_dump->tensors.requiresGrad[v.payload];
            return flag < 0 ? kNA : (flag ? std::string_view("True") : std::string_view("False"));
        }
    }
    return fields(item).requiresGrad;
}

ItemFields ItemTable::fields(const Item& item) const
{
    ItemFields f;
    stats(item, f.stats);
    f.dtype = dtype(item);
    f.dataName = dataName(item);
    if (item.node == kNullNode) {
        f.shape = "None";
        f.requiresGrad = kNA;
        f.md5 = "N/A";
        return f;
    }
    const dump::DumpFile& dump = *m_dump;
    const dump::ValueNode& v = dump.nodes[item.node];
    if (v.kind == dump::NodeKind::Tensor) {
        const auto& t = dump.tensors;
        const std::size_t row = v.payload;
        const bool synthetic = dump.text(t.dtype[row]).empty();
        f.shape = synthetic ? "[]" : shapeText(t.shape(row));
        f.requiresGrad = t.requiresGrad[row] < 0 ? kNA : (t.requiresGrad[row] ? std::string_view("True") : std::string_view("False"));
        const std::string_view md5 = dump.text(t.md5[row]);
        static const std::string kEmptyCrc = crc32Hex("");
        f.md5 = md5.empty() ? kEmptyCrc : std::string(md5);
        const std::string_view op = extraText(dump, t.extras[row], "op");
        if (!op.empty())
            f.p2pOp = PyVal::str(unquote(op));
        const std::string_view peer = extraText(dump, t.extras[row], "peer");
        if (!peer.empty()) {
            std::int64_t p = 0;
            auto r = std::from_chars(peer.data(), peer.data() + peer.size(), p);
            f.p2pPeer = r.ec == std::errc() && r.ptr == peer.data() + peer.size() ? PyVal::integer(p) : PyVal::str(unquote(peer));
        }
        return f;
    }
    const auto& s = dump.scalars;
    const std::size_t row = v.payload;
    const std::string_view type = dump.text(s.type[row]);
    const dump::ScalarValueKind kind = s.valueKind[row];
    const std::string_view text = kind == dump::ScalarValueKind::Missing ? std::string_view {} : dump.text(s.text[row]);
    f.requiresGrad = kNA;
    const std::string_view requiresGrad = extraText(dump, s.extras[row], "requires_grad");
    if (requiresGrad == "True" || requiresGrad == "False")
        f.requiresGrad = requiresGrad;
    f.md5 = crc32Hex(text);
    const std::string_view suffix = m_pool.view(item.suffix);
    const std::string_view last = suffix.substr(suffix.rfind('.') + 1);
    if (type == "torch.Size") {
        f.shape = kind == dump::ScalarValueKind::Missing ? std::string("None") : std::string(text);
    } else if (type == "slice") {
        f.shape = npShapeText(kind, text);
    } else if (type == "ellipsis") {
        f.shape = "[]";
    } else if (last == "src" || last == "dst" || last == "group_src" || last == "group_dst") {
        f.shape = "[]";
        f.md5 = kind == dump::ScalarValueKind::Missing ? std::string("None") : std::string(text);
    } else if (type == "torch.ProcessGroup") {
        f.shape = "[]";
        const std::string_view ranks = extraText(dump, s.extras[row], "group_ranks");
        f.md5 = ranks.empty() ? std::string("None") : std::string(ranks);
    } else {
        f.shape = "[]";
    }
    return f;
}

} // namespace msprobe::compare
