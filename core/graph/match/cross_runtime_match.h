// SPDX-License-Identifier: Apache-2.0
// graph_visualize on a C++ libtorch capture (Aten.*) against a Python msprobe dump: the node pairs the
// cross-runtime keys give (compare/cross_runtime_pairing), and what the run says about them.
#pragma once

#include "compare/cross_runtime_pairing.h"
#include "graph/match/graph_compare.h"
#include "graph/model/graph_model.h"

#include <span>

#include <string>
#include <unordered_map>

namespace msprobe::graph {

// NPU entry name -> bench entry name for every entry whose cross-runtime key the other side has (the layer map
// matchGraphs takes).
std::unordered_map<std::string, std::string> crossRuntimeNodeMap(const compare::ItemTable& npu, const compare::ItemTable& bench,
    const compare::CrossRuntimeKeys& keys);

// A node pair matched by hand (the studio, --mapping-file): when one node is an Aten.* operator and the other a
// Python API, sets every item's pairKey / ignored as the automatic cross-runtime pairing would pair them
// (crossRuntimeNodePairKeys; the items view keys, keep it alive) and returns true; else leaves them alone.
bool keyCrossRuntimeNodePair(std::string_view npuNode, std::span<CompareItem> npu, std::string_view benchNode, std::span<CompareItem> bench,
    compare::NodePairKeys& keys);

// What graph_visualize says after matchGraphs: info is "cross-runtime pairing (counted per module call): P of N
// operator nodes paired; not paired: A, B, ..."; warning is set only when more than a tenth of the operator nodes
// found no partner (as compare warns about unpaired rows).
struct CrossRuntimeGraphSummary {
    std::string info, warning;
    std::size_t operators = 0, paired = 0;
};
CrossRuntimeGraphSummary crossRuntimeGraphSummary(const Graph& npu, const compare::CrossRuntimeKeys& keys);

} // namespace msprobe::graph
