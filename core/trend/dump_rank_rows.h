// SPDX-License-Identifier: Apache-2.0
// What `msprobe data2db` takes from one rank's dump.json (+ construct.json): the trend rows of that rank and
// step, named and classified as the reference does (spec Part 3 §3.3). Pure: no database, no files written.
#pragma once

#include "dump/construct_stack.h"
#include "dump/dump_model.h"

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace msprobe::trend {

// The four dump metrics, in the order of their ids (1..4).
enum class DumpMetric : std::uint8_t { Forward, Backward, Recompute, ParametersGrad };
const std::vector<std::string>& dumpMetricNames();
// Dump statistics columns, in order.
const std::vector<std::string>& dumpStatColumns();

struct DumpTrendRow {
    std::uint32_t target = 0; // index into RankRows::targets
    DumpMetric metric = DumpMetric::Forward;
    std::int64_t microStep = 0; // the micro step within the step (0 when micro steps are off)
    std::array<std::optional<double>, 4> values; // norm, max, min, mean, clamped
};

// The hash of a target's (name, call index), computed where the target is first met and kept with it.
inline std::uint64_t targetKeyHash(std::string_view name, std::int64_t callIndex)
{
    return std::hash<std::string_view> {}(name) ^ (static_cast<std::uint64_t>(callIndex) * 0x9e3779b97f4a7c15ull);
}

struct RankRows {
    // Distinct (target name, call index) pairs in first-seen order; the call index is the target's micro_step
    // column.
    std::vector<std::pair<std::string, std::int64_t>> targets;
    std::vector<std::uint64_t> targetHashes; // targetKeyHash of each target
    std::vector<DumpTrendRow> rows; // in dump.json order (by sortRankRows: in key order)
    std::size_t repeatedRows = 0; // rows sortRankRows dropped for a key seen earlier in the dump
    std::int64_t microSteps = 0; // 1 + the highest micro step seen (0 when none or micro steps are off)
    std::size_t droppedEntries = 0; // entries outside every micro-step root (parameter grads, top-level APIs)
};

// Micro step of every construct.json node, by its index in construct.nodes (-1: under no root): roots are
// nodes without a parent, without ".backward", named Module*, Cell* or optimizer*, numbered in file order; a
// node takes its root's number, following parents with ".backward" / ".parameters_grad" read as ".forward".
std::vector<std::int64_t> microStepsOf(const dump::ConstructInfo& construct);

// Re-bases call indices within each micro step: "X.N" grouped by "X", "X.y.N.z" grouped by "X.y.z", each group
// renumbered 0, 1, 2, ... by ascending N. keys: (name, micro step); returns the new names in the same order.
std::vector<std::string> rebaseCallIndices(const std::vector<std::pair<std::string_view, std::int64_t>>& keys);

// The metric and target prefix of a (renumbered, mapped) entry name, with its call index; nullopt: not a
// trend entry.
struct ClassifiedKey {
    DumpMetric metric;
    std::string prefix;
    std::int64_t callIndex = 0;
};
std::optional<ClassifiedKey> classifyDumpKey(const std::string& key, bool isRecompute);

// construct.json's node names and parents as views (into a ConstructInfo or a parsed text): all the micro-step
// numbering reads.
struct ConstructNames {
    std::vector<std::string_view> names; // unique, in file order
    std::vector<std::optional<std::string_view>> parents;
};
// Extracts the rows of one dump. construct: null when micro steps are off (every entry is kept, micro step 0).
RankRows extractRankRows(const dump::DumpFile& dump, const ConstructNames* construct,
    const std::vector<std::pair<std::string, std::string>>& mapping);
RankRows extractRankRows(const dump::DumpFile& dump, const dump::ConstructInfo* construct,
    const std::vector<std::pair<std::string, std::string>>& mapping);

// Orders the rows by (micro step, target index, metric) and keeps the first of rows with one key (the reference
// keeps the first), on the reading thread: the importer then usually finds them already in primary-key order.
void sortRankRows(RankRows& rows);

} // namespace msprobe::trend
