// SPDX-License-Identifier: Apache-2.0
#include "memorytimelineview.h"

#include "memorylinks.h"
#include "memorytimelinestyle.h"

#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>
#include <limits>

using namespace msprobe::views::memorytimeline;

MemoryTimelineView::MemoryTimelineView(QWidget* parent)
    : QWidget(parent)
{
    setMouseTracking(true);
    setMinimumSize(320, 200);
    setAttribute(Qt::WA_OpaquePaintEvent);
}

void MemoryTimelineView::setDocument(std::shared_ptr<const msprobe::studio::MemoryDocument> document)
{
    m_document = std::move(document);
    m_frame.reset();
    m_origin = m_document ? m_document->timeline.beginNs : 0;
    m_selection.reset();
    m_longBlocks.clear();
    m_markedBlocks.clear();
    m_shortSpanNs = 0;
    if (m_document && !m_document->timeline.blocks.empty()) {
        // The longest-lived 1% (at least the 64 longest) are visited apart; every other block is short.
        const auto& blocks = m_document->timeline.blocks;
        std::vector<std::int64_t> spans;
        spans.reserve(blocks.size());
        for (const auto& block : blocks)
            spans.push_back(block.endNs - block.startNs);
        const std::size_t keep = std::min(spans.size() - 1, spans.size() - std::max<std::size_t>(64, spans.size() / 100));
        std::nth_element(spans.begin(), spans.begin() + static_cast<std::ptrdiff_t>(keep), spans.end());
        m_shortSpanNs = spans[keep];
        for (std::uint32_t i = 0; i < blocks.size(); ++i)
            if (blocks[i].endNs - blocks[i].startNs > m_shortSpanNs)
                m_longBlocks.push_back(i);
        for (std::uint32_t i = 0; i < blocks.size(); ++i)
            if (blocks[i].marks)
                m_markedBlocks.push_back(i);
    }
    showWholeCapture();
}

void MemoryTimelineView::showWholeCapture()
{
    if (!m_document) {
        setTimeRange(0, 1);
        return;
    }
    const auto& timeline = m_document->timeline;
    setTimeRange(0, static_cast<double>(std::max<std::int64_t>(timeline.endNs - timeline.beginNs, 1)));
}

void MemoryTimelineView::setTimeRange(double beginNs, double endNs)
{
    if (endNs - beginNs < kMinSpanNs) {
        const double middle = (beginNs + endNs) / 2;
        beginNs = middle - kMinSpanNs / 2;
        endNs = middle + kMinSpanNs / 2;
    }
    m_t0 = beginNs;
    m_t1 = endNs;
    emit timeRangeChanged(m_t0, m_t1);
    update();
}

void MemoryTimelineView::zoomAt(double x, double factor)
{
    const double pivot = timeOfX(x);
    setTimeRange(pivot - (pivot - m_t0) / factor, pivot + (m_t1 - pivot) / factor);
}

QRectF MemoryTimelineView::plotRect() const
{
    return QRectF(kLeft, kTop, std::max(1.0, width() - kLeft - kRight), std::max(1.0, height() - kTop - 3 * kLane - kAxis));
}

double MemoryTimelineView::xOfTime(double ns) const
{
    const QRectF plot = plotRect();
    return plot.left() + (ns - m_t0) / (m_t1 - m_t0) * plot.width();
}

double MemoryTimelineView::timeOfX(double x) const
{
    const QRectF plot = plotRect();
    return m_t0 + (x - plot.left()) / plot.width() * (m_t1 - m_t0);
}

double MemoryTimelineView::bytesTop() const
{
    if (!m_document)
        return 1;
    const auto& timeline = m_document->timeline;
    return std::max<double>(1, std::max(timeline.stackTop, timeline.peak.liveBytes)) * 1.05;
}

double MemoryTimelineView::yOfBytes(double bytes) const
{
    const QRectF plot = plotRect();
    return plot.bottom() - bytes / bytesTop() * plot.height();
}

QRectF MemoryTimelineView::blockRect(const msprobe::studio::TimelineBlock& block) const
{
    return QRectF(QPointF(xOfTimestamp(block.startNs), yOfBytes(static_cast<double>(block.offset + block.size))),
        QPointF(xOfTimestamp(block.endNs), yOfBytes(static_cast<double>(block.offset))));
}

MemoryTimelineView::Columns MemoryTimelineView::columns(Detail detail) const
{
    Columns out;
    const int count = static_cast<int>(std::ceil(plotRect().width()));
    out.top.assign(count, -1);
    out.bottom.assign(count, std::numeric_limits<double>::max());
    out.plainTop.assign(count, -1);
    out.plainBottom.assign(count, std::numeric_limits<double>::max());
    out.marks.assign(count, 0);
    out.liveMax.assign(count, -1);
    out.allocations.assign(count, 0);
    out.allocatedBytes.assign(count, 0);
    if (!m_document)
        return out;
    if (detail != Detail::Exact && aggregatedColumns(out)) {
        std::size_t visible = 0;
        for (const auto allocations : out.allocations)
            visible += allocations;
        if (detail == Detail::Aggregated || visible + m_longBlocks.size() > kExactBlockBudget) {
            densityColumns(out);
            return out;
        }
        out = columns(Detail::Exact);
        return out;
    }
    exactColumns(out);
    densityColumns(out);
    return out;
}

bool MemoryTimelineView::aggregatedColumns(Columns& out) const
{
    const auto& lod = m_document->timeline.lod;
    const QRectF plot = plotRect();
    const double pixelNs = (m_t1 - m_t0) / plot.width();
    if (lod.empty() || pixelNs < lod.leafNs)
        return false;
    // The coarsest level whose buckets are no wider than a pixel: each column gets the one or two buckets
    // starting in it (the first also the bucket straddling the left edge).
    const std::size_t level = std::min(lod.levels.size() - 1, static_cast<std::size_t>(std::floor(std::log2(pixelNs / lod.leafNs))));
    const auto& buckets = lod.levels[level];
    const double bucketNs = lod.bucketNs(level);
    const int count = static_cast<int>(out.top.size());
    const auto first = static_cast<std::size_t>(std::clamp(std::floor(m_t0 / bucketNs), 0.0, static_cast<double>(buckets.size())));
    const auto last = static_cast<std::size_t>(std::clamp(std::floor(m_t1 / bucketNs) + 1, 0.0, static_cast<double>(buckets.size())));
    for (std::size_t j = first; j < last; ++j) {
        // (j - t0 / bucket) * (bucket / pixel) rather than (j * bucket - t0) / pixel: when buckets and pixels
        // line up, the ratio is exactly 1 and no rounding moves a bucket into the previous column.
        const double column = std::floor((static_cast<double>(j) - m_t0 / bucketNs) * (bucketNs / pixelNs));
        const int c = static_cast<int>(std::clamp(column, 0.0, static_cast<double>(count - 1)));
        const auto& bucket = buckets[j];
        out.liveMax[c] = std::max(out.liveMax[c], static_cast<double>(bucket.liveMax));
        out.allocations[c] += bucket.allocations;
        out.allocatedBytes[c] += static_cast<double>(bucket.allocatedBytes);
        out.aggregatedBlocks += bucket.allocations;
        out.plainTop[c] = std::max(out.plainTop[c], static_cast<double>(bucket.plainTop));
        out.plainBottom[c] = std::min(out.plainBottom[c], static_cast<double>(bucket.plainBottom));
        if (bucket.top < bucket.bottom)
            continue;
        out.top[c] = std::max(out.top[c], static_cast<double>(bucket.top));
        out.bottom[c] = std::min(out.bottom[c], static_cast<double>(bucket.bottom));
        out.marks[c] |= bucket.marks;
    }
    out.aggregated = true;
    return true;
}

void MemoryTimelineView::exactColumns(Columns& out) const
{
    const QRectF plot = plotRect();
    const int count = static_cast<int>(out.top.size());
    const auto& timeline = m_document->timeline;
    auto columnOf = [&](double x) { return std::clamp(static_cast<int>(std::floor(x - plot.left())), 0, count - 1); };
    const BlockMapper mapper { plot.left(), plot.bottom(), m_t0, plot.width() / (m_t1 - m_t0), plot.height() / bytesTop(), m_origin };

    forEachVisibleBlock([&](const msprobe::studio::TimelineBlock& block) {
        const QRectF rect = mapper.rect(block);
        if (static_cast<double>(block.startNs - m_origin) >= m_t0) {
            const int c = columnOf(rect.left());
            ++out.allocations[c];
            out.allocatedBytes[c] += static_cast<double>(block.size);
        }
        if (rect.width() >= 1) {
            ++out.exactBlocks;
            return;
        }
        ++out.aggregatedBlocks;
        const double top = static_cast<double>(block.offset + block.size), bottom = static_cast<double>(block.offset);
        for (int c = columnOf(rect.left()), end = columnOf(rect.right()); c <= end; ++c) {
            out.top[c] = std::max(out.top[c], top);
            out.bottom[c] = std::min(out.bottom[c], bottom);
            out.marks[c] |= block.marks;
        }
    });

    // Live bytes: each column gets the value carried into it and every point inside it, so its maximum survives.
    const auto& live = timeline.live;
    auto firstInView = std::lower_bound(live.begin(), live.end(), m_t0,
        [this](const msprobe::studio::LivePoint& p, double t) { return static_cast<double>(p.tsNs - m_origin) < t; });
    double carried = firstInView == live.begin() ? -1 : static_cast<double>(std::prev(firstInView)->liveBytes);
    const int firstColumn = columnOf(xOfTimestamp(timeline.beginNs));
    const int lastColumn = columnOf(xOfTimestamp(timeline.endNs));
    auto point = firstInView;
    for (int c = 0; c < count; ++c) {
        const double columnEnd = timeOfX(plot.left() + c + 1);
        double value = carried;
        for (; point != live.end() && static_cast<double>(point->tsNs - m_origin) < columnEnd; ++point) {
            value = std::max(value, static_cast<double>(point->liveBytes));
            carried = static_cast<double>(point->liveBytes);
        }
        if (c >= firstColumn && c <= lastColumn)
            out.liveMax[c] = std::max(value, carried);
    }
}

void MemoryTimelineView::setSelection(std::int64_t beginTs, std::int64_t endTs)
{
    m_selection = std::make_pair(std::min(beginTs, endTs), std::max(beginTs, endTs));
    update();
}

void MemoryTimelineView::clearSelection()
{
    m_selection.reset();
    update();
}

std::vector<std::size_t> MemoryTimelineView::selectedOperators() const
{
    if (!m_document || !m_selection)
        return {};
    return msprobe::studio::operatorsInRange(m_document->timeline, m_selection->first, m_selection->second);
}

void MemoryTimelineView::showSpan(std::int64_t beginTs, std::int64_t endTs)
{
    setSelection(beginTs, endTs);
    const double begin = static_cast<double>(m_selection->first - m_origin), end = static_cast<double>(m_selection->second - m_origin);
    const double margin = std::max((end - begin) * 0.1, kMinSpanNs);
    setTimeRange(begin - margin, end + margin);
}

std::optional<std::size_t> MemoryTimelineView::blockAt(const QPointF& pos) const
{
    if (!m_document || !plotRect().contains(pos))
        return std::nullopt;
    if (m_layout == Layout::Sliding)
        return slidingBlockAt(pos);
    const auto& blocks = m_document->timeline.blocks;
    const double halfPixelNs = (m_t1 - m_t0) / plotRect().width() / 2;
    const double t = timeOfX(pos.x()), bytes = (plotRect().bottom() - pos.y()) / plotRect().height() * bytesTop();
    const double halfPixelBytes = bytesTop() / plotRect().height() / 2;
    std::optional<std::size_t> best;
    forEachBlockIn(t - halfPixelNs, t + halfPixelNs, [&](const msprobe::studio::TimelineBlock& block) {
        if (bytes + halfPixelBytes < static_cast<double>(block.offset) || bytes - halfPixelBytes > static_cast<double>(block.offset + block.size))
            return;
        const std::size_t index = static_cast<std::size_t>(&block - blocks.data());
        if (!best || block.size < blocks[*best].size || (block.size == blocks[*best].size && index < *best))
            best = index;
    });
    return best;
}

QString MemoryTimelineView::blockToolTip(std::size_t index) const
{
    if (!m_document || index >= m_document->timeline.blocks.size())
        return {};
    const auto& block = m_document->timeline.blocks[index];
    const std::string stacks = m_document->callStacks(block);
    return QString::fromStdString(m_document->describe(block) + (stacks.empty() ? "" : "\n" + stacks));
}

QColor MemoryTimelineView::blockColour(const msprobe::studio::TimelineBlock& block) const
{
    if (block.marks & msprobe::studio::kMarkStepLeak)
        return kLeakColour;
    if (block.marks & msprobe::studio::kMarkInefficient)
        return kInefficientColour;
    if (block.marks & msprobe::studio::kMarkAliveAtEnd)
        return kAliveColour;
    return paletteColour(block.block);
}

void MemoryTimelineView::paintEvent(QPaintEvent*)
{
    QPainter painter(this);
    painter.fillRect(rect(), palette().base());
    if (!m_document) {
        painter.setPen(palette().color(QPalette::PlaceholderText));
        painter.drawText(rect(), Qt::AlignCenter, tr("Open a memory dump (File → Open memory dump…)"));
        return;
    }
    // Hovering repaints for the cursor line: the blocks are drawn again only when the time range, the size, the
    // document or the background changed.
    const FrameKey key { m_t0, m_t1, size(), m_document.get(), palette().color(QPalette::Base).rgba(), m_densityShown, m_layout };
    if (!m_frame || !(m_frame->key == key)) {
        m_frame.reset();
        Frame frame { key, columns(), {} };
        frame.layer = m_layout == Layout::Sliding ? renderSliding(frame.columns) : renderBlocks(frame.columns);
        m_frame = std::move(frame);
    }
    painter.save();
    painter.setClipRect(plotRect());
    painter.drawImage(plotRect().topLeft(), m_frame->layer);
    paintCursorAndPeak(painter);
    if (m_selection) {
        QColor band = palette().color(QPalette::Highlight);
        band.setAlpha(50);
        const double left = xOfTimestamp(m_selection->first), right = xOfTimestamp(m_selection->second);
        painter.fillRect(QRectF(left, plotRect().top(), std::max(1.0, right - left), plotRect().height()), band);
    }
    painter.restore();
    paintLanes(painter);
    paintAxes(painter);
    paintLegend(painter);
}

void MemoryTimelineView::wheelEvent(QWheelEvent* event)
{
    if (!m_document)
        return;
    zoomAt(event->position().x(), std::pow(1.0015, event->angleDelta().y()));
    event->accept();
}

void MemoryTimelineView::mousePressEvent(QMouseEvent* event)
{
    const bool selecting = event->button() == Qt::RightButton || (event->button() == Qt::LeftButton && (event->modifiers() & Qt::ShiftModifier));
    if (selecting && m_document) {
        m_selectAnchorX = event->position().x();
        const std::int64_t ts = m_origin + static_cast<std::int64_t>(std::llround(timeOfX(*m_selectAnchorX)));
        setSelection(ts, ts);
    } else if (event->button() == Qt::LeftButton) {
        m_dragX = event->position().x();
    }
}

void MemoryTimelineView::mouseMoveEvent(QMouseEvent* event)
{
    if (!m_document)
        return;
    const QPointF pos = event->position();
    if (m_selectAnchorX) {
        auto tsOf = [this](double x) { return m_origin + static_cast<std::int64_t>(std::llround(timeOfX(x))); };
        setSelection(tsOf(*m_selectAnchorX), tsOf(pos.x()));
        return;
    }
    if (m_dragX) {
        const double shift = (*m_dragX - pos.x()) / plotRect().width() * (m_t1 - m_t0);
        m_dragX = pos.x();
        setTimeRange(m_t0 + shift, m_t1 + shift);
        return;
    }
    m_cursorX = pos.x();
    emit cursorTimeChanged(m_origin + static_cast<qint64>(std::llround(timeOfX(pos.x()))));
    update();
    if (const auto index = blockAt(pos))
        QToolTip::showText(event->globalPosition().toPoint(), blockToolTip(*index), this);
    else if (const QString band = densityToolTip(pos); !band.isEmpty())
        QToolTip::showText(event->globalPosition().toPoint(), band, this);
    else
        QToolTip::hideText();
}

void MemoryTimelineView::mouseReleaseEvent(QMouseEvent*)
{
    m_dragX.reset();
    if (m_selectAnchorX && m_selection) {
        m_selectAnchorX.reset();
        emit rangeSelected(m_selection->first, m_selection->second);
    }
    m_selectAnchorX.reset();
}

void MemoryTimelineView::mouseDoubleClickEvent(QMouseEvent*) { showWholeCapture(); }

void MemoryTimelineView::leaveEvent(QEvent*)
{
    m_cursorX = -1;
    update();
}
