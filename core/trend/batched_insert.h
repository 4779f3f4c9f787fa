// SPDX-License-Identifier: Apache-2.0
// INSERTs of rows whose keys are known to be new, sent to SQLite many rows per statement: the statement overhead
// (bind, step, reset, cursor open/close) is about half the cost of a one-row INSERT.
#pragma once

#include "support/sqlite_util.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace msprobe::trend {

class BatchedInsert {
public:
    using Value = std::variant<std::monostate, std::int64_t, double, std::string>; // monostate: NULL
    // columns: "(a, b, c)" of `table`.
    BatchedInsert(msprobe::support::SqliteDb& db, const std::string& table, const std::vector<std::string>& columns);
    ~BatchedInsert();
    BatchedInsert(const BatchedInsert&) = delete;
    BatchedInsert& operator=(const BatchedInsert&) = delete;

    // One value per column, in order; the row is written by a later add() or flush().
    void add(std::vector<Value>& row);
    void add(std::int64_t a, std::int64_t b);
    // Writes the rows still waiting; call before reading the table and before committing.
    void flush();
    bool empty() const { return m_values.empty(); }

private:
    static constexpr std::size_t kRows = 64;
    void bind(msprobe::support::SqliteStatement& statement, std::size_t firstValue, int firstIndex, std::size_t count);
    std::size_t m_width;
    std::unique_ptr<msprobe::support::SqliteStatement> m_one, m_many;
    std::vector<Value> m_values;
};

} // namespace msprobe::trend
