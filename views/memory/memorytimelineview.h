// SPDX-License-Identifier: Apache-2.0
// Active memory over time as stacked allocation blocks (every block of the dump, no cap). Zoomed in, blocks at
// least a pixel wide are drawn exactly (at least a pixel tall) and narrower ones are aggregated per pixel column
// (the column's highest and lowest byte, its leak/inefficient marks); zoomed out past kExactBlockBudget visible
// blocks, each column is drawn from the document's precomputed level-of-detail buckets (the envelope of the
// blocks alive in it) with the marked blocks drawn over it. The live-bytes curve keeps each column's maximum, so
// zooming out never hides a peak. With the density shown (the default), the blocks narrower than a pixel are not
// drawn as one extent per column but as how full each byte band is in it (memoryloddensity.h), on a colour scale from
// pale (a few bytes of the band live) to dark (all of them), so fragmentation shows without zooming. Lanes for steps, outermost operators and mstx marks/ranges run under the plot. Wheel zooms the time
// axis around the cursor, dragging pans, a double click shows the whole capture; hovering a block shows its
// size, address, operator, owner, step, times, why it is highlighted, and (when the dump has them) the module
// and call stacks of its allocation. Shift+drag (or a right-button drag)
// selects a time range: the operators it overlaps are highlighted in the operator lane and rangeSelected tells
// the studio, which links them to the graph.
#pragma once

#include "memorydocument.h"

#include <QImage>
#include <QWidget>

#include <algorithm>
#include <memory>
#include <optional>
#include <vector>

class MemoryTimelineView : public QWidget {
    Q_OBJECT
public:
    explicit MemoryTimelineView(QWidget* parent = nullptr);

    void setDocument(std::shared_ptr<const msprobe::studio::MemoryDocument> document);
    const msprobe::studio::MemoryDocument* document() const { return m_document.get(); }

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
    QRectF blockRect(const msprobe::studio::TimelineBlock& block) const;

    // The selected time range (trace timestamps), drawn as a band; the operators it overlaps are highlighted.
    void setSelection(std::int64_t beginTs, std::int64_t endTs);
    void clearSelection();
    std::optional<std::pair<std::int64_t, std::int64_t>> selection() const { return m_selection; }
    std::vector<std::size_t> selectedOperators() const; // timeline.ops indexes
    // Selects [beginTs, endTs] and zooms so that it fills most of the plot (a graph node's or a step's span).
    void showSpan(std::int64_t beginTs, std::int64_t endTs);

    // Level of detail, per pixel column of the plot. Exact: every visible block is looked at; the envelope
    // holds the blocks narrower than a pixel (the wider ones are drawn one by one). Aggregated: the document's
    // precomputed buckets (TimelineLod) are merged, O(columns) whatever the number of blocks, and the envelope
    // holds every block alive in the column. Automatic: aggregated when more than kExactBlockBudget blocks
    // would be visible and a bucket is no wider than a pixel, exact otherwise.
    enum class Detail { Automatic, Exact, Aggregated };
    static constexpr std::size_t kExactBlockBudget = 16384;
    struct Columns {
        std::vector<double> top, bottom; // the envelope: highest offset+size, lowest offset (bottom > top: none)
        std::vector<double> plainTop, plainBottom; // aggregated only: the envelope of the unmarked blocks
        std::vector<std::uint8_t> marks; // MemoryMark bits of the envelope's blocks
        std::vector<double> liveMax; // the most live bytes at any moment of the column (-1: outside the capture)
        std::vector<std::uint32_t> allocations; // blocks allocated in the column
        std::vector<double> allocatedBytes; // and their bytes
        bool aggregated = false;
        std::size_t exactBlocks = 0, aggregatedBlocks = 0; // blocks drawn one by one, and merged into columns
        // With the density shown: per column, per byte band (column-major, kDensityBands each) the fraction of
        // the band's bytes live on average over the column; empty when the frame draws the envelope.
        std::vector<float> density;
        std::int64_t densityBandBytes = 0;
        bool densityFromLod = false; // from the document's pyramid rather than the visible blocks
    };
    Columns columns(Detail detail = Detail::Automatic) const;

    // Density of the blocks narrower than a pixel (on by default). Columns::density is filled when it is shown and
    // the frame has such blocks: from the document's density pyramid when its leaves are no wider than a pixel,
    // from the visible blocks otherwise.
    void setDensityShown(bool shown);
    bool densityShown() const { return m_densityShown; }
    // The colour of a band `fraction` (0..1) full, over this view's background.
    QColor densityColour(double fraction) const;
    // "12.0–16.0 MiB: 37 % live": the band under pos in the frame's density, "" where none is drawn.
    QString densityToolTip(const QPointF& pos) const;

    // How blocks are stacked. Packed: each block keeps the offset the document's layout gave it for its whole life
    // (free gaps stay, which shows fragmentation). Sliding: memory_viz's "Active Memory Timeline" — the blocks alive
    // are stacked in allocation order with no gap, so when one is freed every block above it slides down; a block's
    // offset in a pixel column is the bytes of the earlier-allocated blocks overlapping the column. Zoomed in (at
    // most kSlidingBlockBudget blocks in view) every block is drawn; past that, each column is filled up to its
    // live maximum (the sliding stack has no gaps, so that is its exact outline) and hovering still finds the block.
    enum class Layout { Packed, Sliding };
    static constexpr std::size_t kSlidingBlockBudget = 8192;
    void setLayout(Layout layout);
    Layout layout() const { return m_layout; }
    struct SlidingPlace {
        std::uint32_t block; // timeline.blocks index
        std::int64_t offset; // bytes below it in the sliding stack
    };
    // The sliding stack over [t0Ns, t1Ns) (ns relative to origin(), t1Ns > t0Ns): the blocks overlapping it in
    // allocation order, each with the bytes of those before it.
    std::vector<SlidingPlace> slidingStack(double t0Ns, double t1Ns) const;

    // The timeline.blocks index under pos (the smallest block when several are within half a pixel), if any.
    std::optional<std::size_t> blockAt(const QPointF& pos) const;
    QString blockToolTip(std::size_t index) const;

signals:
    void densityShownChanged(bool shown);
    void layoutChanged(MemoryTimelineView::Layout layout);
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
    QImage blankPlotLayer() const; // an opaque raster the size of plotRect(), in the background colour
    QImage renderBlocks(const Columns& columns) const; // the plot's blocks, the size of plotRect()
    QImage renderSliding(const Columns& columns) const; // the same in the sliding layout (memorytimelinesliding.cpp)
    std::optional<std::size_t> slidingBlockAt(const QPointF& pos) const;
    void drawLiveLine(QImage& layer, const Columns& columns) const;
    void paintCursorAndPeak(QPainter& painter) const;
    void paintLanes(QPainter& painter) const;
    void paintMarkLane(QPainter& painter, double top) const;
    void paintAxes(QPainter& painter) const;
    void paintLegend(QPainter& painter) const;
    // Calls fn for every block overlapping the shown time range: the short-lived ones found by binary search on
    // their start (no block shorter than m_shortSpanNs starts before the range minus it), the few long-lived
    // ones from their own list — so a frame costs what is visible, not what came before.
    template<typename Fn>
    void forEachVisibleBlock(Fn&& fn) const { forEachBlockIn(m_t0, m_t1, fn); }
    template<typename Fn>
    void forEachBlockIn(double t0, double t1, Fn&& fn) const;
    bool aggregatedColumns(Columns& out) const;
    void exactColumns(Columns& out) const;
    void densityColumns(Columns& out) const; // memorytimelinedensity.cpp
    void fillDensity(QImage& layer, const Columns& columns) const;
    bool marksDrawnApart() const { return m_markedBlocks.size() <= 4 * kExactBlockBudget; }
    QColor blockColour(const msprobe::studio::TimelineBlock& block) const;
    double bytesTop() const;

    std::shared_ptr<const msprobe::studio::MemoryDocument> m_document;
    std::vector<std::uint32_t> m_longBlocks; // timeline.blocks indexes living longer than m_shortSpanNs
    std::int64_t m_shortSpanNs = 0;
    std::vector<std::uint32_t> m_markedBlocks; // blocks with marks, drawn one by one over aggregated columns
    std::int64_t m_origin = 0;
    double m_t0 = 0, m_t1 = 1;
    bool m_densityShown = true;
    Layout m_layout = Layout::Packed;
    std::optional<double> m_dragX, m_selectAnchorX;
    std::optional<std::pair<std::int64_t, std::int64_t>> m_selection;
    double m_cursorX = -1;
    struct FrameKey {
        double t0, t1;
        QSize size;
        const void* document;
        QRgb background;
        bool density;
        Layout layout;
        bool operator==(const FrameKey&) const = default;
    };
    struct Frame {
        FrameKey key;
        Columns columns;
        QImage layer;
    };
    mutable std::optional<Frame> m_frame; // the last frame's blocks, reused while only the cursor moves
};

// (In the header: the painting files visit blocks too.)
template<typename Fn>
void MemoryTimelineView::forEachBlockIn(double t0, double t1, Fn&& fn) const
{
    const auto& blocks = m_document->timeline.blocks;
    auto visible = [&](const msprobe::studio::TimelineBlock& b) {
        return static_cast<double>(b.endNs - m_origin) >= t0 && static_cast<double>(b.startNs - m_origin) <= t1;
    };
    for (std::uint32_t i : m_longBlocks)
        if (visible(blocks[i]))
            fn(blocks[i]);
    const double from = t0 - static_cast<double>(m_shortSpanNs);
    auto it = std::lower_bound(blocks.begin(), blocks.end(), from,
        [this](const msprobe::studio::TimelineBlock& b, double t) { return static_cast<double>(b.startNs - m_origin) < t; });
    for (; it != blocks.end() && static_cast<double>(it->startNs - m_origin) <= t1; ++it)
        if (it->endNs - it->startNs <= m_shortSpanNs && visible(*it))
            fn(*it);
}
