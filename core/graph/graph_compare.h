// SPDX-License-Identifier: Apache-2.0
// Precision of matched nodes: the node's own input/output items are compared with its partner's the way
// the reference's graph compare does (items paired by position inside the input, parameter, output and
// parameter-gradient sections), the compare Result rules grade each row, the worst row grades the node.
#pragma once

#include "compare/compare_options.h"
#include "compare/result_rules.h"
#include "graph/graph_model.h"
#include "graph/node_data.h"

#include <atomic>
#include <functional>

namespace msprobe::graph {

struct GraphCompareOptions {
    CompareMode mode = CompareMode::Statistics;
    std::size_t threads = 0; // 0: all hardware threads
    const std::atomic<bool>* cancel = nullptr;
    std::function<void(std::size_t done, std::size_t total)> progress;
};

// The outcome of one node pair.
struct NodeCompare {
    bool compared = false; // false: the NPU node has no items (precision stays NULL)
    ResultLevel level = ResultLevel::Pass;
    std::vector<NodeItem> npuItems;
    std::vector<ResultCell> cells; // resultKeys(mode).size() per NPU item
};

NodeCompare compareNodePair(const Graph& npu, std::uint32_t n, const Graph& bench, std::uint32_t b, CompareMode mode);

// 0 / 0.5 / 1 for pass / warning / error, with the reference's override for empty-like APIs.
double precisionIndexOf(std::string_view nodeId, ResultLevel level, CompareMode mode);

// Compares every matched NPU node with its partner: sets precision and renders the NPU node's data with
// the result fields (Graph::rendered); then API collections take the worst precision of their APIs.
void compareGraphs(Graph& npu, const Graph& bench, const GraphCompareOptions& options);

// Recompares one pair (after a manual match): precision and rendered data of the NPU node.
void recompareNode(Graph& npu, std::uint32_t n, const Graph& bench, CompareMode mode);

// API collections (type 9 directly under the root): the worst precision of their children (0 when none).
void updateCollectionPrecision(Graph& npu);

} // namespace msprobe::graph
