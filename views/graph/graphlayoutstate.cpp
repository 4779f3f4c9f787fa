// SPDX-License-Identifier: Apache-2.0
#include "graphlayoutstate.h"

#include "graphstyle.h"

#include "graph/layout/graph_export.h"
#include "graph/model/graph_labels.h"

using namespace msprobe::graph;

namespace {

layout::LayoutOptions serviceOptions()
{
    layout::LayoutOptions options;
    // Groups are chains in execution order; beyond a few hundred children the own layering is as good and faster.
    options.fallbackAbove = 400;
    return options;
}

} // namespace

GraphLayoutState::GraphLayoutState(QObject* parent)
    : QObject(parent)
    , m_service(serviceOptions())
{
}

GraphLayoutState::~GraphLayoutState() = default;

void GraphLayoutState::setGraph(std::shared_ptr<VisGraph> graph)
{
    m_graph = std::move(graph);
    ++m_graphSerial;
    m_expanded.clear();
    m_layouts.clear();
    m_boxes.clear();
    m_boxIndex.clear();
    m_edges.clear();
    if (m_graph && m_graph->root() != kNoVisNode)
        m_expanded.insert(m_graph->root());
    relayout();
}

void GraphLayoutState::setMicroStep(int microStep)
{
    if (microStep == m_microStep)
        return;
    m_microStep = microStep;
    relayout();
}

bool GraphLayoutState::isExpandable(std::uint32_t node) const
{
    return m_graph && node < m_graph->nodes.size() && node != m_graph->root() && !m_graph->nodes[node].children.empty();
}

bool GraphLayoutState::isExpanded(std::uint32_t node) const { return m_expanded.count(node) > 0; }

bool GraphLayoutState::isVisible(std::uint32_t node) const { return m_boxIndex.count(node) > 0; }

void GraphLayoutState::setExpanded(std::uint32_t node, bool expanded)
{
    if (!isExpandable(node) || isExpanded(node) == expanded)
        return;
    if (expanded)
        m_expanded.insert(node);
    else
        m_expanded.erase(node);
    relayout();
}

void GraphLayoutState::expandToDepth(int depth)
{
    if (!m_graph || m_graph->root() == kNoVisNode)
        return;
    std::unordered_set<std::uint32_t> expanded { m_graph->root() };
    for (std::uint32_t node = 0; node < m_graph->nodes.size(); ++node) {
        if (!isExpandable(node))
            continue;
        int below = 0; // levels below the root
        for (std::uint32_t up = m_graph->nodes[node].parent; up != kNoVisNode && up != m_graph->root() && below < depth;
             up = m_graph->nodes[up].parent)
            ++below;
        if (below < depth)
            expanded.insert(node);
    }
    if (expanded == m_expanded)
        return;
    m_expanded = std::move(expanded);
    relayout();
}

bool GraphLayoutState::reveal(std::uint32_t node)
{
    if (!m_graph || node >= m_graph->nodes.size())
        return false;
    bool changed = false;
    for (std::uint32_t p = m_graph->nodes[node].parent; p != kNoVisNode; p = m_graph->nodes[p].parent)
        changed |= m_expanded.insert(p).second;
    if (changed)
        relayout();
    return changed;
}

std::vector<std::uint32_t> GraphLayoutState::visibleChildren(std::uint32_t group) const
{
    const auto& children = m_graph->nodes[group].children;
    if (group != m_graph->root() || m_microStep < 0)
        return children;
    std::vector<std::uint32_t> shown;
    for (auto child : children)
        if (m_graph->nodes[child].microStep == m_microStep)
            shown.push_back(child);
    return shown;
}

QRectF GraphLayoutState::bounds() const { return m_boxes.empty() ? QRectF() : m_boxes.front().rect; }

const GraphLayoutState::Box* GraphLayoutState::boxOf(std::uint32_t node) const
{
    auto it = m_boxIndex.find(node);
    return it == m_boxIndex.end() ? nullptr : &m_boxes[it->second];
}

layout::LayoutKey GraphLayoutState::keyOf(std::uint32_t group) const
{
    // The serial keeps a late result of a previous graph (same node names) out of this one's cache entries.
    std::string name = std::to_string(m_graphSerial) + '|' + m_graph->nodes[group].name;
    if (group == m_graph->root())
        name += "|micro" + std::to_string(m_microStep);
    return { std::move(name), expansionKey(*m_graph, group, m_expanded) };
}

QSizeF GraphLayoutState::sizeOf(std::uint32_t node) const
{
    if (isExpanded(node))
        if (auto it = m_layouts.find(node); it != m_layouts.end())
            return it->second.size;
    const auto [w, h] = collapsedNodeSize(*m_graph, node);
    return { w, h };
}

layout::LayoutRequest GraphLayoutState::requestOf(std::uint32_t group) const
{
    layout::LayoutRequest request;
    const auto children = visibleChildren(group);
    for (std::size_t i = 0; i < children.size(); ++i) {
        const QSizeF size = sizeOf(children[i]);
        request.nodes.push_back({ size.width(), size.height() });
        if (i)
            request.edges.push_back({ std::uint32_t(i - 1), std::uint32_t(i) });
    }
    return request;
}

std::vector<std::uint32_t> GraphLayoutState::staleGroups() const
{
    // Post-order over the expanded part of the tree: a group's expanded children are laid out before it.
    std::vector<std::uint32_t> stale;
    if (!m_graph || m_graph->root() == kNoVisNode)
        return stale;
    std::vector<std::pair<std::uint32_t, bool>> stack { { m_graph->root(), false } };
    while (!stack.empty()) {
        auto [group, childrenDone] = stack.back();
        stack.pop_back();
        if (childrenDone) {
            auto it = m_layouts.find(group);
            if (it == m_layouts.end() || !(it->second.key == keyOf(group)))
                stale.push_back(group);
            continue;
        }
        stack.push_back({ group, true });
        for (auto child : visibleChildren(group))
            if (isExpanded(child) && !m_graph->nodes[child].children.empty())
                stack.push_back({ child, false });
    }
    return stale;
}

void GraphLayoutState::relayout()
{
    m_generation = m_service.newGeneration();
    m_pending = staleGroups();
    m_next = 0;
    m_settled = false;
    layoutNext();
}

void GraphLayoutState::layoutNext()
{
    while (m_next < m_pending.size()) {
        const std::uint32_t group = m_pending[m_next];
        auto key = keyOf(group);
        if (auto hit = m_service.cached(key)) {
            store(group, key, std::move(hit));
            ++m_next;
            continue;
        }
        const std::uint64_t generation = m_generation;
        m_service.submit(std::move(key), requestOf(group),
            [this, group, generation](const layout::LayoutKey& done, std::shared_ptr<const layout::LayoutResult> result) {
                QMetaObject::invokeMethod(
                    this,
                    [this, group, generation, done, result] {
                        if (generation != m_generation)
                            return;
                        store(group, done, result);
                        ++m_next;
                        layoutNext();
                    },
                    Qt::QueuedConnection);
            });
        return;
    }
    compose();
    m_settled = true;
    emit composed();
}

void GraphLayoutState::store(std::uint32_t group, const layout::LayoutKey& key, std::shared_ptr<const layout::LayoutResult> result)
{
    const double labelWidth = 6.0 * double(displayLabel(*m_graph, group).size()) + 24;
    const QSizeF size(std::max(result->width + 2 * msprobe::views::graphstyle::kPad, labelWidth), result->height + msprobe::views::graphstyle::kHeader + 2 * msprobe::views::graphstyle::kPad);
    m_layouts[group] = { key, std::move(result), size };
}

void GraphLayoutState::compose()
{
    m_boxes.clear();
    m_boxIndex.clear();
    m_edges.clear();
    if (m_graph && m_graph->root() != kNoVisNode && m_layouts.count(m_graph->root()))
        place(m_graph->root(), QPointF(0, 0), 0);
}

void GraphLayoutState::place(std::uint32_t node, QPointF at, int depth)
{
    const bool expanded = isExpanded(node) && m_layouts.count(node);
    m_boxIndex[node] = m_boxes.size();
    m_boxes.push_back({ node, QRectF(at, sizeOf(node)), expanded, depth });
    if (!expanded)
        return;
    const GroupLayout& group = m_layouts.at(node);
    const auto& result = *group.result;
    const QPointF origin(at.x() + (group.size.width() - result.width) / 2, at.y() + msprobe::views::graphstyle::kHeader + msprobe::views::graphstyle::kPad);
    const auto children = visibleChildren(node);
    for (std::size_t i = 0; i < children.size() && i < result.boxes.size(); ++i)
        place(children[i], origin + QPointF(result.boxes[i].x, result.boxes[i].y), depth + 1);
    for (const auto& edge : result.edges) {
        QPolygonF line;
        for (const auto& p : edge.points)
            line << origin + QPointF(p.x, p.y);
        m_edges.push_back({ line, depth });
    }
}
