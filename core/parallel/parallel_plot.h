// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "parallel/parallel_layout.h"

#include <filesystem>
#include <string>
#include <vector>

namespace msprobe::parallel {

// Above this many TP groups the plot draws one row per pipeline stage, each block striped with the colours of
// every model copy holding it (all copies hold the same layers), instead of one row per TP group.
inline constexpr int kMaxDetailedRows = 256;

// Limits of the picture (a 65 x 100 inch figure at 300 dpi would take 2.3 GB): the dpi is lowered to stay within.
inline constexpr int kMaxPictureSide = 30000;

struct PlotOptions {
    double dpi = 100; // pixels per inch of the reference's figure size
    double maxPixels = 120e6;
};

struct PlotPicture {
    std::string png; // the encoded picture
    int width = 0, height = 0; // pixels
    double dpi = 0; // as drawn: lowered from PlotOptions::dpi when the picture would exceed the limits below
    bool summarised = false; // rows are pipeline stages (see kMaxDetailedRows)
    int rowCount = 0, columnCount = 0;
    // The axes area in pixels; block (row, column) is centred at column + 0.5, row + 0.5 cells from its
    // bottom-left corner.
    double plotLeft = 0, plotTop = 0, plotWidth = 0, plotHeight = 0;
};


// Draws the layout as spec 4.4 describes it (layout, colours, labels, title) with cairo: no display needed.
PlotPicture drawParallelPlot(const ParallelLayout& layout, const PlotOptions& options = {});

// Writes the picture to `file` atomically (temporary file, then rename over any older one).
void savePicture(const PlotPicture& picture, const std::filesystem::path& file);

} // namespace msprobe::parallel
