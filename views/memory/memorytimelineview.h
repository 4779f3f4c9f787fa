// SPDX-License-Identifier: Apache-2.0
// Active memory over time as stacked allocation blocks (every block of the dump, no cap). Blocks at least a
// pixel wide are drawn exactly (at least a pixel tall); narrower ones are aggregated per pixel column (the
// column's highest and lowest byte, its leak/inefficient marks), and the live-bytes curve keeps each column's maximum, so zooming
// out never hides a peak. Lanes for steps, outermost operators and mstx marks/ranges run under the plot. Wheel zooms the time
// axis around the cursor, dragging pans, a double click shows the whole capture; hovering a block shows its
// size, address, operator, owner, step, times and why it is highlighted. Shift+drag (or a right-button drag)
// selects a time range: the operators it overlaps are highlighted in the operator lane and rangeSelected tells
// the studio, which links them to the graph.
#pragma once

#include "memorydocument.h"

#include <QWidget>

#include <memory>
#include <optional>
#include <vector>

class MemoryTimelineView : public QWidget {
    Q_OBJECT
public:
    explicit MemoryTimelineView(QWidget* parent = nullptr);

    void setDocument(std::shared_ptr<const studio::MemoryDocument> document);
    const studio::MemoryDocument* document() const { return m_document.get(); }

    // The time axis shown, in nanoseconds since the capture's first event (relative, so a double keeps every
    // nanosecond: absolute msMemScope timestamps near 1.7e18 would round to 256 ns).
    void setTimeRange(double beginNs, double endNs);
    std::int64_t origin() const { return m_origin; }
    double timeBegin() const { return m_t0; }
    double timeEnd() const { return m_t1; }
    void showWholeCapture();
    // Zoom by factor (> 1 zooms in) keeping the time at x fixed.
    void zoomAt(double x, double factor);

    // Geometry, for the painting and the tests: the plot area, and where a time and a byte count land in it.
    QRectF plotRect() const;
    double xOfTime(double ns) const; // ns relative to origin()
    double timeOfX(double x) const;
    double xOfTimestamp(std::int64_t tsNs) const { return xOfTime(static_cast<double>(tsNs - m_origin)); }
    double yOfBytes(double bytes) const;
    QRectF blockRect(const studio::TimelineBlock& block) const;

    // The selected time range (trace timestamps), drawn as a band; the operators it overlaps are highlighted.
    void setSelection(std::int64_t beginTs, std::int64_t endTs);
    void clearSelection();
    std::optional<std::pair<std::int64_t, std::int64_t>> selection() const { return m_selection; }
    std::vector<std::size_t> selectedOperators() const; // timeline.ops indexes
    // Selects [beginTs, endTs] and zooms so that it fills most of the plot (a graph node's or a step's span).
    void showSpan(std::int64_t beginTs, std::int64_t endTs);

    // Level of detail: per pixel column of the plot, what the blocks narrower than a pixel add up to.
    struct Columns {
        std::vector<double> top, bottom; // highest offset+size, lowest offset of the small blocks (bottom > top: none)
        std::vector<std::uint8_t> marks; // MemoryMark bits of the small blocks
        std::vector<double> liveMax; // the most live bytes at any moment of the column (-1: outside the capture)
        std::size_t exactBlocks = 0, aggregatedBlocks = 0;
    };
    Columns columns() const;

    // The timeline.blocks index under pos (the smallest block when several are within half a pixel), if any.
    std::optional<std::size_t> blockAt(const QPointF& pos) const;
    QString blockToolTip(std::size_t index) const;

signals:
    // The trace timestamp under the mouse, for the decomposition at the cursor.
    void cursorTimeChanged(qint64 tsNs);
    void timeRangeChanged(double beginNs, double endNs);
    // The user selected a time range (trace timestamps) with Shift+drag or a right-button drag.
    void rangeSelected(qint64 beginTs, qint64 endTs);

protected:
    void paintEvent(QPaintEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void leaveEvent(QEvent* event) override;

private:
    void paintBlocks(QPainter& painter, const Columns& columns) const;
    void paintLiveCurve(QPainter& painter, const Columns& columns) const;
    void paintLanes(QPainter& painter) const;
    void paintMarkLane(QPainter& painter, double top) const;
    void paintAxes(QPainter& painter) const;
    void paintLegend(QPainter& painter) const;
    // Calls fn for every block overlapping the shown time range: the short-lived ones found by binary search on
    // their start (no block shorter than m_shortSpanNs starts before the range minus it), the few long-lived
    // ones from their own list — so a frame costs what is visible, not what came before.
    template<typename Fn>
    void forEachVisibleBlock(Fn&& fn) const;
    QColor blockColour(const studio::TimelineBlock& block) const;
    double bytesTop() const;

    std::shared_ptr<const studio::MemoryDocument> m_document;
    std::vector<std::uint32_t> m_longBlocks; // timeline.blocks indexes living longer than m_shortSpanNs
    std::int64_t m_shortSpanNs = 0;
    std::int64_t m_origin = 0;
    double m_t0 = 0, m_t1 = 1;
    std::optional<double> m_dragX, m_selectAnchorX;
    std::optional<std::pair<std::int64_t, std::int64_t>> m_selection;
    double m_cursorX = -1;
};
