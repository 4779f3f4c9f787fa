// SPDX-License-Identifier: Apache-2.0
// Out-of-memory report (spec §1.3 OOM_DETAIL rows, §2.1 "OOM detail", §5.3 reportOutOfMemory): for every
// OOM_TRIGGER row, what was live at the failing allocation — by category, owner and allocating operator, the
// largest and the most recent blocks — rebuilt from the dump's MALLOC/FREE rows, next to the OOM_RECENT_ALLOC /
// OOM_TOP_ALLOC records msMemScope writes after the trigger.
#pragma once

#include "memory/mem_model.h"

#include <cstdint>
#include <string>
#include <vector>

namespace msprobe::memory {

struct OomOptions {
    std::size_t top = 10; // largest / most recent blocks listed (msMemScope's oom:K, default 10)
    bool includeHal = false; // HAL blocks back the pools; counted only on request, so bytes are not counted twice
};

// An OOM_RECENT_ALLOC or OOM_TOP_ALLOC row as written.
struct OomRecord {
    std::string type; // OOM_RECENT_ALLOC / OOM_TOP_ALLOC
    std::string pool;
    std::uint64_t ptr = 0;
    std::int64_t size = 0;
    std::uint64_t allocTsNs = 0; // 0 when the row has none
    std::uint32_t line = 0;
};

struct OomShare {
    std::string key; // category, owner ("" = untagged) or op name ("" = outside every op)
    std::size_t blocks = 0;
    std::int64_t bytes = 0;
};

struct OomIncident {
    std::uint32_t event = kNone; // the OOM_TRIGGER row (MemTrace::events index)
    std::string func; // Attr func
    std::int64_t requested = -1; // Attr req_size, -1 if absent
    std::int32_t pid = -1, device = kDeviceUnknown;
    std::string op; // innermost open op on the trigger's thread, "" if none
    std::int64_t liveBytes = 0;
    std::size_t liveBlocks = 0;
    std::int64_t reservedBytes = -1; // the last pool `total` before the trigger, -1 if none
    std::vector<OomShare> byCategory, byOwner, byOp; // largest first
    std::vector<std::uint32_t> live; // MemModel::blocks indexes, largest first (ties: earlier MALLOC first)
    std::vector<std::uint32_t> recent; // the `top` most recently allocated live blocks, newest first
    std::vector<OomRecord> records; // the OOM_DETAIL record rows that follow the trigger
};

struct OomReport {
    std::vector<OomIncident> incidents; // in event order
};

// Blocks of the trigger's process (and device, when the trigger names one) allocated before it and not really
// freed before it.
OomReport findOomIncidents(const MemTrace& trace, const MemModel& model, const OomOptions& options = {});

} // namespace msprobe::memory
