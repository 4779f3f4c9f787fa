// SPDX-License-Identifier: Apache-2.0
// One side's expansion state and its placed boxes. Every expanded group is laid out on the layout service's
// worker (cached by group and expansion below it); an expand or collapse starts a new generation, lays out
// the groups whose key changed (children before parents) and then places the visible nodes as nested boxes.
#pragma once

#include "graph/layout/layout_service.h"
#include "graph/visdb/vis_db_reader.h"

#include <QObject>
#include <QPolygonF>
#include <QRectF>

#include <memory>
#include <unordered_map>
#include <unordered_set>
#include <vector>

class GraphLayoutState : public QObject {
    Q_OBJECT
public:
    struct Box {
        std::uint32_t node = msprobe::graph::kNoVisNode;
        QRectF rect;
        bool expanded = false;
        int depth = 0;
    };
    struct Edge {
        QPolygonF line;
        int depth = 0; // of the group the edge runs in
    };

    explicit GraphLayoutState(QObject* parent = nullptr);
    ~GraphLayoutState() override;

    // Resets the expansion to the root's children and lays them out.
    void setGraph(std::shared_ptr<msprobe::graph::VisGraph> graph);
    const msprobe::graph::VisGraph* graph() const { return m_graph.get(); }
    // -1: all; otherwise only root children of that micro step are shown.
    void setMicroStep(int microStep);

    bool isExpandable(std::uint32_t node) const;
    bool isExpanded(std::uint32_t node) const;
    bool isVisible(std::uint32_t node) const;
    void setExpanded(std::uint32_t node, bool expanded);
    // Expands every expandable node less than depth levels below the root and collapses the rest (0: all
    // collapsed); one relayout.
    void expandToDepth(int depth);
    // Expands every collapsed ancestor (one relayout); false when nothing had to change.
    bool reveal(std::uint32_t node);
    std::vector<std::uint32_t> visibleChildren(std::uint32_t group) const;

    // False while a relayout is running; composed() says when it is done.
    bool settled() const { return m_settled; }
    const std::vector<Box>& boxes() const { return m_boxes; } // parents before children
    const std::vector<Edge>& edges() const { return m_edges; }
    QRectF bounds() const;
    const Box* boxOf(std::uint32_t node) const;

signals:
    void composed();

private:
    struct GroupLayout {
        msprobe::graph::layout::LayoutKey key;
        std::shared_ptr<const msprobe::graph::layout::LayoutResult> result;
        QSizeF size;
    };
    void relayout();
    void layoutNext();
    void store(std::uint32_t group, const msprobe::graph::layout::LayoutKey& key,
        std::shared_ptr<const msprobe::graph::layout::LayoutResult> result);
    msprobe::graph::layout::LayoutKey keyOf(std::uint32_t group) const;
    msprobe::graph::layout::LayoutRequest requestOf(std::uint32_t group) const;
    QSizeF sizeOf(std::uint32_t node) const;
    std::vector<std::uint32_t> staleGroups() const;
    void compose();
    void place(std::uint32_t node, QPointF at, int depth);

    std::shared_ptr<msprobe::graph::VisGraph> m_graph;
    std::uint64_t m_graphSerial = 0;
    int m_microStep = -1;
    std::unordered_set<std::uint32_t> m_expanded;
    std::unordered_map<std::uint32_t, GroupLayout> m_layouts;
    std::vector<std::uint32_t> m_pending;
    std::size_t m_next = 0;
    std::uint64_t m_generation = 0;
    bool m_settled = true;
    std::vector<Box> m_boxes;
    std::unordered_map<std::uint32_t, std::size_t> m_boxIndex;
    std::vector<Edge> m_edges;
    // Last member: destroyed first, so its worker is joined before anything a callback touches goes away.
    msprobe::graph::layout::LayoutService m_service;
};
