// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "compare/compare_options.h"
#include "compare/cross_runtime_pairing.h"
#include "compare/items.h"

#include <cstdint>
#include <string>
#include <vector>

namespace msprobe::compare {

inline constexpr std::int32_t kUnmatched = -1;

// One result row: an NPU item and the Bench item it matched (or kUnmatched).
struct MatchedRow {
    std::uint32_t npu = 0;
    std::int32_t bench = kUnmatched;
};

// The reference's key for an item before mappings: the item name, with backward call counters renumbered by
// order of appearance (exact mode only).
std::string compareKey(const ItemTable& table, const Item& item, bool renumberBackward);

// Python Match.rename_api: the name without its call counter (fuzzy matching).
std::string fuzzyName(std::string_view name);

// The -cm rewrite of an NPU item name (Cell -> Module, then the mapping); "N/A" for names it does not cover.
std::string cellMappedName(std::string_view name, const NameMapping& mapping);

// Whether a matched pair passes the dtype gate (equal, or both in {fp16, fp32, bf16}).
bool dtypesMatch(std::string_view npu, std::string_view bench);

// Matches the NPU items against the Bench items as the reference does for the options given: rows in NPU
// order, Bench-only items dropped, failed dtype gate -> unmatched. crossRuntime: every item's key is given there.
std::vector<MatchedRow> matchItems(const ItemTable& npu, const ItemTable& bench, const CompareOptions& options,
    const CrossRuntimeKeys* crossRuntime = nullptr);

} // namespace msprobe::compare
