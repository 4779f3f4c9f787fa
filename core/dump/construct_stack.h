// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace msprobe::dump {

// construct.json: node name -> parent node name (none for roots), in file order.
struct ConstructInfo {
    struct Node {
        std::string name;
        std::optional<std::string> parent;
        std::optional<int> microStep; // Megatron variant only
    };
    std::vector<Node> nodes;
    std::optional<int> megatronMicroStepNumber; // present in the Megatron variant
    std::unordered_map<std::string, std::size_t> indexOf;

    const Node* find(const std::string& name) const;
};

// Hashes std::string keys so that a string_view finds them without building a string.
struct TransparentStringHash {
    using is_transparent = void;
    std::size_t operator()(std::string_view text) const noexcept { return std::hash<std::string_view> {}(text); }
};

// stack.json in either format, normalised to groups of names sharing one list of frames.
struct StackInfo {
    StackInfo() = default;
    // A copy has no look-up table (its slots would point into the original's keys); framesOf still works.
    StackInfo(const StackInfo& other) : legacyFormat(other.legacyFormat), frames(other.frames), groupOf(other.groupOf) { }
    StackInfo& operator=(const StackInfo& other)
    {
        if (this != &other) {
            legacyFormat = other.legacyFormat;
            frames = other.frames;
            groupOf = other.groupOf;
            m_lookup.clear();
            m_lookupMask = 0;
        }
        return *this;
    }
    StackInfo(StackInfo&&) noexcept = default; // moved map nodes keep their addresses
    StackInfo& operator=(StackInfo&&) noexcept = default;

    bool legacyFormat = false; // {name: [frames]} instead of {"0": [[names], [frames]]}
    std::vector<std::vector<std::string>> frames; // per group
    std::unordered_map<std::string, std::uint32_t, TransparentStringHash, std::equal_to<>> groupOf; // name -> group

    // Frames of a node, or nullptr when it has none.
    const std::vector<std::string>* framesOf(std::string_view name) const;

    // An open-addressing copy of groupOf for callers that look up many names in a row and prefetch ahead:
    // buildLookup() after groupOf is final; then framesOf(name, nameHash(name)) is framesOf(name).
    void buildLookup();
    static std::uint64_t nameHash(std::string_view name) { return std::hash<std::string_view> {}(name); }
    void prefetchSlot(std::uint64_t hash) const;
    void prefetchName(std::uint64_t hash) const; // after prefetchSlot has had time to land
    const std::vector<std::string>* framesOf(std::string_view name, std::uint64_t hash) const;

private:
    struct LookupSlot {
        std::uint64_t hash = 0;
        const std::string* name = nullptr; // a groupOf key; nullptr: empty slot
        std::uint32_t group = 0;
    };
    std::vector<LookupSlot> m_lookup;
    std::size_t m_lookupMask = 0;
};

// Both throw msprobe::Error naming the file and byte offset for malformed input.
// A missing file yields an empty result (extra_info: false dumps have none).
ConstructInfo readConstructJson(const std::filesystem::path& file);
StackInfo readStackJson(const std::filesystem::path& file);

} // namespace msprobe::dump
