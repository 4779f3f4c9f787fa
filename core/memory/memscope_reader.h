// SPDX-License-Identifier: Apache-2.0
// Reading a msMemScope dump (spec §1.2–§1.9): memscope_dump_*.csv, streamed, or its SQLite variant (.db, table
// memscope_dump). Strict: a row whose cell is not what the format says stops the read with a msprobe::Error
// naming the file, the line (the row ID for a .db) and the column.
#pragma once

#include "memory/mem_event.h"

#include <filesystem>
#include <string>
#include <vector>

namespace msprobe::memory {

// The dump at `file`: .db (or a file starting with the SQLite magic) is read as the database variant, anything
// else as CSV. Rows come back sorted by (Process Id, ID); a repeated (Process Id, ID) is an error.
MemTrace readMemScope(const std::filesystem::path& file);
MemTrace readMemScopeCsv(const std::filesystem::path& file);
MemTrace readMemScopeDb(const std::filesystem::path& file);

// Turns the text cells of one row (in §1.2 column order, stacks not needed) into an event of `trace`.
// Shared by the CSV and DB readers and the tests; errors name the row as "line N" (CSV) or "row N" (.db).
struct RowCells {
    std::string_view id, event, eventType, name, timestamp, pid, tid, device, ptr, attr;
};
void appendRow(MemTrace& trace, const RowCells& row, std::uint32_t line, bool database);

// Sorts the events by (pid, ID) and rejects repeated keys; the readers call it last.
void finishTrace(MemTrace& trace);

} // namespace msprobe::memory
