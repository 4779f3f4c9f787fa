// SPDX-License-Identifier: Apache-2.0
// The memory timeline's density of the blocks narrower than a pixel: per pixel column and byte band, the fraction
// of the band's bytes live on average over the column, from the document's pyramid or from the visible blocks, and
// its colour scale.
#include "memorytimelineview.h"

#include "memorytimelinestyle.h"

#include <algorithm>
#include <cmath>

using namespace msprobe::views::memorytimeline;
using msprobe::studio::kDensityBands;

void MemoryTimelineView::setDensityShown(bool shown)
{
    if (shown == m_densityShown)
        return;
    m_densityShown = shown;
    emit densityShownChanged(shown);
    update();
}

QColor MemoryTimelineView::densityColour(double fraction) const
{
    // Even a sliver of a band live shows (a fifth of the way to the full colour): a column whose blocks live for
    // a nanosecond of it is not left blank.
    const QColor base = palette().color(QPalette::Base);
    const QColor full = base.lightness() > 128 ? QColor(35, 65, 135) : QColor(150, 190, 255);
    const double mix = 0.2 + 0.8 * std::clamp(fraction, 0.0, 1.0);
    auto channel = [mix](int from, int to) { return static_cast<int>(std::lround(from + (to - from) * mix)); };
    return QColor(channel(base.red(), full.red()), channel(base.green(), full.green()), channel(base.blue(), full.blue()));
}

void MemoryTimelineView::densityColumns(Columns& out) const
{
    // (The sliding layout has no gaps: every band under the live bytes is full.)
    if (!m_densityShown || m_layout == Layout::Sliding || !m_document || m_document->timeline.blocks.empty() || out.top.empty())
        return;
    // Too many marked blocks to draw apart: the envelope keeps their colour instead.
    if (out.aggregated && !marksDrawnApart())
        return;
    const auto& timeline = m_document->timeline;
    const auto& pyramid = timeline.lod.density;
    const std::size_t count = out.top.size();
    const double pixelNs = (m_t1 - m_t0) / plotRect().width();
    out.densityBandBytes = pyramid.empty() ? msprobe::studio::densityBandBytes(timeline.stackTop) : pyramid.bandBytes;
    if (out.aggregated && !pyramid.empty() && pixelNs >= pyramid.leafNs) {
        // As the envelope: the coarsest level no wider than a pixel, each column the mean of the buckets starting
        // in it (equal buckets, so the mean is the column's time average).
        const std::size_t level
            = std::min(pyramid.levels.size() - 1, static_cast<std::size_t>(std::floor(std::log2(pixelNs / pyramid.leafNs))));
        const auto& buckets = pyramid.levels[level];
        const std::size_t bucketCount = buckets.size() / kDensityBands;
        const double bucketNs = pyramid.bucketNs(level);
        const auto first = static_cast<std::size_t>(std::clamp(std::floor(m_t0 / bucketNs), 0.0, static_cast<double>(bucketCount)));
        const auto last = static_cast<std::size_t>(std::clamp(std::floor(m_t1 / bucketNs) + 1, 0.0, static_cast<double>(bucketCount)));
        out.density.assign(count * kDensityBands, 0.0f);
        std::vector<std::uint32_t> merged(count, 0);
        for (std::size_t j = first; j < last; ++j) {
            const double column = std::floor((static_cast<double>(j) - m_t0 / bucketNs) * (bucketNs / pixelNs));
            const auto c = static_cast<std::size_t>(std::clamp(column, 0.0, static_cast<double>(count - 1)));
            ++merged[c];
            float* into = out.density.data() + c * kDensityBands;
            const float* from = buckets.data() + j * kDensityBands;
            for (std::size_t band = 0; band < kDensityBands; ++band)
                into[band] += from[band];
        }
        for (std::size_t c = 0; c < count; ++c)
            if (merged[c] > 1)
                for (std::size_t band = 0; band < kDensityBands; ++band)
                    out.density[c * kDensityBands + band] /= static_cast<float>(merged[c]);
        out.densityFromLod = true;
        return;
    }
    // From the blocks shown: every one in an aggregated frame, the narrower-than-a-pixel ones in an exact frame (the
    // others are drawn one by one).
    msprobe::studio::BandGrid grid(count, m_t0, pixelNs, out.densityBandBytes);
    bool any = false;
    forEachVisibleBlock([&](const msprobe::studio::TimelineBlock& block) {
        const double start = static_cast<double>(block.startNs - m_origin), end = static_cast<double>(block.endNs - m_origin);
        if (!out.aggregated && (end - start) >= pixelNs)
            return;
        grid.add(start, end, block.offset, block.size);
        any = true;
    });
    if (any)
        out.density = grid.fractions();
}

void MemoryTimelineView::fillDensity(QImage& layer, const Columns& cols) const
{
    const QRectF plot = plotRect();
    const int width = layer.width(), height = layer.height();
    // Where each band lands, once per frame: (band, row, the part of the row it covers). Bands thinner than a row
    // share it, each weighted by its part, so a row shows the mean fraction of the bytes it stands for.
    struct Piece {
        std::size_t band;
        int row;
        float part;
    };
    std::vector<Piece> pieces;
    std::vector<float> rowWeight(static_cast<std::size_t>(height), 0.0f);
    const double bandBytes = static_cast<double>(cols.densityBandBytes);
    for (std::size_t band = 0; band < kDensityBands; ++band) {
        const double low = yOfBytes(static_cast<double>(band) * bandBytes) - plot.top();
        const double high = yOfBytes(static_cast<double>(band + 1) * bandBytes) - plot.top();
        for (int row = std::max(0, static_cast<int>(std::floor(high))); row < std::min(height, static_cast<int>(std::ceil(low))); ++row) {
            const double part = std::min(low, row + 1.0) - std::max(high, static_cast<double>(row));
            if (part <= 0)
                continue;
            pieces.push_back({ band, row, static_cast<float>(part) });
            rowWeight[static_cast<std::size_t>(row)] += static_cast<float>(part);
        }
    }
    if (pieces.empty())
        return;
    int firstRow = height, lastRow = -1;
    for (const Piece& piece : pieces)
        firstRow = std::min(firstRow, piece.row), lastRow = std::max(lastRow, piece.row);
    QRgb scale[256];
    for (int i = 0; i < 256; ++i)
        scale[i] = densityColour(i / 255.0).rgba();
    std::vector<float> rowScale(static_cast<std::size_t>(height), 0.0f);
    for (int row = firstRow; row <= lastRow; ++row)
        rowScale[static_cast<std::size_t>(row)] = 255.0f / rowWeight[static_cast<std::size_t>(row)];
    // Each column's rows as scale indexes (0: nothing live) into a row-major buffer, then the raster row by row:
    // writing the raster column by column would touch a cache line per pixel.
    const int columns = std::min(width, static_cast<int>(cols.density.size() / kDensityBands));
    const int rows = lastRow - firstRow + 1;
    std::vector<std::uint8_t> shade(static_cast<std::size_t>(rows) * static_cast<std::size_t>(columns), 0);
    std::vector<float> value(static_cast<std::size_t>(height), 0.0f);
    for (int c = 0; c < columns; ++c) {
        const float* fractions = cols.density.data() + static_cast<std::size_t>(c) * kDensityBands;
        if (std::all_of(fractions, fractions + kDensityBands, [](float f) { return f <= 0; }))
            continue;
        std::fill(value.begin() + firstRow, value.begin() + lastRow + 1, 0.0f);
        for (const Piece& piece : pieces)
            value[static_cast<std::size_t>(piece.row)] += fractions[piece.band] * piece.part;
        for (int row = firstRow; row <= lastRow; ++row) {
            const float v = value[static_cast<std::size_t>(row)];
            if (v > 0)
                shade[static_cast<std::size_t>(row - firstRow) * static_cast<std::size_t>(columns) + static_cast<std::size_t>(c)]
                    = static_cast<std::uint8_t>(std::clamp(static_cast<int>(v * rowScale[static_cast<std::size_t>(row)] + 0.5f), 1, 255));
        }
    }
    uchar* const bits = layer.bits();
    const qsizetype stride = layer.bytesPerLine();
    for (int row = firstRow; row <= lastRow; ++row) {
        const std::uint8_t* indexes = shade.data() + static_cast<std::size_t>(row - firstRow) * static_cast<std::size_t>(columns);
        QRgb* line = reinterpret_cast<QRgb*>(bits + static_cast<qsizetype>(row) * stride);
        for (int c = 0; c < columns; ++c)
            if (indexes[c])
                line[c] = scale[indexes[c]];
    }
}

QString MemoryTimelineView::densityToolTip(const QPointF& pos) const
{
    if (!m_frame || m_frame->columns.density.empty() || !plotRect().contains(pos))
        return {};
    const auto& cols = m_frame->columns;
    const QRectF plot = plotRect();
    const auto column = static_cast<std::size_t>(std::floor(pos.x() - plot.left()));
    const double bytes = (plot.bottom() - pos.y()) / plot.height() * bytesTop();
    const auto band = static_cast<std::size_t>(std::max(0.0, std::floor(bytes / static_cast<double>(cols.densityBandBytes))));
    if (band >= kDensityBands || (column + 1) * kDensityBands > cols.density.size())
        return {};
    const float fraction = cols.density[column * kDensityBands + band];
    if (fraction <= 0)
        return {};
    const auto low = static_cast<std::int64_t>(band) * cols.densityBandBytes;
    return tr("Bytes %1 – %2 of the stack: %3 % live on average over this pixel column")
        .arg(QString::fromStdString(msprobe::studio::formatBytes(low)), QString::fromStdString(msprobe::studio::formatBytes(low + cols.densityBandBytes)),
            QString::number(static_cast<double>(fraction) * 100.0, 'f', 1));
}
