// SPDX-License-Identifier: Apache-2.0
// The memory timeline's sliding layout (memory_viz's "Active Memory Timeline"): blocks stacked in allocation order
// with no gap, those above a freed block sliding down. A frame is drawn column by column (memorytimelineslidingraster.h):
// the blocks overlapping the column, in allocation order (timeline.blocks is sorted by allocation time, so index
// order), each painted from the bytes of the ones before it. A new block always goes on top (nothing alive was
// allocated after it), so one list per frame suffices: blocks join it at the end and leave it when they end before
// the column.
#include "memorytimelineview.h"

#include "memorytimelineslidingraster.h"
#include "memorytimelinestyle.h"

#include <algorithm>
#include <cmath>

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
    std::vector<SlidingBlock> sliding(visible.size());
    for (std::size_t i = 0; i < visible.size(); ++i) {
        const auto& block = blocks[visible[i]];
        sliding[i] = { static_cast<double>(block.startNs - m_origin), static_cast<double>(block.endNs - m_origin), block.size, blockColour(block).rgba() };
    }
    std::vector<double> edges(static_cast<std::size_t>(width) + 1);
    for (int c = 0; c <= width; ++c)
        edges[static_cast<std::size_t>(c)] = timeOfX(plot.left() + c);
    paintSlidingBlocks(layer, sliding, edges, bytesPerRow, palette().color(QPalette::Base).rgba());
    drawLiveLine(layer, cols);
    return layer;
}
