// SPDX-License-Identifier: Apache-2.0
#include "trenddatabase.h"

#include "support/error.h"
#include "support/sqlite_util.h"
#include "trend/trend_db.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

namespace msprobe::studio {

namespace {

QString text(std::string_view value) { return QString::fromUtf8(value.data(), static_cast<qsizetype>(value.size())); }

// The distinct keys of one heat-map axis and their column or row. Keys (ranks, steps, target ids) are small
// non-negative numbers in practice: those go through a table (a heat map has up to millions of cells, a map
// lookup per cell was as slow as SQLite), any other through a map.
class AxisKeys {
public:
    void add(std::int64_t key)
    {
        if (key >= 0 && key < kDense) {
            const auto k = static_cast<std::size_t>(key);
            if (k >= m_dense.size())
                m_dense.resize(std::max(k + 1, 2 * m_dense.size()), -1);
            m_dense[k] = 0;
        } else {
            m_other[key] = 0;
        }
    }
    bool contains(std::int64_t key) const
    {
        if (key >= 0 && key < kDense)
            return static_cast<std::size_t>(key) < m_dense.size() && m_dense[static_cast<std::size_t>(key)] >= 0;
        return m_other.contains(key);
    }
    // The keys ascending; from now on at() gives each its position.
    std::vector<std::int64_t> finish()
    {
        std::vector<std::int64_t> keys;
        for (const auto& [key, unused] : m_other)
            if (key < 0)
                keys.push_back(key);
        for (std::size_t k = 0; k < m_dense.size(); ++k)
            if (m_dense[k] >= 0)
                keys.push_back(static_cast<std::int64_t>(k));
        for (const auto& [key, unused] : m_other)
            if (key >= 0)
                keys.push_back(key);
        for (std::size_t i = 0; i < keys.size(); ++i) {
            if (keys[i] >= 0 && keys[i] < kDense)
                m_dense[static_cast<std::size_t>(keys[i])] = static_cast<int>(i);
            else
                m_other[keys[i]] = static_cast<int>(i);
        }
        return keys;
    }
    int at(std::int64_t key) const
    {
        return key >= 0 && key < kDense ? m_dense[static_cast<std::size_t>(key)] : m_other.at(key);
    }

private:
    static constexpr std::int64_t kDense = std::int64_t(1) << 22;
    std::vector<int> m_dense; // -1: not a key
    std::map<std::int64_t, int> m_other;
};

} // namespace

QString TrendTarget::label() const
{
    return QStringLiteral("%1_%2_%3_%4").arg(id).arg(vppStage).arg(name).arg(microStep);
}

QString TrendTarget::joinName() const
{
    if (vppStage == 0 && microStep == 0)
        return name;
    return QStringLiteral("%1 (vpp %2, micro_step %3)").arg(name).arg(vppStage).arg(microStep);
}

std::optional<double> TrendGrid::value(int column, int row) const
{
    const std::size_t i = index(column, row);
    if (cells[i] != Cell::Value)
        return std::nullopt;
    return values[i];
}

TrendDatabase::TrendDatabase(const QString& file)
    : m_file(file)
{
    const std::string path = file.toStdString();
    m_db = std::make_unique<msprobe::support::SqliteDb>(std::filesystem::path(path), true);
    std::map<QString, QStringList> statsOf;
    try {
        msprobe::support::SqliteStatement columns(*m_db, "SELECT name FROM pragma_table_info('trend_data')");
        while (columns.step()) {
            const QString column = text(columns.columnText(0));
            const auto& known = msprobe::trend::monitorStatOrder();
            if (std::find(known.begin(), known.end(), column.toStdString()) != known.end())
                m_statColumns << column;
        }
        msprobe::support::SqliteStatement global(*m_db, "SELECT * FROM global_stats ORDER BY ROWID DESC LIMIT 1");
        if (!global.step())
            throw msprobe::support::Error(path, "global_stats", "the table is empty: not a database data2db wrote");
        for (int c = 0; c < global.columnCount(); ++c) {
            const QString name = text(global.columnName(c));
            if (name == QLatin1String("max_rank"))
                m_maxRank = global.columnInt(c);
            else if (name == QLatin1String("min_step"))
                m_minStep = global.columnInt(c);
            else if (name == QLatin1String("max_step"))
                m_maxStep = global.columnInt(c);
            else {
                m_metrics << name;
                QStringList stats;
                for (const QString& stat : text(global.isNull(c) ? std::string_view() : global.columnText(c)).split(QLatin1Char(',')))
                    if (m_statColumns.contains(stat.trimmed()))
                        stats << stat.trimmed();
                m_stats.push_back(stats);
            }
        }
    } catch (const msprobe::support::Error& error) {
        if (m_statColumns.isEmpty() || std::string_view(error.what()).find("no such table") != std::string_view::npos)
            throw msprobe::support::Error(path, {}, std::string("not a trend database (") + error.what() + ")");
        throw;
    }
    if (m_statColumns.isEmpty())
        throw msprobe::support::Error(path, "trend_data", "not a trend database (no trend_data table with statistic columns)");
    // The distinct ranks, one seek each on the key's first column (global_stats' max_rank is not trusted to be dense).
    msprobe::support::SqliteStatement nextRank(*m_db, "SELECT rank FROM trend_data WHERE rank > ?1 ORDER BY rank LIMIT 1");
    for (std::int64_t after = std::numeric_limits<std::int64_t>::min();;) {
        nextRank.bindInt(1, after);
        if (!nextRank.step())
            break;
        after = nextRank.columnInt(0);
        m_ranks.push_back(after);
        nextRank.reset();
    }
}

const std::vector<std::pair<std::int64_t, std::int64_t>>& TrendDatabase::rankSteps() const
{
    if (m_rankSteps)
        return *m_rankSteps;
    // Past this many pairs, seeking them all costs about as much as one scan of the table.
    constexpr std::size_t kMaxPairs = 200000;
    std::vector<std::pair<std::int64_t, std::int64_t>> pairs;
    msprobe::support::SqliteStatement nextStep(*m_db, "SELECT step FROM trend_data WHERE rank = ?1 AND step > ?2 ORDER BY step LIMIT 1");
    for (const std::int64_t rank : m_ranks)
        for (std::int64_t after = std::numeric_limits<std::int64_t>::min();;) {
            nextStep.bindInt(1, rank);
            nextStep.bindInt(2, after);
            const bool found = nextStep.step();
            if (found)
                after = nextStep.columnInt(0);
            nextStep.reset();
            if (!found)
                break;
            pairs.emplace_back(rank, after);
            if (pairs.size() > kMaxPairs) {
                m_rankSteps.emplace();
                return *m_rankSteps;
            }
        }
    m_rankSteps = std::move(pairs);
    return *m_rankSteps;
}

const std::vector<std::int64_t>& TrendDatabase::targetsWithData(std::int64_t metricId) const
{
    auto it = m_targetsWithData.find(metricId);
    if (it != m_targetsWithData.end())
        return it->second;
    std::vector<std::int64_t> targets;
    msprobe::support::SqliteStatement query(*m_db, "SELECT DISTINCT target_id FROM trend_data WHERE metric_id = ?1 ORDER BY target_id");
    query.bindInt(1, metricId);
    while (query.step())
        targets.push_back(query.columnInt(0));
    return m_targetsWithData.emplace(metricId, std::move(targets)).first->second;
}

TrendDatabase::~TrendDatabase() = default;

QStringList TrendDatabase::stats(const QString& metric) const
{
    const auto i = m_metrics.indexOf(metric);
    return i < 0 ? QStringList() : m_stats[static_cast<std::size_t>(i)];
}

bool TrendDatabase::validStat(const QString& metric, const QString& stat) const
{
    return m_metrics.contains(metric) && m_statColumns.contains(stat);
}

std::optional<std::int64_t> TrendDatabase::metricId(const QString& metric) const
{
    msprobe::support::SqliteStatement query(*m_db, "SELECT metric_id FROM monitoring_metrics WHERE metric_name = ?");
    query.bindText(1, metric.toStdString());
    if (!query.step())
        return std::nullopt;
    return query.columnInt(0);
}

// One sub-query per tag (AND of tag names, category ignored, as the reference); the names are bound from
// firstParameter on.
QString TrendDatabase::tagFilter(const QStringList& tags, const QString& column, int firstParameter) const
{
    QString sql;
    for (qsizetype i = 0; i < tags.size(); ++i)
        sql += QStringLiteral(" AND %1 IN (SELECT ttm.target_id FROM tag_target_mapping ttm JOIN monitoring_tags mt "
                              "ON ttm.tag_id = mt.tag_id WHERE mt.tag_name = ?%2)")
                   .arg(column)
                   .arg(firstParameter + static_cast<int>(i));
    return sql;
}

std::vector<TrendTarget> TrendDatabase::targets(const QString& metric, const QStringList& tags) const
{
    const auto id = metricId(metric);
    if (!id)
        return {};
    const std::vector<std::int64_t>& withData = targetsWithData(*id);
    const QString sql = QStringLiteral("SELECT target_id, vpp_stage, target_name, micro_step FROM monitoring_targets WHERE 1")
        + tagFilter(tags, QStringLiteral("target_id"), 1) + QStringLiteral(" ORDER BY target_id");
    msprobe::support::SqliteStatement query(*m_db, sql.toStdString());
    for (qsizetype i = 0; i < tags.size(); ++i)
        query.bindText(static_cast<int>(i) + 1, tags[i].toStdString());
    std::vector<TrendTarget> out;
    while (query.step())
        if (const std::int64_t target = query.columnInt(0); std::binary_search(withData.begin(), withData.end(), target))
            out.push_back({ target, query.columnInt(1), query.columnInt(3), text(query.columnText(2)) });
    return out;
}

std::optional<TrendTarget> TrendDatabase::targetByJoinName(const QString& joinName) const
{
    msprobe::support::SqliteStatement query(*m_db, "SELECT target_id, vpp_stage, target_name, micro_step FROM monitoring_targets");
    while (query.step()) {
        TrendTarget target { query.columnInt(0), query.columnInt(1), query.columnInt(3), text(query.columnText(2)) };
        if (target.joinName() == joinName)
            return target;
    }
    return std::nullopt;
}

std::vector<TrendTag> TrendDatabase::tags(const QString& metric) const
{
    const auto id = metricId(metric);
    if (!id)
        return {};
    // A tag of a metric is mapped to a target when data2db (ours and the reference) stores a row of that metric for
    // it: the mapping alone answers, without a scan of trend_data.
    msprobe::support::SqliteStatement query(*m_db,
        "SELECT DISTINCT mt.tag_name, mt.category FROM monitoring_tags mt JOIN tag_target_mapping ttm ON mt.tag_id = "
        "ttm.tag_id WHERE mt.metric_id = ?1 ORDER BY mt.category, mt.tag_name");
    query.bindInt(1, *id);
    std::vector<TrendTag> out;
    while (query.step()) {
        TrendTag tag { text(query.columnText(0)), text(query.columnText(1)) };
        // Tags repeat per metric in the database; one (name, category) each.
        if (std::none_of(out.begin(), out.end(), [&](const TrendTag& t) { return t.name == tag.name && t.category == tag.category; }))
            out.push_back(std::move(tag));
    }
    return out;
}

TrendGrid TrendDatabase::grid(const TrendQuery& request) const
{
    TrendGrid grid;
    grid.xTitle = request.dimension == Dimension::Step ? QStringLiteral("Rank") : QStringLiteral("Step");
    grid.yTitle = request.dimension == Dimension::Module ? QStringLiteral("Rank") : QStringLiteral("Target");
    const auto id = metricId(request.metric);
    if (!id || !validStat(request.metric, request.stat))
        return grid;
    const QStringList tags = request.dimension == Dimension::Module ? QStringList() : request.tags;
    // Parameters: ?1 rank and ?2 step of one seek, ?3 metric, ?4 the dimension's value, tags from ?5. A step is read
    // rank by rank, a target (rank, step) by (rank, step): seeks on the key instead of a scan of the whole table.
    const std::vector<std::pair<std::int64_t, std::int64_t>>* pairs
        = request.dimension == Dimension::Module && !rankSteps().empty() ? &rankSteps() : nullptr;
    const QString where = request.dimension == Dimension::Step ? QStringLiteral("t.rank = ?1 AND t.step = ?4")
        : request.dimension == Dimension::Rank                 ? QStringLiteral("t.rank = ?4")
        : pairs                                                ? QStringLiteral("t.rank = ?1 AND t.step = ?2 AND t.target_id = ?4")
                                                               : QStringLiteral("t.target_id = ?4");
    // Target names come from one look-up of the targets afterwards: joining them per row costs a third of the time.
    const QString sql = QStringLiteral("SELECT t.rank, t.step, t.target_id, t.%1 FROM trend_data t WHERE %2 AND t.metric_id = ?3")
                            .arg(request.stat, where)
        + tagFilter(tags, QStringLiteral("t.target_id"), 5);
    msprobe::support::SqliteStatement query(*m_db, sql.toStdString());

    struct Row {
        std::int64_t x, y;
        std::optional<double> value;
    };
    std::vector<Row> rows;
    AxisKeys xs, ys;
    std::map<std::int64_t, TrendTarget> targetsById;
    const auto readRows = [&](std::int64_t rank, std::int64_t step) {
        query.bindInt(1, rank);
        query.bindInt(2, step);
        query.bindInt(3, *id);
        query.bindInt(4, request.value);
        for (qsizetype i = 0; i < tags.size(); ++i)
            query.bindText(static_cast<int>(i) + 5, tags[i].toStdString());
        while (query.step()) {
            const std::int64_t rowRank = query.columnInt(0), rowStep = query.columnInt(1), target = query.columnInt(2);
            Row row { request.dimension == Dimension::Step ? rowRank : rowStep,
                request.dimension == Dimension::Module ? rowRank : target, {} };
            if (!query.isNull(3))
                row.value = query.columnDouble(3);
            xs.add(row.x);
            ys.add(row.y);
            rows.push_back(row);
        }
        query.reset();
    };
    if (request.dimension == Dimension::Step)
        for (const std::int64_t rank : m_ranks)
            readRows(rank, 0);
    else if (pairs)
        for (const auto& [rank, step] : *pairs)
            readRows(rank, step);
    else
        readRows(0, 0);
    if (request.dimension != Dimension::Module) {
        msprobe::support::SqliteStatement targets(*m_db, "SELECT target_id, vpp_stage, target_name, micro_step FROM monitoring_targets");
        while (targets.step())
            if (const std::int64_t target = targets.columnInt(0); ys.contains(target))
                targetsById[target] = { target, targets.columnInt(1), targets.columnInt(3), text(targets.columnText(2)) };
    }
    grid.xKeys = xs.finish();
    grid.yKeys = ys.finish();
    for (std::size_t i = 0; i < grid.yKeys.size(); ++i) {
        if (request.dimension == Dimension::Module) {
            grid.yLabels << QStringLiteral("Rank %1").arg(grid.yKeys[i]);
            grid.yJoinNames.emplace_back();
        } else {
            const TrendTarget& target = targetsById[grid.yKeys[i]];
            grid.yLabels << target.label();
            grid.yJoinNames.push_back(target.joinName());
        }
    }
    grid.values.assign(grid.xKeys.size() * grid.yKeys.size(), std::numeric_limits<double>::quiet_NaN());
    grid.cells.assign(grid.values.size(), TrendGrid::Cell::Missing);
    for (const Row& row : rows) {
        const std::size_t i = grid.index(xs.at(row.x), ys.at(row.y));
        grid.cells[i] = row.value ? TrendGrid::Cell::Value : TrendGrid::Cell::Null;
        if (row.value)
            grid.values[i] = *row.value;
    }
    return grid;
}

TrendSeries TrendDatabase::series(const TrendQuery& request, std::int64_t xKey, std::int64_t yKey) const
{
    TrendSeries series;
    const auto id = metricId(request.metric);
    if (!id || !validStat(request.metric, request.stat))
        return series;
    // The cell fixes two of rank, step, target; the line runs over the third.
    QString where, over;
    std::int64_t first = 0, second = 0;
    QStringList tags;
    switch (request.dimension) {
    case Dimension::Step: // x = rank, y = target: over steps
        where = QStringLiteral("t.rank = ?2 AND t.target_id = ?3");
        over = QStringLiteral("t.step");
        first = xKey;
        second = yKey;
        break;
    case Dimension::Rank: // x = step, y = target: over ranks, read rank by rank (?4) by seeks on the key
        where = QStringLiteral("t.rank = ?4 AND t.step = ?2 AND t.target_id = ?3");
        over = QStringLiteral("t.rank");
        first = xKey;
        second = yKey;
        break;
    case Dimension::Module: // x = step, y = rank: over targets
        where = QStringLiteral("t.step = ?2 AND t.rank = ?3");
        over = QStringLiteral("t.target_id");
        first = xKey;
        second = yKey;
        tags = request.tags;
        break;
    }
    const QString sql = QStringLiteral("SELECT %1, t.%2, m.target_name, m.vpp_stage, m.micro_step, t.target_id FROM trend_data t "
                                       "JOIN monitoring_targets m ON t.target_id = m.target_id WHERE t.metric_id = ?1 AND %3")
                            .arg(over, request.stat, where)
        + tagFilter(tags, QStringLiteral("t.target_id"), 4) + QStringLiteral(" ORDER BY %1").arg(over);
    msprobe::support::SqliteStatement query(*m_db, sql.toStdString());
    QString yLabel;
    const auto readPoints = [&](std::int64_t rank) {
        query.bindInt(1, *id);
        query.bindInt(2, first);
        query.bindInt(3, second);
        if (request.dimension == Dimension::Rank)
            query.bindInt(4, rank);
        for (qsizetype i = 0; i < tags.size(); ++i)
            query.bindText(static_cast<int>(i) + 4, tags[i].toStdString());
        while (query.step()) {
            series.x.push_back(static_cast<double>(query.columnInt(0)));
            series.y.push_back(query.isNull(1) ? std::numeric_limits<double>::quiet_NaN() : query.columnDouble(1));
            const TrendTarget target { query.columnInt(5), query.columnInt(3), query.columnInt(4), text(query.columnText(2)) };
            if (request.dimension == Dimension::Module)
                series.xLabels << target.label();
            else
                yLabel = target.label();
        }
        query.reset();
    };
    if (request.dimension == Dimension::Rank)
        for (const std::int64_t rank : m_ranks) // ascending: the line stays ordered by rank
            readPoints(rank);
    else
        readPoints(0);
    const QString xName = request.dimension == Dimension::Step ? QStringLiteral("Rank") : QStringLiteral("Step");
    if (request.dimension == Dimension::Module)
        series.name = QStringLiteral("%1: %2 / Rank: %3").arg(xName).arg(xKey).arg(yKey);
    else
        series.name = QStringLiteral("%1: %2 / Target: %3").arg(xName).arg(xKey).arg(yLabel.isEmpty() ? QString::number(yKey) : yLabel);
    return series;
}

QString graphNodeModule(const QString& node)
{
    QStringList parts = node.split(QLatin1Char('.'));
    bool numeric = false;
    if (!parts.isEmpty()) {
        parts.last().toLongLong(&numeric);
        if (numeric)
            parts.removeLast();
    }
    if (!parts.isEmpty() && (parts.last() == QLatin1String("forward") || parts.last() == QLatin1String("backward")))
        parts.removeLast();
    return parts.join(QLatin1Char('.'));
}

QString graphNodeOfTarget(const TrendTarget& target, const QString& metric)
{
    const QStringList parts = target.name.split(QLatin1Char('.'));
    if (parts.size() < 3 || (parts[parts.size() - 2] != QLatin1String("input") && parts[parts.size() - 2] != QLatin1String("output")))
        return {};
    const QString direction = metric == QLatin1String("backward") ? QStringLiteral("backward") : QStringLiteral("forward");
    return parts.mid(0, parts.size() - 2).join(QLatin1Char('.')) + QLatin1Char('.') + direction + QLatin1Char('.')
        + QString::number(target.microStep);
}

bool targetOfModule(const QString& targetName, const QString& module)
{
    // The module's own tensors ("input.0", "output.1", "weight"), not those of modules inside it.
    return !module.isEmpty() && targetName.startsWith(module + QLatin1Char('.'))
        && targetName.mid(module.size() + 1).count(QLatin1Char('.')) <= 1;
}

QString gridCsv(const TrendGrid& grid)
{
    QString out = grid.xTitle.toLower() + QLatin1Char(',') + grid.yTitle.toLower() + QStringLiteral(",label,")
        + (grid.difference ? QStringLiteral("rel_diff,first_divergence\n") : QStringLiteral("value\n"));
    auto quoted = [](QString cell) {
        if (cell.contains(QLatin1Char(',')) || cell.contains(QLatin1Char('"')))
            cell = QLatin1Char('"') + cell.replace(QLatin1Char('"'), QStringLiteral("\"\"")) + QLatin1Char('"');
        return cell;
    };
    for (int row = 0; row < grid.rows(); ++row)
        for (int column = 0; column < grid.columns(); ++column) {
            const std::size_t i = grid.index(column, row);
            if (grid.cells[i] == TrendGrid::Cell::Missing)
                continue;
            out += QString::number(grid.xKeys[column]) + QLatin1Char(',') + QString::number(grid.yKeys[row]) + QLatin1Char(',')
                + quoted(grid.yLabels[row]) + QLatin1Char(',');
            if (grid.cells[i] == TrendGrid::Cell::Value)
                out += std::isinf(grid.values[i]) ? QStringLiteral("inf") : QString::number(grid.values[i], 'g', 17);
            if (grid.difference)
                out += QLatin1Char(',') + QString::number(grid.firstDivergence.empty() ? 0 : grid.firstDivergence[i]);
            out += QLatin1Char('\n');
        }
    return out;
}

} // namespace msprobe::studio
