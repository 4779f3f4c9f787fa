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

namespace {

// blockRect with the plot's geometry computed once per frame rather than four times per block.
struct BlockMapper {
    double left, bottom, t0, xScale, yScale;
    std::int64_t origin;
    QRectF rect(const msprobe::studio::TimelineBlock& b) const
    {
        const double x0 = left + (static_cast<double>(b.startNs - origin) - t0) * xScale;
        const double x1 = left + (static_cast<double>(b.endNs - origin) - t0) * xScale;
        const double yLow = bottom - static_cast<double>(b.offset) * yScale;
        const double yHigh = bottom - static_cast<double>(b.offset + b.size) * yScale;
        return QRectF(QPointF(x0, yHigh), QPointF(x1, yLow));
    }
};

} // namespace

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
        if (detail == Detail::Aggregated || visible + m_longBlocks.size() > kExactBlockBudget)
            return out;
        out = columns(Detail::Exact);
        return out;
    }
    exactColumns(out);
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
    const FrameKey key { m_t0, m_t1, size(), m_document.get(), palette().color(QPalette::Base).rgba() };
    if (!m_frame || !(m_frame->key == key)) {
        m_frame.reset();
        Frame frame { key, columns(), {} };
        frame.layer = renderBlocks(frame.columns);
        m_frame = std::move(frame);
    }
    const Columns& cols = m_frame->columns;
    painter.save();
    painter.setClipRect(plotRect());
    painter.drawImage(plotRect().topLeft(), m_frame->layer);
    paintLiveCurve(painter, cols);
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

QImage MemoryTimelineView::renderBlocks(const Columns& cols) const
{
    // Straight into a raster the plot's size: stacked blocks never overlap, so a frame writes each pixel about
    // once whatever the number of blocks (a QPainter call per block costs a microsecond or more).
    const QRectF plot = plotRect();
    const int width = static_cast<int>(std::ceil(plot.width())), height = static_cast<int>(std::ceil(plot.height()));
    // Opaque (the plot's background filled in), so that drawing it is a copy rather than a blend.
    QImage layer(width, height, QImage::Format_RGB32);
    layer.fill(palette().color(QPalette::Base));
    // The raster's rows through one pointer: QImage::scanLine checks for a detach on every call, and a
    // column-by-column fill would call it for every pixel.
    uchar* const bits = layer.bits();
    const qsizetype stride = layer.bytesPerLine();
    auto rowOf = [&](int y) { return reinterpret_cast<QRgb*>(bits + static_cast<qsizetype>(y) * stride); };
    auto fill = [&](double left, double top, double right, double bottom, QRgb colour) {
        const int x0 = std::clamp(static_cast<int>(std::lround(left - plot.left())), 0, width);
        const int x1 = std::clamp(std::max(static_cast<int>(std::lround(right - plot.left())), x0 + 1), 0, width);
        const int y0 = std::clamp(static_cast<int>(std::lround(top - plot.top())), 0, height);
        const int y1 = std::clamp(std::max(static_cast<int>(std::lround(bottom - plot.top())), y0 + 1), 0, height);
        for (int y = y0; y < y1; ++y) {
            QRgb* line = rowOf(y);
            std::fill(line + x0, line + x1, colour);
        }
    };
    // (Past 4 budgets of marked blocks, aggregated columns take their colour from their marks again.)
    const bool overlayMarked = m_markedBlocks.size() <= 4 * kExactBlockBudget;
    // Merged columns first: a block drawn exactly (a long-lived leak, say) stays visible over them.
    // Aggregated with the marked blocks drawn apart, the columns hold the unmarked blocks only.
    const bool plainColumns = cols.aggregated && overlayMarked;
    for (std::size_t c = 0; c < cols.top.size(); ++c) {
        const double top = plainColumns ? cols.plainTop[c] : cols.top[c], bottom = plainColumns ? cols.plainBottom[c] : cols.bottom[c];
        if (top < bottom)
            continue;
        // Aggregated columns hold every block alive in them (a leak alive to the end would redden them all): they
        // stay neutral, and the marked blocks are drawn over them one by one.
        const std::uint8_t marks = cols.aggregated && overlayMarked ? 0 : cols.marks[c];
        const QColor colour = (marks & msprobe::studio::kMarkStepLeak) ? kLeakColour
            : (marks & msprobe::studio::kMarkInefficient)               ? kInefficientColour
            : (marks & msprobe::studio::kMarkAliveAtEnd)                ? kAliveColour
                                                                : kAggregatedColour;
        const double x = plot.left() + static_cast<double>(c);
        fill(x, yOfBytes(top), x + 1, yOfBytes(bottom), colour.rgba());
    }
    // Blocks under a pixel tall would each paint a whole pixel row over their neighbours (thousands of live
    // blocks stacked in a few hundred rows): they are counted per row instead — +1 where one starts, -1 where it
    // ends, one running sum per row — and the rows they cover painted once, in the colour of their strongest mark.
    enum ThinClass { Plain, Alive, Inefficient, Leak, ClassCount };
    std::vector<std::int32_t> thin[ClassCount];
    std::vector<std::uint8_t> thinRows[ClassCount]; // rows holding any thin block, the only ones scanned
    auto thinClass = [](std::uint8_t marks) {
        return (marks & msprobe::studio::kMarkStepLeak) ? Leak : (marks & msprobe::studio::kMarkInefficient) ? Inefficient : (marks & msprobe::studio::kMarkAliveAtEnd) ? Alive : Plain;
    };
    const QRgb outline = palette().color(QPalette::Base).rgba();
    const BlockMapper mapper { plot.left(), plot.bottom(), m_t0, plot.width() / (m_t1 - m_t0), plot.height() / bytesTop(), m_origin };
    auto drawBlock = [&](const msprobe::studio::TimelineBlock& block) {
        const QRectF rect = mapper.rect(block);
        if (rect.width() < 1 && !cols.aggregated)
            return;
        if (rect.height() < 1) {
            auto& counts = thin[thinClass(block.marks)];
            const int kind = thinClass(block.marks);
            if (counts.empty()) {
                counts.assign(static_cast<std::size_t>(width + 1) * static_cast<std::size_t>(height), 0);
                thinRows[kind].assign(static_cast<std::size_t>(height), 0);
            }
            const int y = std::clamp(static_cast<int>(std::lround(rect.bottom() - plot.top())) - 1, 0, height - 1);
            thinRows[kind][static_cast<std::size_t>(y)] = 1;
            const int x0 = std::clamp(static_cast<int>(std::lround(rect.left() - plot.left())), 0, width);
            const int x1 = std::clamp(std::max(static_cast<int>(std::lround(rect.right() - plot.left())), x0 + 1), 0, width);
            const std::size_t row = static_cast<std::size_t>(y) * static_cast<std::size_t>(width + 1);
            ++counts[row + static_cast<std::size_t>(x0)];
            --counts[row + static_cast<std::size_t>(x1)];
            return;
        }
        const QColor colour = blockColour(block);
        fill(rect.left(), rect.top(), rect.right(), rect.bottom(), colour.rgba());
        if (rect.width() > 4 && rect.height() > 4) {
            const QRgb edge = block.marks ? colour.darker(150).rgba() : outline;
            fill(rect.left(), rect.top(), rect.right(), rect.top() + 1, edge);
            fill(rect.left(), rect.bottom() - 1, rect.right(), rect.bottom(), edge);
            fill(rect.left(), rect.top(), rect.left() + 1, rect.bottom(), edge);
            fill(rect.right() - 1, rect.top(), rect.right(), rect.bottom(), edge);
        }
    };
    if (cols.aggregated && overlayMarked) {
        const auto& blocks = m_document->timeline.blocks;
        for (std::uint32_t i : m_markedBlocks) {
            const auto& block = blocks[i];
            if (static_cast<double>(block.endNs - m_origin) >= m_t0 && static_cast<double>(block.startNs - m_origin) <= m_t1)
                drawBlock(block);
        }
    } else if (!cols.aggregated) {
        forEachVisibleBlock(drawBlock);
    }
    const QRgb thinColours[ClassCount] = { paletteColour(0).rgba(), kAliveColour.rgba(), kInefficientColour.rgba(), kLeakColour.rgba() };
    for (int kind = Plain; kind < ClassCount; ++kind) { // the strongest mark last, so it shows
        const auto& counts = thin[kind];
        if (counts.empty())
            continue;
        for (int y = 0; y < height; ++y) {
            if (!thinRows[kind][static_cast<std::size_t>(y)])
                continue;
            const std::int32_t* row = counts.data() + static_cast<std::size_t>(y) * static_cast<std::size_t>(width + 1);
            QRgb* line = rowOf(y);
            std::int32_t live = 0;
            for (int x = 0; x < width; ++x) {
                live += row[x];
                if (live > 0)
                    line[x] = thinColours[kind];
            }
        }
    }
    // The live-bytes line, two pixels thick, written into the raster too: a wide-pen polyline of a zoomed-out
    // capture (a jump up or down at every column) cost QPainter's stroker 20 ms a frame.
    const QRgb ink = palette().color(QPalette::Text).rgba();
    int previous = -1;
    for (int c = 0; c < static_cast<int>(cols.liveMax.size()) && c < width; ++c) {
        if (cols.liveMax[c] < 0) {
            previous = -1;
            continue;
        }
        const int y = std::clamp(static_cast<int>(std::lround(yOfBytes(cols.liveMax[c]) - plot.top())), 0, height - 1);
        const int from = std::max(0, (previous < 0 ? y : std::min(previous, y)) - 1), to = std::min(height, (previous < 0 ? y : std::max(previous, y)) + 1);
        for (int row = from; row < to; ++row)
            rowOf(row)[c] = ink;
        previous = y;
    }
    return layer;
}

void MemoryTimelineView::paintLiveCurve(QPainter& painter, const Columns& cols) const
{
    const QRectF plot = plotRect();
    painter.setRenderHint(QPainter::Antialiasing, false);

    if (m_cursorX >= plot.left()) {
        painter.setPen(QPen(palette().color(QPalette::Mid), 1, Qt::DotLine));
        painter.drawLine(QPointF(m_cursorX, plot.top()), QPointF(m_cursorX, plot.bottom()));
    }
    const auto& peak = m_document->timeline.peak;
    if (peak.liveBytes <= 0)
        return;
    const double x = xOfTimestamp(peak.tsNs), y = yOfBytes(static_cast<double>(peak.liveBytes));
    painter.setPen(QPen(kLeakColour, 1, Qt::DashLine));
    painter.drawLine(QPointF(x, plot.top()), QPointF(x, plot.bottom()));
    painter.setBrush(kLeakColour);
    painter.drawEllipse(QPointF(x, y), 3.5, 3.5);
    const QString label = tr("peak %1 at %2")
                              .arg(QString::fromStdString(msprobe::studio::formatBytes(peak.liveBytes)),
                                  QString::fromStdString(msprobe::studio::formatOffsetNs(peak.tsNs - m_document->timeline.beginNs)));
    const QFontMetricsF metrics(font());
    const double textX = x + 6 + metrics.horizontalAdvance(label) > plot.right() ? x - 6 - metrics.horizontalAdvance(label) : x + 6;
    painter.setPen(palette().color(QPalette::Text));
    painter.drawText(QPointF(textX, std::max(plot.top() + metrics.ascent(), y - 4)), label);
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
