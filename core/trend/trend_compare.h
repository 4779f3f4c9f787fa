// SPDX-License-Identifier: Apache-2.0
// `msprobe trend_compare`: two trend databases (a problem run and a bench run) joined by (metric, target, rank,
// step); per target the first step whose relative difference leaves the tolerance, ranked so that the top line
// is where the two runs first part.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace msprobe::trend {

struct TrendPoint {
    std::string metric;
    std::string target; // the target name; "name (vpp V, micro_step M)" when either is not 0
    std::int64_t rank = 0, step = 0;
    std::optional<double> value; // NULL (NaN in the run) = nullopt
    std::int64_t targetOrder = 0; // first-seen order of the target in its database (target_id)
};

// Every row of one statistic of a trend.db. Throws msprobe::Error naming the file when it is not a trend
// database or lacks the statistic column.
std::vector<TrendPoint> readTrendPoints(const std::filesystem::path& dbFile, const std::string& stat);

// |problem - bench| / |bench|; 0 when both are 0 or both NULL; +inf when bench is 0 and problem is not, or
// exactly one side is NULL.
double relativeDifference(const std::optional<double>& problem, const std::optional<double>& bench);

// Execution order of a metric within a step: parameters entering the step, forward activations, gradients,
// optimizer state, updated parameters. Unknown metrics last.
int metricExecutionOrder(const std::string& metric);

struct Divergence {
    std::string metric, target;
    std::int64_t rank = 0, step = 0;
    std::optional<double> problem, bench;
    double relDiff = 0; // may be +inf
};

struct TrendCompareResult {
    std::vector<Divergence> divergences; // per (metric, target, rank) its first step out of tolerance, ranked
    std::size_t comparedSeries = 0, comparedPoints = 0;
    std::vector<std::string> onlyInProblem, onlyInBench; // "metric target" present on one side only, sorted
};

// tolerance: a point diverges when its relative difference is strictly greater.
TrendCompareResult compareTrends(std::vector<TrendPoint> problem, std::vector<TrendPoint> bench, double tolerance);

} // namespace msprobe::trend
