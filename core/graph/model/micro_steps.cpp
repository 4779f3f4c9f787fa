// SPDX-License-Identifier: Apache-2.0
#include "graph/model/graph_passes.h"

#include <charconv>

namespace msprobe::graph {

namespace {

void propagate(Graph& graph)
{
    std::vector<std::uint32_t> stack { Graph::root() };
    std::vector<std::uint8_t> seen(graph.size(), 0);
    while (!stack.empty()) {
        const std::uint32_t n = stack.back();
        stack.pop_back();
        if (seen[n])
            continue;
        seen[n] = 1;
        GraphNode& node = graph.node(n);
        if (node.parent != kNoNode && node.microStep < 0)
            node.microStep = graph.node(node.parent).microStep;
        for (auto child : node.children)
            stack.push_back(child);
    }
}

} // namespace

int pageByMicroStep(Graph& graph, Graph* other)
{
    if (graph.megatronMicroSteps)
        return *graph.megatronMicroSteps + 1;
    int microStep = 0;
    bool sawBackward = false;
    for (auto child : graph.node(Graph::root()).children) {
        GraphNode& node = graph.node(child);
        if (node.op == NodeOp::Module) {
            if (node.id.find(".forward.") != std::string_view::npos) {
                if (sawBackward) {
                    ++microStep;
                    sawBackward = false;
                }
            } else {
                sawBackward = true;
            }
        }
        node.microStep = microStep;
        if (other && node.partner != kNoNode)
            other->node(node.partner).microStep = microStep;
    }
    propagate(graph);
    if (other) {
        for (auto child : other->node(Graph::root()).children) {
            GraphNode& node = other->node(child);
            if (node.microStep >= 0)
                continue;
            const std::string_view id = node.id;
            const std::string_view last = id.substr(id.rfind('.') == std::string_view::npos ? 0 : id.rfind('.') + 1);
            int value = 0;
            auto r = std::from_chars(last.data(), last.data() + last.size(), value);
            node.microStep = r.ec == std::errc() && r.ptr == last.data() + last.size() ? value : 0;
        }
        propagate(*other);
    }
    return microStep + 1;
}

} // namespace msprobe::graph
