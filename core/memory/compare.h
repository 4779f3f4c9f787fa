// SPDX-License-Identifier: Apache-2.0
// Step-to-step memory comparison (spec §2.3): two dumps, or two steps of one dump, aligned op by op (or kernel by
// kernel) with the Myers diff on names; per aligned item the memory it caused on each side and the difference.
// `compat` reproduces msmemscope --compare (the size of the next pool row after the op); `net` is the net
// bytes the op instance allocated (MALLOC - FREE between its START and END, nested ops included) and its peak.
#pragma once

#include "memory/mem_model.h"

#include <optional>
#include <string>
#include <vector>

namespace msprobe::memory {

enum class CompareLevel { Op, Kernel };
enum class CompareMode { Compat, Net };

struct CompareSide {
    const MemTrace* trace = nullptr;
    const MemModel* model = nullptr;
    std::uint32_t step = 0; // 0 = the whole dump
};

struct CompareRow {
    std::string event; // OP_LAUNCH or KERNEL_LAUNCH
    std::string name;
    std::int32_t device = 0;
    std::optional<std::int64_t> base, compare; // absent = N/A (the item is on one side only)
    std::int64_t diff = 0;
    std::int64_t basePeak = 0, comparePeak = 0; // net mode: the highest net bytes inside the op
};

struct CompareResult {
    std::string framework; // PTA, MINDSPORE or TORCH_CPU
    std::vector<CompareRow> rows; // per device (ascending), in aligned sequence order
};

// Throws msprobe::Error naming the file for a dump mixing PTA and MINDSPORE rows, op level on a MindSpore dump,
// net mode at kernel level, or a step not in the dump.
CompareResult compareMemory(const CompareSide& base, const CompareSide& compare, CompareLevel level, CompareMode mode);

// The memory_compare_*.csv text: two header lines, then the rows.
std::string compareCsv(const CompareResult& result);

// The Myers O(ND) shortest edit script of a vs b: pairs (i, j) of equal items, in order.
std::vector<std::pair<std::size_t, std::size_t>> myersMatches(const std::vector<std::string_view>& a, const std::vector<std::string_view>& b);

} // namespace msprobe::memory
