// SPDX-License-Identifier: Apache-2.0
#include "graphminimap.h"

#include <algorithm>

#include <QGraphicsView>
#include <QMouseEvent>
#include <QPainter>
#include <QScrollBar>

namespace {

constexpr int kSize = 160, kInset = 8;

} // namespace

GraphMinimap::GraphMinimap(QGraphicsView* view)
    : QWidget(view)
    , m_view(view)
{
    setObjectName(QStringLiteral("minimap"));
    resize(kSize, kSize);
    setCursor(Qt::PointingHandCursor);
    setToolTip(tr("Overview: click or drag to move the view"));
}

void GraphMinimap::invalidate()
{
    m_stale = true;
    update();
}

void GraphMinimap::reposition()
{
    const QRect area = m_view->viewport()->geometry();
    // At most a third of the smaller side of the view, so a short graph pane is not hidden behind its map.
    const int side = std::clamp(std::min(area.width(), area.height()) / 3, 48, kSize);
    if (side != width()) {
        resize(side, side);
        invalidate();
    }
    move(area.right() - width() - kInset, area.bottom() - height() - kInset);
    raise();
}

QTransform GraphMinimap::sceneToMap() const
{
    const QRectF scene = m_view->sceneRect();
    if (scene.isEmpty())
        return {};
    const double scale = std::min((width() - 4) / scene.width(), (height() - 4) / scene.height());
    const double dx = (width() - scene.width() * scale) / 2, dy = (height() - scene.height() * scale) / 2;
    return QTransform::fromTranslate(-scene.left(), -scene.top()) * QTransform::fromScale(scale, scale) * QTransform::fromTranslate(dx, dy);
}

void GraphMinimap::paintEvent(QPaintEvent*)
{
    QPainter painter(this);
    painter.fillRect(rect(), QColor(255, 255, 255, 230));
    painter.setPen(QColor(160, 160, 160));
    painter.drawRect(rect().adjusted(0, 0, -1, -1));
    if (!m_view->scene() || m_view->sceneRect().isEmpty())
        return;
    const QTransform map = sceneToMap();
    if (m_stale) {
        m_overview = QPixmap(size() * devicePixelRatioF());
        m_overview.setDevicePixelRatio(devicePixelRatioF());
        m_overview.fill(Qt::transparent);
        QPainter overview(&m_overview);
        m_view->scene()->render(&overview, map.mapRect(m_view->sceneRect()), m_view->sceneRect());
        m_stale = false;
    }
    painter.drawPixmap(0, 0, m_overview);
    const QRectF visible = map.mapRect(m_view->mapToScene(m_view->viewport()->rect()).boundingRect());
    painter.setPen(QPen(QColor(70, 110, 220), 1.5));
    painter.setBrush(QColor(70, 110, 220, 40));
    painter.drawRect(visible.intersected(QRectF(rect()).adjusted(1, 1, -1, -1)));
}

void GraphMinimap::moveViewTo(const QPointF& mapPos)
{
    bool invertible = false;
    const QTransform back = sceneToMap().inverted(&invertible);
    if (invertible)
        m_view->centerOn(back.map(mapPos));
    update();
}

void GraphMinimap::mousePressEvent(QMouseEvent* event)
{
    moveViewTo(event->position());
    event->accept();
}

void GraphMinimap::mouseMoveEvent(QMouseEvent* event)
{
    if (event->buttons() & Qt::LeftButton)
        moveViewTo(event->position());
    event->accept();
}
