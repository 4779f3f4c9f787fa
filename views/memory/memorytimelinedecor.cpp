// SPDX-License-Identifier: Apache-2.0
// The memory timeline's decoration: the step, operator and mark lanes under the plot, the axes and the legend.
#include "memorytimelineview.h"

#include "memorytimelinestyle.h"

#include <QPainter>

using namespace msprobe::views::memorytimeline;

void MemoryTimelineView::paintLanes(QPainter& painter) const
{
    const QRectF plot = plotRect();
    const auto& timeline = m_document->timeline;
    const QFontMetricsF metrics(font());
    auto lane = [&](const std::vector<msprobe::studio::TimelineSpan>& spans, double top, const QString& title, const QColor& a, const QColor& b,
                    bool highlight) {
        painter.setPen(palette().color(QPalette::Text));
        painter.drawText(QRectF(0, top, kLeft - 6, kLane), Qt::AlignRight | Qt::AlignVCenter, title);
        painter.save();
        painter.setClipRect(QRectF(plot.left(), top, plot.width(), kLane));
        double lastRight = -1e9, filledTo = -1e9;
        // Spans are by start and barely overlap (outermost operators, steps): start a few before the first one
        // starting in view; one sub-pixel box per pixel column is enough.
        const auto firstInView = std::lower_bound(spans.begin(), spans.end(), m_t0,
            [this](const msprobe::studio::TimelineSpan& span, double t) { return static_cast<double>(span.startNs - m_origin) < t; });
        const std::size_t first = static_cast<std::size_t>(std::max<std::ptrdiff_t>(0, firstInView - spans.begin() - 64));
        const double xScale = plot.width() / (m_t1 - m_t0);
        auto xOf = [&](std::int64_t ts) { return plot.left() + (static_cast<double>(ts - m_origin) - m_t0) * xScale; };
        for (std::size_t i = first; i < spans.size(); ++i) {
            const auto& span = spans[i];
            if (static_cast<double>(span.startNs - m_origin) > m_t1)
                break;
            if (static_cast<double>(span.endNs - m_origin) < m_t0)
                continue;
            const double left = xOf(span.startNs), right = xOf(span.endNs);
            if (right - left < 1 && std::floor(left) <= filledTo) {
                // Zoomed out, thousands of spans share a pixel: jump to the first one starting past the filled
                // column, or the one before it when that one reaches past it.
                const double nextNs = m_t0 + (filledTo + 1 - plot.left()) / xScale;
                auto next = std::lower_bound(spans.begin() + static_cast<std::ptrdiff_t>(i), spans.end(), nextNs,
                    [this](const msprobe::studio::TimelineSpan& s, double t) { return static_cast<double>(s.startNs - m_origin) < t; });
                const std::size_t target = static_cast<std::size_t>(next - spans.begin());
                if (target > i + 1 && static_cast<double>(spans[target - 1].endNs - m_origin) >= nextNs)
                    i = target - 2; // the loop's ++i lands on target - 1
                else if (target > i + 1)
                    i = target - 1;
                continue;
            }
            filledTo = std::floor(right);
            const QRectF box(left, top + 2, std::max(1.0, right - left), kLane - 4);
            const bool selected = m_selection && span.endNs >= m_selection->first && span.startNs <= m_selection->second;
            painter.fillRect(box, selected && highlight ? palette().color(QPalette::Highlight) : i % 2 ? a : b);
            if (box.width() > 30 && left >= lastRight) {
                painter.setPen(Qt::white);
                painter.drawText(box.adjusted(3, 0, -2, 0), Qt::AlignLeft | Qt::AlignVCenter,
                    metrics.elidedText(QString::fromStdString(span.label), Qt::ElideRight, box.width() - 5));
                lastRight = right;
            }
        }
        painter.restore();
    };
    lane(timeline.steps, plot.bottom(), tr("steps"), QColor(90, 90, 140), QColor(120, 120, 170), false);
    lane(timeline.ops, plot.bottom() + kLane, tr("operators"), QColor(60, 130, 110), QColor(90, 160, 140), true);
    paintMarkLane(painter, plot.bottom() + 2 * kLane);
}

void MemoryTimelineView::paintMarkLane(QPainter& painter, double top) const
{
    // Ranges as boxes, marks as a tick with their message; labels only where they do not overlap.
    const QRectF plot = plotRect();
    const QFontMetricsF metrics(font());
    painter.setPen(palette().color(QPalette::Text));
    painter.drawText(QRectF(0, top, kLeft - 6, kLane), Qt::AlignRight | Qt::AlignVCenter, tr("marks"));
    painter.save();
    painter.setClipRect(QRectF(plot.left(), top, plot.width(), kLane));
    double lastRight = -1e9;
    for (const auto& span : m_document->timeline.marks) {
        if (static_cast<double>(span.endNs - m_origin) < m_t0 || static_cast<double>(span.startNs - m_origin) > m_t1)
            continue;
        const double left = xOfTimestamp(span.startNs), right = xOfTimestamp(span.endNs);
        const QString label = QString::fromStdString(span.label);
        if (span.endNs > span.startNs) {
            painter.fillRect(QRectF(left, top + 4, std::max(1.0, right - left), kLane - 8), kMarkRangeColour);
        } else {
            painter.fillRect(QRectF(left - 1, top + 1, 2, kLane - 2), kMarkColour);
        }
        if (left + 3 >= lastRight) {
            painter.setPen(palette().color(QPalette::Text));
            painter.drawText(QPointF(left + 3, top + kLane / 2 + metrics.ascent() / 2 - 1), label);
            lastRight = left + 3 + metrics.horizontalAdvance(label) + 6;
        }
    }
    painter.restore();
}

void MemoryTimelineView::paintAxes(QPainter& painter) const
{
    const QRectF plot = plotRect();
    const QColor text = palette().color(QPalette::Text), grid = palette().color(QPalette::Midlight);
    const double top = bytesTop();
    const double byteStep = niceStep(top, std::max(2, static_cast<int>(plot.height() / 50)));
    for (double bytes = 0; bytes <= top; bytes += byteStep) {
        const double y = yOfBytes(bytes);
        painter.setPen(QPen(grid, 0, Qt::DotLine));
        painter.drawLine(QPointF(plot.left(), y), QPointF(plot.right(), y));
        painter.setPen(text);
        painter.drawText(QRectF(0, y - 8, kLeft - 6, 16), Qt::AlignRight | Qt::AlignVCenter,
            QString::fromStdString(msprobe::studio::formatBytes(static_cast<std::int64_t>(bytes))));
    }
    const double axisTop = plot.bottom() + 3 * kLane;
    painter.setPen(text);
    painter.drawLine(QPointF(plot.left(), axisTop), QPointF(plot.right(), axisTop));
    const double timeStep = niceStep(m_t1 - m_t0, std::max(2, static_cast<int>(plot.width() / 110)));
    for (double t = std::ceil(m_t0 / timeStep) * timeStep; t <= m_t1; t += timeStep) {
        const double x = xOfTime(t);
        painter.drawLine(QPointF(x, axisTop), QPointF(x, axisTop + 4));
        painter.drawText(QRectF(x - 50, axisTop + 4, 100, kAxis - 4), Qt::AlignHCenter | Qt::AlignTop, tickLabelTime(t));
    }
}

void MemoryTimelineView::paintLegend(QPainter& painter) const
{
    // With the density drawn, its colour scale comes first; when the items do not fit in one row, their short
    // labels are used.
    const QFontMetricsF metrics(font());
    const auto& timeline = m_document->timeline;
    const bool density = m_frame && !m_frame->columns.density.empty();
    enum class Swatch { Box, Line, Scale };
    struct Item {
        QColor colour;
        QString label, shortLabel;
        Swatch swatch;
    };
    std::vector<Item> items;
    const QString blocks = tr("block (%Ln blocks)", nullptr, static_cast<int>(timeline.blocks.size()));
    items.push_back({ paletteColour(0), blocks, blocks, Swatch::Box });
    if (density)
        items.push_back({ {}, tr("sub-pixel blocks: share of each byte band live, 0–100 %"), tr("band live 0–100 %"), Swatch::Scale });
    items.push_back({ kLeakColour, tr("step leak"), tr("step leak"), Swatch::Box });
    items.push_back({ kAliveColour, tr("alive at the end (never freed)"), tr("alive at the end"), Swatch::Box });
    items.push_back({ kInefficientColour, tr("inefficient (early, late or idle)"), tr("inefficient"), Swatch::Box });
    items.push_back({ palette().color(QPalette::Text), tr("live bytes (max per pixel)"), tr("live bytes"), Swatch::Line });
    if (timeline.halShown)
        items.push_back({ palette().color(QPalette::Mid), tr("HAL blocks (no pool rows)"), tr("HAL blocks"), Swatch::Line });
    constexpr double kScaleWidth = 48;
    auto swatchWidth = [](const Item& item) { return item.swatch == Swatch::Scale ? kScaleWidth : 14.0; };
    double longWidth = 0;
    for (const auto& item : items)
        longWidth += swatchWidth(item) + 4 + metrics.horizontalAdvance(item.label) + 16;
    const bool shortLabels = longWidth > width() - kLeft - kRight;
    double x = kLeft;
    const double y = 6;
    for (const auto& item : items) {
        const double swatch = swatchWidth(item);
        if (item.swatch == Swatch::Line) {
            painter.fillRect(QRectF(x, y + 6, swatch, 2), item.colour);
        } else if (item.swatch == Swatch::Box) {
            painter.fillRect(QRectF(x, y + 1, swatch, 12), item.colour);
        } else {
            for (int i = 0; i < static_cast<int>(swatch); ++i)
                painter.fillRect(QRectF(x + i, y + 1, 1, 12), densityColour(i / (swatch - 1)));
        }
        const QString& label = shortLabels ? item.shortLabel : item.label;
        painter.setPen(palette().color(QPalette::Text));
        painter.drawText(QPointF(x + swatch + 4, y + metrics.ascent()), label);
        x += swatch + 4 + metrics.horizontalAdvance(label) + 16;
    }
}
