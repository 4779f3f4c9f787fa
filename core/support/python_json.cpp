// SPDX-License-Identifier: Apache-2.0
#include "support/error.h"
#include "support/python_text.h"

#include <cmath>
#include <cstdlib>
#include <optional>

namespace msprobe::support {

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


class Reformatter {
public:
    Reformatter(std::string& out, std::string_view raw, int indent)
        : m_out(out)
        , m_raw(raw)
        , m_indent(indent)
    {
    }

    void value(int depth)
    {
        skipBlanks();
        if (m_pos >= m_raw.size())
            fail("unexpected end");
        const char c = m_raw[m_pos];
        if (c == '{')
            object(depth);
        else if (c == '[')
            array(depth);
        else if (c == '"')
            appendJsonString(m_out, string());
        else
            scalar();
    }

private:
    [[noreturn]] void fail(const std::string& message) { throw Error({}, "byte " + std::to_string(m_pos), "invalid JSON: " + message); }

    void skipBlanks()
    {
        while (m_pos < m_raw.size() && (m_raw[m_pos] == ' ' || m_raw[m_pos] == '\n' || m_raw[m_pos] == '\r' || m_raw[m_pos] == '\t'))
            ++m_pos;
    }

    void newline(int depth)
    {
        m_out += '\n';
        m_out.append(static_cast<std::size_t>(m_indent * depth), ' ');
    }

    // An object or an array: its members one per line, each written by member(depth + 1).
    template <typename Member>
    void container(int depth, char open, char close, Member member)
    {
        ++m_pos;
        skipBlanks();
        if (m_pos < m_raw.size() && m_raw[m_pos] == close) {
            ++m_pos;
            m_out += open;
            m_out += close;
            return;
        }
        m_out += open;
        while (true) {
            skipBlanks();
            newline(depth + 1);
            member(depth + 1);
            skipBlanks();
            if (m_pos < m_raw.size() && m_raw[m_pos] == ',') {
                ++m_pos;
                m_out += ',';
                continue;
            }
            if (m_pos < m_raw.size() && m_raw[m_pos] == close) {
                ++m_pos;
                break;
            }
            fail(std::string("expected ',' or '") + close + "'");
        }
        newline(depth);
        m_out += close;
    }

    void object(int depth)
    {
        container(depth, '{', '}', [this](int memberDepth) {
            appendJsonString(m_out, string());
            skipBlanks();
            if (m_pos >= m_raw.size() || m_raw[m_pos] != ':')
                fail("expected ':'");
            ++m_pos;
            m_out += ": ";
            value(memberDepth);
        });
    }

    void array(int depth)
    {
        container(depth, '[', ']', [this](int memberDepth) { value(memberDepth); });
    }

    std::uint32_t hex4()
    {
        if (m_pos + 4 > m_raw.size())
            fail("bad \\u escape");
        const std::string digits(m_raw.substr(m_pos, 4));
        m_pos += 4;
        return static_cast<std::uint32_t>(std::strtoul(digits.c_str(), nullptr, 16));
    }

    std::string string()
    {
        if (m_pos >= m_raw.size() || m_raw[m_pos] != '"')
            fail("expected a string");
        ++m_pos;
        std::string s;
        while (true) {
            if (m_pos >= m_raw.size())
                fail("unterminated string");
            const char c = m_raw[m_pos++];
            if (c == '"')
                return s;
            if (c != '\\') {
                s += c;
                continue;
            }
            if (m_pos >= m_raw.size())
                fail("bad escape");
            const char e = m_raw[m_pos++];
            switch (e) {
            case 'n': s += '\n'; break;
            case 't': s += '\t'; break;
            case 'r': s += '\r'; break;
            case 'b': s += '\b'; break;
            case 'f': s += '\f'; break;
            case 'u': {
                std::uint32_t code = hex4();
                if (code >= 0xD800 && code < 0xDC00 && m_raw.substr(m_pos, 2) == "\\u") {
                    m_pos += 2;
                    const std::uint32_t low = hex4();
                    code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
                }
                appendUtf8(s, code);
                break;
            }
            default: s += e;
            }
        }
    }

    void scalar()
    {
        const std::size_t start = m_pos;
        while (m_pos < m_raw.size() && m_raw[m_pos] != ',' && m_raw[m_pos] != ']' && m_raw[m_pos] != '}' && m_raw[m_pos] != ' '
            && m_raw[m_pos] != '\n' && m_raw[m_pos] != '\r' && m_raw[m_pos] != '\t')
            ++m_pos;
        const std::string token(m_raw.substr(start, m_pos - start));
        if (token == "true" || token == "false" || token == "null" || token == "NaN" || token == "Infinity" || token == "-Infinity") {
            m_out += token;
            return;
        }
        if (token.empty())
            fail("expected a value");
        if (token.find_first_of(".eE") != std::string::npos) {
            char* end = nullptr;
            const double value = std::strtod(token.c_str(), &end);
            if (*end)
                fail("bad number '" + token + "'");
            if (std::isinf(value))
                m_out += value > 0 ? "Infinity" : "-Infinity";
            else
                appendPythonFloatRepr(m_out, value);
            return;
        }
        m_out += token == "-0" ? std::string("0") : token;
    }

    std::string& m_out;
    std::string_view m_raw;
    std::size_t m_pos = 0;
    int m_indent;
};

} // namespace

void appendPythonJson(std::string& out, std::string_view raw, int indent, int depth)
{
    Reformatter(out, raw, indent).value(depth);
}

// PrettyJson: the same document written member by member.

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
        appendPythonFloatRepr(m_out, value);
}

namespace {

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

} // namespace msprobe::support
