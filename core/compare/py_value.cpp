// SPDX-License-Identifier: Apache-2.0
#include "compare/py_value.h"

#include "support/python_text.h"

#include <array>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace msprobe::compare {

PyVal PyVal::real(double x)
{
    if (std::isnan(x))
        return str(kNanText);
    PyVal v;
    v.kind = PyKind::Float;
    v.f = x;
    return v;
}

void appendPyText(std::string& out, const PyVal& value)
{
    switch (value.kind) {
    case PyKind::Str: out += value.s; return;
    case PyKind::Int: {
        char buf[24];
        auto r = std::to_chars(buf, buf + sizeof buf, value.i);
        out.append(buf, r.ptr);
        return;
    }
    case PyKind::Float: support::appendPythonFloatRepr(out, value.f); return;
    case PyKind::Bool: out += value.b ? "True" : "False"; return;
    }
}

std::string pyText(const PyVal& value)
{
    std::string out;
    appendPyText(out, value);
    return out;
}

bool pyTextEquals(const PyVal& a, const PyVal& b)
{
    if (a.kind == b.kind) {
        switch (a.kind) {
        case PyKind::Str: return a.s == b.s;
        case PyKind::Int: return a.i == b.i;
        case PyKind::Float: return a.f == b.f && std::signbit(a.f) == std::signbit(b.f);
        case PyKind::Bool: return a.b == b.b;
        }
    }
    // An int's text never equals a float's ("1" vs "1.0"); strings may spell any of them.
    if (a.kind != PyKind::Str && b.kind != PyKind::Str)
        return false;
    return pyText(a) == pyText(b);
}

bool pyEquals(const PyVal& a, const PyVal& b)
{
    if (a.kind == PyKind::Str || b.kind == PyKind::Str)
        return a.kind == b.kind && a.s == b.s;
    auto asNumber = [](const PyVal& v) {
        return v.kind == PyKind::Bool ? (v.b ? 1.0 : 0.0) : v.number();
    };
    if (a.kind == PyKind::Int && b.kind == PyKind::Int)
        return a.i == b.i;
    return asNumber(a) == asNumber(b);
}

namespace {

// float(format % value): the value printed with a fixed number of decimals and read back.
double roundThroughText(double value, const char* format)
{
    if (!std::isfinite(value))
        return value;
    char buf[400];
    std::snprintf(buf, sizeof buf, format, value);
    return std::strtod(buf, nullptr);
}

} // namespace

double roundTo12Decimals(double value) { return roundThroughText(value, "%.12f"); }

double roundTo6Decimals(double value) { return roundThroughText(value, "%.6f"); }

namespace {

bool isBlank(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

std::string_view strip(std::string_view text)
{
    while (!text.empty() && isBlank(text.front()))
        text.remove_prefix(1);
    while (!text.empty() && isBlank(text.back()))
        text.remove_suffix(1);
    return text;
}

bool equalsIgnoreCase(std::string_view a, std::string_view b)
{
    if (a.size() != b.size())
        return false;
    for (std::size_t i = 0; i < a.size(); ++i) {
        char x = a[i], y = b[i];
        if (x >= 'A' && x <= 'Z')
            x = static_cast<char>(x - 'A' + 'a');
        if (y >= 'A' && y <= 'Z')
            y = static_cast<char>(y - 'A' + 'a');
        if (x != y)
            return false;
    }
    return true;
}

// [sign] (digits [. digits*] | . digits) [(e|E) [sign] digits]
bool isDecimalLiteral(std::string_view t, bool& isInt)
{
    std::size_t i = 0;
    if (i < t.size() && (t[i] == '+' || t[i] == '-'))
        ++i;
    std::size_t intDigits = 0, fracDigits = 0;
    while (i < t.size() && t[i] >= '0' && t[i] <= '9') {
        ++i;
        ++intDigits;
    }
    bool dot = false;
    if (i < t.size() && t[i] == '.') {
        dot = true;
        ++i;
        while (i < t.size() && t[i] >= '0' && t[i] <= '9') {
            ++i;
            ++fracDigits;
        }
    }
    if (intDigits + fracDigits == 0)
        return false;
    bool exponent = false;
    if (i < t.size() && (t[i] == 'e' || t[i] == 'E')) {
        exponent = true;
        ++i;
        if (i < t.size() && (t[i] == '+' || t[i] == '-'))
            ++i;
        std::size_t expDigits = 0;
        while (i < t.size() && t[i] >= '0' && t[i] <= '9') {
            ++i;
            ++expDigits;
        }
        if (expDigits == 0)
            return false;
    }
    isInt = !dot && !exponent;
    return i == t.size();
}

bool parseSpecial(std::string_view t, double& out)
{
    bool negative = false;
    if (!t.empty() && (t.front() == '+' || t.front() == '-')) {
        negative = t.front() == '-';
        t.remove_prefix(1);
    }
    if (equalsIgnoreCase(t, "inf") || equalsIgnoreCase(t, "infinity")) {
        out = negative ? -INFINITY : INFINITY;
        return true;
    }
    if (equalsIgnoreCase(t, "nan")) {
        out = NAN;
        return true;
    }
    return false;
}

} // namespace

double pandasStrtod(std::string_view text)
{
    static const auto powers = [] {
        std::array<double, 309> e {};
        e[0] = 1.0;
        for (std::size_t i = 1; i < e.size(); ++i)
            e[i] = std::strtod(("1e" + std::to_string(i)).c_str(), nullptr);
        return e;
    }();
    std::size_t p = 0;
    while (p < text.size() && isBlank(text[p]))
        ++p;
    bool negative = false;
    if (p < text.size() && (text[p] == '-' || text[p] == '+')) {
        negative = text[p] == '-';
        ++p;
    }
    constexpr int maxDigits = 17;
    double number = 0.0;
    int exponent = 0, digits = 0, decimals = 0;
    auto isDigit = [&](std::size_t i) { return i < text.size() && text[i] >= '0' && text[i] <= '9'; };
    while (isDigit(p)) {
        if (digits < maxDigits) {
            number = number * 10.0 + (text[p] - '0');
            ++digits;
        } else {
            ++exponent;
        }
        ++p;
    }
    if (p < text.size() && text[p] == '.') {
        ++p;
        while (digits < maxDigits && isDigit(p)) {
            number = number * 10.0 + (text[p] - '0');
            ++p;
            ++digits;
            ++decimals;
        }
        while (isDigit(p))
            ++p;
        exponent -= decimals;
    }
    if (negative)
        number = -number;
    if (p < text.size() && (text[p] == 'e' || text[p] == 'E')) {
        ++p;
        bool negativeExp = false;
        if (p < text.size() && (text[p] == '-' || text[p] == '+')) {
            negativeExp = text[p] == '-';
            ++p;
        }
        int n = 0, expDigits = 0;
        while (expDigits < maxDigits && isDigit(p)) {
            n = n * 10 + (text[p] - '0');
            ++expDigits;
            ++p;
        }
        exponent += negativeExp ? -n : n;
    }
    if (exponent > 308)
        return negative ? -HUGE_VAL : HUGE_VAL;
    if (exponent > 0)
        number *= powers[static_cast<std::size_t>(exponent)];
    else if (exponent < -308) {
        if (exponent < -616)
            number = 0.0;
        else {
            number /= powers[static_cast<std::size_t>(-308 - exponent)];
            number /= powers[308];
        }
    } else {
        number /= powers[static_cast<std::size_t>(-exponent)];
    }
    return number;
}

double pandasReparse(double value)
{
    if (!std::isfinite(value))
        return value;
    // Integral values print as "123.0" and read back exactly; the rest go through the text (no allocation).
    if (value == std::trunc(value) && std::fabs(value) < 9007199254740992.0)
        return value;
    thread_local std::string text;
    text.clear();
    support::appendPythonFloatRepr(text, value);
    return pandasStrtod(text);
}

bool parsePythonFloat(std::string_view text, double& out)
{
    text = strip(text);
    if (parseSpecial(text, out))
        return true;
    bool isInt = false;
    if (!isDecimalLiteral(text, isInt))
        return false;
    // A validated decimal literal: from_chars rounds it correctly as strtod does, without copying the text.
    const std::string_view digits = text.front() == '+' ? text.substr(1) : text;
    const auto parsed = std::from_chars(digits.data(), digits.data() + digits.size(), out);
    if (parsed.ec == std::errc() && parsed.ptr == digits.data() + digits.size())
        return true;
    std::string copy(text); // out of range, or a form from_chars does not take (underscores): strtod decides
    out = std::strtod(copy.c_str(), nullptr);
    return true;
}

bool parsePandasNumber(std::string_view text, double& value, bool& isInt, std::int64_t& intValue)
{
    text = strip(text);
    isInt = false;
    if (parseSpecial(text, value))
        return !std::isnan(value);
    if (!isDecimalLiteral(text, isInt))
        return false;
    value = pandasStrtod(text);
    if (isInt) {
        const char* begin = text.data() + (text[0] == '+' ? 1 : 0);
        auto r = std::from_chars(begin, text.data() + text.size(), intValue);
        if (r.ec != std::errc())
            isInt = false; // beyond int64: pandas goes to float
        else
            value = static_cast<double>(intValue);
    }
    return true;
}

std::uint32_t crc32(std::string_view bytes)
{
    static const std::array<std::uint32_t, 256> table = [] {
        std::array<std::uint32_t, 256> t {};
        for (std::uint32_t n = 0; n < 256; ++n) {
            std::uint32_t c = n;
            for (int k = 0; k < 8; ++k)
                c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
            t[n] = c;
        }
        return t;
    }();
    std::uint32_t c = 0xFFFFFFFFu;
    for (unsigned char byte : bytes)
        c = table[(c ^ byte) & 0xFF] ^ (c >> 8);
    return c ^ 0xFFFFFFFFu;
}

std::string crc32Hex(std::string_view bytes)
{
    char buf[16];
    std::snprintf(buf, sizeof buf, "%08x", crc32(bytes));
    return buf;
}

namespace {

// Whether a blacklisted character starts at text[pos].
bool blacklistedAt(std::string_view text, std::size_t pos)
{
    if (pos >= text.size())
        return false;
    const char c = text[pos];
    if (c == '+' || c == '-' || c == '=' || c == '%' || c == '@')
        return true;
    // Full-width ＋ － ＝ ％ ＠: U+FF0B, U+FF0D, U+FF1D, U+FF05, U+FF20 (EF BC 8B/8D/9D/85, EF BC A0).
    if (pos + 2 < text.size() && static_cast<unsigned char>(c) == 0xEF && static_cast<unsigned char>(text[pos + 1]) == 0xBC) {
        const auto third = static_cast<unsigned char>(text[pos + 2]);
        return third == 0x8B || third == 0x8D || third == 0x9D || third == 0x85 || third == 0xA0;
    }
    return false;
}

} // namespace

bool hasFormulaPrefix(std::string_view text)
{
    if (blacklistedAt(text, 0))
        return true;
    for (std::size_t pos = text.find(';'); pos != std::string_view::npos; pos = text.find(';', pos + 1))
        if (blacklistedAt(text, pos + 1))
            return true;
    return false;
}

} // namespace msprobe::compare
