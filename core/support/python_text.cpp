// SPDX-License-Identifier: Apache-2.0
#include "support/python_text.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace msprobe::support {

void appendPythonFloatRepr(std::string& out, double value)
{
    if (std::isnan(value)) {
        out += "nan";
        return;
    }
    if (std::isinf(value)) {
        out += value > 0 ? "inf" : "-inf";
        return;
    }
    if (value == 0.0) {
        out += std::signbit(value) ? "-0.0" : "0.0";
        return;
    }
    char buf[40];
    auto res = std::to_chars(buf, buf + sizeof buf, value, std::chars_format::scientific);
    const char* p = buf;
    const char* end = res.ptr;
    if (*p == '-') {
        out += '-';
        ++p;
    }
    char digits[32];
    int nDigits = 0;
    const char* e = p;
    while (e < end && *e != 'e') {
        if (*e != '.')
            digits[nDigits++] = *e;
        ++e;
    }
    int exponent = 0;
    std::from_chars(e + 1 + (e[1] == '+' ? 1 : 0), end, exponent);
    if (exponent < -4 || exponent >= 16) {
        out += digits[0];
        if (nDigits > 1) {
            out += '.';
            out.append(digits + 1, static_cast<std::size_t>(nDigits - 1));
        }
        out += 'e';
        out += exponent < 0 ? '-' : '+';
        const int magnitude = std::abs(exponent);
        if (magnitude < 10)
            out += '0';
        char exp[8];
        auto r = std::to_chars(exp, exp + sizeof exp, magnitude);
        out.append(exp, r.ptr);
        return;
    }
    if (exponent < 0) {
        out += "0.";
        out.append(static_cast<std::size_t>(-exponent - 1), '0');
        out.append(digits, static_cast<std::size_t>(nDigits));
        return;
    }
    const int intDigits = exponent + 1;
    if (nDigits <= intDigits) {
        out.append(digits, static_cast<std::size_t>(nDigits));
        out.append(static_cast<std::size_t>(intDigits - nDigits), '0');
        out += ".0";
    } else {
        out.append(digits, static_cast<std::size_t>(intDigits));
        out += '.';
        out.append(digits + intDigits, static_cast<std::size_t>(nDigits - intDigits));
    }
}

std::string pythonFloatRepr(double value)
{
    std::string out;
    appendPythonFloatRepr(out, value);
    return out;
}

std::string pythonStringRepr(std::string_view text)
{
    const bool useDouble = text.find('\'') != std::string_view::npos && text.find('"') == std::string_view::npos;
    const char quote = useDouble ? '"' : '\'';
    std::string out(1, quote);
    for (unsigned char c : text) {
        switch (c) {
        case '\\': out += "\\\\"; break;
        case '\n': out += "\\n"; break;
        case '\r': out += "\\r"; break;
        case '\t': out += "\\t"; break;
        default:
            if (c == static_cast<unsigned char>(quote)) {
                out += '\\';
                out += static_cast<char>(c);
            } else if (c < 0x20 || c == 0x7f) {
                char hex[8];
                std::snprintf(hex, sizeof hex, "\\x%02x", c);
                out += hex;
            } else {
                out += static_cast<char>(c);
            }
        }
    }
    out += quote;
    return out;
}

std::vector<std::string_view> pythonSplit(std::string_view text, char separator)
{
    std::vector<std::string_view> parts;
    std::size_t start = 0;
    while (true) {
        const std::size_t hit = text.find(separator, start);
        parts.push_back(text.substr(start, hit == std::string_view::npos ? std::string_view::npos : hit - start));
        if (hit == std::string_view::npos)
            return parts;
        start = hit + 1;
    }
}

void appendJsonString(std::string& out, std::string_view text)
{
    static const char* hex = "0123456789abcdef";
    auto unicodeEscape = [&](std::uint32_t code) {
        out += "\\u";
        out += hex[(code >> 12) & 0xF];
        out += hex[(code >> 8) & 0xF];
        out += hex[(code >> 4) & 0xF];
        out += hex[code & 0xF];
    };
    out += '"';
    for (std::size_t i = 0; i < text.size(); ++i) {
        const auto c = static_cast<unsigned char>(text[i]);
        switch (c) {
        case '"': out += "\\\""; continue;
        case '\\': out += "\\\\"; continue;
        case '\n': out += "\\n"; continue;
        case '\r': out += "\\r"; continue;
        case '\t': out += "\\t"; continue;
        case '\b': out += "\\b"; continue;
        case '\f': out += "\\f"; continue;
        default: break;
        }
        if (c < 0x20) {
            unicodeEscape(c);
            continue;
        }
        if (c < 0x80) {
            out += static_cast<char>(c);
            continue;
        }
        // Decode one UTF-8 sequence; invalid bytes are escaped as themselves (as surrogateescape would not, but
        // the reference never writes them).
        std::uint32_t code = c;
        int extra = 0;
        if ((c & 0xE0) == 0xC0) {
            code = c & 0x1F;
            extra = 1;
        } else if ((c & 0xF0) == 0xE0) {
            code = c & 0x0F;
            extra = 2;
        } else if ((c & 0xF8) == 0xF0) {
            code = c & 0x07;
            extra = 3;
        }
        if (extra == 0 || i + static_cast<std::size_t>(extra) >= text.size()) {
            unicodeEscape(c);
            continue;
        }
        for (int k = 1; k <= extra; ++k)
            code = (code << 6) | (static_cast<unsigned char>(text[i + static_cast<std::size_t>(k)]) & 0x3F);
        i += static_cast<std::size_t>(extra);
        if (code >= 0x10000) {
            code -= 0x10000;
            unicodeEscape(0xD800 + (code >> 10));
            unicodeEscape(0xDC00 + (code & 0x3FF));
        } else {
            unicodeEscape(code);
        }
    }
    out += '"';
}

} // namespace msprobe::support
