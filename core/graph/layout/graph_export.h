// SPDX-License-Identifier: Apache-2.0
// Pictures of graphs for reports: the expanded hierarchy of one or both sides, laid out group by group,
// written as SVG (no dependency) or PNG (through Graphviz's renderer plugins).
#pragma once

#include "graph/layout/graph_layout.h"

#include <filesystem>
#include <functional>
#include <unordered_set>
#include <string>
#include <vector>

namespace msprobe::graph {

class VisGraph;

enum class PictureFormat { Svg, Png };

struct PictureOptions {
    std::vector<std::string> expanded; // node names whose children are shown; empty: expand every module
                                       // that holds a node of precision > 0 (the path to each problem)
    bool expandAll = false;
    std::size_t maxNodes = 4000; // stop expanding beyond this many visible nodes
    int step = 0, rank = 0;
};

// The layout job of one expanded group: its children (sizes from sizeOf: collapsed box or the child's own
// expanded layout) chained in execution order.
layout::LayoutRequest groupLayoutRequest(const VisGraph& graph, std::uint32_t group,
    const std::function<std::pair<double, double>(std::uint32_t child)>& sizeOf);
// The size of a collapsed node's box (label width based, as the plugin sizes them).
std::pair<double, double> collapsedNodeSize(const VisGraph& graph, std::uint32_t node);
// A cache key for the expansion state below a group (the expanded descendants change its children's sizes).
std::uint64_t expansionKey(const VisGraph& graph, std::uint32_t group, const std::unordered_set<std::uint32_t>& expanded);

// Both sides of a compare DB side by side (NPU left, Bench right), or the single graph of a build DB.
void exportVisDbPicture(const std::filesystem::path& database, const std::filesystem::path& picture, PictureFormat format,
    const PictureOptions& options = {});

// One side as SVG text.
std::string renderGraphSvg(const VisGraph& graph, const PictureOptions& options);

// Whether Graphviz can write PNG here: its cairo (libgvplugin_pango) or gd device plugin is installed and
// registered (Debian package libgvc6). offered, when given, receives the output devices it has.
bool pngExportAvailable(std::string* offered = nullptr);

} // namespace msprobe::graph
