// SPDX-License-Identifier: Apache-2.0
#include "memorycomparison.h"

#include "memory/compare.h"
#include "support/error.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace msprobe::studio {

namespace mem = msprobe::memory;

namespace {

struct Window {
    std::int64_t begin = 0, end = 0;
};

Window windowOf(const MemoryRun& run)
{
    const auto& timeline = run.document->timeline;
    if (run.step == 0)
        return { timeline.beginNs, timeline.endNs };
    const TimelineSpan* span = stepSpan(timeline, run.step);
    if (!span)
        throw msprobe::support::Error(run.document->file.string(), "step " + std::to_string(run.step),
            "the dump has no step " + std::to_string(run.step) + " (it has " + std::to_string(timeline.steps.size()) + ")");
    return { span->startNs, span->endNs };
}

// The highest live point inside the window; the live bytes carried into it when nothing changes there.
LivePoint peakIn(const MemoryTimeline& timeline, const Window& window)
{
    LivePoint peak { window.begin, liveBytesAt(timeline, window.begin) };
    auto it = std::lower_bound(timeline.live.begin(), timeline.live.end(), window.begin,
        [](const LivePoint& p, std::int64_t t) { return p.tsNs < t; });
    for (; it != timeline.live.end() && it->tsNs <= window.end; ++it)
        if (it->liveBytes > peak.liveBytes)
            peak = *it;
    return peak;
}

std::int64_t peakDuring(const MemoryTimeline& timeline, const TimelineSpan& span)
{
    return peakIn(timeline, { span.startNs, span.endNs }).liveBytes;
}

std::vector<std::size_t> opsIn(const MemoryTimeline& timeline, const Window& window)
{
    std::vector<std::size_t> out;
    for (std::size_t i = 0; i < timeline.ops.size(); ++i)
        if (timeline.ops[i].startNs >= window.begin && timeline.ops[i].startNs <= window.end)
            out.push_back(i);
    return out;
}

using BlockKey = std::tuple<std::string, std::string, std::int64_t>; // allocating op, owner, size

BlockKey keyOf(const MemoryDocument& document, const TimelineBlock& item)
{
    const auto& block = document.model.blocks[item.block];
    return { mem::opName(document.trace, document.model, block.allocOp), std::string(document.trace.text(block.owner)), item.size };
}

// The blocks live at tsNs grouped by key, newest first inside a group.
std::map<BlockKey, std::vector<std::size_t>> liveGroups(const MemoryDocument& document, std::int64_t tsNs)
{
    std::map<BlockKey, std::vector<std::size_t>> groups;
    const auto& blocks = document.timeline.blocks;
    for (std::size_t i = 0; i < blocks.size() && blocks[i].startNs <= tsNs; ++i)
        if (isLiveAt(blocks[i], tsNs))
            groups[keyOf(document, blocks[i])].push_back(i);
    for (auto& [key, members] : groups)
        std::reverse(members.begin(), members.end());
    return groups;
}

} // namespace

std::int64_t liveBytesAt(const MemoryTimeline& timeline, std::int64_t tsNs)
{
    auto it = std::upper_bound(timeline.live.begin(), timeline.live.end(), tsNs,
        [](std::int64_t t, const LivePoint& p) { return t < p.tsNs; });
    return it == timeline.live.begin() ? 0 : std::prev(it)->liveBytes;
}

bool isLiveAt(const TimelineBlock& block, std::int64_t tsNs)
{
    return block.startNs <= tsNs && ((block.marks & kMarkAliveAtEnd) || block.endNs > tsNs);
}

const TimelineSpan* stepSpan(const MemoryTimeline& timeline, std::uint32_t step)
{
    const std::string label = "step " + std::to_string(step);
    for (const auto& span : timeline.steps)
        if (span.label == label)
            return &span;
    return nullptr;
}

MemoryComparison compareRuns(const MemoryRun& a, const MemoryRun& b)
{
    MemoryComparison out;
    const auto& ta = a.document->timeline;
    const auto& tb = b.document->timeline;
    const Window wa = windowOf(a), wb = windowOf(b);
    out.windowBeginA = wa.begin;
    out.windowEndA = wa.end;
    out.windowBeginB = wb.begin;
    out.windowEndB = wb.end;
    out.peakA = peakIn(ta, wa);
    out.peakB = peakIn(tb, wb);

    // Operators: core's Myers alignment on the outermost operators' names; unmatched ones keep their place.
    const auto opsA = opsIn(ta, wa), opsB = opsIn(tb, wb);
    std::vector<std::string_view> namesA, namesB;
    for (std::size_t i : opsA)
        namesA.push_back(ta.ops[i].label);
    for (std::size_t i : opsB)
        namesB.push_back(tb.ops[i].label);
    auto matches = mem::myersMatches(namesA, namesB);
    matches.emplace_back(opsA.size(), opsB.size()); // a sentinel flushing the tails
    std::size_t i = 0, j = 0;
    for (const auto& [mi, mj] : matches) {
        for (; i < mi; ++i)
            out.operators.push_back({ ta.ops[opsA[i]].label, opsA[i], std::nullopt, peakDuring(ta, ta.ops[opsA[i]]), -1 });
        for (; j < mj; ++j)
            out.operators.push_back({ tb.ops[opsB[j]].label, std::nullopt, opsB[j], -1, peakDuring(tb, tb.ops[opsB[j]]) });
        if (mi < opsA.size() && mj < opsB.size()) {
            out.operators.push_back(
                { ta.ops[opsA[mi]].label, opsA[mi], opsB[mj], peakDuring(ta, ta.ops[opsA[mi]]), peakDuring(tb, tb.ops[opsB[mj]]) });
            i = mi + 1;
            j = mj + 1;
        }
    }

    // Blocks at the peaks: pair equal keys newest with newest; what is left over on each side is the difference.
    auto groupsA = liveGroups(*a.document, out.peakA.tsNs), groupsB = liveGroups(*b.document, out.peakB.tsNs);
    auto leftOver = [&](const MemoryDocument& document, const std::map<BlockKey, std::vector<std::size_t>>& mine,
                        const std::map<BlockKey, std::vector<std::size_t>>& theirs, bool inB) {
        for (const auto& [key, members] : mine) {
            const auto other = theirs.find(key);
            const std::size_t paired = other == theirs.end() ? 0 : std::min(members.size(), other->second.size());
            for (std::size_t k = paired; k < members.size(); ++k) {
                const auto& item = document.timeline.blocks[members[k]];
                out.blocks.push_back({ inB, members[k], item.size, std::get<0>(key), std::get<1>(key) });
                (inB ? out.onlyB : out.onlyA) += item.size;
            }
        }
    };
    leftOver(*a.document, groupsA, groupsB, false);
    leftOver(*b.document, groupsB, groupsA, true);
    std::stable_sort(out.blocks.begin(), out.blocks.end(), [](const DifferingBlock& x, const DifferingBlock& y) { return x.size > y.size; });
    return out;
}

} // namespace msprobe::studio
