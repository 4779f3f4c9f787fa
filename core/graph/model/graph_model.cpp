// SPDX-License-Identifier: Apache-2.0
#include "graph/model/graph_model.h"

#include "compare/items.h"

#include <algorithm>
#include <array>

namespace msprobe::graph {

std::string_view toString(OverflowLevel level)
{
    switch (level) {
    case OverflowLevel::Medium: return "medium";
    case OverflowLevel::High: return "high";
    case OverflowLevel::Critical: return "critical";
    case OverflowLevel::None: break;
    }
    return {};
}

namespace {

// The reference matches "^(Module.|Cell.|...)" where "." is any character.
bool startsWithAnyAfter(std::string_view name, std::string_view prefix)
{
    return name.size() > prefix.size() && name.starts_with(prefix);
}

} // namespace

NodeOp nodeOpOf(std::string_view name)
{
    static constexpr std::array<std::string_view, 2> moduleDotted = { "Module", "Cell" };
    static constexpr std::array<std::string_view, 3> modulePlain = { "optimizer", "clip_grad", "DefaultModel" };
    static constexpr std::array<std::string_view, 12> apiDotted
        = { "Tensor", "Torch", "Functional", "NPU", "VF", "Distributed", "Aten", "Mint", "Primitive", "Jit",
              "MintFunctional", "MindSpeed" };
    for (auto prefix : moduleDotted)
        if (startsWithAnyAfter(name, prefix))
            return NodeOp::Module;
    for (auto prefix : modulePlain)
        if (name.starts_with(prefix))
            return NodeOp::Module;
    for (auto prefix : apiDotted)
        if (startsWithAnyAfter(name, prefix))
            return NodeOp::FunctionApi;
    return NodeOp::Module;
}

Graph::Graph()
{
    add(NodeOp::Module, "DefaultModel");
}

void Graph::reserve(std::size_t count)
{
    nodes.reserve(count);
    m_index.reserve(count);
}

std::uint32_t Graph::find(std::string_view id) const
{
    auto it = m_index.find(id);
    return it == m_index.end() ? kNoNode : it->second;
}

std::uint32_t Graph::add(NodeOp op, std::string_view id)
{
    const auto index = static_cast<std::uint32_t>(nodes.size());
    GraphNode node;
    node.id = m_names.view(m_names.intern(id));
    node.op = op;
    nodes.push_back(std::move(node));
    m_index.emplace(nodes.back().id, index);
    return index;
}

void Graph::attach(std::uint32_t child, std::uint32_t parent)
{
    if (parent == kNoNode || child == parent || nodes[child].parent != kNoNode)
        return;
    nodes[child].parent = parent;
    nodes[parent].children.push_back(child);
}

void Graph::detachFromParent(std::uint32_t child)
{
    const std::uint32_t parent = nodes[child].parent;
    if (parent == kNoNode)
        return;
    auto& siblings = nodes[parent].children;
    siblings.erase(std::remove(siblings.begin(), siblings.end(), child), siblings.end());
    nodes[child].parent = kNoNode;
}

std::vector<std::uint32_t> Graph::ancestors(std::uint32_t index) const
{
    std::vector<std::uint32_t> chain;
    std::uint32_t current = nodes[index].parent;
    while (current != kNoNode) {
        // A parent chain longer than the graph is a cycle (construct.json can describe one).
        if (chain.size() > nodes.size())
            return {};
        chain.push_back(current);
        current = nodes[current].parent;
    }
    std::reverse(chain.begin(), chain.end());
    return chain;
}

std::vector<std::uint32_t> Graph::path(std::uint32_t index) const
{
    auto chain = ancestors(index);
    chain.push_back(index);
    return chain;
}

bool Graph::isAncestor(std::uint32_t maybeAncestor, std::uint32_t index) const
{
    std::size_t steps = 0;
    for (std::uint32_t current = nodes[index].parent; current != kNoNode && steps <= nodes.size();
         current = nodes[current].parent, ++steps)
        if (current == maybeAncestor)
            return true;
    return false;
}

std::vector<std::uint32_t> Graph::postOrder() const
{
    std::vector<std::uint32_t> order;
    order.reserve(nodes.size());
    std::vector<std::uint8_t> visited(nodes.size(), 0);
    // (node, index of the next child to visit)
    std::vector<std::pair<std::uint32_t, std::uint32_t>> stack;
    stack.emplace_back(root(), 0);
    visited[root()] = 1;
    while (!stack.empty()) {
        auto& [node, next] = stack.back();
        const auto& children = nodes[node].children;
        if (next < children.size()) {
            const std::uint32_t child = children[next++];
            if (!visited[child]) {
                visited[child] = 1;
                stack.emplace_back(child, 0);
            }
            continue;
        }
        order.push_back(node);
        stack.pop_back();
    }
    return order;
}

std::vector<NodeItem> Graph::nodeItems(std::uint32_t index) const
{
    std::vector<NodeItem> result;
    const GraphNode& node = nodes[index];
    if (node.entry == kNoNode || !items)
        return result;
    const compare::EntryInfo& info = items->entries()[node.entry];
    // The kept items' names, one after another in one buffer (this runs for every node of both graphs).
    thread_local std::string names;
    thread_local std::vector<std::pair<std::size_t, std::size_t>> spans; // offset, length
    names.clear();
    spans.clear();
    std::unordered_map<std::string, std::size_t> seen; // only for entries with many items
    const bool manyItems = info.itemCount > 16;
    result.reserve(info.itemCount);
    spans.reserve(info.itemCount);
    for (std::uint32_t i = info.firstItem; i < info.firstItem + info.itemCount; ++i) {
        const std::size_t start = names.size();
        items->appendName(names, items->items()[i]);
        const std::string_view name(names.data() + start, names.size() - start);
        const bool output = name.find(".output.") != std::string_view::npos && name.find(".input.") == std::string_view::npos;
        // Input keys and output keys live in two different dicts; a repeated key replaces the value in place.
        std::size_t found = result.size();
        if (manyItems) {
            auto it = seen.find(std::string(name));
            if (it != seen.end() && result[it->second].output == output)
                found = it->second;
        } else {
            for (std::size_t k = 0; k < result.size(); ++k)
                if (result[k].output == output && std::string_view(names.data() + spans[k].first, spans[k].second) == name) {
                    found = k;
                    break;
                }
        }
        if (found < result.size()) {
            result[found].item = i;
            names.resize(start);
            continue;
        }
        result.push_back({ i, output });
        spans.emplace_back(start, name.size());
        if (manyItems)
            seen.emplace(std::string(name), result.size() - 1);
    }
    // input_data then output_data, each in insertion order.
    std::stable_partition(result.begin(), result.end(), [](const NodeItem& item) { return !item.output; });
    return result;
}

std::string Graph::itemName(std::uint32_t item) const { return items->name(items->items()[item]); }

std::vector<std::string> Graph::stackFrames(const GraphNode& node) const
{
    if (node.stack == kMissingForwardStack)
        return { std::string(kMissingForwardStackText) };
    if (node.stack < 0 || static_cast<std::size_t>(node.stack) >= stacks.frames.size())
        return {};
    return stacks.frames[static_cast<std::size_t>(node.stack)];
}

} // namespace msprobe::graph
