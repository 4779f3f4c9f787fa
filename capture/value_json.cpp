// SPDX-License-Identifier: Apache-2.0
#include "capture/value.h"

#include "support/python_text.h"

#include <cmath>
#include <cstdio>

namespace msprobe::capture {

namespace {

void newline(std::string& out, int indent)
{
    out += '\n';
    out.append(static_cast<std::size_t>(indent), ' ');
}

void appendInt(std::string& out, std::int64_t v)
{
    char buf[24];
    const int n = std::snprintf(buf, sizeof buf, "%lld", static_cast<long long>(v));
    out.append(buf, static_cast<std::size_t>(n));
}

void appendKey(std::string& out, std::string_view key, int indent)
{
    newline(out, indent);
    appendJsonString(out, key);
    out += ": ";
}

void appendTensor(std::string& out, const TensorLeaf& t, int indent)
{
    out += '{';
    const int in = indent + 1;
    appendKey(out, "type", in);
    appendJsonString(out, t.type);
    out += ',';
    appendKey(out, "dtype", in);
    appendJsonString(out, t.dtype);
    out += ',';
    appendKey(out, "shape", in);
    if (t.shape.empty()) {
        out += "[]";
    } else {
        out += '[';
        for (std::size_t k = 0; k < t.shape.size(); ++k) {
            if (k)
                out += ',';
            newline(out, in + 1);
            appendInt(out, t.shape[k]);
        }
        newline(out, in);
        out += ']';
    }
    const std::pair<const char*, const dump::StatValue*> stats[] = { { "Max", &t.max }, { "Min", &t.min },
        { "Mean", &t.mean }, { "Norm", &t.norm } };
    for (const auto& [key, stat] : stats) {
        if (stat->kind == dump::StatKind::Missing)
            continue;
        out += ',';
        appendKey(out, key, in);
        appendStat(out, *stat);
    }
    if (t.requiresGrad >= 0) {
        out += ',';
        appendKey(out, "requires_grad", in);
        out += t.requiresGrad ? "true" : "false";
    }
    if (!t.dataName.empty()) {
        out += ',';
        appendKey(out, "data_name", in);
        appendJsonString(out, t.dataName);
    }
    if (!t.md5.empty()) {
        out += ',';
        appendKey(out, "md5", in);
        if (t.md5IsJson)
            out += t.md5;
        else
            appendJsonString(out, t.md5);
    }
    newline(out, indent);
    out += '}';
}

} // namespace

void appendJsonString(std::string& out, std::string_view text)
{
    out += '"';
    for (unsigned char c : text) {
        switch (c) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\n': out += "\\n"; break;
        case '\r': out += "\\r"; break;
        case '\t': out += "\\t"; break;
        default:
            if (c < 0x20) {
                char buf[8];
                std::snprintf(buf, sizeof buf, "\\u%04x", c);
                out += buf;
            } else {
                out += static_cast<char>(c);
            }
        }
    }
    out += '"';
}

void appendJsonNumber(std::string& out, double value)
{
    if (std::isnan(value))
        out += "NaN";
    else if (std::isinf(value))
        out += value > 0 ? "Infinity" : "-Infinity";
    else
        out += support::pythonFloatRepr(value);
}

void appendStat(std::string& out, const dump::StatValue& value)
{
    switch (value.kind) {
    case dump::StatKind::Missing:
    case dump::StatKind::Null: out += "null"; break;
    case dump::StatKind::Int: appendInt(out, value.i); break;
    case dump::StatKind::Float: appendJsonNumber(out, value.f); break;
    case dump::StatKind::Bool: out += value.b ? "true" : "false"; break;
    }
}

void appendJson(std::string& out, const Value& value, int indent)
{
    using Kind = Value::Kind;
    switch (value.kind) {
    case Kind::Null: out += "null"; return;
    case Kind::EmptyObject: out += "{}"; return;
    case Kind::Tensor: appendTensor(out, *value.tensor, indent); return;
    case Kind::Scalar: {
        out += '{';
        appendKey(out, "type", indent + 1);
        appendJsonString(out, value.typeName());
        out += ',';
        appendKey(out, "value", indent + 1);
        switch (value.scalarKind) {
        case Value::ScalarKind::Bool: out += value.i ? "true" : "false"; break;
        case Value::ScalarKind::Int: appendInt(out, value.i); break;
        case Value::ScalarKind::Float: appendJsonNumber(out, value.f); break;
        case Value::ScalarKind::String: appendJsonString(out, value.text ? std::string_view(value.text->value) : std::string_view()); break;
        }
        newline(out, indent);
        out += '}';
        return;
    }
    case Kind::List:
        if (value.items.empty()) {
            out += "[]";
            return;
        }
        out += '[';
        for (std::size_t k = 0; k < value.items.size(); ++k) {
            if (k)
                out += ',';
            newline(out, indent + 1);
            appendJson(out, value.items[k], indent + 1);
        }
        newline(out, indent);
        out += ']';
        return;
    case Kind::Dict:
        if (value.items.empty()) {
            out += "{}";
            return;
        }
        out += '{';
        for (std::size_t k = 0; k < value.items.size(); ++k) {
            if (k)
                out += ',';
            appendKey(out, value.keys[k], indent + 1);
            appendJson(out, value.items[k], indent + 1);
        }
        newline(out, indent);
        out += '}';
        return;
    }
}

} // namespace msprobe::capture
