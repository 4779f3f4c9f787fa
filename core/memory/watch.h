// SPDX-License-Identifier: Apache-2.0
// Block watch (spec §2.6): msMemScope's 64-bit checksum of a watched tensor's bytes, and the reading of its
// watch_dump_data_check_sum_*.csv to find where a watched block changed — the op that overwrote it.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace msprobe::memory {

// Table-driven, bytes LSB-first, constant 0x42F0E1EBA9EA3693 used directly in the reflected loop, initial and
// final XOR all ones (not CRC-64/XZ; §2.6 and acceptance check 7).
std::uint64_t watchChecksum(const void* data, std::size_t size);
// As msMemScope writes it: 16 lowercase hex digits.
std::string watchChecksumText(std::uint64_t crc);

// One row of the checksum CSV, its name split as {dev}_{tid}/{op}_{call}-{watched}_{index}_{before|after}.
struct WatchDump {
    std::string tensorInfo; // the cell as written
    std::string thread; // "{dev}_{tid}", may be empty
    std::string op; // the op being entered or left
    std::uint64_t call = 0; // per-op-name execution counter
    std::string watched; // the start op name or the Python watch name
    std::string index; // output index (outid) or tensor index
    bool after = false;
    std::string checksum;
    std::size_t line = 0;
};

// A change of a watched tensor's checksum between two consecutive dumps of it.
struct WatchChange {
    std::string tensor; // "{watched}_{index}"
    std::size_t from = 0, to = 0; // WatchReport::dumps indexes
    bool insideOp = false; // before -> after of the same op call: that op wrote it
};

struct WatchReport {
    std::vector<WatchDump> dumps; // file order
    std::vector<WatchChange> changes; // in file order; the first one outside the watched range is the suspect
};

// Throws msprobe::Error naming the file and line for a header other than "Tensor info,Check data sum", a name
// not in the §2.6 shape or a checksum that is not 16 hex digits.
WatchReport readWatchChecksums(const std::filesystem::path& file);

} // namespace msprobe::memory
