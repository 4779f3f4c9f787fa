// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>
#include <string_view>

namespace msprobe::support {

// Text made safe inside HTML or XML (SVG) elements and quoted attributes: & < > " ' escaped.
void appendMarkupEscaped(std::string& out, std::string_view text);
std::string markupEscaped(std::string_view text);

// Text safe inside a one-line message: control characters (a name read from a file may hold any) as \xNN.
std::string printableText(std::string_view text);

} // namespace msprobe::support
