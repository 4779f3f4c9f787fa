// SPDX-License-Identifier: Apache-2.0
// One open trend database (*.trend.db, the schema of spec Part 3 §3.2) and the queries the trend panel draws
// from: the toolbar's choices (metrics, statistics, steps, ranks, targets, tags) and, per choice, only the cells of
// one heat map or the points of one line (spec §3.5). Read-only; used by one thread at a time.
// trend_data's only index is its primary key (rank, step, target_id, metric_id), and the genuine plugin's schema
// must stay as it is: a heat map is read by seeking that key per rank (or per rank and step), never by a scan of
// the whole table.
#pragma once

#include <QString>
#include <QStringList>

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <vector>

namespace msprobe::support {
class SqliteDb;
}

namespace msprobe::studio {

// Step: one step, x = rank, y = target. Rank: one rank, x = step, y = target. Module: one target, x = step,
// y = rank.
enum class Dimension { Step, Rank, Module };

struct TrendTarget {
    std::int64_t id = 0, vppStage = 0, microStep = 0;
    QString name;
    // "{target_id}_{vpp_stage}_{target_name}_{micro_step}", as the reference's value list shows it.
    QString label() const;
    // The name trend_compare joins two databases by: the target name, "name (vpp V, micro_step M)" when either
    // is not 0 (target ids differ between databases).
    QString joinName() const;
};

struct TrendTag {
    QString name, category;
};

struct TrendQuery {
    QString metric, stat;
    Dimension dimension = Dimension::Step;
    std::int64_t value = 0; // the step, the rank or the target id the dimension fixes
    QStringList tags; // AND of tag names (Step and Rank dimension rows; the Module dimension's value list)
};

// A heat map: values row-major (row * columns + column). A cell without a row in the database or with a NULL
// statistic (NaN in the run) has no value.
struct TrendGrid {
    enum class Cell : std::uint8_t { Missing, Null, Value };
    QString xTitle, yTitle;
    std::vector<std::int64_t> xKeys, yKeys; // ranks, steps or target ids, ascending
    QStringList yLabels; // the full label of each row (target label, or "Rank N")
    std::vector<QString> yJoinNames; // target rows: their join name (else empty)
    std::vector<double> values;
    std::vector<Cell> cells;
    bool difference = false; // values are relative differences problem vs bench
    std::vector<std::uint8_t> firstDivergence; // difference grids: 1 where a target's first divergence lies

    int columns() const { return static_cast<int>(xKeys.size()); }
    int rows() const { return static_cast<int>(yKeys.size()); }
    std::size_t index(int column, int row) const { return static_cast<std::size_t>(row) * xKeys.size() + column; }
    std::optional<double> value(int column, int row) const;
};

// One line of the chart: x = step, rank or target id; y NaN where the statistic is NULL.
struct TrendSeries {
    QString name;
    std::vector<double> x, y;
    QStringList xLabels; // Module-dimension lines: the target label of each point
};

class TrendDatabase {
public:
    // Throws msprobe::Error naming the file when it is not a trend database.
    explicit TrendDatabase(const QString& file);
    ~TrendDatabase();
    TrendDatabase(const TrendDatabase&) = delete;
    TrendDatabase& operator=(const TrendDatabase&) = delete;

    const QString& file() const { return m_file; }
    // global_stats: metric columns in column order, each with its statistics (the comma list, in its order).
    const QStringList& metrics() const { return m_metrics; }
    QStringList stats(const QString& metric) const;
    std::int64_t minStep() const { return m_minStep; }
    std::int64_t maxStep() const { return m_maxStep; }
    std::int64_t maxRank() const { return m_maxRank; }

    // Targets with data for the metric carrying every tag, by target id.
    std::vector<TrendTarget> targets(const QString& metric, const QStringList& tags = {}) const;
    std::optional<TrendTarget> targetByJoinName(const QString& joinName) const;
    // Distinct (tag, category) of targets with data for the metric, sorted by category then name.
    std::vector<TrendTag> tags(const QString& metric) const;

    // The cells of one heat map. An unknown metric or statistic gives an empty grid.
    TrendGrid grid(const TrendQuery& query) const;
    // The line a heat-map cell stands for (x key, y key of that cell), ordered by x.
    TrendSeries series(const TrendQuery& query, std::int64_t xKey, std::int64_t yKey) const;

private:
    bool validStat(const QString& metric, const QString& stat) const;
    std::optional<std::int64_t> metricId(const QString& metric) const;
    QString tagFilter(const QStringList& tags, const QString& column, int firstParameter) const;
    // The (rank, step) pairs with rows, by seeks on the key; empty when there are too many to be worth it.
    const std::vector<std::pair<std::int64_t, std::int64_t>>& rankSteps() const;
    // Targets with a row of the metric (one scan of trend_data per metric, then kept).
    const std::vector<std::int64_t>& targetsWithData(std::int64_t metricId) const;

    QString m_file;
    std::unique_ptr<msprobe::support::SqliteDb> m_db;
    QStringList m_metrics;
    std::vector<QStringList> m_stats;
    QStringList m_statColumns; // trend_data's statistic columns
    std::int64_t m_minStep = 0, m_maxStep = 0, m_maxRank = 0;
    std::vector<std::int64_t> m_ranks; // distinct ranks of trend_data, ascending
    mutable std::optional<std::vector<std::pair<std::int64_t, std::int64_t>>> m_rankSteps;
    mutable std::map<std::int64_t, std::vector<std::int64_t>> m_targetsWithData;
};

// Module targets and graph nodes, matched by name (dump trend.db files): the module a graph node names without
// its direction and call index ("Module.fc1.Linear.forward.0" -> "Module.fc1.Linear"), and the graph node of a
// target ("Module.fc1.Linear.output.0", call index 0 of metric forward -> "Module.fc1.Linear.forward.0"; empty
// when the target is not a module's input or output).
QString graphNodeModule(const QString& node);
QString graphNodeOfTarget(const TrendTarget& target, const QString& metric);
// Whether a target belongs to the module graphNodeModule() gave.
bool targetOfModule(const QString& targetName, const QString& module);

// The grid as CSV: x key, y key, y label, value (empty when no data), one line per cell with data or NULL.
QString gridCsv(const TrendGrid& grid);

} // namespace msprobe::studio
