// SPDX-License-Identifier: Apache-2.0
// Passes run on built graphs before they are written: micro-step paging and the overflow check.
#pragma once

#include "graph/model/graph_model.h"

namespace msprobe::graph {

// Marks the root's children with micro-step numbers (a forward module after a backward one starts a new
// micro step; Megatron dumps carry them already) and propagates them downwards. In compare mode the bench
// partners get the NPU node's number; unmatched bench root children take their id's last number.
// Returns the number of micro steps.
int pageByMicroStep(Graph& graph, Graph* other = nullptr);

// NaN/Inf detection (-oc) on the raw dump entries: sets GraphNode::overflow of every node whose id is a dump key.
void checkOverflow(Graph& graph);

// The level one dump entry gets (exposed for tests).
OverflowLevel overflowLevelOf(const dump::DumpFile& dump, std::size_t entry);

} // namespace msprobe::graph
