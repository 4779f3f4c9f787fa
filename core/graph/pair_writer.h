// SPDX-License-Identifier: Apache-2.0
// Compare of a matched NPU/bench graph pair with its vis.db rows written as early as they can be.
#pragma once

#include "graph/match/graph_compare.h"
#include "graph/visdb/vis_db_writer.h"

namespace msprobe::graph {

// Compares npu against bench (as compareGraphs) and writes both sides' rows, NPU rows first in the table. One
// thread writes the bench rows (they need only the matching), indexes them, then writes the NPU rows as the
// compare finishes them in post order; the other threads compare. Matching, micro-step paging and overflow
// levels must be done before. Throws msprobe::Error("cancelled") when compare.cancel is raised.
void compareAndWritePair(VisDbWriter& writer, Graph& npu, Graph& bench, const GraphCompareOptions& compare, int step,
    int rank, const RenderOptions& render);

} // namespace msprobe::graph
