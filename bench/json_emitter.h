// SPDX-License-Identifier: Apache-2.0
// A streaming JSON writer whose output is byte-identical to Python's json.dump(obj, f, indent=1)
// for the value kinds msprobe writes (floats as repr(), NaN/Infinity tokens, ASCII escapes).
#pragma once

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace msprobe::bench {

// Appends Python's repr(float) of a finite double: shortest round-trip digits, fixed notation for
// 1e-4 <= |x| < 1e16 (with ".0" when integral), otherwise "1.5e-05" / "1e+16".
inline void appendPythonFloat(std::string& out, double value)
{
    if (value == 0.0) {
        out += std::signbit(value) ? "-0.0" : "0.0";
        return;
    }
    char sci[40];
    const auto res = std::to_chars(sci, sci + sizeof sci, value, std::chars_format::scientific);
    const char* p = sci;
    if (*p == '-') {
        out += '-';
        ++p;
    }
    char digits[24];
    int count = 0;
    for (; *p != 'e'; ++p)
        if (*p != '.')
            digits[count++] = *p;
    int exponent = 0;
    std::from_chars(p + (p[1] == '+' ? 2 : 1), res.ptr, exponent);
    if (exponent < -4 || exponent >= 16) {
        out += digits[0];
        if (count > 1) {
            out += '.';
            out.append(digits + 1, static_cast<std::size_t>(count - 1));
        }
        out += exponent < 0 ? "e-" : "e+";
        const int magnitude = std::abs(exponent);
        if (magnitude < 10)
            out += '0';
        char exp[8];
        out.append(exp, std::to_chars(exp, exp + sizeof exp, magnitude).ptr);
    } else if (exponent < 0) {
        out += "0.";
        out.append(static_cast<std::size_t>(-exponent - 1), '0');
        out.append(digits, static_cast<std::size_t>(count));
    } else if (count <= exponent + 1) {
        out.append(digits, static_cast<std::size_t>(count));
        out.append(static_cast<std::size_t>(exponent + 1 - count), '0');
        out += ".0";
    } else {
        out.append(digits, static_cast<std::size_t>(exponent + 1));
        out += '.';
        out.append(digits + exponent + 1, static_cast<std::size_t>(count - exponent - 1));
    }
}

class JsonEmitter {
public:
    using Sink = std::function<void(std::string_view)>;

    // The sink receives the text in pieces of about flushBytes; without one, text() holds it all.
    explicit JsonEmitter(Sink sink = {}, std::size_t flushBytes = 1 << 20)
        : m_sink(std::move(sink))
        , m_flushBytes(flushBytes)
    {
        m_buffer.reserve(m_sink ? flushBytes + 4096 : flushBytes);
    }

    void beginObject() { open('{'); }
    void endObject() { close('}'); }
    void beginArray() { open('['); }
    void endArray() { close(']'); }

    void key(std::string_view name)
    {
        separate();
        appendString(name);
        m_buffer += ": ";
        m_afterKey = true;
    }

    void null() { scalar("null"); }
    void boolean(bool value) { scalar(value ? "true" : "false"); }
    void emptyObject() { scalar("{}"); }
    void emptyArray() { scalar("[]"); }

    void integer(std::int64_t value)
    {
        separate();
        char text[24];
        m_buffer.append(text, std::to_chars(text, text + sizeof text, value).ptr);
    }

    // json.dump's float: repr(), or the bare tokens NaN / Infinity / -Infinity.
    void number(double value)
    {
        separate();
        if (std::isnan(value))
            m_buffer += "NaN";
        else if (std::isinf(value))
            m_buffer += value > 0 ? "Infinity" : "-Infinity";
        else
            appendPythonFloat(m_buffer, value);
    }

    void string(std::string_view value)
    {
        separate();
        appendString(value);
    }

    // Call at natural boundaries; hands the buffer to the sink once it is large enough.
    void maybeFlush()
    {
        if (m_sink && m_buffer.size() >= m_flushBytes)
            flush();
    }

    void flush()
    {
        if (!m_sink || m_buffer.empty())
            return;
        m_sink(m_buffer);
        m_flushed += m_buffer.size();
        m_buffer.clear();
    }

    std::uint64_t bytesWritten() const { return m_flushed + m_buffer.size(); }
    std::size_t depth() const { return m_first.size(); }
    std::string& text() { return m_buffer; }

private:
    void open(char bracket)
    {
        separate();
        m_buffer += bracket;
        m_first.push_back(true);
    }

    void close(char bracket)
    {
        const bool empty = m_first.back();
        m_first.pop_back();
        if (!empty)
            newline();
        m_buffer += bracket;
    }

    void scalar(std::string_view token)
    {
        separate();
        m_buffer += token;
    }

    // Before a value or key: nothing right after a key, else ",\n" + indent (or "\n" + indent first).
    void separate()
    {
        if (m_afterKey) {
            m_afterKey = false;
            return;
        }
        if (m_first.empty())
            return;
        if (!m_first.back())
            m_buffer += ',';
        m_first.back() = false;
        newline();
    }

    void newline()
    {
        m_buffer += '\n';
        m_buffer.append(m_first.size(), ' ');
    }

    // json.dumps with ensure_ascii=True; plain runs are appended whole.
    void appendString(std::string_view text)
    {
        m_buffer += '"';
        const char* run = text.data();
        const char* const end = text.data() + text.size();
        for (const char* p = run; p < end; ++p) {
            const auto c = static_cast<unsigned char>(*p);
            if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\')
                continue;
            m_buffer.append(run, p);
            run = p + 1;
            switch (c) {
            case '"': m_buffer += "\\\""; break;
            case '\\': m_buffer += "\\\\"; break;
            case '\n': m_buffer += "\\n"; break;
            case '\r': m_buffer += "\\r"; break;
            case '\t': m_buffer += "\\t"; break;
            case '\b': m_buffer += "\\b"; break;
            case '\f': m_buffer += "\\f"; break;
            default: {
                static constexpr char hex[] = "0123456789abcdef";
                const char escaped[] = { '\\', 'u', '0', '0', hex[c >> 4], hex[c & 15] };
                m_buffer.append(escaped, sizeof escaped);
            }
            }
        }
        m_buffer.append(run, end);
        m_buffer += '"';
    }

    Sink m_sink;
    std::size_t m_flushBytes;
    std::string m_buffer;
    std::uint64_t m_flushed = 0;
    std::vector<bool> m_first; // per open container: no element written yet
    bool m_afterKey = false;
};

} // namespace msprobe::bench
