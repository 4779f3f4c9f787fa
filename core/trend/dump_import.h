// SPDX-License-Identifier: Apache-2.0
// `msprobe data2db --format dump`: the statistics of a dump folder (step{S}/rank{R}|proc{P}/dump.json, level L0
// or mix) into dump_data.trend.db, as the reference imports them (spec Part 3 §3.3). Ranks are read on a thread
// pool and written in order, a few at a time: memory does not grow with the number of ranks.
#pragma once

#include "trend/monitor_import.h"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace msprobe::trend {

struct DumpImportSummary {
    std::size_t files = 0; // dump.json files imported
    std::uint64_t bytes = 0; // their total size
    std::size_t rows = 0;
    std::size_t droppedEntries = 0; // entries outside every micro-step root (--micro_step true)
    std::vector<std::string> warnings; // rank directories without dump.json, ignored directories
    std::int64_t maxRank = 0;
    std::int64_t minStep = 0, maxStep = 0;
};

// Whether `dir` holds step{N} directories (what --format auto tries as a dump first).
bool hasDumpSteps(const std::filesystem::path& dir);

// Throws msprobe::Error naming the directory or file at fault: no step{N} directories, a level L1 dump (it
// has no module tree to number micro steps and tag layers), a malformed dump.json or construct.json, a database
// write failure. The database is written under a temporary name and renamed onto dbFile when complete.
DumpImportSummary importDumpData(const std::filesystem::path& dataDir, const std::filesystem::path& dbFile,
    const ImportOptions& options);

} // namespace msprobe::trend
