// SPDX-License-Identifier: Apache-2.0
#include "memory/attr_parse.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <limits>

namespace msprobe::memory {

namespace {

// §1.7's known-key set, plus the extra keys our own capture writes (§5.4: device_type, op, step, reserved_raw).
constexpr std::array<std::string_view, 44> kKnownKeys = { "allocation_id", "addr", "size", "owner", "total", "used",
    "pinned", "shadow", "inefficient_type", "inefficient", "page_type", "alloc_type", "type", "dtype", "shape",
    "format", "path", "workspace ptr", "workspace size", "streamId", "taskId", "free", "reserved", "max_reserved",
    "allocated", "max_allocated", "device_rate", "reserved_rate", "func", "req_size", "flag", "pool", "ptr",
    "timestamp", "step", "kernel", "client", "ret", "MID", "device_type", "op", "reserved_raw", "category",
    "phase" };

bool isKeyStart(char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_'; }
bool isKeyChar(char c) { return isKeyStart(c) || (c >= '0' && c <= '9') || c == ' '; }

// The key of `token` ("key:value...") when it has the §1.7 key shape, else empty.
std::string_view keyOf(std::string_view token)
{
    if (token.empty() || !isKeyStart(token[0]))
        return {};
    for (std::size_t i = 1; i < token.size(); ++i) {
        if (token[i] == ':')
            return std::string_view(token.data(), i);
        if (!isKeyChar(token[i]))
            return {};
    }
    return {};
}

// The known keys bucketed by length (none is longer than 16): a lookup compares the few keys of its length
// instead of scanning all 44 (this runs for every key of every Attr cell of a multi-GB dump).
constexpr std::size_t kLongestKey = 16;
struct KnownKeyBuckets {
    std::array<std::array<std::string_view, 12>, kLongestKey + 1> keys {};
    std::array<std::uint8_t, kLongestKey + 1> counts {};
    constexpr KnownKeyBuckets()
    {
        for (const auto key : kKnownKeys)
            keys[key.size()][counts[key.size()]++] = key;
    }
};
constexpr KnownKeyBuckets kBuckets;
static_assert([] {
    for (const auto key : kKnownKeys)
        if (key.size() > kLongestKey)
            return false;
    for (const auto count : KnownKeyBuckets().counts)
        if (count > 12)
            return false;
    return true;
}());

bool isKnown(std::string_view key)
{
    if (key.size() > kLongestKey)
        return false;
    const auto& bucket = kBuckets.keys[key.size()];
    for (std::size_t k = 0; k < kBuckets.counts[key.size()]; ++k)
        if (bucket[k][0] == key[0] && sameText(bucket[k], key))
            return true;
    return false;
}

// The known keys by their first character (all ASCII letters).
struct FirstCharBuckets {
    std::array<std::array<std::string_view, 8>, 128> keys {};
    std::array<std::uint8_t, 128> counts {};
    constexpr FirstCharBuckets()
    {
        for (const auto key : kKnownKeys) {
            const auto c = static_cast<std::size_t>(key[0]);
            keys[c][counts[c]++] = key;
        }
    }
};
constexpr FirstCharBuckets kFirstChars;
static_assert([] {
    for (const auto count : FirstCharBuckets().counts)
        if (count > 8)
            return false;
    return true;
}());

// The first ',' in data[from, size), or npos: eight bytes a step (a zero byte of word ^ ",,,,,,,," marks a comma),
// never reading past `size`.
std::size_t nextComma(const char* data, std::size_t from, std::size_t size)
{
    constexpr std::uint64_t kCommas = 0x2C2C2C2C2C2C2C2Cull, kLows = 0x0101010101010101ull, kHighs = 0x8080808080808080ull;
    for (; from + 8 <= size; from += 8) {
        std::uint64_t word;
        std::memcpy(&word, data + from, sizeof word);
        word ^= kCommas;
        if (const std::uint64_t zero = (word - kLows) & ~word & kHighs)
            return from + static_cast<std::size_t>(__builtin_ctzll(zero) / 8);
    }
    for (; from < size; ++from)
        if (data[from] == ',')
            return from;
    return std::string_view::npos;
}

} // namespace

bool splitAttr(std::string_view cell, AttrPairs& pairs, std::string& why)
{
    pairs.clear();
    if (cell.size() >= 2 && cell.front() == '"' && cell.back() == '"')
        cell = cell.substr(1, cell.size() - 2);
    if (cell.empty())
        return true;
    if (cell.size() < 2 || cell.front() != '{' || cell.back() != '}') {
        why = "Attr is not {key:value,...}";
        return false;
    }
    cell = cell.substr(1, cell.size() - 2);
    if (cell.empty())
        return true;
    std::size_t start = 0;
    bool first = true;
    // Views built by hand rather than with substr/find: those are calls (substr may throw), and the tokens are short.
    const char* const data = cell.data();
    const std::size_t size = cell.size();
    while (start <= size) {
        // The key first (a comma is no key character, so it never reads past the token), then the comma after it.
        const std::string_view key = keyOf(std::string_view(data + start, size - start));
        const std::size_t comma = nextComma(data, start + (key.empty() ? 0 : key.size() + 1), size);
        const std::string_view token(data + start, (comma == std::string_view::npos ? size : comma) - start);
        if (!key.empty() && (first || isKnown(key)))
            pairs.emplace_back(key, std::string_view(token.data() + key.size() + 1, token.size() - key.size() - 1));
        else if (first) {
            why = "Attr part \"" + std::string(token.substr(0, 40)) + "\" has no key";
            return false;
        } else {
            // A comma inside the current value: widen the value up to the end of this token.
            auto& value = pairs.back().second;
            const char* end = token.data() + token.size();
            value = std::string_view(value.data(), static_cast<std::size_t>(end - value.data()));
        }
        first = false;
        if (comma == std::string_view::npos)
            break;
        start = comma + 1;
    }
    return true;
}

std::string_view knownKeyAt(std::string_view text)
{
    if (text.empty() || static_cast<unsigned char>(text[0]) >= 128)
        return {};
    const auto c = static_cast<std::size_t>(text[0]);
    for (std::size_t k = 0; k < kFirstChars.counts[c]; ++k) {
        const std::string_view key = kFirstChars.keys[c][k];
        if (text.size() > key.size() && text[key.size()] == ':' && sameText(key, text.substr(0, key.size())))
            return text.substr(0, key.size());
    }
    return {};
}

bool splitJsonAttr(std::string_view cell, AttrPairs& pairs, std::vector<std::string>& storage, std::string& why)
{
    pairs.clear();
    storage.clear();
    if (cell.empty())
        return true;
    const auto json = nlohmann::json::parse(cell, nullptr, false);
    if (json.is_discarded() || !json.is_object()) {
        why = "Attr is not a JSON object";
        return false;
    }
    storage.reserve(json.size() * 2);
    for (const auto& [key, value] : json.items()) {
        storage.push_back(key);
        storage.push_back(value.is_string() ? value.get<std::string>() : value.dump());
    }
    for (std::size_t i = 0; i < storage.size(); i += 2)
        pairs.emplace_back(storage[i], storage[i + 1]);
    return true;
}

namespace {

// Eight ASCII digits at `p` as a number (SWAR: three multiply-shift steps instead of eight dependent
// multiply-adds); false if one of them is not a digit. Little-endian: the first digit is the lowest byte.
bool eightDigits(const char* p, std::uint64_t& value)
{
    std::uint64_t word;
    std::memcpy(&word, p, sizeof word);
    constexpr std::uint64_t kHigh = 0xF0F0F0F0F0F0F0F0ull, kZeros = 0x3030303030303030ull;
    if ((word & kHigh) != kZeros || ((word + 0x0606060606060606ull) & kHigh) != kZeros)
        return false;
    word = (word & 0x0F0F0F0F0F0F0F0Full) * 2561 >> 8;
    word = (word & 0x00FF00FF00FF00FFull) * 6553601 >> 16;
    value = (word & 0x0000FFFF0000FFFFull) * 42949672960001ull >> 32;
    return true;
}

// Eight ASCII hex digits at `p` as a number, the first digit highest (SWAR, as eightDigits); false if one of them
// is not a hex digit.
bool eightHexDigits(const char* p, std::uint64_t& value)
{
    std::uint64_t word;
    std::memcpy(&word, p, sizeof word);
    constexpr std::uint64_t kHighBits = 0x8080808080808080ull;
    if (word & kHighBits)
        return false;
    // Per byte, with no carry between bytes since every byte is below 0x80: the high bit of (c + 0x80 - lo) is
    // set when c >= lo.
    const std::uint64_t digit = (word + 0x5050505050505050ull) & ~(word + 0x4646464646464646ull); // '0'..'9'
    const std::uint64_t lower = word | 0x2020202020202020ull;
    const std::uint64_t letter = (lower + 0x1F1F1F1F1F1F1F1Full) & ~(lower + 0x1919191919191919ull); // 'a'..'f'
    if (((digit | letter) & kHighBits) != kHighBits)
        return false;
    std::uint64_t nibbles = (word & 0x0F0F0F0F0F0F0F0Full) + ((word & 0x4040404040404040ull) >> 6) * 9;
    nibbles = ((nibbles << 4) | (nibbles >> 8)) & 0x00FF00FF00FF00FFull; // byte pairs, first digit high
    nibbles = ((nibbles << 8) | (nibbles >> 16)) & 0x0000FFFF0000FFFFull;
    value = ((nibbles << 16) | (nibbles >> 32)) & 0xFFFFFFFFull;
    return true;
}

// 0..15 for a hex digit, 0xff otherwise.
constexpr std::array<std::uint8_t, 256> kHexDigit = [] {
    std::array<std::uint8_t, 256> table {};
    for (auto& entry : table)
        entry = 0xff;
    for (int c = 0; c < 10; ++c)
        table[static_cast<std::size_t>('0' + c)] = static_cast<std::uint8_t>(c);
    for (int c = 0; c < 6; ++c) {
        table[static_cast<std::size_t>('a' + c)] = static_cast<std::uint8_t>(10 + c);
        table[static_cast<std::size_t>('A' + c)] = static_cast<std::uint8_t>(10 + c);
    }
    return table;
}();

// Digits only, no sign, overflow refused: loops the compiler keeps in registers (std::from_chars costs a call
// and a base switch per number, and a dump row has around ten numbers: timestamps of 19 digits, 16-digit
// addresses).
bool parseDigits(std::string_view text, unsigned long long& value, int base)
{
    if (text.empty())
        return false;
    unsigned long long result = 0;
    if (base == 10) {
        if (text.size() > 19) { // may overflow: checked digit by digit
            for (const char c : text) {
                const unsigned digit = static_cast<unsigned char>(c) - static_cast<unsigned>('0');
                if (digit > 9 || __builtin_mul_overflow(result, 10ull, &result) || __builtin_add_overflow(result, digit, &result))
                    return false;
            }
        } else { // 19 digits never overflow 64 bits
            const char* p = text.data();
            std::size_t left = text.size();
            for (std::uint64_t chunk = 0; left >= 8; p += 8, left -= 8) {
                if (!eightDigits(p, chunk))
                    return false;
                result = result * 100000000ull + chunk;
            }
            for (; left > 0; ++p, --left) {
                const unsigned digit = static_cast<unsigned char>(*p) - static_cast<unsigned>('0');
                if (digit > 9)
                    return false;
                result = result * 10 + digit;
            }
        }
    } else {
        if (text.size() > 16) {
            const auto first = text.find_first_not_of('0');
            if (first == std::string_view::npos)
                text = text.substr(text.size() - 1);
            else if (text.size() - first > 16)
                return false;
            else
                text.remove_prefix(first);
        }
        const char* p = text.data();
        std::size_t left = text.size();
        for (std::uint64_t chunk = 0; left >= 8; p += 8, left -= 8) {
            if (!eightHexDigits(p, chunk))
                return false;
            result = (result << 32) | chunk;
        }
        text = std::string_view(p, left);
        unsigned bad = 0;
        for (const char c : text) {
            const unsigned digit = kHexDigit[static_cast<unsigned char>(c)];
            bad |= digit;
            result = (result << 4) | (digit & 0xf);
        }
        if (bad & 0xf0)
            return false;
    }
    value = result;
    return true;
}

} // namespace

bool parseUnsigned(std::string_view text, unsigned long long& value)
{
    int base = 10;
    if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
        text.remove_prefix(2);
        base = 16;
    }
    return parseDigits(text, value, base);
}

bool parseSigned(std::string_view text, long long& value)
{
    if (text.empty())
        return false;
    if (text[0] == '+')
        text.remove_prefix(1);
    const bool negative = !text.empty() && text[0] == '-';
    if (negative)
        text.remove_prefix(1);
    unsigned long long magnitude = 0;
    if (!parseDigits(text, magnitude, 10))
        return false;
    constexpr auto kMax = static_cast<unsigned long long>(std::numeric_limits<long long>::max());
    if (magnitude > kMax + (negative ? 1 : 0))
        return false;
    value = negative ? static_cast<long long>(0 - magnitude) : static_cast<long long>(magnitude);
    return true;
}

} // namespace msprobe::memory
