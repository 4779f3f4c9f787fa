// SPDX-License-Identifier: Apache-2.0
// An overview strip under the memory timeline: the whole capture's live bytes (each pixel column's maximum, from
// the document's level of detail) with the time range the timeline shows marked. A click centres the timeline on
// the time clicked, dragging moves the shown range; the wheel zooms it. Aligned with the timeline's plot.
#pragma once

#include "memorydocument.h"

#include <QWidget>

#include <memory>
#include <optional>

class MemoryMinimap : public QWidget {
    Q_OBJECT
public:
    explicit MemoryMinimap(QWidget* parent = nullptr);

    void setDocument(std::shared_ptr<const msprobe::studio::MemoryDocument> document);
    // The range the timeline shows, in ns since the capture's first event.
    void setVisibleRange(double beginNs, double endNs);
    double visibleBegin() const { return m_begin; }
    double visibleEnd() const { return m_end; }

    QRectF stripRect() const;
    double xOfTime(double ns) const;
    double timeOfX(double x) const;
    // Per pixel column of the strip: the most live bytes at any moment of it (-1: none known).
    std::vector<double> liveColumns() const;

    QSize sizeHint() const override { return QSize(400, 44); }

signals:
    // The user asked for this range (a click or a drag); the timeline follows it.
    void rangeRequested(double beginNs, double endNs);

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;

private:
    double spanNs() const;
    void moveTo(double centreNs);

    std::shared_ptr<const msprobe::studio::MemoryDocument> m_document;
    double m_begin = 0, m_end = 1;
    std::optional<double> m_grabOffsetNs; // while dragging: the grabbed time minus the range's centre
};
