// SPDX-License-Identifier: Apache-2.0
#pragma once

// --consistent_check --backend fsdp|megatron (spec 2.11): a training dump (NPU side) against an inference dump
// (Bench side). Items are joined on (call direction with forward counters renumbered, suffix, layer index, mapped
// module name); the side whose modules are split (FSDP training: q/k/v and gate/up projections; Megatron inference:
// gate_up_proj) is aggregated into one row per item of the other side, and the rows are ordered so that both
// sides stay in dump order.

#include "compare/compare_options.h"
#include "compare/items.h"
#include "compare/py_value.h"

#include <cstdint>
#include <string>
#include <vector>

namespace msprobe::compare {

// A statistic cell that owns its text (PyVal only views).
struct OwnedPy {
    PyKind kind = PyKind::Str;
    double f = 0;
    std::string s;
    PyVal view() const { return kind == PyKind::Float ? PyVal::real(f) : PyVal::str(s); }
};

// One side of a consistent-check row as the reference's aggregated table shows it. No items: the side is "N/A".
struct ConsistentSide {
    std::vector<std::uint32_t> items; // ItemTable indices, in dump order
    std::string name; // joined with ";  " (";\n" in xlsx) when aggregated
    std::string dtype, shape, dataName; // joined with ';'
    OwnedPy stats[4]; // Max, Min, Mean, Norm after the reference's text round trip
    std::string requiresGrad, md5; // of the first item
    std::string apiOriginName; // entry name of the first item
    bool present() const { return !items.empty(); }
};

struct ConsistentRow {
    ConsistentSide npu, bench;
    std::string apiOriginName; // the NPU one, or the one borrowed through the Bench entry (rule groups)
    std::int64_t stackItem = -1; // NPU item whose entry's stack the row shows (only the first item of an entry)
};

// The layer index of a name (first "layers.N"), -1 when it has none.
long long consistentLayer(std::string_view opNoNumber);

// "[217, 1, 896]" -> "[217,896]": the shape without size-1 dimensions, as the reference's VerlShape check compares.
std::string squeezeShapeText(std::string_view shape);

// The rows of a consistent check in output order. Throws msprobe::Error when the two dump orders conflict.
std::vector<ConsistentRow> matchConsistent(const ItemTable& npu, const ItemTable& bench, const CompareOptions& options);

} // namespace msprobe::compare
