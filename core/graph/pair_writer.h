// SPDX-License-Identifier: Apache-2.0
// Compare of a matched NPU/bench graph pair with its vis.db rows written as early as they can be.
#pragma once

#include "graph/graph_compare.h"
#include "graph/vis_db_writer.h"

namespace msprobe::graph {

// Compares npu against bench (compareGraphs) and writes both sides' rows, NPU rows first in the table. The
// bench rows need only the matching, so they are rendered and inserted on a second thread while the NPU side
// is compared; the NPU rows follow. Matching, micro-step paging and overflow levels must be done before.
void compareAndWritePair(VisDbWriter& writer, Graph& npu, Graph& bench, const GraphCompareOptions& compare, int step,
    int rank, const RenderOptions& render);

} // namespace msprobe::graph
