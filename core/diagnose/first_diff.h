// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "compare/compare_table.h"

#include <string>
#include <vector>

namespace msprobe::diagnose {

// One entry of the -da compare_result_{rank}_{ts}.json: the reference's "api batch" (consecutive rows of one
// entry) and whether its outputs stayed within the first-diff thresholds.
struct ApiCheck {
    std::string name;
    bool isSame = true;
    std::size_t rowBegin = 0, rowEnd = 0;
};

// The reference's FirstDiffAnalyze.check on a table compared with options.firstDiffAnalyze.
std::vector<ApiCheck> firstDiffChecks(const compare::CompareTable& table);

// compare_result_{rank}_{ts}.json text (json.dump, indent 4).
std::string firstDiffCompareJson(const compare::CompareTable& table, const std::vector<ApiCheck>& checks);

// One rank's input to the diff analyzer.
struct RankChecks {
    int rank = 0;
    const compare::CompareTable* table = nullptr;
    std::vector<ApiCheck> checks;
};

// The reference's DiffAnalyzer (find_first): the first diff node before, during or after communication, per
// spec 2.14. Returns diff_analyze_{ns}.json text (indent 2), or empty when no diff node is found.
std::string analyzeFirstDiff(const std::vector<RankChecks>& ranks);

// json.dumps of one table cell (floats as repr, inf as Infinity, missing as NaN, lists as arrays).
// A line break and indent * depth spaces, as Python's json.dump(indent=...) writes them.
void appendJsonNewline(std::string& out, int indent, int depth);
void appendJsonCell(std::string& out, const compare::Cell& cell, int indent, int depth);

} // namespace msprobe::diagnose
