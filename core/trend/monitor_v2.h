// SPDX-License-Identifier: Apache-2.0
// The monitor v2 layout (rank_{N}/{slug}_step{a}-{b}.csv with a scope column, spec Part 3 §3.4), which the
// reference's data2db does not read, mapped onto the v1 metrics: module forward -> actv, backward -> actv_grad;
// weight_grad unreduced/reduced -> grad_unreduced/grad_reduced; optimizer exp_avg/exp_avg_sq; param
// param_origin/param_updated; cc -> other.
#pragma once

#include "support/csv_text.h"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace msprobe::trend {

// "rank_3" -> 3.
std::optional<std::int64_t> monitorV2Rank(const std::string& dirName);

struct MonitorV2FileName {
    std::string slug; // module, weight_grad, optimizer, param, cc
    std::int64_t start = 0;
};
// "module_step0-4.csv" -> {module, 0}; nullopt for any other name.
std::optional<MonitorV2FileName> parseMonitorV2FileName(const std::string& fileName);

// The rows of a v2 CSV as v1-shaped tables (vpp_stage, name, step[, micro_step], statistics), one per metric
// (an index into monitorMetrics()), in metric order. Throws msprobe::Error naming the file and line for a
// missing column or a scope the slug does not have.
std::vector<std::pair<std::size_t, support::CsvTable>> splitMonitorV2(
    const support::CsvTable& table, const std::string& slug, const std::filesystem::path& file);

} // namespace msprobe::trend
