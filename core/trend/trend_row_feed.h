// SPDX-License-Identifier: Apache-2.0
// trend_data rows handed to SQLite through a virtual table, so that one `INSERT INTO trend_data SELECT ...`
// takes a whole batch: SQLite reads each value from the caller's memory instead of a bound parameter (no
// sqlite3_bind_* per value, no statement reset every few rows, no copy of the rows into a staging buffer).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>

struct sqlite3;

namespace msprobe::trend {

// A batch of trend_data rows, read in order (row k once, k ascending) while the INSERT runs.
class TrendRowSource {
public:
    virtual ~TrendRowSource() = default;
    virtual std::size_t rowCount() const = 0;
    struct Row {
        std::int64_t rank = 0, step = 0, target = 0, metric = 0;
        std::span<const std::optional<double>> values; // one per statistic column; nullopt (or missing) = NULL
    };
    virtual Row row(std::size_t k) const = 0;
};

// Registers the eponymous virtual table `msprobe_trend_rows` (columns rank, step, target_id, metric_id, then
// `statCount` REAL columns) on `db`; it yields the rows of *current while a statement reads it. It is never
// written to the database file.
void registerTrendRowFeed(sqlite3* db, std::size_t statCount, const TrendRowSource* const* current);

} // namespace msprobe::trend
