// SPDX-License-Identifier: Apache-2.0
// Longest-path layering with barycentre ordering: linear-ish time, for groups too large for dot.
#include "graph/layout/graph_layout.h"

#include <algorithm>
#include <numeric>

namespace msprobe::graph::layout {

namespace {

constexpr std::size_t kMaxPerRow = 40; // wide layers wrap into several rows
constexpr int kSweeps = 4;

} // namespace

LayoutResult fallbackLayout(const LayoutRequest& request, const LayoutOptions& options, const CancelToken& cancel)
{
    LayoutResult result;
    result.engine = Engine::Fallback;
    const std::size_t n = request.nodes.size();
    result.boxes.resize(n);
    if (n == 0)
        return result;

    // Nodes come in execution order, so an edge pointing backwards is a cycle: lay it out reversed.
    std::vector<std::vector<std::uint32_t>> preds(n), succs(n);
    for (const auto& e : request.edges) {
        if (e.from >= n || e.to >= n || e.from == e.to)
            continue;
        const std::uint32_t a = std::min(e.from, e.to), b = std::max(e.from, e.to);
        succs[a].push_back(b);
        preds[b].push_back(a);
    }
    std::vector<std::size_t> layer(n, 0);
    std::size_t layers = 1;
    for (std::size_t v = 0; v < n; ++v) {
        for (auto u : preds[v])
            layer[v] = std::max(layer[v], layer[u] + 1);
        layers = std::max(layers, layer[v] + 1);
    }
    std::vector<std::vector<std::uint32_t>> rows(layers);
    for (std::uint32_t v = 0; v < n; ++v)
        rows[layer[v]].push_back(v);

    std::vector<double> position(n, 0);
    auto renumber = [&](const std::vector<std::uint32_t>& row) {
        for (std::size_t i = 0; i < row.size(); ++i)
            position[row[i]] = static_cast<double>(i);
    };
    for (const auto& row : rows)
        renumber(row);
    for (int sweep = 0; sweep < kSweeps; ++sweep) {
        if (cancel.cancelled()) {
            result.cancelled = true;
            return result;
        }
        const bool down = sweep % 2 == 0;
        for (std::size_t k = 1; k < layers; ++k) {
            auto& row = rows[down ? k : layers - 1 - k];
            std::vector<double> key(row.size());
            for (std::size_t i = 0; i < row.size(); ++i) {
                const auto& neighbours = down ? preds[row[i]] : succs[row[i]];
                if (neighbours.empty()) {
                    key[i] = position[row[i]];
                    continue;
                }
                double sum = 0;
                for (auto u : neighbours)
                    sum += position[u];
                key[i] = sum / static_cast<double>(neighbours.size());
            }
            std::vector<std::size_t> order(row.size());
            std::iota(order.begin(), order.end(), 0);
            std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return key[a] < key[b]; });
            std::vector<std::uint32_t> sorted(row.size());
            for (std::size_t i = 0; i < order.size(); ++i)
                sorted[i] = row[order[i]];
            row = std::move(sorted);
            renumber(row);
        }
    }

    // Coordinates: each layer is one or more rows of boxes, centred.
    struct Line {
        std::vector<std::uint32_t> nodes;
        double width = 0, height = 0;
    };
    std::vector<Line> lines;
    for (const auto& row : rows)
        for (std::size_t start = 0; start < row.size(); start += kMaxPerRow) {
            Line line;
            for (std::size_t i = start; i < std::min(row.size(), start + kMaxPerRow); ++i) {
                const auto& box = request.nodes[row[i]];
                line.width += box.width + (line.nodes.empty() ? 0 : options.nodeSep);
                line.height = std::max(line.height, box.height);
                line.nodes.push_back(row[i]);
            }
            lines.push_back(std::move(line));
        }
    for (const auto& line : lines)
        result.width = std::max(result.width, line.width);
    double y = 0;
    for (const auto& line : lines) {
        double x = (result.width - line.width) / 2;
        for (auto v : line.nodes) {
            const auto& box = request.nodes[v];
            result.boxes[v] = { x, y + (line.height - box.height) / 2, box.width, box.height };
            x += box.width + options.nodeSep;
        }
        y += line.height + options.rankSep;
    }
    result.height = std::max(0.0, y - options.rankSep);
    for (const auto& e : request.edges) {
        if (e.from >= n || e.to >= n)
            continue;
        const NodeBox& a = result.boxes[e.from];
        const NodeBox& b = result.boxes[e.to];
        result.edges.push_back({ e.from, e.to, { { a.x + a.width / 2, a.y + a.height }, { b.x + b.width / 2, b.y } } });
    }
    result.cancelled = cancel.cancelled();
    return result;
}

} // namespace msprobe::graph::layout
