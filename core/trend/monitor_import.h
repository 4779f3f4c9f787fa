// SPDX-License-Identifier: Apache-2.0
// `msprobe data2db --format monitor`: monitor v1 CSV files ({time}-rank{R}-{hash}/{metric}_{a}-{b}.csv, as
// written by the reference's TrainerMon and by msprobe::TrainerMonitor) into monitor_data.trend.db.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace msprobe::trend {

struct ImportOptions {
    bool microStep = true;
    // Plain substring replacements applied in order to every target name (--mapping).
    std::vector<std::pair<std::string, std::string>> mapping;
};

struct ImportSummary {
    std::size_t files = 0;
    std::size_t rows = 0;
    std::int64_t maxRank = 0;
    std::int64_t minStep = 0, maxStep = 0;
};

// The metrics data2db recognises, in the order their ids are given.
const std::vector<std::string>& monitorMetrics();

// Throws msprobe::Error naming the directory or file at fault (a rank directory whose time prefix does not
// parse, no monitor files at all, a CSV without the vpp_stage/name/step columns).
ImportSummary importMonitorData(const std::filesystem::path& dataDir, const std::filesystem::path& dbFile,
    const ImportOptions& options);

// Applies --mapping to a name.
std::string applyMapping(std::string name, const std::vector<std::pair<std::string, std::string>>& mapping);

} // namespace msprobe::trend
