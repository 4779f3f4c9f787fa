// SPDX-License-Identifier: Apache-2.0
// `msprobe data2db --format monitor`: monitor v1 CSV files ({time}-rank{R}-{hash}/{metric}_{a}-{b}.csv, as
// written by the reference's TrainerMon and by msprobe::TrainerMonitor) into monitor_data.trend.db.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace msprobe::trend {

struct ImportOptions {
    bool microStep = true;
    // Plain substring replacements applied in order to every target name (--mapping).
    std::vector<std::pair<std::string, std::string>> mapping;
    // Ranks read at the same time (--process_num); the database is written by one thread in rank order.
    std::size_t threads = 1;
    // Called on the writing thread after each rank (dump) or file (monitor): items done, items in all.
    std::function<void(std::size_t done, std::size_t total)> progress;
};

// What one CSV file held that could not be imported as it stands.
struct FileProblems {
    std::filesystem::path file;
    std::size_t skippedRows = 0; // a step, vpp_stage or micro_step that is not an integer, or an empty name
    std::size_t nonNumeric = 0; // statistic cells that are neither empty nor a number: stored as NULL
    std::vector<std::string> firstSkipped, firstNonNumeric; // "line 7: step \"x\" is not an integer", at most 5 each
};

struct ImportSummary {
    std::size_t files = 0;
    std::size_t rows = 0;
    std::vector<FileProblems> problems; // files with skipped rows or non-numeric statistics, in import order
    std::int64_t maxRank = 0;
    std::int64_t minStep = 0, maxStep = 0;
};

// The metrics data2db recognises, in the order their ids are given.
const std::vector<std::string>& monitorMetrics();

// Throws msprobe::Error naming the directory or file at fault (a rank directory whose time prefix does not
// parse, no monitor files at all, a CSV without the vpp_stage/name/step columns, a database write failure).
// The database is written under a temporary name and renamed onto dbFile when complete: on any failure an
// earlier dbFile is left as it was.
ImportSummary importMonitorData(const std::filesystem::path& dataDir, const std::filesystem::path& dbFile,
    const ImportOptions& options);

// Whether `dir` holds monitor rank directories ({time}-rank{N}-{hash}, or rank_{N} of the v2 layout).
bool hasMonitorData(const std::filesystem::path& dir);

// Applies --mapping to a name.
std::string applyMapping(std::string name, const std::vector<std::pair<std::string, std::string>>& mapping);

} // namespace msprobe::trend
