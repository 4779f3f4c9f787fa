// SPDX-License-Identifier: Apache-2.0
// The memory timeline's sliding layout (memory_viz's "Active Memory Timeline"): blocks stacked in allocation order
// with no gap, those above a freed block sliding down. A frame is drawn column by column: the blocks overlapping the
// column, in allocation order (timeline.blocks is sorted by allocation time, so index order), each painted from the
// bytes of the ones before it. A new block always goes on top (nothing alive was allocated after it), so one list
// per frame suffices: blocks join it at the end and leave it when they end before the column.
#include "memorytimelineview.h"

#include "memorytimelinestyle.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <queue>

using namespace msprobe::views::memorytimeline;

namespace {

// [start, end] overlaps the half-open column [t0, t1).
bool overlapsColumn(double start, double end, double t0, double t1) { return start < t1 && end >= t0; }

} // namespace

void MemoryTimelineView::setLayout(Layout layout)
{
    if (layout == m_layout)
        return;
    m_layout = layout;
    emit layoutChanged(layout);
    update();
}

std::vector<MemoryTimelineView::SlidingPlace> MemoryTimelineView::slidingStack(double t0Ns, double t1Ns) const
{
    std::vector<SlidingPlace> out;
    if (!m_document)
        return out;
    const auto& blocks = m_document->timeline.blocks;
    forEachBlockIn(t0Ns, t1Ns, [&](const msprobe::studio::TimelineBlock& block) {
        if (overlapsColumn(static_cast<double>(block.startNs - m_origin), static_cast<double>(block.endNs - m_origin), t0Ns, t1Ns))
            out.push_back({ static_cast<std::uint32_t>(&block - blocks.data()), 0 });
    });
    std::sort(out.begin(), out.end(), [](const SlidingPlace& a, const SlidingPlace& b) { return a.block < b.block; });
    std::int64_t offset = 0;
    for (auto& place : out) {
        place.offset = offset;
        offset += blocks[place.block].size;
    }
    return out;
}

std::optional<std::size_t> MemoryTimelineView::slidingBlockAt(const QPointF& pos) const
{
    const QRectF plot = plotRect();
    const double column = std::floor(pos.x() - plot.left());
    const double t0 = timeOfX(plot.left() + column), t1 = timeOfX(plot.left() + column + 1);
    const double bytes = (plot.bottom() - pos.y()) / plot.height() * bytesTop();
    const double halfPixelBytes = bytesTop() / plot.height() / 2;
    const auto& blocks = m_document->timeline.blocks;
    std::optional<std::size_t> best;
    for (const SlidingPlace& place : slidingStack(t0, t1)) {
        const auto& block = blocks[place.block];
        if (bytes + halfPixelBytes < static_cast<double>(place.offset) || bytes - halfPixelBytes > static_cast<double>(place.offset + block.size))
            continue;
        if (!best || block.size < blocks[*best].size)
            best = place.block;
    }
    return best;
}

QImage MemoryTimelineView::renderSliding(const Columns& cols) const
{
    const QRectF plot = plotRect();
    QImage layer = blankPlotLayer();
    const int width = layer.width(), height = layer.height();
    uchar* const bits = layer.bits();
    const qsizetype stride = layer.bytesPerLine();
    const double bytesPerRow = bytesTop() / plot.height();
    // Pixel row (from the top) of a byte height; rows [rowOf(top), rowOf(bottom)) are painted.
    auto rowOf = [&](double bytes) { return std::clamp(static_cast<int>(std::lround(height - bytes / bytesPerRow)), 0, height); };
    auto paintColumn = [&](int x, int rowTop, int rowBottom, QRgb colour) {
        for (int y = rowTop; y < rowBottom; ++y)
            reinterpret_cast<QRgb*>(bits + static_cast<qsizetype>(y) * stride)[x] = colour;
    };

    std::vector<std::uint32_t> visible;
    if (!cols.aggregated) {
        const auto& blocks = m_document->timeline.blocks;
        forEachVisibleBlock([&](const msprobe::studio::TimelineBlock& block) {
            if (visible.size() <= kSlidingBlockBudget)
                visible.push_back(static_cast<std::uint32_t>(&block - blocks.data()));
        });
    }
    if (cols.aggregated || visible.size() > kSlidingBlockBudget) {
        // Level of detail: the sliding stack is solid up to the live bytes, so each column is filled to its maximum.
        const QRgb colour = kAggregatedColour.rgba();
        for (int c = 0; c < width && c < static_cast<int>(cols.liveMax.size()); ++c)
            if (cols.liveMax[c] > 0)
                paintColumn(c, std::min(rowOf(cols.liveMax[c]), height - 1), height, colour);
        drawLiveLine(layer, cols);
        return layer;
    }

    std::sort(visible.begin(), visible.end());
    const auto& blocks = m_document->timeline.blocks;
    std::vector<QRgb> colours(visible.size());
    std::vector<double> starts(visible.size()), ends(visible.size());
    for (std::size_t i = 0; i < visible.size(); ++i) {
        const auto& block = blocks[visible[i]];
        colours[i] = blockColour(block).rgba();
        starts[i] = static_cast<double>(block.startNs - m_origin);
        ends[i] = static_cast<double>(block.endNs - m_origin);
    }
    const QRgb edge = palette().color(QPalette::Base).rgba();
    auto pixel = [&](int x, int y) -> QRgb& { return reinterpret_cast<QRgb*>(bits + static_cast<qsizetype>(y) * stride)[x]; };
    // Column by column, incrementally: the blocks below the lowest one that left or joined keep their place, so their
    // pixels are copied from the column before and only the blocks from there up are painted again (a zoomed-in
    // frame of long-lived blocks is then mostly copies).
    std::vector<std::uint32_t> active; // positions in `visible`, in allocation order
    std::vector<std::int64_t> bottoms; // the offset of active[i] in the column before
    // The active blocks by end, so that a column finds the ones freed before it without scanning them all.
    using Ending = std::pair<double, std::uint32_t>;
    std::priority_queue<Ending, std::vector<Ending>, std::greater<Ending>> ending;
    std::vector<std::uint8_t> gone(visible.size(), 0);
    std::size_t next = 0;
    for (int c = 0; c < width; ++c) {
        const double t0 = timeOfX(plot.left() + c), t1 = timeOfX(plot.left() + c + 1);
        std::size_t firstChanged = c == 0 ? 0 : active.size();
        std::uint32_t lowestGone = std::numeric_limits<std::uint32_t>::max();
        for (; !ending.empty() && ending.top().first < t0; ending.pop()) { // freed before this column: gone for the frame
            gone[ending.top().second] = 1;
            lowestGone = std::min(lowestGone, ending.top().second);
        }
        if (lowestGone != std::numeric_limits<std::uint32_t>::max()) {
            const auto from = static_cast<std::size_t>(std::lower_bound(active.begin(), active.end(), lowestGone) - active.begin());
            firstChanged = std::min(firstChanged, from);
            std::size_t kept = from;
            for (std::size_t i = from; i < active.size(); ++i) {
                if (gone[active[i]])
                    continue;
                bottoms[kept] = bottoms[i];
                active[kept++] = active[i];
            }
            active.resize(kept);
            bottoms.resize(kept);
        }
        firstChanged = std::min(firstChanged, active.size());
        for (; next < visible.size() && starts[next] < t1; ++next) {
            active.push_back(static_cast<std::uint32_t>(next));
            bottoms.push_back(0);
            ending.push({ ends[next], static_cast<std::uint32_t>(next) });
        }
        // The block under the first changed one is painted again too: it paints at least the row above its bottom,
        // the one row a block over it could also have painted in the column before.
        if (firstChanged > 0)
            --firstChanged;
        std::int64_t offset = firstChanged == 0 ? 0 : bottoms[firstChanged - 1] + blocks[visible[active[firstChanged - 1]]].size;
        // Rows from the first repainted block's bottom (and the one above it) down are the column before's (the
        // layer starts as background, so the rows above need nothing).
        const int keepFrom = firstChanged == 0 ? height : std::max(0, rowOf(static_cast<double>(offset)) - 1);
        if (c > 0)
            for (int y = keepFrom; y < height; ++y)
                pixel(c, y) = pixel(c - 1, y);
        for (std::size_t i = firstChanged; i < active.size(); ++i) {
            const std::uint32_t position = active[i];
            const std::int64_t size = blocks[visible[position]].size;
            bottoms[i] = offset;
            const int bottomRow = rowOf(static_cast<double>(offset));
            const int topRow = std::max(0, std::min(rowOf(static_cast<double>(offset + size)), bottomRow - 1));
            for (int y = topRow; y < bottomRow; ++y)
                pixel(c, y) = colours[position];
            // A line of background between blocks at least five rows tall, so that neighbours of one colour part.
            if (bottomRow - topRow >= 5)
                pixel(c, topRow) = edge;
            offset += size;
        }
    }
    drawLiveLine(layer, cols);
    return layer;
}
