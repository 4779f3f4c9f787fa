// SPDX-License-Identifier: Apache-2.0
#include "graphsideview.h"

#include "graphminimap.h"
#include "nodelistfilter.h"
#include "nodetooltip.h"

#include "graph/model/graph_labels.h"

#include <QApplication>
#include <QGraphicsPathItem>
#include <QKeyEvent>
#include <QScrollBar>
#include <QToolTip>

#include <map>

using namespace msprobe::graph;

namespace {

constexpr double kMinScale = 0.02, kMaxScale = 4, kKeyStep = 40, kMargin = 20;

} // namespace

GraphSideView::GraphSideView(bool benchSide, QWidget* parent)
    : QGraphicsView(parent)
    , m_scene(new QGraphicsScene(this))
    , m_minimap(new GraphMinimap(this))
{
    m_paint.benchSide = benchSide;
    setScene(m_scene);
    setObjectName(benchSide ? QStringLiteral("benchGraph") : QStringLiteral("problemGraph"));
    setRenderHint(QPainter::TextAntialiasing);
    setTransformationAnchor(QGraphicsView::AnchorUnderMouse);
    setViewportUpdateMode(QGraphicsView::MinimalViewportUpdate);
    setBackgroundBrush(QColor(250, 250, 250));
    setFocusPolicy(Qt::StrongFocus);
    setMouseTracking(true);
    connect(&m_layout, &GraphLayoutState::composed, this, &GraphSideView::rebuildItems);
}

GraphSideView::~GraphSideView() = default;

void GraphSideView::setGraph(std::shared_ptr<VisGraph> graph, bool compare, const std::string& task)
{
    m_scene->clear();
    m_paint.graph = graph.get();
    m_paint.compare = compare;
    m_paint.selected = m_paint.dropTarget = kNoVisNode;
    m_paint.summaries = graph ? summarizeSubtrees(*graph) : std::vector<SubtreeSummary> {};
    m_task = task;
    m_firstComposition = true;
    m_centreWhenComposed = kNoVisNode;
    m_layout.setGraph(std::move(graph));
    setSearchHighlight(m_searchText, m_searchRegex);
}

void GraphSideView::setColourMode(msprobe::views::graphstyle::ColourMode mode)
{
    m_paint.mode = mode;
    m_scene->update();
    m_minimap->invalidate();
}

void GraphSideView::setDebugGraph(const VisGraph* debug)
{
    m_paint.debugGraph = debug;
    m_scene->update();
    m_minimap->invalidate();
}

void GraphSideView::setMagnitudes(std::shared_ptr<const std::vector<float>> magnitudes)
{
    m_paint.magnitudes = std::move(magnitudes);
    m_scene->update();
    viewport()->update();
    m_minimap->invalidate();
}

void GraphSideView::refresh()
{
    if (m_paint.graph)
        m_paint.summaries = summarizeSubtrees(*m_paint.graph);
    m_scene->update();
    // The scene's update() alone did not reach the viewport after an undo (old colours stayed until the next
    // scroll, tst_views_graphsync): repaint the viewport directly.
    viewport()->update();
    m_minimap->invalidate();
}

void GraphSideView::rebuildItems()
{
    const SelfMove self(this);
    m_scene->clear();
    const VisGraph* graph = m_layout.graph();
    if (!graph)
        return;
    for (const auto& box : m_layout.boxes())
        m_scene->addItem(new msprobe::views::GraphNodeItem(m_paint, box, QString::fromStdString(displayLabel(*graph, box.node))));
    // One path per nesting depth, drawn above its group's body and below the boxes it connects.
    std::map<int, QPainterPath> paths;
    for (const auto& edge : m_layout.edges())
        paths[edge.depth].addPolygon(edge.line);
    for (auto& [depth, path] : paths) {
        auto* item = m_scene->addPath(path, QPen(QColor(150, 150, 150), 1));
        item->setZValue(depth * 2 + 1);
    }
    const QRectF bounds = m_layout.bounds().adjusted(-kMargin, -kMargin, kMargin, kMargin);
    m_scene->setSceneRect(bounds);
    if (m_firstComposition) {
        m_firstComposition = false;
        resetTransform();
        centerOn(bounds.center().x(), bounds.top() + viewport()->height() / 2.0);
    }
    if (m_centreWhenComposed != kNoVisNode) {
        const auto node = std::exchange(m_centreWhenComposed, kNoVisNode);
        centreOn(node);
    }
    m_minimap->invalidate();
    emit composed();
}

void GraphSideView::selectNode(std::uint32_t node, bool reveal, bool centre)
{
    const VisGraph* graph = m_layout.graph();
    if (!graph || (node != kNoVisNode && node >= graph->nodes.size()))
        node = kNoVisNode;
    m_paint.selected = node;
    m_scene->update();
    if (node == kNoVisNode)
        return;
    const SelfMove self(this);
    if (reveal && m_layout.reveal(node)) {
        m_centreWhenComposed = node; // the relayout runs on the worker; centre once it is placed
        return;
    }
    if (centre) {
        if (m_layout.settled())
            centreOn(node);
        else
            m_centreWhenComposed = node;
    }
}

void GraphSideView::centreOn(std::uint32_t node)
{
    const SelfMove self(this);
    const auto* box = m_layout.boxOf(node);
    if (!box)
        return;
    // A big expanded group: show its title, not the middle of its body.
    const double visibleHeight = mapToScene(viewport()->rect()).boundingRect().height();
    const double y = box->rect.height() > visibleHeight ? box->rect.top() + visibleHeight / 2 - kMargin : box->rect.center().y();
    centerOn(box->rect.center().x(), y);
}

const msprobe::views::GraphNodeItem* GraphSideView::itemAt(const QPoint& viewportPos) const
{
    // items() is sorted by descending z: the innermost box comes first.
    for (QGraphicsItem* item : items(viewportPos))
        if (item->type() == msprobe::views::GraphNodeItem::Type) {
            auto* node = static_cast<const msprobe::views::GraphNodeItem*>(item);
            if (node->box().contains(mapToScene(viewportPos)))
                return node;
        }
    return nullptr;
}

std::uint32_t GraphSideView::nodeAt(const QPoint& viewportPos) const
{
    const auto* item = itemAt(viewportPos);
    return item ? item->node() : kNoVisNode;
}

void GraphSideView::setDropTarget(std::uint32_t node)
{
    if (node == m_paint.dropTarget)
        return;
    m_paint.dropTarget = node;
    m_scene->update();
}

bool GraphSideView::startsNodeDrag(const msprobe::views::GraphNodeItem* item, const QPoint& viewportPos) const
{
    if (!item)
        return false;
    if (!item->expanded())
        return true;
    // An open group is dragged by its title strip; its body pans like empty space.
    return mapToScene(viewportPos).y() < item->box().top() + msprobe::views::graphstyle::kHeader;
}

void GraphSideView::mousePressEvent(QMouseEvent* event)
{
    if (event->button() != Qt::LeftButton) {
        QGraphicsView::mousePressEvent(event);
        return;
    }
    setFocus(Qt::MouseFocusReason);
    const auto* item = itemAt(event->position().toPoint());
    m_pressed = true;
    m_moved = false;
    m_pressPos = m_lastPos = event->position().toPoint();
    m_pressNode = item ? item->node() : kNoVisNode;
    m_dragNode = startsNodeDrag(item, m_pressPos) ? item->node() : kNoVisNode;
    event->accept();
}

void GraphSideView::mouseMoveEvent(QMouseEvent* event)
{
    if (!m_pressed) {
        QGraphicsView::mouseMoveEvent(event);
        return;
    }
    const QPoint pos = event->position().toPoint();
    if (!m_moved && (pos - m_pressPos).manhattanLength() < QApplication::startDragDistance())
        return;
    m_moved = true;
    if (m_dragNode != kNoVisNode) {
        viewport()->setCursor(Qt::DragLinkCursor);
        emit nodeDragMoved(m_dragNode, viewport()->mapToGlobal(pos));
    } else {
        viewport()->setCursor(Qt::ClosedHandCursor);
        const QPoint delta = pos - m_lastPos;
        horizontalScrollBar()->setValue(horizontalScrollBar()->value() - delta.x());
        verticalScrollBar()->setValue(verticalScrollBar()->value() - delta.y());
    }
    m_lastPos = pos;
    event->accept();
}

void GraphSideView::mouseReleaseEvent(QMouseEvent* event)
{
    if (!m_pressed || event->button() != Qt::LeftButton) {
        QGraphicsView::mouseReleaseEvent(event);
        return;
    }
    m_pressed = false;
    viewport()->unsetCursor();
    if (!m_moved)
        emit nodeClicked(m_pressNode);
    else if (m_dragNode != kNoVisNode)
        emit nodeDragReleased(m_dragNode, viewport()->mapToGlobal(event->position().toPoint()));
    m_dragNode = m_pressNode = kNoVisNode;
    event->accept();
}

void GraphSideView::mouseDoubleClickEvent(QMouseEvent* event)
{
    const std::uint32_t node = nodeAt(event->position().toPoint());
    if (event->button() == Qt::LeftButton && node != kNoVisNode)
        emit nodeDoubleClicked(node);
    event->accept();
}

void GraphSideView::wheelEvent(QWheelEvent* event)
{
    if (event->modifiers() & Qt::ControlModifier) {
        zoomBy(event->angleDelta().y() > 0 ? 1.15 : 1 / 1.15);
        event->accept();
        return;
    }
    QGraphicsView::wheelEvent(event);
}

void GraphSideView::keyPressEvent(QKeyEvent* event)
{
    switch (event->key()) {
    case Qt::Key_W: zoomBy(1.2); break;
    case Qt::Key_S: zoomBy(1 / 1.2); break;
    case Qt::Key_A: horizontalScrollBar()->setValue(horizontalScrollBar()->value() - int(kKeyStep)); break;
    case Qt::Key_D: horizontalScrollBar()->setValue(horizontalScrollBar()->value() + int(kKeyStep)); break;
    default: QGraphicsView::keyPressEvent(event); return;
    }
    event->accept();
}

void GraphSideView::contextMenuEvent(QContextMenuEvent* event)
{
    const std::uint32_t node = nodeAt(event->pos());
    if (node != kNoVisNode)
        emit contextMenuRequested(node, event->globalPos());
    event->accept();
}

bool GraphSideView::viewportEvent(QEvent* event)
{
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const std::uint32_t node = nodeAt(help->pos());
        if (node == kNoVisNode)
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(), toolTipOf(node), viewport());
        return true;
    }
    return QGraphicsView::viewportEvent(event);
}

QString GraphSideView::toolTipOf(std::uint32_t node) const
{
    const VisGraph& graph = *m_layout.graph();
    const VisNode& n = graph.nodes[node];
    std::pair<std::string, std::string> data { n.inputData, n.outputData };
    if (data.first.empty() && data.second.empty() && m_dataProvider)
        data = m_dataProvider(n.name);
    return msprobe::views::nodeToolTip(graph, node, m_paint.benchSide, m_task, data.first, data.second,
        node < m_paint.summaries.size() ? &m_paint.summaries[node] : nullptr);
}

void GraphSideView::zoomBy(double factor)
{
    const double scale = transform().m11();
    factor = std::clamp(scale * factor, kMinScale, kMaxScale) / scale;
    {
        const SelfMove self(this); // one report for the whole zoom, after it
        this->scale(factor, factor);
    }
    m_minimap->update();
    emit viewMovedByUser();
}

QPointF GraphSideView::viewCentre() const { return mapToScene(viewport()->rect().center()); }

void GraphSideView::showAt(double scale, const QPointF& sceneCentre)
{
    const SelfMove self(this);
    scale = std::clamp(scale, kMinScale, kMaxScale);
    if (!qFuzzyCompare(transform().m11(), scale))
        setTransform(QTransform::fromScale(scale, scale));
    centerOn(sceneCentre);
    m_minimap->update();
}

void GraphSideView::setSearchHighlight(const QString& text, bool regex)
{
    m_searchText = text;
    m_searchRegex = regex;
    m_paint.searchHits.clear();
    m_paint.searchColour = palette().color(QPalette::Highlight);
    if (m_paint.graph && !text.isEmpty()) {
        msprobe::views::NodeFilter filter;
        filter.text = text;
        filter.regex = regex;
        m_paint.searchHits.assign(m_paint.graph->nodes.size(), false);
        for (std::uint32_t node : msprobe::views::filterNodes(*m_paint.graph, filter))
            m_paint.searchHits[node] = true;
    }
    m_scene->update();
}

void GraphSideView::fitToScreen()
{
    const SelfMove self(this);
    const QRectF bounds = sceneRect();
    if (bounds.isEmpty())
        return;
    fitInView(bounds, Qt::KeepAspectRatio);
    if (transform().m11() > 1.5)
        setTransform(QTransform::fromScale(1.5, 1.5));
    else if (transform().m11() < kMinScale)
        setTransform(QTransform::fromScale(kMinScale, kMinScale));
    centerOn(bounds.center());
    m_minimap->update();
}

void GraphSideView::setMinimapVisible(bool visible) { m_minimap->setVisible(visible); }

QRectF GraphSideView::graphBounds() const { return m_scene->sceneRect(); }

void GraphSideView::renderGraph(QPainter* painter, const QRectF& target)
{
    const std::uint32_t dropTarget = std::exchange(m_paint.dropTarget, kNoVisNode);
    m_scene->render(painter, target, m_scene->sceneRect(), Qt::KeepAspectRatio);
    m_paint.dropTarget = dropTarget;
}

void GraphSideView::resizeEvent(QResizeEvent* event)
{
    const SelfMove self(this);
    QGraphicsView::resizeEvent(event);
    m_minimap->reposition();
}

void GraphSideView::scrollContentsBy(int dx, int dy)
{
    QGraphicsView::scrollContentsBy(dx, dy);
    m_minimap->update();
    emit viewportMoved();
    if (m_movingItself == 0)
        emit viewMovedByUser();
}
