// SPDX-License-Identifier: Apache-2.0
// The Attr cell of a msMemScope row: "{k:v,k:v,...}" whose values may themselves hold commas
// (shape:torch.Size([2, 3]), inefficient_type:early_allocation,late_deallocation). Spec §1.7: a comma starts a
// new key only when what follows is `known_key:`; otherwise it belongs to the current value.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace msprobe::memory {

using AttrPairs = std::vector<std::pair<std::string_view, std::string_view>>;

// Splits `cell` (with or without its outer quotes, already CSV-unquoted) into key/value views into `cell`.
// An empty cell gives no pairs. Returns false with `why` set when the cell is not `{...}` or a part has no
// key (the reader turns that into an error naming file, line and column).
bool splitAttr(std::string_view cell, AttrPairs& pairs, std::string& why);

// The §1.7 known key that `text` starts with when a ':' follows it ("size" for "size:64,..."), else empty: where
// splitAttr starts a new key/value pair after a comma.
std::string_view knownKeyAt(std::string_view text);

// The .db variant: Attr is a JSON object whose values are strings (§1.5). Same contract as splitAttr, but the
// views point into `storage`, which the function fills.
bool splitJsonAttr(std::string_view cell, AttrPairs& pairs, std::vector<std::string>& storage, std::string& why);

// a == b without a call to memcmp for the short texts of a dump row (keys, addresses, Event Types).
inline bool sameText(std::string_view a, std::string_view b)
{
    if (a.size() != b.size())
        return false;
    const char *x = a.data(), *y = b.data();
    std::size_t n = a.size();
    for (; n >= 8; n -= 8, x += 8, y += 8) {
        std::uint64_t u, v;
        std::memcpy(&u, x, 8);
        std::memcpy(&v, y, 8);
        if (u != v)
            return false;
    }
    for (; n > 0; --n, ++x, ++y)
        if (*x != *y)
            return false;
    return true;
}

// A decimal or 0x-hex unsigned number, the whole text; false otherwise.
bool parseUnsigned(std::string_view text, unsigned long long& value);
// A decimal number with an optional sign (sizes may be negative in legacy files).
bool parseSigned(std::string_view text, long long& value);

} // namespace msprobe::memory
