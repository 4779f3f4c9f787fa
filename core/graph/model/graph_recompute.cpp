// SPDX-License-Identifier: Apache-2.0
#include "graph/model/graph_recompute.h"
#include "support/ascii_text.h"
#include "support/python_text.h"

#include "graph/model/graph_builder.h"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

namespace msprobe::graph {

namespace {

struct Frame {
    std::string file;
    std::string function;
};

std::string trim(std::string_view text)
{
    const auto first = text.find_first_not_of(" \t\r\n");
    if (first == std::string_view::npos)
        return {};
    const auto last = text.find_last_not_of(" \t\r\n");
    return std::string(text.substr(first, last - first + 1));
}

// "Module/Cell.{n}.name.{n}.Class.forward.N": anything deeper is a recomputed layer.
bool isRecomputeName(const std::vector<std::string_view>& parts)
{
    if (parts.size() > 7)
        return true;
    if (parts.size() == 7 && !(support::isDigits(parts[1]) && support::isDigits(parts[3])))
        return true;
    if (parts.size() == 6 && !support::isDigits(parts[1]))
        return true;
    return false;
}

} // namespace

bool stackShowsRecompute(const std::vector<std::string>& frames)
{
    std::vector<Frame> parsed;
    for (const auto& raw : frames) {
        const std::string text = replaceAllText(trim(raw), "File ", "");
        const auto inAt = text.find(", in ");
        if (inAt == std::string::npos)
            continue;
        Frame frame;
        frame.file = trim(std::string_view(text).substr(0, text.find(", line ")));
        const std::string_view rest = std::string_view(text).substr(inAt + 5);
        frame.function = trim(rest.substr(0, rest.find(',')));
        parsed.push_back(std::move(frame));
    }
    for (const auto& frame : parsed)
        if (frame.function == "recompute_fn" && frame.file.ends_with("torch/utils/checkpoint.py"))
            return true;
    for (std::size_t i = 0; i < parsed.size(); ++i) {
        const bool backward = parsed[i].function == "backward"
            || (parsed[i].function == "checkpoint_function_backward" && parsed[i].file.find("megatron") != std::string::npos);
        if (!backward)
            continue;
        for (std::size_t k = i + 1; k <= i + 2 && k < parsed.size(); ++k)
            if (parsed[k].file.ends_with("torch/autograd/function.py"))
                return true;
    }
    return false;
}

void handleRecompute(Graph& graph)
{
    const bool pytorch = graph.framework != "mindspore";
    const auto rootChildren = graph.node(Graph::root()).children;
    std::unordered_set<std::string_view> rootIds;
    for (auto child : rootChildren)
        rootIds.insert(graph.node(child).id);

    struct Recompute {
        std::uint32_t node;
        std::size_t rootIndex;
        std::string prefix;
    };
    std::vector<Recompute> recompute;
    std::unordered_set<std::string> twinCache;
    for (std::size_t i = 0; i < rootChildren.size(); ++i) {
        const GraphNode& node = graph.node(rootChildren[i]);
        if (nodeOpOf(node.id) != NodeOp::Module)
            continue;
        if (pytorch) {
            // Backward modules have no stack of their own: look at the forward twin's.
            const std::string stackName = swapDirectionNumber(node.id, "backward", "forward");
            auto it = graph.stacks.groupOf.find(stackName);
            if (it == graph.stacks.groupOf.end() || !stackShowsRecompute(graph.stacks.frames[it->second]))
                continue;
        }
        auto parts = support::pythonSplit(node.id, '.');
        const std::size_t keep = parts.size() >= 2 ? parts.size() - 2 : 0;
        std::string prefix;
        for (std::size_t k = 0; k < keep; ++k)
            prefix += (k ? "." : "") + std::string(parts[k]);
        if (twinCache.count(std::string(node.id))) {
            recompute.push_back({ rootChildren[i], i, prefix });
            continue;
        }
        if (!isRecomputeName(parts) || parts.size() < 2)
            continue;
        std::string twin;
        for (std::size_t k = 0; k < parts.size(); ++k) {
            std::string_view part = parts[k];
            if (k == parts.size() - 2)
                part = part == "forward" ? "backward" : "forward";
            twin += (k ? "." : "") + std::string(part);
        }
        if (rootIds.count(twin)) {
            recompute.push_back({ rootChildren[i], i, prefix });
            twinCache.insert(twin);
        }
    }
    if (recompute.empty())
        return;

    std::unordered_set<std::string> prefixes;
    for (const auto& r : recompute)
        prefixes.insert(r.prefix);
    // Non-recomputed forward modules with the same prefix, in creation order.
    std::unordered_map<std::string, std::vector<std::uint32_t>> forwardUse, backwardUse;
    for (std::uint32_t n = 0; n < graph.size(); ++n) {
        const GraphNode& node = graph.node(n);
        std::size_t start = 0;
        if (nodeOpOf(node.id) != NodeOp::Module || !endsWithDirectionNumber(node.id, "forward", &start))
            continue;
        if (node.parent == kNoNode || node.parent == Graph::root())
            continue;
        std::string prefix(node.id.substr(0, start - 1));
        if (prefixes.count(prefix))
            forwardUse[prefix].push_back(n);
    }
    if (forwardUse.empty())
        return;
    backwardUse = forwardUse;
    std::unordered_map<std::string, std::size_t> forwardNext, backwardNext;

    std::vector<std::size_t> removeAt;
    for (const auto& r : recompute) {
        if (!forwardUse.count(r.prefix))
            continue;
        const GraphNode& node = graph.node(r.node);
        const bool forward = endsWithDirectionNumber(node.id, "forward");
        auto& list = forward ? forwardUse[r.prefix] : backwardUse[r.prefix];
        auto& next = forward ? forwardNext[r.prefix] : backwardNext[r.prefix];
        if (next >= list.size())
            continue;
        const std::uint32_t real = list[next++];
        const std::uint32_t realParent = graph.node(real).parent;
        const std::uint32_t newParent = graph.find(swapDirectionNumber(graph.node(realParent).id, "forward", "backward"));
        if (newParent == kNoNode)
            continue;
        if (newParent == r.node || graph.isAncestor(r.node, newParent))
            continue;
        graph.node(r.node).parent = newParent;
        graph.node(newParent).children.push_back(r.node);
        removeAt.push_back(r.rootIndex);
    }
    auto& children = graph.node(Graph::root()).children;
    std::sort(removeAt.rbegin(), removeAt.rend());
    for (auto index : removeAt)
        if (index < children.size())
            children.erase(children.begin() + static_cast<std::ptrdiff_t>(index));
}

} // namespace msprobe::graph
