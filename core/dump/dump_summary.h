// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "dump/dump_model.h"
#include "dump/dump_tree.h"

#include <cstdint>
#include <string>
#include <vector>

namespace msprobe::dump {

// How a dump can be compared (spec 2.3): tensor files, md5 checksums or statistics.
enum class DumpMode { Statistics, Md5, Tensor, NotComparable };
DumpMode detectDumpMode(const DumpFile& dump);
std::string_view toString(DumpMode mode);

struct RankSummary {
    std::string step, rank;
    std::string dumpJson;
    std::string task, level, framework;
    DumpMode mode = DumpMode::NotComparable;
    DumpCounts counts;
    std::uint64_t dumpJsonBytes = 0, constructBytes = 0, stackBytes = 0, tensorFileBytes = 0;
    std::size_t tensorFiles = 0;
    std::vector<std::string> nanInfItems; // "entry: field path", first few
    std::vector<std::string> entryNames; // in order (for pairing)
};

struct TreeSummary {
    DumpTree tree;
    std::vector<RankSummary> ranks; // in step, then rank order
};

// Reads every dump.json of the tree (throws msprobe::Error on the first malformed file).
TreeSummary summarizeDumpTree(const DumpTree& tree, std::size_t maxNanInfItems = 20);

// Field path of a leaf inside an entry body: "input_args.0", "output.1.2", "parameters.weight".
std::string leafPath(const DumpFile& dump, std::uint32_t body, std::uint32_t leaf);

// Pairs of a problem and a bench tree as the compare verb will see them.
struct PairSummary {
    struct RankPair {
        std::string step, problemRank, benchRank;
        std::size_t problemEntries = 0, benchEntries = 0, commonEntries = 0;
        DumpMode problemMode = DumpMode::NotComparable, benchMode = DumpMode::NotComparable;
    };
    std::vector<RankPair> pairs;
    std::vector<std::string> problems; // reasons the pair cannot be compared as is
};
PairSummary summarizePair(const TreeSummary& problem, const TreeSummary& bench);

} // namespace msprobe::dump
