// SPDX-License-Identifier: Apache-2.0
// appendJsonString with a fast path: the vis.db rows quote millions of short names that need no escaping,
// and appending them in one piece instead of one character at a time is a measurable share of the write.
#pragma once

#include "compare/py_value.h"

#include <string>
#include <string_view>

namespace msprobe::graph {

inline void appendJsonText(std::string& out, std::string_view text)
{
    for (const char ch : text) {
        const auto c = static_cast<unsigned char>(ch);
        if (c < 0x20 || c >= 0x80 || c == '"' || c == '\\') {
            support::appendJsonString(out, text); // escapes and non-ASCII exactly as the reference writes them
            return;
        }
    }
    out += '"';
    out.append(text);
    out += '"';
}

} // namespace msprobe::graph
