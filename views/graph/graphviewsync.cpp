// SPDX-License-Identifier: Apache-2.0
#include "graphviewsync.h"

#include "graphsideview.h"

#include <QAction>
#include <QScrollBar>

using namespace msprobe::graph;

GraphViewSync::GraphViewSync(GraphSideView* problem, GraphSideView* bench, PartnerFinder partner, QObject* parent)
    : QObject(parent)
    , m_problem(problem)
    , m_bench(bench)
    , m_partner(std::move(partner))
    , m_toggle(new QAction(tr("Sync pan and zoom"), this))
{
    m_toggle->setObjectName(QStringLiteral("syncPanZoom"));
    m_toggle->setCheckable(true);
    m_toggle->setChecked(true);
    m_toggle->setToolTip(tr("Scrolling or zooming one graph moves the other to the matching place"));
    connect(m_problem, &GraphSideView::viewMovedByUser, this, [this] { follow(m_problem, m_bench); });
    connect(m_bench, &GraphSideView::viewMovedByUser, this, [this] { follow(m_bench, m_problem); });
}

bool GraphViewSync::isEnabled() const { return m_toggle->isChecked(); }

void GraphViewSync::setEnabled(bool on) { m_toggle->setChecked(on); }

void GraphViewSync::follow(GraphSideView* from, GraphSideView* to)
{
    if (!m_active || !isEnabled() || !from->graph() || !to->graph() || to->graphBounds().isEmpty())
        return;
    const QPointF centre = from->viewCentre();
    QPointF target;
    // The innermost node under the centre that is matched (itself or an ancestor) and placed on the other side.
    std::uint32_t node = from->nodeAt(from->viewport()->rect().center());
    std::uint32_t partner = node == kNoVisNode ? kNoVisNode : m_partner(from->isBenchSide(), node);
    const GraphLayoutState::Box* fromBox = nullptr;
    const GraphLayoutState::Box* toBox = nullptr;
    if (partner != kNoVisNode) {
        // The matched node of the other side may sit inside a closed module there: use its nearest placed ancestor.
        const VisGraph* other = to->graph();
        for (std::uint32_t n = partner; n != kNoVisNode && n < other->nodes.size() && !toBox; n = other->nodes[n].parent)
            toBox = to->layoutState().boxOf(n);
        const VisGraph* own = from->graph();
        for (std::uint32_t n = node; n != kNoVisNode && n < own->nodes.size() && !fromBox; n = own->nodes[n].parent)
            if (own->nodes[n].matched()) // the node whose match partner is
                fromBox = from->layoutState().boxOf(n);
    }
    if (fromBox && toBox && fromBox->rect.width() > 0 && fromBox->rect.height() > 0) {
        const QRectF& a = fromBox->rect;
        const QRectF& b = toBox->rect;
        target = QPointF(b.left() + (centre.x() - a.left()) / a.width() * b.width(), b.top() + (centre.y() - a.top()) / a.height() * b.height());
    } else {
        const QRectF a = from->graphBounds(), b = to->graphBounds();
        if (a.width() <= 0 || a.height() <= 0)
            return;
        target = QPointF(b.left() + (centre.x() - a.left()) / a.width() * b.width(), b.top() + (centre.y() - a.top()) / a.height() * b.height());
    }
    to->showAt(from->zoom(), target);
}
