// SPDX-License-Identifier: Apache-2.0
// graph_visualize on a C++ libtorch capture (Aten.*) against a Python msprobe dump: the node pairs the
// cross-runtime keys give (compare/cross_runtime_pairing), and what the run says about them.
#pragma once

#include "compare/cross_runtime_pairing.h"
#include "graph/model/graph_model.h"

#include <string>
#include <unordered_map>

namespace msprobe::graph {

// NPU entry name -> bench entry name for every entry whose cross-runtime key the other side has (the layer map
// matchGraphs takes).
std::unordered_map<std::string, std::string> crossRuntimeNodeMap(const ItemTable& npu, const ItemTable& bench,
    const CrossRuntimeKeys& keys);

// "cross-runtime pairing (C++ Aten ops vs Python APIs): P of N operator nodes paired; not paired: A, B, ..."
// after matchGraphs.
std::string crossRuntimeGraphText(const Graph& npu, const CrossRuntimeKeys& keys);

} // namespace msprobe::graph
