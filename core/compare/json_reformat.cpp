// SPDX-License-Identifier: Apache-2.0
#include "compare/json_reformat.h"

#include "compare/py_value.h"
#include "support/error.h"

#include <cmath>
#include <cstdlib>

namespace msprobe {

namespace {

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

    static void appendUtf8(std::string& s, std::uint32_t code)
    {
        if (code < 0x80) {
            s += static_cast<char>(code);
        } else if (code < 0x800) {
            s += static_cast<char>(0xC0 | (code >> 6));
            s += static_cast<char>(0x80 | (code & 0x3F));
        } else if (code < 0x10000) {
            s += static_cast<char>(0xE0 | (code >> 12));
            s += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
            s += static_cast<char>(0x80 | (code & 0x3F));
        } else {
            s += static_cast<char>(0xF0 | (code >> 18));
            s += static_cast<char>(0x80 | ((code >> 12) & 0x3F));
            s += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
            s += static_cast<char>(0x80 | (code & 0x3F));
        }
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
                appendFloatRepr(m_out, value);
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

} // namespace msprobe
