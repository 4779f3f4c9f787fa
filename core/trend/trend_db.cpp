// SPDX-License-Identifier: Apache-2.0
#include "trend/trend_db.h"

#include "support/error.h"
#include "support/json_number.h"

#include <algorithm>
#include <cmath>

namespace msprobe::trend {

const std::vector<std::string>& monitorStatOrder()
{
    static const std::vector<std::string> order = { "norm", "min", "max", "zeros", "nans", "mean", "entropy",
        "softmax_max", "sr", "kernel_norm", "std_x", "jacobian", "proxy", "token_similarity" };
    return order;
}

std::optional<double> parseTrendNumber(std::string_view text)
{
    // Python float()'s reading of what the monitor writes, with the dump reader's strict grammar: "0x10",
    // "1e", "1_000" or "16.4abc" are not numbers (strtod read their valid prefix).
    return support::parseStrictNumber(text);
}

std::optional<double> clampTrendValue(std::string_view text)
{
    const auto value = parseTrendNumber(text);
    return value ? clampTrendValue(*value) : std::nullopt;
}

TrendDbWriter::TrendDbWriter(const std::filesystem::path& file, std::vector<std::string> statColumns)
    : m_output(file)
    , m_db(std::make_unique<msprobe::support::SqliteDb>(m_output.temporaryPath(), false))
    , m_stats(std::move(statColumns))
{
    // A file only this process writes, renamed into place when complete: no journal, no syncs, one lock held.
    // 16 KiB pages: fewer B-tree levels and page splits per row than 4 KiB (the writing thread's SQLite time
    // -12% on a 256 MB dump; 64 KiB gains little more and makes every point query of the trend view read more).
    m_db->exec("PRAGMA page_size=16384; PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; PRAGMA locking_mode=EXCLUSIVE;"
               " PRAGMA cache_size=-65536; BEGIN;");
    m_db->exec(R"(CREATE TABLE monitoring_targets (
            target_id INTEGER PRIMARY KEY AUTOINCREMENT,
            target_name TEXT NOT NULL,
            vpp_stage INTEGER NOT NULL,
            micro_step INTEGER NOT NULL DEFAULT 0,
            UNIQUE(target_name, vpp_stage, micro_step)
        ))");
    m_db->exec(R"(CREATE TABLE monitoring_metrics (
            metric_id INTEGER PRIMARY KEY AUTOINCREMENT,
            metric_name TEXT UNIQUE NOT NULL
        ))");
    m_db->exec(R"(CREATE TABLE monitoring_tags (
            tag_id INTEGER PRIMARY KEY AUTOINCREMENT,
            tag_name TEXT NOT NULL,
            category TEXT NOT NULL,
            metric_id INTEGER NOT NULL,
            UNIQUE(tag_name, category, metric_id),
            FOREIGN KEY (metric_id) REFERENCES monitoring_metrics(metric_id)
        ))");
    // The reference's foreign key names "monitoring_target": kept as is (SQLite does not enforce it).
    m_db->exec(R"(CREATE TABLE tag_target_mapping (
            tag_id INTEGER NOT NULL,
            target_id INTEGER NOT NULL,
            PRIMARY KEY (tag_id, target_id),
            FOREIGN KEY (tag_id) REFERENCES monitoring_tags(tag_id),
            FOREIGN KEY (target_id) REFERENCES monitoring_target(target_id)
        ))");
    std::string columns, placeholders;
    for (const auto& stat : m_stats) {
        // Column names come from fixed lists of statistics and metrics: unquoted, as in the reference schema.
        columns += (columns.empty() ? "" : ", ") + stat + " REAL DEFAULT NULL";
        placeholders += ", ?";
    }
    m_db->exec("CREATE TABLE trend_data (\n            rank INTEGER NOT NULL,\n            step INTEGER NOT NULL,\n"
              "            target_id INTEGER NOT NULL,\n            metric_id INTEGER NOT NULL,\n            "
        + columns + (columns.empty() ? "" : ",")
        + "\n            PRIMARY KEY (rank, step, target_id, metric_id),\n"
          "            FOREIGN KEY (target_id) REFERENCES monitoring_targets(target_id),\n"
          "            FOREIGN KEY (metric_id) REFERENCES monitoring_metrics(metric_id)\n        ) WITHOUT ROWID");
    std::string names;
    for (const auto& stat : m_stats)
        names += ", " + stat;
    m_insertRow = std::make_unique<msprobe::support::SqliteStatement>(*m_db,
        "INSERT OR IGNORE INTO trend_data (rank, step, target_id, metric_id" + names + ") VALUES (?, ?, ?, ?"
            + placeholders + ")");
    m_insertNewRow = std::make_unique<msprobe::support::SqliteStatement>(*m_db,
        "INSERT INTO trend_data (rank, step, target_id, metric_id" + names + ") VALUES (?, ?, ?, ?" + placeholders + ")");
    std::string manyRows = "INSERT INTO trend_data (rank, step, target_id, metric_id" + names + ") VALUES ";
    for (std::size_t r = 0; r < kBatchRows; ++r)
        manyRows += (r ? ", (?, ?, ?, ?" : "(?, ?, ?, ?") + placeholders + ")";
    m_insertNewRows = std::make_unique<msprobe::support::SqliteStatement>(*m_db, manyRows);
    registerTrendRowFeed(m_db->handle(), m_stats.size(), &m_feedSource);
    std::string fedColumns = "rank, step, target_id, metric_id";
    for (std::size_t k = 0; k < m_stats.size(); ++k)
        fedColumns += ", stat" + std::to_string(k);
    const std::string fedInsert = "INTO trend_data (rank, step, target_id, metric_id" + names + ") SELECT " + fedColumns
        + " FROM msprobe_trend_rows";
    m_insertFed = std::make_unique<msprobe::support::SqliteStatement>(*m_db, "INSERT " + fedInsert);
    m_insertFedOrIgnore = std::make_unique<msprobe::support::SqliteStatement>(*m_db, "INSERT OR IGNORE " + fedInsert);
    m_insertTarget = std::make_unique<BatchedInsert>(
        *m_db, "monitoring_targets", std::vector<std::string> { "target_id", "target_name", "vpp_stage", "micro_step" });
    m_insertTag = std::make_unique<msprobe::support::SqliteStatement>(*m_db,
        "INSERT INTO monitoring_tags (tag_id, tag_name, category, metric_id) VALUES (?, ?, ?, ?)");
    m_insertMapping
        = std::make_unique<BatchedInsert>(*m_db, "tag_target_mapping", std::vector<std::string> { "tag_id", "target_id" });
}

TrendDbWriter::~TrendDbWriter() = default;

std::int64_t TrendDbWriter::metricId(const std::string& metric)
{
    auto [it, inserted] = m_metrics.emplace(metric, static_cast<std::int64_t>(m_metrics.size()) + 1);
    if (inserted) {
        msprobe::support::SqliteStatement insert(*m_db, "INSERT INTO monitoring_metrics (metric_id, metric_name) VALUES (?, ?)");
        insert.bindInt(1, it->second);
        insert.bindText(2, metric);
        insert.run();
    }
    return it->second;
}

std::int64_t TrendDbWriter::targetId(const std::string& name, std::int64_t vppStage, std::int64_t microStep)
{
    auto [it, inserted] = m_targets.emplace(std::make_tuple(name, vppStage, microStep), m_targetCount + 1);
    if (inserted)
        addNewTarget(name, vppStage, microStep);
    return it->second;
}

std::int64_t TrendDbWriter::addNewTarget(const std::string& name, std::int64_t vppStage, std::int64_t microStep)
{
    std::vector<BatchedInsert::Value> row { ++m_targetCount, name, vppStage, microStep };
    m_insertTarget->add(row);
    return m_targetCount;
}

void TrendDbWriter::tagTarget(std::int64_t targetId, std::int64_t metricId, const std::vector<TrendTag>& tags)
{
    auto& linked = m_linkedTags; // a name may give one tag twice ("layers" in "a.layers.0.layers.1")
    linked.clear();
    for (const auto& tag : tags) {
        // name NUL category NUL metric: one key per triple (category and metric hold no NUL, so a key reads back
        // from its end even for a name with one).
        m_tagKey.assign(tag.name).push_back('\0');
        m_tagKey.append(tag.category).push_back('\0');
        m_tagKey.append(std::to_string(metricId));
        auto it = m_tags.find(std::string_view(m_tagKey));
        const bool inserted = it == m_tags.end();
        if (inserted) {
            it = m_tags.emplace(m_tagKey, static_cast<std::int64_t>(m_tags.size()) + 1).first;
            m_insertTag->bindInt(1, it->second);
            m_insertTag->bindText(2, tag.name);
            m_insertTag->bindText(3, tag.category);
            m_insertTag->bindInt(4, metricId);
            m_insertTag->run();
        }
        if (std::find(linked.begin(), linked.end(), it->second) != linked.end())
            continue;
        linked.push_back(it->second);
        m_insertMapping->add(it->second, targetId);
    }
}

void TrendDbWriter::bindRow(msprobe::support::SqliteStatement& statement, int first, std::int64_t rank, std::int64_t step,
    std::int64_t targetId, std::int64_t metricId, std::span<const std::optional<double>> values)
{
    statement.bindInt(first, rank);
    statement.bindInt(first + 1, step);
    statement.bindInt(first + 2, targetId);
    statement.bindInt(first + 3, metricId);
    for (std::size_t k = 0; k < m_stats.size(); ++k) {
        const int index = first + 4 + static_cast<int>(k);
        if (k < values.size() && values[k])
            statement.bindDouble(index, *values[k]);
        else
            statement.bindNull(index);
    }
}

void TrendDbWriter::addRow(std::int64_t rank, std::int64_t step, std::int64_t targetId, std::int64_t metricId,
    std::span<const std::optional<double>> values)
{
    if (!m_pending.empty())
        flushNewRows(); // so that a duplicate of a pending row is seen and ignored
    bindRow(*m_insertRow, 1, rank, step, targetId, metricId, values);
    m_insertRow->run();
}

void TrendDbWriter::addNewRow(std::int64_t rank, std::int64_t step, std::int64_t targetId, std::int64_t metricId,
    std::span<const std::optional<double>> values)
{
    m_pending.push_back({ rank, step, targetId, metricId });
    for (std::size_t k = 0; k < m_stats.size(); ++k)
        m_pendingValues.push_back(k < values.size() ? values[k] : std::nullopt);
    if (m_pending.size() == kBatchRows)
        flushNewRows();
}

void TrendDbWriter::addRows(const TrendRowSource& rows, bool mayRepeatKeys)
{
    if (!m_pending.empty())
        flushNewRows(); // rows keep the order they were given in (the first of a key wins)
    m_feedSource = &rows;
    struct Detach {
        const TrendRowSource*& source;
        ~Detach() { source = nullptr; }
    } detach { m_feedSource };
    (mayRepeatKeys ? m_insertFedOrIgnore : m_insertFed)->run();
}

void TrendDbWriter::flushNewRows()
{
    const std::size_t width = m_stats.size();
    auto values = [&](std::size_t r) { return std::span<const std::optional<double>>(m_pendingValues.data() + r * width, width); };
    if (m_pending.size() == kBatchRows) {
        for (std::size_t r = 0; r < kBatchRows; ++r) {
            const auto& row = m_pending[r];
            bindRow(*m_insertNewRows, static_cast<int>(r * (4 + width)) + 1, row.rank, row.step, row.target, row.metric, values(r));
        }
        m_insertNewRows->run();
    } else {
        for (std::size_t r = 0; r < m_pending.size(); ++r) {
            const auto& row = m_pending[r];
            bindRow(*m_insertNewRow, 1, row.rank, row.step, row.target, row.metric, values(r));
            m_insertNewRow->run();
        }
    }
    m_pending.clear();
    m_pendingValues.clear();
}

void TrendDbWriter::writeGlobalStats(const std::vector<std::pair<std::string, std::int64_t>>& numbers,
    const std::vector<std::pair<std::string, std::string>>& metricStats)
{
    std::string columns, names, placeholders;
    for (const auto& [name, value] : numbers) {
        columns += (columns.empty() ? "" : ", ") + name + " INTEGER DEFAULT 0";
        names += (names.empty() ? "" : ", ") + name;
        placeholders += placeholders.empty() ? "?" : ", ?";
    }
    for (const auto& [name, stats] : metricStats) {
        columns += (columns.empty() ? "" : ", ") + name + " TEXT DEFAULT NULL";
        names += (names.empty() ? "" : ", ") + name;
        placeholders += placeholders.empty() ? "?" : ", ?";
    }
    m_db->exec("CREATE TABLE global_stats (\n            " + columns + "\n        )");
    msprobe::support::SqliteStatement insert(*m_db, "INSERT INTO global_stats (" + names + ") VALUES (" + placeholders + ")");
    int index = 1;
    for (const auto& item : numbers)
        insert.bindInt(index++, item.second);
    for (const auto& item : metricStats)
        insert.bindText(index++, item.second);
    insert.run();
}

void TrendDbWriter::finish()
{
    flushNewRows();
    m_insertTarget->flush();
    m_insertMapping->flush();
    m_insertRow.reset();
    m_insertNewRow.reset();
    m_insertNewRows.reset();
    m_insertFed.reset();
    m_insertFedOrIgnore.reset();
    m_insertTarget.reset();
    m_insertTag.reset();
    m_insertMapping.reset();
    m_db->exec("COMMIT;");
    m_db.reset();
    m_output.commit();
}

void rethrowImportFailure(const std::filesystem::path& dbFile, const support::Error& error)
{
    if (std::string_view(error.what()) == "cancelled")
        throw error;
    throw support::Error(dbFile.string(), {},
        std::string("the database was not written (an earlier file of this name is left as it was): ") + error.what());
}

} // namespace msprobe::trend
