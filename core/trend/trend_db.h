// SPDX-License-Identifier: Apache-2.0
// Writer of the trend database (`*.trend.db`) that `msprobe data2db` produces and the trend view reads:
// the exact schema of the reference (targets, metrics, tags, tag/target mapping, trend_data, global_stats).
#pragma once

#include "support/atomic_file.h"
#include "support/error.h"
#include "support/sqlite_util.h"
#include "trend/batched_insert.h"
#include "trend/trend_row_feed.h"

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <vector>

namespace msprobe::trend {

// Monitor statistics in the order the reference gives their columns.
const std::vector<std::string>& monitorStatOrder();

// A cell value as the reference stores it: parsed as a float (an unparseable text is NULL), infinities
// become +-(1e9 + 1), values beyond +-1e9 are clamped to +-1e9, NaN is NULL.
std::optional<double> clampTrendValue(std::string_view text);
// The number a cell holds: JSON's number grammar (as the dump reader's) or a non-finite word Python's float()
// reads (nan, inf, infinity; signed, any case), space around it allowed; nullopt for an empty or other text.
std::optional<double> parseTrendNumber(std::string_view text);
// Inline: called for every statistic of every dump tensor.
inline std::optional<double> clampTrendValue(double value)
{
    constexpr double kLimit = 1e9;
    if (value >= -kLimit && value <= kLimit) // NaN fails both
        return value;
    if (std::isnan(value))
        return std::nullopt;
    if (std::isinf(value))
        return value > 0 ? kLimit + 1 : -kLimit - 1;
    return value > 0 ? kLimit : -kLimit;
}

struct TrendTag {
    std::string name;
    std::string category; // "module", "layer", "default", "index", "function"
};

class TrendDbWriter {
public:
    // Writes under a temporary name next to `file`; finish() renames it onto `file` (replacing an earlier one
    // in one step). Without finish() the temporary is removed and an earlier file is untouched.
    // statColumns: the trend_data statistic columns, in order.
    TrendDbWriter(const std::filesystem::path& file, std::vector<std::string> statColumns);
    ~TrendDbWriter();
    TrendDbWriter(const TrendDbWriter&) = delete;
    TrendDbWriter& operator=(const TrendDbWriter&) = delete;

    std::int64_t metricId(const std::string& metric);
    std::int64_t targetId(const std::string& name, std::int64_t vppStage, std::int64_t microStep);
    // targetId for a key the caller knows is new and never passes again (to either): no look-up kept.
    std::int64_t addNewTarget(const std::string& name, std::int64_t vppStage, std::int64_t microStep);
    // Tags are per metric; each is linked to the target once. Call once per (target, metric).
    void tagTarget(std::int64_t targetId, std::int64_t metricId, const std::vector<TrendTag>& tags);
    // values: one per stat column (nullopt = NULL). The first row for a (rank, step, target, metric) wins.
    void addRow(std::int64_t rank, std::int64_t step, std::int64_t targetId, std::int64_t metricId,
        std::span<const std::optional<double>> values);
    // addRow for a key the caller knows is new (no look-up for a duplicate first: faster, and a duplicate is an
    // error).
    void addNewRow(std::int64_t rank, std::int64_t step, std::int64_t targetId, std::int64_t metricId,
        std::span<const std::optional<double>> values);
    // A batch of rows in one statement, read by SQLite from `rows` (see trend_row_feed.h). mayRepeatKeys: a row
    // whose key is already present is ignored (the first wins, as addRow); else a repeated key is an error.
    void addRows(const TrendRowSource& rows, bool mayRepeatKeys);
    // global_stats: integer columns (name, value) then one TEXT column per metric (name, comma-joined stats).
    void writeGlobalStats(const std::vector<std::pair<std::string, std::int64_t>>& numbers,
        const std::vector<std::pair<std::string, std::string>>& metricStats);
    // Commits everything and moves the file into place. Throws msprobe::Error.
    void finish();

private:
    void bindRow(msprobe::support::SqliteStatement& statement, int first, std::int64_t rank, std::int64_t step,
        std::int64_t targetId, std::int64_t metricId, std::span<const std::optional<double>> values);
    void flushNewRows();
    // New rows wait here and go in kBatchRows per statement (one statement per row costs twice the time).
    static constexpr std::size_t kBatchRows = 64;
    struct PendingRow {
        std::int64_t rank, step, target, metric;
    };
    std::vector<PendingRow> m_pending;
    std::vector<std::optional<double>> m_pendingValues;
    support::AtomicFile m_output;
    std::unique_ptr<msprobe::support::SqliteDb> m_db;
    std::vector<std::string> m_stats;
    std::map<std::string, std::int64_t> m_metrics;
    std::map<std::tuple<std::string, std::int64_t, std::int64_t>, std::int64_t> m_targets;
    std::int64_t m_targetCount = 0;
    // Tag ids by (name, category, metric) packed into one string (see tagKey): a hashed look-up with the key
    // built in a reused buffer, where a map of string tuples compared strings about 15 times per tag.
    struct TagKeyHash {
        using is_transparent = void;
        std::size_t operator()(std::string_view key) const { return std::hash<std::string_view> {}(key); }
    };
    std::unordered_map<std::string, std::int64_t, TagKeyHash, std::equal_to<>> m_tags;
    std::string m_tagKey;
    std::vector<std::int64_t> m_linkedTags; // tagTarget's, kept from call to call
    const TrendRowSource* m_feedSource = nullptr; // what msprobe_trend_rows yields during addRows()
    std::unique_ptr<msprobe::support::SqliteStatement> m_insertRow, m_insertNewRow, m_insertNewRows, m_insertTag;
    std::unique_ptr<msprobe::support::SqliteStatement> m_insertFed, m_insertFedOrIgnore;
    std::unique_ptr<BatchedInsert> m_insertTarget, m_insertMapping;
};

// An import's failure as the user reads it: the database was not written and an earlier one is untouched.
// A cancellation passes through as it is.
[[noreturn]] void rethrowImportFailure(const std::filesystem::path& dbFile, const support::Error& error);

} // namespace msprobe::trend
