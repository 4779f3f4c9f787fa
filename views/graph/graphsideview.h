// SPDX-License-Identifier: Apache-2.0
// One side of the graph diff: the nested boxes of a graph in a QGraphicsView. Click selects, double-click
// expands or collapses, dragging empty space pans, dragging a node reports where it is dropped (the diff view
// decides what that means), Ctrl+wheel and W/S zoom, A/D pan sideways. Hover says why a node has its colour.
#pragma once

#include "graphlayoutstate.h"
#include "graphnodeitem.h"

#include <QGraphicsView>

#include <functional>

class GraphMinimap;

class GraphSideView : public QGraphicsView {
    Q_OBJECT
public:
    // The stored input/output JSON of a node of this side (for the hover explanation); may return empty texts.
    using NodeDataProvider = std::function<std::pair<std::string, std::string>(const std::string& name)>;

    explicit GraphSideView(bool benchSide, QWidget* parent = nullptr);
    ~GraphSideView() override;

    void setGraph(std::shared_ptr<msprobe::graph::VisGraph> graph, bool compare, const std::string& task);
    void setNodeDataProvider(NodeDataProvider provider) { m_dataProvider = std::move(provider); }
    void setColourMode(msprobe::views::graphstyle::ColourMode mode);
    // Bench side: the debug graph whose colours its matched nodes take (null: none).
    void setDebugGraph(const msprobe::graph::VisGraph* debug);
    // The debug graph's error magnitudes by node index, for Magnitude mode (null: none yet).
    void setMagnitudes(std::shared_ptr<const std::vector<float>> magnitudes);
    // Recomputes the subtree badges and repaints (links or precision changed in the graph).
    void refresh();

    GraphLayoutState& layoutState() { return m_layout; }
    const msprobe::graph::VisGraph* graph() const { return m_layout.graph(); }
    bool isBenchSide() const { return m_paint.benchSide; }
    // The fill a node is drawn with now (mode, level or magnitude, a bench node's partner).
    QColor nodeFill(std::uint32_t node) const { return m_paint.fillOf(node); }

    // Selects a node (kNoVisNode clears); reveal: expand its ancestors when hidden; centre: scroll to it.
    void selectNode(std::uint32_t node, bool reveal, bool centre);
    std::uint32_t selectedNode() const { return m_paint.selected; }
    std::uint32_t nodeAt(const QPoint& viewportPos) const;
    void setDropTarget(std::uint32_t node);

    void zoomBy(double factor);
    void fitToScreen();
    double zoom() const { return transform().m11(); }
    // The scene point under the middle of the viewport.
    QPointF viewCentre() const;
    // Takes scale and centres on sceneCentre without reporting it as a user move (what the other side follows).
    void showAt(double scale, const QPointF& sceneCentre);
    // Outlines every node whose name matches text (substring, or a regular expression; case-insensitive); empty
    // text clears the outlines.
    void setSearchHighlight(const QString& text, bool regex);
    bool isSearchHit(std::uint32_t node) const { return m_paint.isSearchHit(node); }
    void setMinimapVisible(bool visible);
    // Paints the whole composed graph (not only the viewport) into target.
    void renderGraph(QPainter* painter, const QRectF& target);
    QRectF graphBounds() const;

signals:
    void nodeClicked(std::uint32_t node);
    void nodeDoubleClicked(std::uint32_t node);
    void nodeDragMoved(std::uint32_t node, const QPoint& globalPos);
    void nodeDragReleased(std::uint32_t node, const QPoint& globalPos);
    void contextMenuRequested(std::uint32_t node, const QPoint& globalPos);
    void viewportMoved();
    // The user scrolled, panned or zoomed (not a programmatic centring, relayout or showAt()).
    void viewMovedByUser();
    void composed();

protected:
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void contextMenuEvent(QContextMenuEvent* event) override;
    bool viewportEvent(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void scrollContentsBy(int dx, int dy) override;

private:
    // Moves of the view made by the program, not the user: viewMovedByUser() stays silent while one runs.
    struct SelfMove {
        explicit SelfMove(GraphSideView* view) : m_view(view) { ++m_view->m_movingItself; }
        ~SelfMove() { --m_view->m_movingItself; }
        SelfMove(const SelfMove&) = delete;
        SelfMove& operator=(const SelfMove&) = delete;
        GraphSideView* m_view;
    };

    void rebuildItems();
    void centreOn(std::uint32_t node);
    const msprobe::views::GraphNodeItem* itemAt(const QPoint& viewportPos) const;
    bool startsNodeDrag(const msprobe::views::GraphNodeItem* item, const QPoint& viewportPos) const;
    QString toolTipOf(std::uint32_t node) const;

    QGraphicsScene* m_scene;
    GraphLayoutState m_layout;
    msprobe::views::SidePaintState m_paint;
    std::string m_task;
    NodeDataProvider m_dataProvider;
    GraphMinimap* m_minimap;
    std::uint32_t m_centreWhenComposed = msprobe::graph::kNoVisNode;
    bool m_firstComposition = true;
    int m_movingItself = 0;
    QString m_searchText;
    bool m_searchRegex = false;
    // Mouse gesture: press position, the node a drag would carry, whether the gesture became a pan or a drag.
    QPoint m_pressPos, m_lastPos;
    bool m_pressed = false, m_moved = false;
    std::uint32_t m_pressNode = msprobe::graph::kNoVisNode, m_dragNode = msprobe::graph::kNoVisNode;
};
