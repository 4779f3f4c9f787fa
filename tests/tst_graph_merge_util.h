// SPDX-License-Identifier: Apache-2.0
// Shared by the parallel-merge suites: merging a folder of hand-written rank dumps and reading the result.
#pragma once

#include "graph/model/graph_builder.h"
#include "graph/merge/graph_merge.h"
#include "graph/model/graph_passes.h"
#include "graph/visdb/node_data.h"

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace msprobe::test {

inline const std::filesystem::path kMergeData = std::filesystem::path(MSPROBE_TEST_DATA) / "graph_merge";

// Builds rank0 .. rank{rank_size - 1} under dir and merges them; warnings, when given, collects the merge's.
inline std::vector<graph::MergedGraph> mergeDir(
    const std::filesystem::path& dir, graph::ParallelParams params, std::vector<std::string>* warnings = nullptr)
{
    std::vector<std::pair<int, graph::Graph>> graphs;
    std::vector<int> microSteps;
    for (int rank = 0; rank < params.rankSize; ++rank) {
        graph::Graph built = graph::buildGraph(dir / ("rank" + std::to_string(rank)));
        microSteps.push_back(graph::pageByMicroStep(built));
        graphs.emplace_back(rank, std::move(built));
    }
    std::function<void(const std::string&)> warn;
    if (warnings)
        warn = [warnings](const std::string& message) { warnings->push_back(message); };
    return graph::mergeRankGraphs(std::move(graphs), std::move(microSteps), params, dir.string(), warn);
}

inline std::vector<std::string> childIds(const graph::Graph& g, std::string_view id)
{
    std::vector<std::string> ids;
    const std::uint32_t node = g.find(id);
    if (node == graph::kNoNode)
        return { "<" + std::string(id) + " missing>" };
    for (auto child : g.node(node).children)
        ids.emplace_back(g.node(child).id);
    return ids;
}

// The node's input_data (output false) or output_data JSON as the vis.db would hold it, without compare fields.
inline std::string nodeData(const graph::Graph& g, std::string_view id, bool output)
{
    std::string out;
    const std::uint32_t node = g.find(id);
    if (node == graph::kNoNode)
        return "<" + std::string(id) + " missing>";
    graph::appendNodeData(out, g, node, g.nodeItems(node), output, {}, nullptr);
    return out;
}

inline std::string outputData(const graph::Graph& g, std::string_view id) { return nodeData(g, id, true); }

} // namespace msprobe::test
