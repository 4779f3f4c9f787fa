// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace msprobe {

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
    bool legacyFormat = false; // {name: [frames]} instead of {"0": [[names], [frames]]}
    std::vector<std::vector<std::string>> frames; // per group
    std::unordered_map<std::string, std::uint32_t, TransparentStringHash, std::equal_to<>> groupOf; // name -> group

    // Frames of a node, or nullptr when it has none.
    const std::vector<std::string>* framesOf(std::string_view name) const;
};

// Both throw msprobe::Error naming the file and byte offset for malformed input.
// A missing file yields an empty result (extra_info: false dumps have none).
ConstructInfo readConstructJson(const std::filesystem::path& file);
StackInfo readStackJson(const std::filesystem::path& file);

} // namespace msprobe
