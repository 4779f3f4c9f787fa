// SPDX-License-Identifier: Apache-2.0
#include "memoryloddensity.h"

#include "memorydocument.h"

#include <algorithm>
#include <cmath>

namespace msprobe::studio {

std::int64_t densityBandBytes(std::int64_t stackTop)
{
    const auto bands = static_cast<std::int64_t>(kDensityBands);
    return std::max<std::int64_t>(1, (stackTop + bands - 1) / bands);
}

BandGrid::BandGrid(std::size_t cells, double beginNs, double cellNs, std::int64_t bandBytes)
    : m_cells(cells)
    , m_begin(beginNs)
    , m_cellNs(cellNs)
    , m_bandBytes(std::max<std::int64_t>(1, bandBytes))
    , m_byteNs(cells * kDensityBands, 0.0)
    , m_rateChange((cells + 1) * kDensityBands, 0.0)
{
}

void BandGrid::add(double startNs, double endNs, std::int64_t offset, std::int64_t size)
{
    const double from = std::max(startNs - m_begin, 0.0), to = std::min(endNs - m_begin, static_cast<double>(m_cells) * m_cellNs);
    if (!(to > from) || size <= 0 || m_cells == 0)
        return;
    const auto cellOf = [&](double t) { return std::min(static_cast<std::size_t>(t / m_cellNs), m_cells - 1); };
    const std::size_t first = cellOf(from), last = cellOf(to);
    const std::int64_t end = offset + size;
    const auto lastBand = static_cast<std::size_t>(kDensityBands - 1);
    for (auto band = std::min(static_cast<std::size_t>(offset / m_bandBytes), lastBand),
              top = std::min(static_cast<std::size_t>((end - 1) / m_bandBytes), lastBand);
         band <= top; ++band) {
        const auto bandLow = static_cast<std::int64_t>(band) * m_bandBytes;
        const double bytes = static_cast<double>(std::min(end, bandLow + m_bandBytes) - std::max(offset, bandLow));
        if (bytes <= 0)
            continue;
        if (first == last) {
            m_byteNs[first * kDensityBands + band] += bytes * (to - from);
            continue;
        }
        m_byteNs[first * kDensityBands + band] += bytes * (static_cast<double>(first + 1) * m_cellNs - from);
        m_byteNs[last * kDensityBands + band] += bytes * (to - static_cast<double>(last) * m_cellNs);
        m_rateChange[(first + 1) * kDensityBands + band] += bytes;
        m_rateChange[last * kDensityBands + band] -= bytes;
    }
}

std::vector<float> BandGrid::fractions() const
{
    std::vector<float> out(m_cells * kDensityBands, 0.0f);
    std::vector<double> rate(kDensityBands, 0.0);
    const double full = m_cellNs * static_cast<double>(m_bandBytes);
    for (std::size_t cell = 0; cell < m_cells; ++cell)
        for (std::size_t band = 0; band < kDensityBands; ++band) {
            const std::size_t at = cell * kDensityBands + band;
            rate[band] += m_rateChange[at];
            const double value = (m_byteNs[at] + rate[band] * m_cellNs) / full;
            out[at] = static_cast<float>(std::clamp(value, 0.0, 1.0));
        }
    return out;
}

BandDensity buildBandDensity(const std::vector<TimelineBlock>& blocks, std::int64_t beginNs, std::int64_t endNs, std::int64_t stackTop,
    std::size_t leaves)
{
    BandDensity density;
    if (blocks.empty() || leaves == 0)
        return density;
    density.bandBytes = densityBandBytes(stackTop);
    density.leafNs = static_cast<double>(std::max<std::int64_t>(endNs - beginNs, 1)) / static_cast<double>(leaves);
    BandGrid grid(leaves, 0.0, density.leafNs, density.bandBytes);
    for (const auto& block : blocks)
        grid.add(static_cast<double>(block.startNs - beginNs), static_cast<double>(block.endNs - beginNs), block.offset, block.size);
    density.levels.push_back(grid.fractions());
    for (std::size_t count = leaves / 2; count >= 1; count /= 2) {
        const auto& below = density.levels.back();
        std::vector<float> level(count * kDensityBands);
        for (std::size_t i = 0; i < count; ++i)
            for (std::size_t band = 0; band < kDensityBands; ++band)
                level[i * kDensityBands + band] = (below[2 * i * kDensityBands + band] + below[(2 * i + 1) * kDensityBands + band]) / 2;
        density.levels.push_back(std::move(level));
    }
    return density;
}

} // namespace msprobe::studio
