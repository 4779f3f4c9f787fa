// SPDX-License-Identifier: Apache-2.0
// The memory panel as CSV: the timeline's blocks (all, or those overlapping a selected time range) and a
// two-run comparison's differing blocks. Text only; the studio writes the file.
#pragma once

#include "memorycomparison.h"

#include <optional>
#include <string>
#include <utility>

namespace msprobe::studio {

// Header: allocation_id,ptr,size_bytes,pool,device,owner,operator,alloc_offset_ns,free_offset_ns,alive_at_end,step,reason
// (offsets from the capture's first event; free_offset_ns empty for blocks alive at the end).
std::string timelineCsv(const MemoryDocument& document, std::optional<std::pair<std::int64_t, std::int64_t>> range = std::nullopt);

// Header: side,size_bytes,operator,owner,allocation_id,alloc_offset_ns,reason; side is "A only" or "B only".
std::string comparisonCsv(const MemoryComparison& comparison, const MemoryDocument& a, const MemoryDocument& b);

} // namespace msprobe::studio
