// SPDX-License-Identifier: Apache-2.0
// Why a node has its colour, and what a collapsed module hides: works on vis.db graphs from either tool.
#pragma once

#include "graph/visdb/vis_db_reader.h"

#include <string>
#include <vector>

namespace msprobe::graph {

enum class PrecisionLevel : std::uint8_t { Unmatched, NoData, Pass, Warning, Error };
std::string_view toString(PrecisionLevel level);
// The UI's lookup: [0, 0.3) pass, [0.3, 0.6) warning, [0.6, 1] error.
PrecisionLevel levelOfIndex(double precision);
// A node's own level (NPU side; bench nodes and build graphs: Unmatched/NoData/Pass only by link).
PrecisionLevel levelOf(const VisNode& node);
// The fill colour the plugin uses for the level ("#FFFCF3", "#FFDC7F", "#FF704D", "#C7C7C7", white).
std::string_view colourOf(PrecisionLevel level);

// What hides below a node (its descendants, not the node itself).
struct SubtreeSummary {
    PrecisionLevel worst = PrecisionLevel::NoData;
    std::size_t errors = 0, warnings = 0, unmatched = 0;
    std::size_t bad() const { return errors + warnings; }
};
// Per node of the graph, computed bottom-up in one pass; stored precision is not touched.
std::vector<SubtreeSummary> summarizeSubtrees(const VisGraph& graph);

struct Reason {
    PrecisionLevel level = PrecisionLevel::Pass;
    std::string item; // "Functional.gelu.1.forward.output.0" (or a child node for collections)
    std::string metric; // "NormRelativeErr", "Max/Min", "md5", "dtype", ...
    std::string value; // what the item has
    std::string threshold; // the rule's limit
    std::string message; // the reference's Err_message text
};

struct Explanation {
    PrecisionLevel level = PrecisionLevel::NoData;
    std::string summary; // one line
    std::vector<Reason> reasons; // the items that set the level, worst first
    std::vector<std::string> overflow; // items with NaN/Inf statistics when the node has an overflow level
};

// inputData/outputData: the node's stored JSON (VisDb::nodeData or VisNode with data). task: tb_config.task.
Explanation explainNode(const VisGraph& graph, std::uint32_t node, const std::string& task, const std::string& inputData,
    const std::string& outputData);

} // namespace msprobe::graph
