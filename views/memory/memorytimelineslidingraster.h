// SPDX-License-Identifier: Apache-2.0
// The sliding layout's blocks (memory_viz's "Active Memory Timeline") rasterised column by column. The picture is
// defined as painting, in each pixel column, every block overlapping it in allocation order at the bytes of the
// earlier ones still alive, each over rows [row(offset + size), row(offset)) and at least the one row under its
// top, with a background line on the top row of blocks five rows tall or more. Painted that way a column costs
// a division and a rounding per block; here each block costs an addition and a comparison with the byte height
// at which the next pixel row begins, and only the last block to reach a row paints it (which is the colour the
// painting order leaves there).
#pragma once

#include <QImage>

#include <cstdint>
#include <span>

namespace msprobe::views::memorytimeline {

struct SlidingBlock {
    double startNs, endNs; // the column [t0, t1) shows it when start < t1 and end >= t0
    std::int64_t size;
    QRgb colour;
};

// Paints `blocks` (in allocation order, so by start) into `layer` (filled with the background beforehand), pixel
// column c spanning [columnEdges[c], columnEdges[c + 1]); a byte height h lands on row
// clamp(lround(height - h / bytesPerRow), 0, height). `edge` is the line between blocks.
void paintSlidingBlocks(QImage& layer, std::span<const SlidingBlock> blocks, std::span<const double> columnEdges, double bytesPerRow, QRgb edge);

} // namespace msprobe::views::memorytimeline
