// SPDX-License-Identifier: Apache-2.0
#include "trend/trend_compare.h"

#include "support/sqlite_util.h"
#include "support/error.h"
#include "trend/trend_db.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <tuple>

namespace msprobe::trend {

namespace {

bool hasColumn(msprobe::support::SqliteDb& db, const std::string& table, const std::string& column)
{
    msprobe::support::SqliteStatement query(db, "SELECT name FROM pragma_table_info('" + table + "')");
    while (query.step())
        if (query.columnText(0) == column)
            return true;
    return false;
}

auto seriesKey(const TrendPoint& p) { return std::tie(p.metric, p.target, p.rank, p.step); }

} // namespace

std::vector<TrendPoint> readTrendPoints(const std::filesystem::path& dbFile, const std::string& stat)
{
    const auto& known = monitorStatOrder();
    if (std::find(known.begin(), known.end(), stat) == known.end())
        throw support::Error(dbFile.string(), {}, "\"" + stat + "\" is not a trend statistic (norm, min, max, mean, ...)");
    msprobe::support::SqliteDb db(dbFile, true);
    const std::pair<const char*, const char*> required[]
        = { { "trend_data", "step" }, { "monitoring_targets", "target_name" }, { "monitoring_metrics", "metric_name" } };
    for (const auto& [table, column] : required)
        if (!hasColumn(db, table, column))
            throw support::Error(dbFile.string(), {}, std::string("not a trend database (no table ") + table + " with " + column + ")");
    if (!hasColumn(db, "trend_data", stat))
        throw support::Error(dbFile.string(), {}, "the database has no \"" + stat + "\" statistic; choose one it has with --stat");
    msprobe::support::SqliteStatement query(db,
        "SELECT k.metric_name, m.target_name, m.vpp_stage, m.micro_step, t.rank, t.step, t." + stat
            + ", t.target_id FROM trend_data t JOIN monitoring_targets m ON t.target_id = m.target_id"
              " JOIN monitoring_metrics k ON t.metric_id = k.metric_id");
    std::vector<TrendPoint> points;
    while (query.step()) {
        TrendPoint point;
        point.metric = std::string(query.columnText(0));
        point.target = std::string(query.columnText(1));
        const auto vpp = query.columnInt(2), micro = query.columnInt(3);
        if (vpp || micro)
            point.target += " (vpp " + std::to_string(vpp) + ", micro_step " + std::to_string(micro) + ")";
        point.rank = query.columnInt(4);
        point.step = query.columnInt(5);
        if (!query.isNull(6))
            point.value = query.columnDouble(6);
        point.targetOrder = query.columnInt(7);
        points.push_back(std::move(point));
    }
    return points;
}

double relativeDifference(const std::optional<double>& problem, const std::optional<double>& bench)
{
    if (!problem && !bench)
        return 0;
    if (!problem || !bench)
        return std::numeric_limits<double>::infinity();
    const double diff = std::fabs(*problem - *bench);
    if (diff == 0)
        return 0;
    if (*bench == 0)
        return std::numeric_limits<double>::infinity();
    return diff / std::fabs(*bench);
}

int metricExecutionOrder(const std::string& metric)
{
    static const std::vector<std::string> order = { "param_origin", "forward", "actv", "recompute", "backward",
        "actv_grad", "grad_unreduced", "parameters_grad", "grad_reduced", "exp_avg", "exp_avg_sq", "param_updated",
        "other" };
    const auto it = std::find(order.begin(), order.end(), metric);
    return static_cast<int>(it - order.begin());
}

TrendCompareResult compareTrends(std::vector<TrendPoint> problem, std::vector<TrendPoint> bench, double tolerance)
{
    auto less = [](const TrendPoint& a, const TrendPoint& b) { return seriesKey(a) < seriesKey(b); };
    std::sort(problem.begin(), problem.end(), less);
    std::sort(bench.begin(), bench.end(), less);
    TrendCompareResult result;
    std::set<std::pair<std::string, std::string>> problemTargets, benchTargets;
    for (const auto& p : problem)
        problemTargets.emplace(p.metric, p.target);
    for (const auto& b : bench)
        benchTargets.emplace(b.metric, b.target);
    for (const auto& t : problemTargets)
        if (!benchTargets.contains(t))
            result.onlyInProblem.push_back(t.first + " " + t.second);
    for (const auto& t : benchTargets)
        if (!problemTargets.contains(t))
            result.onlyInBench.push_back(t.first + " " + t.second);

    struct Ranked {
        Divergence divergence;
        std::int64_t targetOrder;
    };
    std::vector<Ranked> found;
    std::set<std::tuple<std::string, std::string, std::int64_t>> series, diverged;
    for (std::size_t i = 0, j = 0; i < problem.size() && j < bench.size();) {
        if (less(problem[i], bench[j])) {
            ++i;
            continue;
        }
        if (less(bench[j], problem[i])) {
            ++j;
            continue;
        }
        const TrendPoint& p = problem[i];
        const TrendPoint& b = bench[j];
        ++result.comparedPoints;
        auto seriesId = std::make_tuple(p.metric, p.target, p.rank);
        series.insert(seriesId);
        // Points come in step order within a series: the first one out of tolerance is the series' divergence.
        const double rel = relativeDifference(p.value, b.value);
        if (rel > tolerance && diverged.insert(seriesId).second)
            found.push_back({ { p.metric, p.target, p.rank, p.step, p.value, b.value, rel }, p.targetOrder });
        ++i;
        ++j;
    }
    result.comparedSeries = series.size();
    std::stable_sort(found.begin(), found.end(), [](const Ranked& a, const Ranked& b) {
        const auto& x = a.divergence;
        const auto& y = b.divergence;
        return std::make_tuple(x.step, metricExecutionOrder(x.metric), a.targetOrder, x.rank)
            < std::make_tuple(y.step, metricExecutionOrder(y.metric), b.targetOrder, y.rank);
    });
    for (auto& item : found)
        result.divergences.push_back(std::move(item.divergence));
    return result;
}

} // namespace msprobe::trend
