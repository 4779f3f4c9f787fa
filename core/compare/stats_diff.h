// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "compare/py_value.h"

#include <string>

namespace msprobe::compare {

// How the reference classifies a statistic cell before choosing a diff rule (spec 2.7).
enum class StatClass : std::uint8_t { Num, Nan, Inf, NegInf, Device, NA, Other };
StatClass classifyStat(const PyVal& value);

// One statistic's "{S} diff" and "{S}RelativeErr" cells (statistics mode), both as text.
// intColumn: pandas' to_numeric read the whole column as int64 (every cell an integer literal).
void statisticDiff(const PyVal& npu, const PyVal& bench, bool npuIntColumn, bool benchIntColumn, std::string& diff, std::string& rel);
// The same with pandasReparse of each side's value already known (used for Float values only).
void statisticDiff(const PyVal& npu, const PyVal& bench, bool npuIntColumn, bool benchIntColumn, double npuReparsed,
    double benchReparsed, std::string& diff, std::string& rel);

// Whether pandas' to_numeric(str(cell)) reads the cell as an integer (decides the int64 column case).
bool isIntegerCell(const PyVal& value);

// The legacy (before 2025-11) statistics diff: a number (or "Nan"/"N/A") and "x%"/"N/A"; warn when
// |diff| / (max(|npu|, |bench|) + 1e-10) > 0.5.
void legacyStatisticDiff(const PyVal& npu, const PyVal& bench, std::string& diff, std::string& rel, bool& warn);

} // namespace msprobe::compare
