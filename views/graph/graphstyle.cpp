// SPDX-License-Identifier: Apache-2.0
#include "graphstyle.h"

#include "graph/visdb/error_magnitude.h"

#include <cmath>

using msprobe::graph::PrecisionLevel;

namespace msprobe::views::graphstyle {

QColor precisionColour(PrecisionLevel level)
{
    const auto hex = msprobe::graph::colourOf(level);
    return QColor(QString::fromLatin1(hex.data(), qsizetype(hex.size())));
}

QColor overflowColour(const std::string& level)
{
    if (level == "medium")
        return QColor(230, 243, 254);
    if (level == "high")
        return QColor(141, 197, 248);
    if (level == "critical")
        return QColor(22, 104, 220);
    return Qt::white;
}

QColor buildColour() { return QColor(0xdd, 0xe9, 0xf7); }

QColor noGradeColour() { return Qt::white; }

QColor magnitudeColour(double magnitude)
{
    const int step = msprobe::graph::magnitudeStep(magnitude);
    if (step < 0)
        return noGradeColour();
    const auto hex = msprobe::graph::magnitudeColour(step);
    return QColor(QString::fromLatin1(hex.data(), qsizetype(hex.size())));
}

QColor fillOf(const msprobe::graph::VisNode& node, bool benchSide, ColourMode mode, bool compare, double magnitude)
{
    if (node.type == 8 || node.type == 9)
        return Qt::white; // API lists and multi collections are containers, never graded themselves
    if (mode == ColourMode::Overflow)
        return overflowColour(node.overflow);
    if (!compare)
        return buildColour(); // one dump: nothing was compared, so nothing is "unmatched"
    if (!node.matched())
        return precisionColour(PrecisionLevel::Unmatched);
    if (benchSide)
        return noGradeColour(); // no partner to take the colour from
    if (mode == ColourMode::Magnitude)
        return magnitudeColour(magnitude);
    return precisionColour(msprobe::graph::levelOf(node));
}

QColor borderOf(const QColor& fill)
{
    return QColor(std::max(0, fill.red() - 40), std::max(0, fill.green() - 40), std::max(0, fill.blue() - 40));
}

QColor selectionBorder(ColourMode mode)
{
    return mode == ColourMode::Overflow ? QColor(243, 183, 101) : QColor(128, 150, 247);
}

QColor listChipOf(PrecisionLevel level)
{
    switch (level) {
    case PrecisionLevel::Pass: return QColor(250, 242, 223);
    case PrecisionLevel::Warning: return QColor(248, 207, 141);
    case PrecisionLevel::Error: return QColor(243, 115, 112);
    case PrecisionLevel::Unmatched: return QColor(0xE6, 0xE6, 0xE6);
    case PrecisionLevel::NoData: break;
    }
    return Qt::white;
}

QFont nodeFont()
{
    QFont font;
    font.setPixelSize(9);
    return font;
}

} // namespace msprobe::views::graphstyle
