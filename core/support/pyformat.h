// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace msprobe {

// Python's repr(float): shortest round-trip digits, "2.0" for integral values, exponent form
// ("1e-05", "1.5e+16") below 1e-4 or from 1e16, and "nan" / "inf" / "-inf".
std::string pythonFloatRepr(double value);
// The same text appended to out, without temporary strings (the compare CSV hot path).
void appendPythonFloatRepr(std::string& out, double value);
// Python's repr(str): single quotes unless the text has a single quote and no double quote.
std::string pythonStringRepr(std::string_view text);
// Python's str(bool).
inline std::string_view pythonBool(bool value) { return value ? "True" : "False"; }

} // namespace msprobe
