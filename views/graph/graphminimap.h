// SPDX-License-Identifier: Apache-2.0
// The overview in a corner of a side: the whole composed graph, small, with the viewport as a rectangle that
// can be dragged (or clicked) to move the main view.
#pragma once

#include <QPixmap>
#include <QWidget>

class QGraphicsView;

class GraphMinimap : public QWidget {
    Q_OBJECT
public:
    explicit GraphMinimap(QGraphicsView* view);

    // The graph changed: re-render the overview on the next paint.
    void invalidate();
    // Keeps the overview in the view's bottom-right corner.
    void reposition();

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;

private:
    QTransform sceneToMap() const;
    void moveViewTo(const QPointF& mapPos);

    QGraphicsView* m_view;
    QPixmap m_overview;
    bool m_stale = true;
};
