// SPDX-License-Identifier: Apache-2.0
// Two memory runs side by side (spec §4.5 item 17): two dumps, or two steps of one, their outermost operators
// aligned with core's Myers diff on names, the most live bytes during each aligned operator on either side, and
// the answer to "why does B need more than A at its peak": the blocks live at one side's peak that have no
// counterpart live at the other's (same allocating operator, owner and size). The listed blocks add up to the
// difference of the two peaks exactly, because matched blocks are the same size on both sides.
#pragma once

#include "memorydocument.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace msprobe::studio {

struct MemoryRun {
    std::shared_ptr<const MemoryDocument> document;
    std::uint32_t step = 0; // 0: the whole capture; otherwise the step's time span
};

struct AlignedOperator {
    std::string name;
    std::optional<std::size_t> a, b; // timeline.ops index on each side; absent: the operator is on one side only
    std::int64_t peakA = -1, peakB = -1; // the most live bytes while the operator ran (-1: absent on that side)
};

struct DifferingBlock {
    bool inB = false; // true: live at B's peak with no counterpart at A's (adds to B); false: the other way round
    std::size_t block = 0; // that side's timeline.blocks index
    std::int64_t size = 0;
    std::string op, owner; // the allocating operator ("" outside every operator) and the owner tag
};

struct MemoryComparison {
    std::int64_t windowBeginA = 0, windowEndA = 0, windowBeginB = 0, windowEndB = 0;
    LivePoint peakA, peakB; // the most live bytes inside each window
    std::vector<AlignedOperator> operators; // in aligned order
    std::vector<DifferingBlock> blocks; // largest first
    std::int64_t onlyA = 0, onlyB = 0; // bytes of the differing blocks on each side: onlyB - onlyA = peakB - peakA
};

// Throws msprobe::Error naming the file when a step is not in its dump.
MemoryComparison compareRuns(const MemoryRun& a, const MemoryRun& b);

// The live bytes after every event at tsNs (0 before the first allocation).
std::int64_t liveBytesAt(const MemoryTimeline& timeline, std::int64_t tsNs);
// Is the timeline block live after every event at tsNs (allocated at or before, freed after or never)?
bool isLiveAt(const TimelineBlock& block, std::int64_t tsNs);
// The time span of step `step` ("step N" in timeline.steps), or nullptr.
const TimelineSpan* stepSpan(const MemoryTimeline& timeline, std::uint32_t step);

} // namespace msprobe::studio
