// SPDX-License-Identifier: Apache-2.0
// The one number grammar of every text input: JSON's, plus the non-finite tokens the writers use.
#pragma once

#include <optional>
#include <string_view>

namespace msprobe::support {

// JSON's number: -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?, the whole text. No hex, no
// leading '+' or '.', no digit separators, no text after the number.
bool isJsonNumber(std::string_view text);

// A decimal text as Python's float() reads it, restricted to isJsonNumber's grammar, plus the non-finite
// words float() accepts and Python writes: nan, inf, infinity, with an optional sign, in any case
// ("nan", "-inf", "NaN", "Infinity"). Space around the text is allowed; nullopt for anything else.
std::optional<double> parseStrictNumber(std::string_view text);

} // namespace msprobe::support
