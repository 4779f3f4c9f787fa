// SPDX-License-Identifier: Apache-2.0
// The events of one msMemScope dump (memscope_dump_*.csv / .db, or our own capture in that layout): one
// fixed-size record per row, text interned, rows kept in (Process Id, ID) order because the files are not
// written chronologically (blocks are written when freed).
#pragma once

#include "support/string_pool.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace msprobe::memory {

enum class EventKind : std::uint8_t { System, Malloc, Free, Access, OpLaunch, KernelLaunch, Mstx, Snapshot, OomDetail };

// "MALLOC" -> Malloc, ...; false for an unknown Event cell.
bool parseEventKind(std::string_view text, EventKind& kind);
std::string_view eventKindName(EventKind kind);

inline constexpr std::int64_t kAbsent = -1; // a number the row does not carry
inline constexpr std::int32_t kDeviceCpu = -1;
inline constexpr std::int32_t kDeviceUnknown = -2; // N/A (msMemScope's 9999)
inline constexpr std::int32_t kDeviceHost = -3; // legacy files

enum EventFlag : std::uint8_t {
    kFlagShadow = 1, // shadow:true — a synthetic FREE written at exit or after a stop, not a real free
    kFlagHasAllocationId = 2,
    kFlagHasPtr = 4,
};

struct MemEvent {
    std::uint64_t id = 0; // the ID column: unique per process
    std::int64_t tsNs = 0;
    std::uint64_t ptr = 0; // the Ptr column, or Attr addr when Ptr is N/A
    std::int64_t size = kAbsent; // Attr size (bytes)
    std::int64_t total = kAbsent; // Attr total (pool reserved bytes after the event)
    std::int64_t used = kAbsent; // Attr used (pool allocated bytes after the event)
    std::uint64_t allocationId = 0;
    std::int32_t pid = -1, tid = -1;
    std::int32_t device = kDeviceUnknown;
    std::uint32_t line = 0; // the line of the file the row starts on
    support::StringId subType = support::kNoString; // Event Type: PTA, HAL, ATEN_START, Mark, STEP, ...
    support::StringId name = support::kNoString; // Name ("N/A" stays kNoString)
    support::StringId owner = support::kNoString; // Attr owner
    support::StringId inefficient = support::kNoString; // Attr inefficient_type (or legacy inefficient)
    // OOM_DETAIL rows (§1.3) reuse the fields above: size = req_size (OOM_TRIGGER) or the record's size, ptr = the
    // record's ptr, allocationId = the record's timestamp (when its block was allocated), detail = func (trigger)
    // or pool (records).
    support::StringId detail = support::kNoString;
    EventKind kind = EventKind::System;
    std::uint8_t flags = 0;

    bool shadow() const { return flags & kFlagShadow; }
    bool isMemory() const { return kind == EventKind::Malloc || kind == EventKind::Free || kind == EventKind::Access; }
};

struct MemTrace {
    std::string file; // for messages
    support::StringPool strings;
    std::vector<MemEvent> events; // sorted by (pid, ID)
    std::size_t rowsRead = 0;

    std::string_view text(support::StringId id) const { return strings.view(id); }
    bool is(support::StringId id, std::string_view value) const { return id != support::kNoString && strings.view(id) == value; }
};

// "0", "cpu", "N/A", "host" for a device number.
std::string deviceName(std::int32_t device);
// "0x000012c041400000" as msMemScope writes Ptr.
std::string hexPtr(std::uint64_t ptr);

} // namespace msprobe::memory
