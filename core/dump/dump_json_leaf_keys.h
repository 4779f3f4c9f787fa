// SPDX-License-Identifier: Apache-2.0
// Internal to the dump.json reader: the keys of a leaf that DumpBuilder::readLeafFields has a column or a
// rule for, recognised from the raw bytes of the text.
#pragma once

#include <array>
#include <cstdint>
#include <cstring>
#include <string_view>

namespace msprobe::dump::detail {

// The keys a leaf has a column or a rule for, told apart from the raw bytes of the key (its text and
// closing quote, read as two words): a chain of string comparisons (a memcmp call each) after locating the
// closing quote was a seventh of a read.
enum class LeafKey : std::uint8_t { Other, Type, ClassType, Tensor, Dtype, Shape, Max, Min, Mean, Norm, RequiresGrad, DataName, Md5, Value };

struct LeafKeyPattern {
    std::uint64_t head = 0, headMask = 0, tail = 0, tailMask = 0;
    std::string_view name;
    LeafKey key = LeafKey::Other;
};

// The key's bytes and its closing quote as little-endian words, with the masks of the bytes they cover.
constexpr LeafKeyPattern leafKeyPattern(std::string_view name, LeafKey key)
{
    LeafKeyPattern pattern;
    pattern.name = name;
    pattern.key = key;
    for (std::size_t i = 0; i <= name.size(); ++i) {
        const std::uint64_t byte = static_cast<unsigned char>(i < name.size() ? name[i] : '"');
        std::uint64_t& word = i < 8 ? pattern.head : pattern.tail;
        std::uint64_t& mask = i < 8 ? pattern.headMask : pattern.tailMask;
        word |= byte << (8 * (i % 8));
        mask |= std::uint64_t(0xFF) << (8 * (i % 8));
    }
    return pattern;
}

inline constexpr std::array kLeafKeyPatterns {
    leafKeyPattern("type", LeafKey::Type), leafKeyPattern("class_type", LeafKey::ClassType),
    leafKeyPattern("tensor", LeafKey::Tensor), leafKeyPattern("dtype", LeafKey::Dtype),
    leafKeyPattern("shape", LeafKey::Shape), leafKeyPattern("Max", LeafKey::Max), leafKeyPattern("Min", LeafKey::Min),
    leafKeyPattern("Mean", LeafKey::Mean), leafKeyPattern("Norm", LeafKey::Norm),
    leafKeyPattern("requires_grad", LeafKey::RequiresGrad), leafKeyPattern("data_name", LeafKey::DataName),
    leafKeyPattern("md5", LeafKey::Md5), leafKeyPattern("value", LeafKey::Value),
};

static_assert(kLeafKeyPatterns[0].key == LeafKey::Type && kLeafKeyPatterns[2].key == LeafKey::Tensor
    && kLeafKeyPatterns[3].key == LeafKey::Dtype && kLeafKeyPatterns[10].key == LeafKey::DataName
    && kLeafKeyPatterns[5].key == LeafKey::Max && kLeafKeyPatterns[7].key == LeafKey::Mean
    && kLeafKeyPatterns[9].key == LeafKey::RequiresGrad && kLeafKeyPatterns[12].key == LeafKey::Value
    && kLeafKeyPatterns[1].key == LeafKey::ClassType && kLeafKeyPatterns[4].key == LeafKey::Shape
    && kLeafKeyPatterns[6].key == LeafKey::Min && kLeafKeyPatterns[8].key == LeafKey::Norm && kLeafKeyPatterns[11].key == LeafKey::Md5);

// The known key that starts at `raw` (just past the opening quote), or nullptr. `end` is the end of the text;
// simdjson's padding after it makes the 16 bytes readable. Its first two bytes name the one candidate, which
// one masked compare of two words confirms: this runs for every key of every leaf.
[[gnu::always_inline]] inline const LeafKeyPattern* leafKeyAt(const char* raw, const char* end)
{
    std::size_t index = 0; // into kLeafKeyPatterns
    switch (raw[0]) {
    case 't': index = raw[1] == 'y' ? 0 : 2; break;
    case 'c': index = 1; break;
    case 'd': index = raw[1] == 't' ? 3 : 10; break;
    case 's': index = 4; break;
    case 'M': index = raw[1] == 'a' ? 5 : raw[1] == 'i' ? 6 : 7; break;
    case 'N': index = 8; break;
    case 'r': index = 9; break;
    case 'm': index = 11; break;
    case 'v': index = 12; break;
    default: return nullptr;
    }
    const LeafKeyPattern& p = kLeafKeyPatterns[index];
    std::uint64_t head, tail;
    std::memcpy(&head, raw, 8);
    std::memcpy(&tail, raw + 8, 8);
    return (head & p.headMask) == p.head && (tail & p.tailMask) == p.tail && raw + p.name.size() < end ? &p : nullptr;
}

// The same for a key read the slow way (unknown, or written with escapes such as "M\u0061x").
inline const LeafKeyPattern* leafKeyNamed(std::string_view key)
{
    for (const LeafKeyPattern& pattern : kLeafKeyPatterns)
        if (pattern.name == key)
            return &pattern;
    return nullptr;
}

} // namespace msprobe::dump::detail
