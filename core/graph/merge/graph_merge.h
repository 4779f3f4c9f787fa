// SPDX-License-Identifier: Apache-2.0
// Parallel merge of one side's rank graphs into one graph per data-parallel replica (spec §1.9).
#pragma once

#include "graph/model/graph_model.h"
#include "graph/merge/parallel_merge.h"

#include <functional>
#include <string>
#include <vector>

namespace msprobe::graph {

struct MergedGraph {
    int rank = 0; // the rank of the replica's first member, under which it is stored
    Graph graph;
    int microSteps = 1; // that rank's micro-step count before the merge
};

// graphs: (rank, built graph) in rank order, micro steps and overflow levels already set; microSteps by graph.
// Throws msprobe::Error naming `where` when the groups name ranks that have no graph or when the merge would
// produce two nodes of one name.
std::vector<MergedGraph> mergeRankGraphs(std::vector<std::pair<int, Graph>> graphs, std::vector<int> microSteps,
    const ParallelParams& params, const std::string& where, const std::function<void(const std::string&)>& warn = {});

} // namespace msprobe::graph
