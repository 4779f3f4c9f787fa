// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "compare/compare_table.h"

#include <cstdint>
#include <vector>

namespace msprobe::compare {

// The pre-2025-11 result semantics (spec 2.13), for reproducing old outputs: tensor mode fills
// "Accuracy Reached or Not" (Yes/No/None/Unmatched), statistics mode warns when a statistic differs by more
// than half its magnitude, and Err_message accumulates the compare messages.
void applyLegacyResult(CompareTable& table);

// Legacy "Accuracy Reached or Not" from the Cosine and MaxAbsErr cells.
std::string legacyAccuracy(const PyVal& cosine, const PyVal& maxAbsErr);

enum class Highlight : std::uint8_t { None, Yellow, Red };

// The removed -hl colouring (red wins over yellow), with the messages appended to Err_message.
struct HighlightResult {
    std::vector<Highlight> rows;
    std::vector<std::string> messages; // per row, "\n"-separated
};
HighlightResult legacyHighlight(const CompareTable& table);

} // namespace msprobe::compare
