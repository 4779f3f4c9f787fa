// SPDX-License-Identifier: Apache-2.0
// Small ASCII checks on names (call indexes, rank numbers) shared by the readers and matchers.
#pragma once

#include <string_view>

namespace msprobe {

// True for a non-empty run of the digits 0-9 only.
inline bool isDigits(std::string_view text)
{
    return !text.empty() && text.find_first_not_of("0123456789") == std::string_view::npos;
}

} // namespace msprobe
