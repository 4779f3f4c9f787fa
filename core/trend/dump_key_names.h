// SPDX-License-Identifier: Apache-2.0
// The naming rules of the dump trend import (spec Part 3 §3.3) that work on entry names alone: micro steps from
// construct.json, call indices re-based per micro step, classification into metric and target prefix. They
// reuse their buffers from name to name: one rank's import meets tens of thousands of names.
#pragma once

#include "dump/construct_stack.h"
#include "trend/dump_rank_rows.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace msprobe::trend {

// Appends the decimal digits of a non-negative count.
void appendCount(std::string& out, std::size_t value);

ConstructNames constructNamesOf(const dump::ConstructInfo& construct);

// construct.json nodes by name, for the dump's entry names (string views): an open-addressing table of node
// indices, so that no string is built per look-up and nothing is allocated per node.
class NodeIndexByName {
public:
    explicit NodeIndexByName(const ConstructNames& construct);
    std::optional<std::size_t> find(std::string_view name) const;
    bool hasRepeatedNames() const { return m_repeats; } // then look-ups find one of them

private:
    const std::vector<std::string_view>& m_names;
    std::vector<std::uint32_t> m_slots; // 1 + node index; 0: free
    bool m_repeats = false;
};

// microStepsOf with the construct's nodes already indexed by name.
std::vector<std::int64_t> microStepsOf(const ConstructNames& construct, const NodeIndexByName& nodeOf);

// extractRankRows with the construct's nodes already indexed by name and, when not null, their microStepsOf
// (construct and nodeOf: both null when micro steps are off).
RankRows extractRankRows(const dump::DumpFile& dump, const ConstructNames* construct, const NodeIndexByName* nodeOf,
    const std::vector<std::pair<std::string, std::string>>& mapping, const std::vector<std::int64_t>* microSteps = nullptr);

// Where a key's call index sits and the number it is re-based to (-1: the key keeps its name).
struct RebasedIndex {
    std::uint32_t begin = 0, end = 0; // the index digits are name[begin, end)
    std::int64_t number = -1;
};

// rebaseCallIndices without building a string per key; assignRebased then writes one re-based name.
std::vector<RebasedIndex> rebasedCallIndices(const std::vector<std::pair<std::string_view, std::int64_t>>& keys);
void assignRebased(std::string& out, std::string_view name, const RebasedIndex& at);

// classifyDumpKey into `out`, whose prefix keeps its storage from key to key (scratch: a second buffer); false:
// not a trend entry.
bool classifyDumpKeyInto(std::string_view key, bool isRecompute, ClassifiedKey& out, std::string& scratch);

} // namespace msprobe::trend
