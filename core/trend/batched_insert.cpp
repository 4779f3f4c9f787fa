// SPDX-License-Identifier: Apache-2.0
#include "trend/batched_insert.h"

namespace msprobe::trend {

BatchedInsert::BatchedInsert(msprobe::support::SqliteDb& db, const std::string& table, const std::vector<std::string>& columns)
    : m_width(columns.size())
{
    std::string names, row;
    for (const auto& column : columns) {
        names += (names.empty() ? "" : ", ") + column;
        row += row.empty() ? "(?" : ", ?";
    }
    row += ")";
    const std::string insert = "INSERT INTO " + table + " (" + names + ") VALUES ";
    m_one = std::make_unique<msprobe::support::SqliteStatement>(db, insert + row);
    std::string rows;
    for (std::size_t r = 0; r < kRows; ++r)
        rows += (r ? ", " : "") + row;
    m_many = std::make_unique<msprobe::support::SqliteStatement>(db, insert + rows);
    m_values.reserve(kRows * m_width);
}

BatchedInsert::~BatchedInsert() = default;

void BatchedInsert::add(std::vector<Value>& row)
{
    for (auto& value : row)
        m_values.push_back(std::move(value));
    if (m_values.size() == kRows * m_width) {
        bind(*m_many, 0, 1, m_values.size());
        m_many->run();
        m_values.clear();
    }
}

void BatchedInsert::add(std::int64_t a, std::int64_t b)
{
    m_values.emplace_back(a);
    m_values.emplace_back(b);
    if (m_values.size() == kRows * m_width) {
        bind(*m_many, 0, 1, m_values.size());
        m_many->run();
        m_values.clear();
    }
}

void BatchedInsert::bind(msprobe::support::SqliteStatement& statement, std::size_t firstValue, int firstIndex, std::size_t count)
{
    for (std::size_t k = 0; k < count; ++k) {
        const int index = firstIndex + static_cast<int>(k);
        const Value& value = m_values[firstValue + k];
        if (const auto* i = std::get_if<std::int64_t>(&value))
            statement.bindInt(index, *i);
        else if (const auto* d = std::get_if<double>(&value))
            statement.bindDouble(index, *d);
        else if (const auto* s = std::get_if<std::string>(&value))
            statement.bindText(index, *s);
        else
            statement.bindNull(index);
    }
}

void BatchedInsert::flush()
{
    for (std::size_t first = 0; first < m_values.size(); first += m_width) {
        bind(*m_one, first, 1, m_width);
        m_one->run();
    }
    m_values.clear();
}

} // namespace msprobe::trend
