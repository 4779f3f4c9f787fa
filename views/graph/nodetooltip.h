// SPDX-License-Identifier: Apache-2.0
// The hover text of a graph node: its full name, and why it has its colour (the rule, the value, the limit).
#pragma once

#include "graph/visdb/precision_explain.h"

#include <QString>

namespace msprobe::views {

// inputData/outputData: the node's stored JSON (may be empty: then only the level and what hides below are said).
QString nodeToolTip(const msprobe::graph::VisGraph& graph, std::uint32_t node, bool benchSide, const std::string& task,
    const std::string& inputData, const std::string& outputData, const msprobe::graph::SubtreeSummary* hidden);

} // namespace msprobe::views
