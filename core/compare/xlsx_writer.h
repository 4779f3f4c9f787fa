// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "support/atomic_file.h"
#include "compare/compare_table.h"

#include <atomic>
#include <filesystem>

namespace msprobe::compare {

// Writes the table as .xlsx (libxlsxwriter, constant memory): sheet "Sheet1", or "part_0", "part_1", ... of at
// most 1,048,500 rows as the reference splits them; bold frozen header with an autofilter; rows coloured by
// Result (error red, warning yellow), or by the legacy highlight rules when options.legacyResult is set.
// Written under a temporary name and renamed into place (onClash: replace an existing file or pick a free name);
// returns the path written. Throws msprobe::Error.
std::filesystem::path writeXlsx(const CompareTable& table, const std::filesystem::path& path,
    const std::atomic<bool>* cancel = nullptr, support::AtomicFile::OnClash onClash = support::AtomicFile::OnClash::Replace);

} // namespace msprobe::compare
