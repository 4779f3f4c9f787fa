// SPDX-License-Identifier: Apache-2.0
// The pieces the CSV and database readers of a msMemScope dump share: the header map and the row parser that
// writes one event into a caller-owned record (so the parallel CSV reader can fill its slots in place).
#pragma once

#include "memory/memscope_reader.h"

#include <array>
#include <string>
#include <string_view>
#include <vector>

namespace msprobe::memory {

// Column indexes of the ten §1.2 columns in a header row (titles matched case-insensitively, §1.9). Throws
// msprobe::Error naming `file`, line 1 and the missing title.
std::array<int, 10> mapHeader(const std::vector<std::string_view>& header, const std::string& file);

// appendRow without the push: interns into `strings`, errors name `file`.
void parseRow(const RowCells& row, std::uint32_t line, bool database, support::StringPool& strings, const std::string& file, MemEvent& event);

// readMemScopeCsv with the data cut into `pieces` parts read in parallel (0: one per core, none under 8 MiB), so
// the tests can cut small files.
MemTrace readMemScopeCsvInPieces(const std::filesystem::path& file, unsigned pieces);

} // namespace msprobe::memory
