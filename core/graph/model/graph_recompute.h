// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "graph/model/graph_model.h"

namespace msprobe::graph {

// Activation recomputation makes msprobe record a layer's second forward (and its backward) at the top
// level. This moves such root-level modules under the backward module that really ran them, as the
// reference does: the stack must show a recompute frame (PyTorch only), the name must be deeper than a
// top-level layer's, and its forward/backward twin must also sit at the root.
void handleRecompute(Graph& graph);

// The frame test on one stack.json entry (exposed for tests).
bool stackShowsRecompute(const std::vector<std::string>& frames);

} // namespace msprobe::graph
