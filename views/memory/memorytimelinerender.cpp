// SPDX-License-Identifier: Apache-2.0
// The memory timeline's plot raster: merged columns (envelope or byte-band density), blocks drawn one by one, thin
// blocks counted per pixel row, the live-bytes line; then the cursor and the peak over it.
#include "memorytimelineview.h"

#include "memorytimelinestyle.h"

#include <QPainter>

#include <algorithm>
#include <cmath>

using namespace msprobe::views::memorytimeline;

QImage MemoryTimelineView::blankPlotLayer() const
{
    // Opaque (the plot's background filled in), so that drawing it is a copy rather than a blend.
    const QRectF plot = plotRect();
    QImage layer(static_cast<int>(std::ceil(plot.width())), static_cast<int>(std::ceil(plot.height())), QImage::Format_RGB32);
    layer.fill(palette().color(QPalette::Base));
    return layer;
}

QImage MemoryTimelineView::renderBlocks(const Columns& cols) const
{
    // Straight into a raster the plot's size: stacked blocks never overlap, so a frame writes each pixel about
    // once whatever the number of blocks (a QPainter call per block costs a microsecond or more).
    const QRectF plot = plotRect();
    QImage layer = blankPlotLayer();
    const int width = layer.width(), height = layer.height();
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
    const bool overlayMarked = marksDrawnApart();
    // Merged columns first: a block drawn exactly (a long-lived leak, say) stays visible over them.
    // Aggregated with the marked blocks drawn apart, the columns hold the unmarked blocks only.
    const bool plainColumns = cols.aggregated && overlayMarked;
    const bool density = !cols.density.empty();
    if (density)
        fillDensity(layer, cols);
    for (std::size_t c = 0; c < cols.top.size() && !density; ++c) {
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
        // Exact frames leave the narrow blocks to the columns, except, over a density, the marked ones.
        if (rect.width() < 1 && !cols.aggregated && !(density && block.marks))
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
    drawLiveLine(layer, cols);
    return layer;
}

void MemoryTimelineView::drawLiveLine(QImage& layer, const Columns& cols) const
{
    const QRectF plot = plotRect();
    const int width = layer.width(), height = layer.height();
    uchar* const bits = layer.bits();
    const qsizetype stride = layer.bytesPerLine();
    auto rowOf = [&](int y) { return reinterpret_cast<QRgb*>(bits + static_cast<qsizetype>(y) * stride); };
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
}

void MemoryTimelineView::paintCursorAndPeak(QPainter& painter) const
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
