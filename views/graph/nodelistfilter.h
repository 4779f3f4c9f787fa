// SPDX-License-Identifier: Apache-2.0
// Which nodes a node list shows: name search (substring or regex) on either side, or the reference's precision
// and overflow filters (leaf debug-side nodes only), always in node_order.
#pragma once

#include "graph/visdb/precision_explain.h"

#include <QString>

#include <set>
#include <vector>

namespace msprobe::views {

struct NodeFilter {
    QString text; // empty: every node
    bool regex = false;
    std::set<msprobe::graph::PrecisionLevel> levels; // Pass, Warning, Error, Unmatched
    std::set<std::string> overflow; // "medium", "high", "critical"
    int microStep = -1;
    bool gradesOnly() const { return !levels.empty() || !overflow.empty(); }
};

// Nodes of graph (node_order) passing the filter. With levels/overflow set only leaf nodes count (the caller passes
// the debug graph). An invalid regex matches nothing.
std::vector<std::uint32_t> filterNodes(const msprobe::graph::VisGraph& graph, const NodeFilter& filter);

// The first error-level leaf of the debug graph in node_order (kNoVisNode when none).
std::uint32_t firstDivergence(const msprobe::graph::VisGraph& graph, int microStep = -1);

} // namespace msprobe::views
