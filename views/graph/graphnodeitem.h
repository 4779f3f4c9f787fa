// SPDX-License-Identifier: Apache-2.0
// One node box of a side: its shape says the node type, its fill the level, a badge what a collapsed module hides.
#pragma once

#include "graphlayoutstate.h"
#include "graphstyle.h"

#include <QColor>
#include <QGraphicsItem>

#include <memory>
#include <vector>

namespace msprobe::views {

// What every item of a side reads when it paints (owned by the side view, shared by its items).
struct SidePaintState {
    const msprobe::graph::VisGraph* graph = nullptr;
    std::vector<msprobe::graph::SubtreeSummary> summaries;
    bool benchSide = false;
    bool compare = true;
    msprobe::views::graphstyle::ColourMode mode = msprobe::views::graphstyle::ColourMode::Precision;
    // The bench side's debug graph: a matched bench node takes its partner's colour. Null on the debug side.
    const msprobe::graph::VisGraph* debugGraph = nullptr;
    // Magnitude mode: the debug graph's error magnitudes by node index (shared by both sides); null otherwise.
    std::shared_ptr<const std::vector<float>> magnitudes;
    std::uint32_t selected = msprobe::graph::kNoVisNode;
    std::uint32_t dropTarget = msprobe::graph::kNoVisNode;
    std::vector<bool> searchHits; // by node index; empty: no search
    QColor searchColour;
    bool isSearchHit(std::uint32_t node) const { return node < searchHits.size() && searchHits[node]; }
    // A node's fill as drawn: its own level, magnitude or overflow, or on the bench side its partner's.
    QColor fillOf(std::uint32_t node) const;
};

class GraphNodeItem : public QGraphicsItem {
public:
    enum { Type = UserType + 1 };

    GraphNodeItem(const SidePaintState& state, const GraphLayoutState::Box& box, QString label);

    std::uint32_t node() const { return m_node; }
    bool expanded() const { return m_expanded; }
    // Drawn with the search outline (its name matches the search text).
    bool highlighted() const { return m_state.isSearchHit(m_node); }
    const QRectF& box() const { return m_rect; }
    int type() const override { return Type; }
    QRectF boundingRect() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

private:
    QPen borderPen(const QColor& fill) const;
    void paintBadge(QPainter* painter) const;

    const SidePaintState& m_state;
    std::uint32_t m_node;
    QRectF m_rect;
    bool m_expanded;
    QString m_label;
};

} // namespace msprobe::views
