// SPDX-License-Identifier: Apache-2.0
#include "memorylod.h"

#include "memorydocument.h"

#include <algorithm>
#include <cmath>

namespace msprobe::studio {

namespace {

std::size_t leafOf(const TimelineLod& lod, const MemoryTimeline& timeline, std::int64_t ts)
{
    const double bucket = std::floor(static_cast<double>(ts - timeline.beginNs) / lod.leafNs);
    return static_cast<std::size_t>(std::clamp(bucket, 0.0, static_cast<double>(lod.leafCount() - 1)));
}

} // namespace

TimelineLod buildTimelineLodBase(const MemoryTimeline& timeline)
{
    TimelineLod lod;
    if (timeline.blocks.empty())
        return lod;
    std::size_t leaves = 4096; // at least: a whole-capture frame up to 4096 px wide has a bucket per pixel or finer
    while (leaves < timeline.blocks.size() && leaves < (std::size_t(1) << 18))
        leaves *= 2;
    const double span = static_cast<double>(std::max<std::int64_t>(timeline.endNs - timeline.beginNs, 1));
    lod.leafNs = span / static_cast<double>(leaves);
    for (std::size_t count = leaves; count >= 1; count /= 2)
        lod.levels.emplace_back(count);
    const std::size_t levelCount = lod.levels.size();

    // Allocations: counted in the leaf of their start; they add up the levels.
    for (const auto& block : timeline.blocks) {
        auto& leaf = lod.levels[0][leafOf(lod, timeline, block.startNs)];
        ++leaf.allocations;
        leaf.allocatedBytes += block.size;
    }
    // Live bytes: a leaf's maximum is the value carried into it or any point inside it.
    auto& leafLevel = lod.levels[0];
    std::int64_t carried = -1;
    std::size_t point = 0;
    const auto& live = timeline.live;
    for (std::size_t i = 0; i < leaves; ++i) {
        std::int64_t value = carried;
        for (; point < live.size() && leafOf(lod, timeline, live[point].tsNs) == i; ++point) {
            value = std::max(value, live[point].liveBytes);
            carried = live[point].liveBytes;
        }
        leafLevel[i].liveMax = value;
    }
    for (std::size_t l = 1; l < levelCount; ++l)
        for (std::size_t i = 0; i < lod.levels[l].size(); ++i) {
            const auto &a = lod.levels[l - 1][2 * i], &b = lod.levels[l - 1][2 * i + 1];
            auto& bucket = lod.levels[l][i];
            bucket.liveMax = std::max(a.liveMax, b.liveMax);
            bucket.allocations = a.allocations + b.allocations;
            bucket.allocatedBytes = a.allocatedBytes + b.allocatedBytes;
        }
    lod.density = buildBandDensity(timeline.blocks, timeline.beginNs, timeline.endNs, timeline.stackTop, std::min(leaves, TimelineLod::kDensityLeaves));
    return lod;
}

void addTimelineLodEnvelope(TimelineLod& lod, const MemoryTimeline& timeline)
{
    if (lod.empty())
        return;
    const std::size_t levelCount = lod.levels.size(), leaves = lod.leafCount();

    // The envelope: each block marks the buckets that tile its leaf range (bottom-up segment-tree walk); those
    // "cover" values apply to the bucket and everything under it.
    struct Cover {
        std::int64_t top = -1, bottom = std::numeric_limits<std::int64_t>::max();
        std::int64_t plainTop = -1, plainBottom = std::numeric_limits<std::int64_t>::max();
        std::uint8_t marks = 0;
    };
    std::vector<std::vector<Cover>> covers(levelCount);
    for (std::size_t l = 0; l < levelCount; ++l)
        covers[l].resize(lod.levels[l].size());
    for (const auto& block : timeline.blocks) {
        const std::size_t first = leafOf(lod, timeline, block.startNs), last = leafOf(lod, timeline, block.endNs);
        const std::int64_t top = block.offset + block.size;
        std::size_t lo = first, hi = last + 1;
        for (std::size_t l = 0; lo < hi; ++l, lo /= 2, hi /= 2) {
            auto apply = [&](std::size_t index) {
                auto& cover = covers[l][index];
                cover.top = std::max(cover.top, top);
                cover.bottom = std::min(cover.bottom, block.offset);
                cover.marks |= block.marks;
                if (!block.marks) {
                    cover.plainTop = std::max(cover.plainTop, top);
                    cover.plainBottom = std::min(cover.plainBottom, block.offset);
                }
            };
            if (lo & 1)
                apply(lo++);
            if (hi & 1)
                apply(--hi);
        }
    }
    // Upwards: a bucket's envelope holds its own cover and everything below it.
    for (std::size_t i = 0; i < leaves; ++i) {
        auto& leaf = lod.levels[0][i];
        leaf.top = covers[0][i].top;
        leaf.bottom = covers[0][i].bottom;
        leaf.marks = covers[0][i].marks;
        leaf.plainTop = covers[0][i].plainTop;
        leaf.plainBottom = covers[0][i].plainBottom;
    }
    for (std::size_t l = 1; l < levelCount; ++l)
        for (std::size_t i = 0; i < lod.levels[l].size(); ++i) {
            const auto &a = lod.levels[l - 1][2 * i], &b = lod.levels[l - 1][2 * i + 1];
            const auto& cover = covers[l][i];
            auto& bucket = lod.levels[l][i];
            bucket.top = std::max({ cover.top, a.top, b.top });
            bucket.bottom = std::min({ cover.bottom, a.bottom, b.bottom });
            bucket.marks = cover.marks | a.marks | b.marks;
            bucket.plainTop = std::max({ cover.plainTop, a.plainTop, b.plainTop });
            bucket.plainBottom = std::min({ cover.plainBottom, a.plainBottom, b.plainBottom });
        }
    // Downwards: the covers of a bucket's ancestors (blocks spanning it whole) apply to it too.
    for (std::size_t l = levelCount - 1; l-- > 0;)
        for (std::size_t i = 0; i < lod.levels[l].size(); ++i) {
            auto& above = covers[l + 1][i / 2];
            auto& cover = covers[l][i];
            cover.top = std::max(cover.top, above.top);
            cover.bottom = std::min(cover.bottom, above.bottom);
            cover.marks |= above.marks;
            cover.plainTop = std::max(cover.plainTop, above.plainTop);
            cover.plainBottom = std::min(cover.plainBottom, above.plainBottom);
            auto& bucket = lod.levels[l][i];
            bucket.top = std::max(bucket.top, cover.top);
            bucket.bottom = std::min(bucket.bottom, cover.bottom);
            bucket.marks |= cover.marks;
            bucket.plainTop = std::max(bucket.plainTop, cover.plainTop);
            bucket.plainBottom = std::min(bucket.plainBottom, cover.plainBottom);
        }
}

TimelineLod buildTimelineLod(const MemoryTimeline& timeline)
{
    TimelineLod lod = buildTimelineLodBase(timeline);
    addTimelineLodEnvelope(lod, timeline);
    return lod;
}

} // namespace msprobe::studio
