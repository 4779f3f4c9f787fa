// SPDX-License-Identifier: Apache-2.0
// How the memory timeline follows the studio's one selection: a time range selects the outermost operators it
// overlaps; an operator is linked to a dump graph node by its API name (aten.addmm.default and
// Torch.addmm.0.forward / Aten.addmm.default.0.forward both name "addmm"), the node's call index picking the
// n-th instance; a graph step s (0-based, the dump's step directories) is the memory dump's step s + 1
// (msMemScope counts steps from 1).
#pragma once

#include "memorydocument.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace msprobe::studio {

// The timeline.ops indexes overlapping [beginNs, endNs], in time order.
std::vector<std::size_t> operatorsInRange(const MemoryTimeline& timeline, std::int64_t beginNs, std::int64_t endNs);

// "addmm" for "torch._ops.aten.addmm.default", "aten::addmm" or "aten.addmm"; the text itself otherwise.
std::string operatorApiName(std::string_view operatorName);

struct NodeApi {
    std::string api; // "" for nodes that are not operator calls (modules, the root)
    int callIndex = -1; // the n in Torch.add.n.forward, -1 when absent
};
// Torch.add.3.forward -> {add, 3}; Aten.addmm.default.0.backward -> {addmm, 0}; Module.fc1.Linear.forward.0 -> {}.
NodeApi nodeApi(std::string_view nodeName);

// The time span of a graph node in the timeline: its n-th operator instance inside `within` (the whole capture
// when null), or the span of all its instances when the call index is absent or beyond them.
std::optional<TimelineSpan> spanOfNode(const MemoryTimeline& timeline, std::string_view nodeName, const TimelineSpan* within = nullptr);

// The graph step's span (step s + 1 in the dump), or nullptr.
const TimelineSpan* spanOfGraphStep(const MemoryTimeline& timeline, int graphStep);

// Of `nodeNames` (graph order), those whose API is among the operators' (timeline.ops indexes), in graph order.
std::vector<std::string> nodesOfOperators(const MemoryTimeline& timeline, const std::vector<std::size_t>& operators,
    const std::vector<std::string>& nodeNames);

} // namespace msprobe::studio
