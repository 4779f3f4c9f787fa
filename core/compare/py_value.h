// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "support/python_text.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace msprobe::compare {

// One cell of the reference tool's result table as pandas holds it: a Python str, int, float or bool.
// None is held as the string "None" and a float NaN as the string "Nan", as the reference converts them.
enum class PyKind : std::uint8_t { Str, Int, Float, Bool };

struct PyVal {
    PyKind kind = PyKind::Str;
    bool b = false;
    std::int64_t i = 0;
    double f = 0.0;
    std::string_view s; // Str: must outlive the value (static text or a dump's string pool)

    static PyVal str(std::string_view text) { PyVal v; v.s = text; return v; }
    static PyVal integer(std::int64_t x) { PyVal v; v.kind = PyKind::Int; v.i = x; return v; }
    static PyVal real(double x);
    static PyVal boolean(bool x) { PyVal v; v.kind = PyKind::Bool; v.b = x; return v; }

    bool isStr(std::string_view text) const { return kind == PyKind::Str && s == text; }
    bool isNumber() const { return kind == PyKind::Int || kind == PyKind::Float; }
    double number() const { return kind == PyKind::Int ? static_cast<double>(i) : f; }
};

inline constexpr std::string_view kNA = "N/A";
inline constexpr std::string_view kNoneText = "None";
inline constexpr std::string_view kNanText = "Nan";

// Python str() of the value appended to out.
void appendPyText(std::string& out, const PyVal& value);
std::string pyText(const PyVal& value);
// str(a) == str(b) without building strings where possible.
bool pyTextEquals(const PyVal& a, const PyVal& b);
// Python's a == b for the kinds a table cell can have (1 == 1.0 == True, str only equals str).
bool pyEquals(const PyVal& a, const PyVal& b);

// float('{:.12f}'.format(x)): the reference's format_value.
double roundTo12Decimals(double value);
// Python round(x, 6).
double roundTo6Decimals(double value);
// Python float(text) (accepts surrounding blanks, inf/infinity/nan in any case); false when it raises.
bool parsePythonFloat(std::string_view text, double& out);
// Whether pandas' to_numeric turns the text into a number (not NaN); isInt when it is an integer literal.
bool parsePandasNumber(std::string_view text, double& value, bool& isInt, std::int64_t& intValue);

// pandas' precise_xstrtod (what to_numeric uses on strings): up to 17 significant digits accumulated in a
// double, then one multiplication or division by a power of ten. Not always the correctly rounded value.
double pandasStrtod(std::string_view text);
// The number pandas' to_numeric reads from str(value) of a float: pandasStrtod(repr(x)).
double pandasReparse(double value);

// zlib CRC-32 of the bytes, as the reference's "%08x".
std::uint32_t crc32(std::string_view bytes);
std::string crc32Hex(std::string_view bytes);

// The blacklist check the reference applies to names, stack frames and written cells:
// ^[＋－＝％＠+\-=%@]|;[＋－＝％＠+\-=%@]
bool hasFormulaPrefix(std::string_view text);

} // namespace msprobe::compare
