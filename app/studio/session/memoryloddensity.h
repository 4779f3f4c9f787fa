// SPDX-License-Identifier: Apache-2.0
// How full each byte band of the stacked timeline is, for frames whose blocks are narrower than a pixel: the stack
// [0, stackTop) is cut into kBands equal bands, time into equal cells, and a cell of a band holds the fraction of
// the band's bytes live on average over the cell (each block's bytes in the band times the time it lives in the
// cell, over band bytes times cell time). A column then shows fragmentation (a half-full band is half as dark)
// where the envelope of the blocks would show one solid extent.
// BandGrid adds blocks into cells of any width (a frame's pixel columns); BandDensity is the pyramid built once
// after loading, 2^k leaf cells over the capture (at most 2^14), level l averaging 2^l leaves (equal cells average).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace msprobe::studio {

struct TimelineBlock;

inline constexpr std::size_t kDensityBands = 128;

// Bytes per band when the stack reaches `stackTop`: the bands cover it whole.
std::int64_t densityBandBytes(std::int64_t stackTop);

class BandGrid {
public:
    // `cells` cells of `cellNs` each, the first starting at `beginNs` (on the timeline's own clock).
    BandGrid(std::size_t cells, double beginNs, double cellNs, std::int64_t bandBytes);
    // A block living over [startNs, endNs) on that clock (clipped to the grid), at its stacking offset.
    void add(double startNs, double endNs, std::int64_t offset, std::int64_t size);
    // The fractions, cells × kDensityBands (cell-major), between 0 and 1.
    std::vector<float> fractions() const;

private:
    std::size_t m_cells;
    double m_begin, m_cellNs;
    std::int64_t m_bandBytes;
    std::vector<double> m_byteNs; // per cell and band: byte·ns in the first or last cell of a block
    std::vector<double> m_rateChange; // per cell (one more) and band: bytes a block adds to every cell it fills whole
};

struct BandDensity {
    std::int64_t bandBytes = 1;
    double leafNs = 1;
    std::vector<std::vector<float>> levels; // levels[l][bucket * kDensityBands + band]; empty: no blocks

    bool empty() const { return levels.empty(); }
    std::size_t leafCount() const { return levels.empty() ? 0 : levels.front().size() / kDensityBands; }
    double bucketNs(std::size_t level) const { return leafNs * static_cast<double>(std::size_t(1) << level); }
};

// `leaves` (a power of two) over [beginNs, endNs] of the blocks' clock.
BandDensity buildBandDensity(const std::vector<TimelineBlock>& blocks, std::int64_t beginNs, std::int64_t endNs, std::int64_t stackTop,
    std::size_t leaves);

} // namespace msprobe::studio
