// SPDX-License-Identifier: Apache-2.0
// Small ASCII checks on names (call indexes, rank numbers) shared by the readers and matchers.
#pragma once

#include <string>
#include <string_view>

namespace msprobe::support {

// True for a non-empty run of the digits 0-9 only.
inline bool isDigits(std::string_view text)
{
    return !text.empty() && text.find_first_not_of("0123456789") == std::string_view::npos;
}

// A copy with A-Z turned to a-z (no locale).
inline std::string asciiLower(std::string_view text)
{
    std::string out(text);
    for (char& c : out)
        c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
    return out;
}

} // namespace msprobe::support
