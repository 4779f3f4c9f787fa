// SPDX-License-Identifier: Apache-2.0
// What the memory timeline's painting files share: its margins and lane heights, its colours, and the axis
// tick helpers. Internal to views/memory.
#pragma once

#include "memorydocument.h"

#include <QColor>
#include <QRectF>
#include <QString>

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace msprobe::views::memorytimeline {

inline constexpr double kLeft = 72, kRight = 10, kTop = 26, kLane = 18, kAxis = 22;
inline constexpr double kMinSpanNs = 100;

// Step leaks (§2.1) are the strong signal; blocks merely alive at the end (weights, optimizer state, or a leak
// the capture stopped too early to tell) are a lighter red.
inline const QColor kLeakColour(214, 39, 40), kAliveColour(240, 150, 150), kInefficientColour(255, 140, 0);
inline const QColor kAggregatedColour(110, 125, 150); // a pixel column of blocks narrower than a pixel
inline const QColor kMarkColour(148, 103, 189), kMarkRangeColour(148, 103, 189, 90); // mstx marks and user ranges

// Mid-tone hues that read on light and dark backgrounds; neighbouring blocks differ.
inline const QColor& paletteColour(std::uint32_t index)
{
    static const QColor colours[] = { QColor(78, 121, 167), QColor(89, 161, 79), QColor(118, 183, 178), QColor(176, 122, 161),
        QColor(156, 117, 95), QColor(237, 201, 72), QColor(100, 143, 200), QColor(140, 170, 90) };
    return colours[index % (sizeof colours / sizeof colours[0])];
}

inline QString tickLabelTime(double ns)
{
    const double abs = std::abs(ns);
    if (abs >= 1e9)
        return QString::number(ns / 1e9, 'g', 6) + QStringLiteral(" s");
    if (abs >= 1e6)
        return QString::number(ns / 1e6, 'g', 6) + QStringLiteral(" ms");
    return QString::number(ns / 1e3, 'g', 6) + QStringLiteral(" µs");
}

inline double niceStep(double span, int ticks)
{
    const double raw = span / std::max(1, ticks);
    const double power = std::pow(10.0, std::floor(std::log10(raw)));
    for (double m : { 1.0, 2.0, 5.0, 10.0 })
        if (m * power >= raw)
            return m * power;
    return 10 * power;
}

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

} // namespace msprobe::views::memorytimeline
