// SPDX-License-Identifier: Apache-2.0
#include "graph/pretty_json.h"

#include "compare/py_value.h"

#include <cmath>
#include <optional>

namespace msprobe::graph {

void PrettyJson::newline()
{
    m_out += '\n';
    m_out.append(2 * m_empty.size(), ' ');
}

void PrettyJson::open(char bracket)
{
    m_out += bracket;
    m_empty.push_back(true);
}

void PrettyJson::close(char bracket)
{
    const bool empty = m_empty.back();
    m_empty.pop_back();
    if (!empty)
        newline();
    m_out += bracket;
}

void PrettyJson::separate()
{
    if (m_empty.empty())
        return;
    if (!m_empty.back())
        m_out += ',';
    m_empty.back() = false;
    newline();
}

void PrettyJson::key(std::string_view name)
{
    separate();
    appendJsonString(m_out, name);
    m_out += ": ";
}

void PrettyJson::string(std::string_view text) { appendJsonString(m_out, text); }

void PrettyJson::number(std::int64_t value) { m_out += std::to_string(value); }

void PrettyJson::number(double value)
{
    if (std::isnan(value))
        m_out += "NaN";
    else if (std::isinf(value))
        m_out += value > 0 ? "Infinity" : "-Infinity";
    else
        appendFloatRepr(m_out, value);
}

namespace {

void appendUtf8(std::string& out, std::uint32_t cp)
{
    if (cp < 0x80) {
        out += static_cast<char>(cp);
    } else if (cp < 0x800) {
        out += static_cast<char>(0xC0 | (cp >> 6));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        out += static_cast<char>(0xE0 | (cp >> 12));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
        out += static_cast<char>(0xF0 | (cp >> 18));
        out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    }
}

// A parsed Python literal: what repr() of a json.load result can be.
struct Literal {
    enum Kind { None, Bool, Int, Float, Str, List, Dict } kind = None;
    bool b = false;
    std::int64_t i = 0;
    double f = 0;
    std::string s;
    std::vector<Literal> items; // List; Dict: key, value, key, value...
};

class LiteralParser {
public:
    explicit LiteralParser(std::string_view text)
        : m_text(text)
    {
    }

    std::optional<Literal> parseAll()
    {
        auto value = parse(0);
        skipBlanks();
        if (!value || m_pos != m_text.size())
            return std::nullopt;
        return value;
    }

private:
    void skipBlanks()
    {
        while (m_pos < m_text.size() && (m_text[m_pos] == ' ' || m_text[m_pos] == '\n' || m_text[m_pos] == '\t'))
            ++m_pos;
    }

    bool take(std::string_view word)
    {
        if (m_text.substr(m_pos, word.size()) != word)
            return false;
        m_pos += word.size();
        return true;
    }

    std::optional<Literal> parse(int depth)
    {
        if (depth > 64)
            return std::nullopt;
        skipBlanks();
        if (m_pos >= m_text.size())
            return std::nullopt;
        Literal value;
        const char c = m_text[m_pos];
        if (take("None"))
            return value;
        if (take("True") || take("False")) {
            value.kind = Literal::Bool;
            value.b = m_text[m_pos - 1] == 'e' && m_text[m_pos - 2] == 'u';
            return value;
        }
        if (take("nan")) {
            value.kind = Literal::Float;
            value.f = NAN;
            return value;
        }
        if (take("inf")) {
            value.kind = Literal::Float;
            value.f = INFINITY;
            return value;
        }
        if (take("-inf")) {
            value.kind = Literal::Float;
            value.f = -INFINITY;
            return value;
        }
        if (c == '\'' || c == '"')
            return parseString();
        if (c == '[' || c == '(') {
            const char end = c == '[' ? ']' : ')';
            ++m_pos;
            value.kind = Literal::List;
            return parseItems(value, end, false, depth) ? std::optional<Literal>(std::move(value)) : std::nullopt;
        }
        if (c == '{') {
            ++m_pos;
            value.kind = Literal::Dict;
            return parseItems(value, '}', true, depth) ? std::optional<Literal>(std::move(value)) : std::nullopt;
        }
        return parseNumber();
    }

    bool parseItems(Literal& value, char end, bool dict, int depth)
    {
        for (;;) {
            skipBlanks();
            if (m_pos < m_text.size() && m_text[m_pos] == end) {
                ++m_pos;
                return true;
            }
            auto item = parse(depth + 1);
            if (!item)
                return false;
            value.items.push_back(std::move(*item));
            if (dict) {
                skipBlanks();
                if (!take(":"))
                    return false;
                auto member = parse(depth + 1);
                if (!member)
                    return false;
                value.items.push_back(std::move(*member));
            }
            skipBlanks();
            if (take(","))
                continue;
            if (m_pos < m_text.size() && m_text[m_pos] == end) {
                ++m_pos;
                return true;
            }
            return false;
        }
    }

    std::optional<Literal> parseString()
    {
        const char quote = m_text[m_pos++];
        Literal value;
        value.kind = Literal::Str;
        while (m_pos < m_text.size()) {
            const char c = m_text[m_pos++];
            if (c == quote)
                return value;
            if (c != '\\') {
                value.s += c;
                continue;
            }
            if (m_pos >= m_text.size())
                return std::nullopt;
            const char e = m_text[m_pos++];
            int hexDigits = 0;
            switch (e) {
            case 'n': value.s += '\n'; break;
            case 't': value.s += '\t'; break;
            case 'r': value.s += '\r'; break;
            case '\\': value.s += '\\'; break;
            case '\'': value.s += '\''; break;
            case '"': value.s += '"'; break;
            case 'x': hexDigits = 2; break;
            case 'u': hexDigits = 4; break;
            case 'U': hexDigits = 8; break;
            default: return std::nullopt;
            }
            if (hexDigits) {
                if (m_pos + hexDigits > m_text.size())
                    return std::nullopt;
                std::uint32_t cp = 0;
                for (int d = 0; d < hexDigits; ++d) {
                    const char h = m_text[m_pos++];
                    cp *= 16;
                    if (h >= '0' && h <= '9')
                        cp += static_cast<std::uint32_t>(h - '0');
                    else if (h >= 'a' && h <= 'f')
                        cp += static_cast<std::uint32_t>(h - 'a' + 10);
                    else if (h >= 'A' && h <= 'F')
                        cp += static_cast<std::uint32_t>(h - 'A' + 10);
                    else
                        return std::nullopt;
                }
                appendUtf8(value.s, cp);
            }
        }
        return std::nullopt;
    }

    std::optional<Literal> parseNumber()
    {
        const std::size_t start = m_pos;
        bool isFloat = false;
        if (m_pos < m_text.size() && (m_text[m_pos] == '-' || m_text[m_pos] == '+'))
            ++m_pos;
        while (m_pos < m_text.size()) {
            const char c = m_text[m_pos];
            if (c == '.' || c == 'e' || c == 'E')
                isFloat = true;
            else if (!((c >= '0' && c <= '9') || ((c == '-' || c == '+') && (m_text[m_pos - 1] == 'e' || m_text[m_pos - 1] == 'E'))))
                break;
            ++m_pos;
        }
        const std::string digits(m_text.substr(start, m_pos - start));
        if (digits.empty() || digits == "-" || digits == "+")
            return std::nullopt;
        Literal value;
        try {
            std::size_t used = 0;
            if (isFloat) {
                value.kind = Literal::Float;
                value.f = std::stod(digits, &used);
            } else {
                value.kind = Literal::Int;
                value.i = std::stoll(digits, &used);
            }
            if (used != digits.size())
                return std::nullopt;
        } catch (const std::exception&) {
            return std::nullopt;
        }
        return value;
    }

    std::string_view m_text;
    std::size_t m_pos = 0;
};

void writeLiteral(PrettyJson& out, const Literal& value)
{
    switch (value.kind) {
    case Literal::None: out.null(); return;
    case Literal::Bool: out.boolean(value.b); return;
    case Literal::Int: out.number(value.i); return;
    case Literal::Float: out.number(value.f); return;
    case Literal::Str: out.string(value.s); return;
    case Literal::List:
        out.beginArray();
        for (const Literal& item : value.items) {
            out.element();
            writeLiteral(out, item);
        }
        out.endArray();
        return;
    case Literal::Dict:
        out.beginObject();
        for (std::size_t k = 0; k + 1 < value.items.size(); k += 2) {
            const Literal& name = value.items[k];
            std::string text = name.s;
            if (name.kind == Literal::Int)
                text = std::to_string(name.i);
            out.key(text);
            writeLiteral(out, value.items[k + 1]);
        }
        out.endObject();
        return;
    }
}

} // namespace

void PrettyJson::pythonLiteral(std::string_view text)
{
    if (auto value = LiteralParser(text).parseAll())
        writeLiteral(*this, *value);
    else
        string(text);
}

} // namespace msprobe::graph
