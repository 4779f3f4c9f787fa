// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>
#include <string_view>

namespace msprobe {

// Re-serialises raw JSON text (NaN/Infinity tokens allowed) as Python's json.dump(indent=indent) writes what
// json.load read from it: key order kept, floats as repr(), ints as written, strings with ensure_ascii, nested
// lines indented from `depth`. Throws msprobe::Error on malformed input.
void appendPythonJson(std::string& out, std::string_view raw, int indent, int depth);

} // namespace msprobe
