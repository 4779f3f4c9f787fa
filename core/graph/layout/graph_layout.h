// SPDX-License-Identifier: Apache-2.0
// Layout of one expanded group at a time (its children as boxes, edges between them), with Graphviz dot
// in-process for normal groups, dot tuned for speed (nslimit, straight edges) for large ones, and an own
// longest-path + barycentre layering for very large flat groups. Safe to call from worker threads
// (Graphviz itself is serialised), cancellable through a generation counter.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

namespace msprobe::graph::layout {

struct Point {
    double x = 0, y = 0;
};

struct LayoutNode {
    double width = 60, height = 20; // points (1/72 inch), what the caller will draw
};

struct LayoutEdge {
    std::uint32_t from = 0, to = 0;
};

struct LayoutRequest {
    std::vector<LayoutNode> nodes;
    std::vector<LayoutEdge> edges;
};

// y grows downwards; boxes are top-left corners.
struct NodeBox {
    double x = 0, y = 0, width = 0, height = 0;
};

struct EdgePath {
    std::uint32_t from = 0, to = 0;
    std::vector<Point> points; // polyline, from the source box to the target box
};

enum class Engine : std::uint8_t { Dot, DotTuned, Fallback };

struct LayoutResult {
    std::vector<NodeBox> boxes; // one per request node
    std::vector<EdgePath> edges;
    double width = 0, height = 0;
    Engine engine = Engine::Dot;
    bool cancelled = false;
};

struct LayoutOptions {
    double nodeSep = 10, rankSep = 20; // points
    std::size_t tunedAbove = 300; // nodes: nslimit/nslimit1 and straight edges
    std::size_t fallbackAbove = 1200; // nodes: the own layering instead of dot
    double nslimit = 0.05;
};

// Stale work is dropped: a job carries the generation it was asked for, and gives up once the counter moved.
struct CancelToken {
    const std::atomic<std::uint64_t>* generation = nullptr;
    std::uint64_t mine = 0;
    bool cancelled() const { return generation && generation->load(std::memory_order_relaxed) != mine; }
};

LayoutResult layoutGroup(const LayoutRequest& request, const LayoutOptions& options = {}, const CancelToken& cancel = {});

// The own layering (exposed for tests and for callers that want no Graphviz at all).
LayoutResult fallbackLayout(const LayoutRequest& request, const LayoutOptions& options, const CancelToken& cancel = {});

} // namespace msprobe::graph::layout
