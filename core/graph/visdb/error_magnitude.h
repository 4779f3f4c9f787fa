// SPDX-License-Identifier: Apache-2.0
// How far a compared node is off, as one number in [0, 1], for colouring by error magnitude beside the three
// precision levels: the reference plugin's continuous precision (updatePrecisionError, spec §1.10: the worst
// output relative error, "x%" read as x/100, NaN/inf as 1, capped at 1) and its five-step palette.
#pragma once

#include "compare/compare_options.h"
#include "graph/visdb/vis_db_reader.h"

#include <array>
#include <string_view>
#include <vector>

namespace msprobe::graph {

// The worst over the output items of output_data: statistics mode Max/Min/Mean/NormRelativeErr; tensor mode
// 1 - Cosine and MaxRelativeErr; md5 mode 0 when every checksum Result is "pass", 1 when one differs ("error").
// An output whose own Max/Min/Mean/Norm is NaN or inf counts as 1. NaN when no output item has such a value (a
// node without outputs, or values "N/A" / "unsupported"). Malformed JSON: NaN.
double errorMagnitude(std::string_view outputData, compare::CompareMode mode);

// errorMagnitude of every node of a graph loaded with its data, by node index (NaN for unmatched nodes).
std::vector<float> errorMagnitudes(const VisGraph& graph, compare::CompareMode mode);

// The five steps of the scale: [0, .2) [.2, .4) [.4, .6) [.6, .8) [.8, 1]; -1 for NaN.
int magnitudeStep(double magnitude);
inline constexpr int kMagnitudeSteps = 5;
// The front-end's palette for the steps (spec §1.6): "#FFFCF3" "#FFEDBE" "#FFDC7F" "#FFC62E" "#FF704D".
std::string_view magnitudeColour(int step);

} // namespace msprobe::graph
