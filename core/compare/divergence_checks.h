// SPDX-License-Identifier: Apache-2.0
// The per-row tests behind the first-divergence rule (divergence.h): is a non-tensor argument different, is a
// tensor within tolerance, and how to name an item for a user. Internal to core/compare.
#pragma once

#include "compare/compare_table.h"
#include "compare/divergence.h"

#include <string>

namespace msprobe::compare::detail {

// An item's part in the rule: what the entry receives, what it produces, or neither (debug values).
enum class Role { Input, Output, Ignored };
Role roleOf(const Item& item);

// Whether the item is a tensor leaf; anything else (int, float, str, bool, None, torch.dtype, torch.Size, ...) is a
// non-tensor value.
bool isTensor(const ItemTable& items, const Item& item);

// The item as a user names it inside its entry: "argument 1", "kwarg approximate", "output 0", "parameter weight".
std::string itemLabel(const ItemTable& items, const Item& item);

// A non-tensor value as Python prints it in a call: 'tanh', 2.0, None, torch.float32, [2, 8].
std::string valueText(const ItemTable& items, const Item& item);

// Whether the item only names where the run happens (a device such as npu:0 or cuda:0, a process group, a
// stream): such arguments may differ between two runs without being a divergence. Both sides are looked at.
bool namesPlacement(const ItemTable& items, const Item& item);

// Whether two non-tensor values differ (type, value and extra keys; placement arguments never differ).
bool valuesDiffer(const ItemTable& npuItems, const Item& npu, const ItemTable& benchItems, const Item& bench);

// Whether a statistic is NaN or infinite (a float, or the text "nan" / "inf" / "-inf" a dump may hold).
bool nonFinite(const PyVal& value);

// Why a matched tensor row is out of tolerance ("Max relative error 3.8e-05 > 1e-05 (1.92 vs 1.93)",
// "CRC-32 1a2b3c4d vs 5e6f7a8b"), or empty when it is within it.
std::string tensorProblem(const CompareTable& table, const CompareRow& row, const DivergenceTolerance& tolerance);

// Why a matched non-tensor output differs ("2 vs 3"; numbers within the relative tolerance are equal), or empty.
std::string valueProblem(const CompareTable& table, const CompareRow& row, const DivergenceTolerance& tolerance);

} // namespace msprobe::compare::detail
