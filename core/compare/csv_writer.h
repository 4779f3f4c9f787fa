// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "compare/compare_table.h"

#include <atomic>
#include <cstddef>
#include <functional>
#include <string>

namespace msprobe::compare {

// Appends one cell as pandas' to_csv writes it (csv QUOTE_MINIMAL, float infinities as " inf"/" -inf").
void appendCsvField(std::string& out, const Cell& cell);

// The rows [begin, end) of the table as CSV lines (no header).
void appendCsvRows(std::string& out, const CompareTable& table, const std::vector<Column>& columns, std::size_t begin, std::size_t end);

// The header line.
std::string csvHeader(const CompareTable& table);

// Whole table as CSV text (tests, small tables).
std::string csvText(const CompareTable& table);

// Streams the rows [begin, end) with header to sink in blocks, rendering on `threads` threads. The sink gets
// blocks in order. cancel (optional) stops the work with msprobe::Error("cancelled").
void streamCsv(const CompareTable& table, std::size_t begin, std::size_t end, std::size_t threads,
    const std::function<void(std::string_view)>& sink, const std::atomic<bool>* cancel = nullptr);

} // namespace msprobe::compare
