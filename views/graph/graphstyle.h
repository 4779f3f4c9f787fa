// SPDX-License-Identifier: Apache-2.0
// How a graph node looks: fill by precision level or overflow level (the reference plugin's colours), border,
// selection, and the chips the node lists show.
#pragma once

#include "graph/visdb/precision_explain.h"

#include <QColor>
#include <QFont>

namespace graphstyle {

enum class ColourMode { Precision, Overflow };

// side: true for the bench graph of a compare db (white when matched, grey otherwise).
// compare false (a graph of one dump): every graded node takes buildColour().
QColor fillOf(const msprobe::graph::VisNode& node, bool benchSide, ColourMode mode, bool compare = true);
QColor buildColour();
QColor precisionColour(msprobe::graph::PrecisionLevel level);
// "medium" | "high" | "critical"; anything else: white.
QColor overflowColour(const std::string& level);
// The plugin darkens the fill by 40 per channel for the border.
QColor borderOf(const QColor& fill);
QColor selectionBorder(ColourMode mode);
// The lighter chips of the node lists.
QColor listChipOf(msprobe::graph::PrecisionLevel level);

QFont nodeFont();
inline constexpr double kHeader = 18, kPad = 8; // expanded group: title strip and inner margin

} // namespace graphstyle
