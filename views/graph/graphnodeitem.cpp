// SPDX-License-Identifier: Apache-2.0
#include "graphnodeitem.h"

#include <QPainter>
#include <QStyleOptionGraphicsItem>

using namespace msprobe::graph;

namespace msprobe::views {

namespace {

constexpr double kBadgeRadius = 7, kSearchOutline = 4;

QColor blendWithWhite(const QColor& colour, double keep)
{
    auto mix = [keep](int c) { return int(c * keep + 255 * (1 - keep)); };
    return QColor(mix(colour.red()), mix(colour.green()), mix(colour.blue()));
}

} // namespace

QColor SidePaintState::fillOf(std::uint32_t index) const
{
    const VisNode& node = graph->nodes[index];
    auto magnitudeOf = [this](std::uint32_t n) {
        return magnitudes && n < magnitudes->size() ? double((*magnitudes)[n]) : double(NAN);
    };
    if (benchSide && compare && debugGraph && node.matched() && mode != graphstyle::ColourMode::Overflow && node.type != 8
        && node.type != 9) {
        const std::uint32_t partner = debugGraph->find(node.link.back());
        if (partner != kNoVisNode)
            return graphstyle::fillOf(debugGraph->nodes[partner], false, mode, compare, magnitudeOf(partner));
    }
    return graphstyle::fillOf(node, benchSide, mode, compare, benchSide ? double(NAN) : magnitudeOf(index));
}

GraphNodeItem::GraphNodeItem(const SidePaintState& state, const GraphLayoutState::Box& box, QString label)
    : m_state(state)
    , m_node(box.node)
    , m_rect(box.rect)
    , m_expanded(box.expanded)
    , m_label(std::move(label))
{
    setZValue(box.depth * 2);
}

QRectF GraphNodeItem::boundingRect() const { return m_rect.adjusted(-6, -kBadgeRadius - 1, kBadgeRadius + 1, 6); }

QPen GraphNodeItem::borderPen(const QColor& fill) const
{
    const VisNode& node = m_state.graph->nodes[m_node];
    QPen pen(graphstyle::borderOf(fill), 1);
    if (m_node == m_state.selected)
        pen = QPen(graphstyle::selectionBorder(m_state.mode), 3);
    if (node.type == 9)
        pen.setDashPattern({ 15, 1 });
    else if (node.type == 8)
        pen.setDashPattern({ 2, 1 });
    return pen;
}

void GraphNodeItem::paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget*)
{
    const VisNode& node = m_state.graph->nodes[m_node];
    const QColor fill = m_state.fillOf(m_node);
    const double detail = option->levelOfDetailFromTransform(painter->worldTransform());
    painter->setRenderHint(QPainter::Antialiasing, detail > 0.3);
    painter->setPen(borderPen(fill));
    painter->setFont(graphstyle::nodeFont());
    if (m_expanded) {
        // A container: a pale body so its children stay readable, the title strip in the node's own colour.
        painter->setBrush(blendWithWhite(fill, 0.25));
        painter->drawRoundedRect(m_rect, 5, 5);
        const QRectF header(m_rect.left(), m_rect.top(), m_rect.width(), graphstyle::kHeader);
        painter->setPen(Qt::NoPen);
        painter->setBrush(fill);
        painter->drawRoundedRect(header.adjusted(1, 1, -1, 0), 4, 4);
        if (detail > 0.3) {
            painter->setPen(Qt::black);
            const QRectF text = header.adjusted(6, 0, -6, 0);
            painter->drawText(text, Qt::AlignLeft | Qt::AlignVCenter, painter->fontMetrics().elidedText(m_label, Qt::ElideMiddle, int(text.width())));
        }
    } else {
        painter->setBrush(fill);
        QRectF inner = m_rect;
        if (node.children.empty()) {
            painter->drawEllipse(m_rect);
            inner = m_rect.adjusted(m_rect.width() * 0.08, 0, -m_rect.width() * 0.08, 0);
        } else if (node.type == 8 || node.type == 9) {
            painter->drawRect(m_rect);
        } else {
            painter->drawRoundedRect(m_rect, 5, 5);
        }
        if (detail > 0.3) {
            painter->setPen(fill.lightness() < 110 ? Qt::white : Qt::black);
            painter->drawText(inner, Qt::AlignCenter, painter->fontMetrics().elidedText(m_label, Qt::ElideMiddle, int(inner.width()) - 4));
        }
        paintBadge(painter);
    }
    if (highlighted()) {
        // Outside the box, so the fill and the selection border stay readable.
        painter->setBrush(Qt::NoBrush);
        painter->setPen(QPen(m_state.searchColour, kSearchOutline));
        painter->drawRoundedRect(m_rect.adjusted(-3, -3, 3, 3), 7, 7);
    }
    if (m_node == m_state.dropTarget) {
        painter->setBrush(Qt::NoBrush);
        painter->setPen(QPen(QColor(40, 160, 60), 2, Qt::DashLine));
        painter->drawRoundedRect(m_rect.adjusted(-2, -2, 2, 2), 6, 6);
    }
}

void GraphNodeItem::paintBadge(QPainter* painter) const
{
    if (!m_state.compare || m_state.benchSide || m_state.mode != graphstyle::ColourMode::Precision)
        return;
    const VisNode& node = m_state.graph->nodes[m_node];
    if (node.children.empty() || m_node >= m_state.summaries.size())
        return;
    const SubtreeSummary& hidden = m_state.summaries[m_node];
    if (hidden.bad() == 0)
        return;
    const QPointF centre(m_rect.right(), m_rect.top());
    const QColor colour = graphstyle::precisionColour(hidden.worst);
    painter->setPen(QPen(graphstyle::borderOf(colour), 1));
    painter->setBrush(colour);
    painter->drawEllipse(centre, kBadgeRadius, kBadgeRadius);
    QFont font = painter->font();
    font.setPixelSize(8);
    font.setBold(true);
    painter->setFont(font);
    painter->setPen(Qt::black);
    const QString count = hidden.bad() > 99 ? QStringLiteral("99+") : QString::number(hidden.bad());
    painter->drawText(QRectF(centre.x() - kBadgeRadius - 4, centre.y() - kBadgeRadius, 2 * kBadgeRadius + 8, 2 * kBadgeRadius), Qt::AlignCenter,
        count);
}

} // namespace msprobe::views
