// SPDX-License-Identifier: Apache-2.0
// How a graph node looks: fill by precision level or overflow level (the reference plugin's colours), border,
// selection, and the chips the node lists show.
#pragma once

#include "graph/visdb/precision_explain.h"

#include <QColor>
#include <QFont>

#include <cmath>

namespace msprobe::views::graphstyle {

// Magnitude: the node's error magnitude (graph/visdb/error_magnitude.h) on the plugin's five-step palette.
enum class ColourMode { Precision, Overflow, Magnitude };

// side: true for the bench graph of a compare db (grey when unmatched; a matched bench node is drawn in its
// debug partner's colour, see GraphNodeItem). compare false (a graph of one dump): every graded node takes
// buildColour(). magnitude: the node's error magnitude (Magnitude mode; NaN: no grade, white).
QColor fillOf(const msprobe::graph::VisNode& node, bool benchSide, ColourMode mode, bool compare = true, double magnitude = NAN);
// The colour of a magnitude in [0, 1] on the five-step scale; white for NaN.
QColor magnitudeColour(double magnitude);
// White: a debug node that is matched but has no grade (no compared output).
QColor noGradeColour();
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

} // namespace msprobe::views::graphstyle
