// SPDX-License-Identifier: Apache-2.0
// Level-of-detail summary of a memory timeline, built once after loading (on the loading thread) so that a
// zoomed-out frame costs O(pixel columns) whatever the number of blocks. The capture is cut into 2^k equal
// leaf buckets; level l merges 2^l leaves. Every bucket of every level knows, over its time interval:
// the most live bytes at any moment, the highest and lowest byte of any block alive in it (the stacked
// envelope), the marks of those blocks, and how many blocks were allocated in it with how many bytes (these
// two add up, so a pixel column's sums are exact at any level). The envelope is a segment tree: a block sets
// its top only on the O(k) buckets that cover its span exactly, and two passes spread it to every bucket.
#pragma once

#include "memoryloddensity.h"

#include <cstdint>
#include <limits>
#include <vector>

namespace msprobe::studio {

struct MemoryTimeline;

struct LodBucket {
    std::int64_t liveMax = -1; // -1: no live value known (never inside a capture)
    std::int64_t top = -1, bottom = std::numeric_limits<std::int64_t>::max(); // bottom > top: no block
    // The same envelope over the unmarked blocks only: what a frame fills when it draws the marked ones apart
    // (a block never freed high in the stack would otherwise make every column look full up to it).
    std::int64_t plainTop = -1, plainBottom = std::numeric_limits<std::int64_t>::max();
    std::int64_t allocatedBytes = 0;
    std::uint32_t allocations = 0;
    std::uint8_t marks = 0; // MemoryMark bits of the blocks alive in the bucket
};

struct TimelineLod {
    double leafNs = 1; // width of a level-0 bucket
    std::vector<std::vector<LodBucket>> levels; // levels[l] has leafCount >> l buckets; empty: no blocks
    BandDensity density; // how full each byte band is, over at most kDensityLeaves leaves
    static constexpr std::size_t kDensityLeaves = std::size_t(1) << 14;

    bool empty() const { return levels.empty(); }
    std::size_t leafCount() const { return levels.empty() ? 0 : levels.front().size(); }
    double bucketNs(std::size_t level) const { return leafNs * static_cast<double>(std::size_t(1) << level); }
};

// Leaves: the power of two at or above the number of blocks, between 4096 and 2^18 (the density's: at most 2^14, 128
// bands each; finer frames compute their density from the blocks they show).
TimelineLod buildTimelineLod(const MemoryTimeline& timeline);

// buildTimelineLod in two halves, so that loading can build the first while the analyses still run:
// the buckets with everything the blocks' analysis marks do not change (allocations, live bytes, density) ...
TimelineLod buildTimelineLodBase(const MemoryTimeline& timeline);
// ... then the stacked envelope and the marks, once the blocks carry all their marks.
void addTimelineLodEnvelope(TimelineLod& lod, const MemoryTimeline& timeline);

} // namespace msprobe::studio
