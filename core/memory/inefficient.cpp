// SPDX-License-Identifier: Apache-2.0
#include "memory/inefficient.h"

#include "support/error.h"

#include <algorithm>
#include <map>
#include <optional>
#include <tuple>

namespace msprobe::memory {

namespace {

struct FamilyState {
    std::uint64_t apiId = 0;
    bool inOp = false;
    bool opMalloc = false, opFree = false;
    std::optional<std::uint64_t> lastMallocApi, lastFreeApi;
};

// What the rules and the waste figures need of a block's MALLOC/ACCESS/FREE sequence (its first and last step,
// its first and last ACCESS, its first ACCESS in another API than the MALLOC's), kept as the events come rather
// than as the sequence itself: no allocation per block.
struct BlockTrack {
    struct Step {
        std::uint64_t api = 0;
        std::int64_t ts = 0;
    };
    Step front, back, firstAccess, lastAccess;
    std::uint64_t firstOtherAccessApi = 0; // the first ACCESS whose API differs from the front's
    std::int64_t longestIdleNs = 0;
    std::uint64_t longestIdleApis = 0;
    std::uint32_t steps = 0;
    EventKind frontKind = EventKind::System, backKind = EventKind::System;
    bool hasAccess = false, hasOtherAccess = false;
    std::uint8_t types = 0;

    void add(std::uint64_t api, EventKind kind, std::int64_t ts)
    {
        const Step step { api, ts };
        if (steps++ == 0) {
            front = step;
            frontKind = kind;
        }
        back = step;
        backKind = kind;
        if (kind != EventKind::Access)
            return;
        if (!hasAccess) {
            hasAccess = true;
            firstAccess = step;
        }
        lastAccess = step;
        if (!hasOtherAccess && api != front.api) {
            hasOtherAccess = true;
            firstOtherAccessApi = api;
        }
    }
};

// Per string id: the family of an OP_LAUNCH Event Type (ATEN_ 0, ATB_ 1, else -1) and whether it starts or ends
// an op, and the family of a pool; computed once rather than compared as text on every row.
struct StringFamilies {
    std::vector<std::int8_t> opFamily, poolFamily;
    std::vector<std::uint8_t> opEdge; // 1 _START, 2 _END
};

// The pool family whose op rows drive a block's API counter: ATB blocks follow ATB ops, the PyTorch ones ATen ops.
int familyOfPool(std::string_view pool)
{
    if (pool == "ATB")
        return 1;
    if (pool == "PTA" || pool == "PTA_WORKSPACE" || pool == "TORCH_CPU")
        return 0;
    return -1;
}

} // namespace

std::uint8_t parseInefficientTypes(const std::string& list)
{
    std::uint8_t bits = 0;
    std::size_t start = 0;
    while (start <= list.size()) {
        const auto comma = list.find(',', start);
        const std::string item = list.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
        if (item == "early_allocation")
            bits |= kEarlyAllocation;
        else if (item == "late_deallocation")
            bits |= kLateDeallocation;
        else if (item == "temporary_idleness")
            bits |= kTemporaryIdleness;
        else
            throw support::Error("unknown inefficient type \"" + item
                + "\" (early_allocation, late_deallocation or temporary_idleness)");
        if (comma == std::string::npos)
            break;
        start = comma + 1;
    }
    return bits;
}

std::string inefficientTypeNames(std::uint8_t bits)
{
    std::string out;
    for (const auto& [bit, name] : { std::pair { kEarlyAllocation, "early_allocation" },
             std::pair { kLateDeallocation, "late_deallocation" }, std::pair { kTemporaryIdleness, "temporary_idleness" } })
        if (bits & bit)
            out += (out.empty() ? "" : ",") + std::string(name);
    return out;
}

InefficientReport findInefficientBlocks(const MemTrace& trace, const MemModel& model, const InefficientOptions& options)
{
    StringFamilies families;
    const std::size_t strings = trace.strings.size();
    families.opFamily.resize(strings);
    families.poolFamily.resize(strings);
    families.opEdge.resize(strings);
    for (std::size_t id = 0; id < strings; ++id) {
        const auto text = trace.strings.view(static_cast<support::StringId>(id));
        families.opFamily[id] = static_cast<std::int8_t>(text.starts_with("ATB_") ? 1 : text.starts_with("ATEN_") ? 0 : -1);
        families.opEdge[id] = text.ends_with("_START") ? 1 : text.ends_with("_END") ? 2 : 0;
        families.poolFamily[id] = static_cast<std::int8_t>(familyOfPool(text));
    }
    std::map<std::tuple<int, std::int32_t>, FamilyState> states; // (family, pid)
    FamilyState* lastState = nullptr; // the state of the previous lookup: rows of one process and family follow each other
    std::tuple<int, std::int32_t> lastKey { -1, 0 };
    auto stateOf = [&](int family, std::int32_t pid) -> FamilyState& {
        const std::tuple<int, std::int32_t> key { family, pid };
        if (!lastState || key != lastKey) {
            lastKey = key;
            lastState = &states[key];
        }
        return *lastState;
    };
    std::vector<BlockTrack> tracks(model.blocks.size());
    InefficientReport report;
    for (std::uint32_t i = 0; i < trace.events.size(); ++i) {
        const MemEvent& e = trace.events[i];
        if (e.kind == EventKind::OpLaunch) {
            if (e.subType == support::kNoString)
                continue;
            const int family = families.opFamily[e.subType];
            if (family < 0)
                continue;
            FamilyState& state = stateOf(family, e.pid);
            if (families.opEdge[e.subType] == 1) {
                ++state.apiId;
                ++report.apis;
                state.inOp = true;
                state.opMalloc = state.opFree = false;
            } else if (families.opEdge[e.subType] == 2) {
                state.inOp = false;
                if (state.opMalloc)
                    state.lastMallocApi = state.apiId;
                if (state.opFree)
                    state.lastFreeApi = state.apiId;
                state.opMalloc = state.opFree = false;
            }
            continue;
        }
        if (!e.isMemory() || model.blockOf[i] == kNone)
            continue;
        const std::uint32_t blockIndex = model.blockOf[i];
        const Block& block = model.blocks[blockIndex];
        const int family = block.pool == support::kNoString ? -1 : families.poolFamily[block.pool];
        if (family < 0)
            continue;
        FamilyState& state = stateOf(family, e.pid);
        const bool alone = !state.inOp;
        if (alone) {
            ++state.apiId;
            ++report.apis;
        }
        const std::uint64_t api = state.apiId;
        BlockTrack& track = tracks[blockIndex];
        const bool hasPrevious = track.steps > 0;
        const BlockTrack::Step previous = track.back;
        const EventKind previousKind = track.backKind;
        track.add(api, e.kind, e.tsNs);
        const bool startsWithMalloc = track.frontKind == EventKind::Malloc;
        if (startsWithMalloc && e.kind == EventKind::Access) {
            if (hasPrevious && previousKind == EventKind::Access) {
                const std::uint64_t gap = api - previous.api;
                if (gap > options.idleThreshold)
                    track.types |= kTemporaryIdleness;
                if (e.tsNs - previous.ts > track.longestIdleNs)
                    track.longestIdleNs = e.tsNs - previous.ts;
                track.longestIdleApis = std::max(track.longestIdleApis, gap);
            }
            if (state.lastFreeApi && !(track.types & kEarlyAllocation)) {
                const std::uint64_t m = track.front.api;
                const std::uint64_t lastFree = *state.lastFreeApi;
                if (track.hasOtherAccess && m != lastFree && m < lastFree && lastFree < track.firstOtherAccessApi)
                    track.types |= kEarlyAllocation;
            }
        } else if (startsWithMalloc && e.kind == EventKind::Free && state.lastMallocApi && hasPrevious
            && previousKind == EventKind::Access && previous.api != api) {
            if (previous.api < *state.lastMallocApi && *state.lastMallocApi < api)
                track.types |= kLateDeallocation;
        }
        if (alone) {
            if (e.kind == EventKind::Malloc)
                state.lastMallocApi = api;
            else if (e.kind == EventKind::Free)
                state.lastFreeApi = api;
        } else {
            state.opMalloc = state.opMalloc || e.kind == EventKind::Malloc;
            state.opFree = state.opFree || e.kind == EventKind::Free;
        }
    }
    for (std::uint32_t b = 0; b < model.blocks.size(); ++b) {
        const auto& track = tracks[b];
        const Block& block = model.blocks[b];
        const std::uint8_t types = track.types & options.types;
        if (!types || block.size < options.memSize)
            continue;
        InefficientBlock out;
        out.block = b;
        out.types = types;
        out.mallocApi = track.front.api;
        const double size = static_cast<double>(block.size);
        if ((types & kEarlyAllocation) && track.hasAccess) {
            out.earlyByteNs = size * static_cast<double>(track.firstAccess.ts - track.front.ts);
            out.earlyByteApis = size * static_cast<double>(track.firstAccess.api - track.front.api);
        }
        if ((types & kLateDeallocation) && track.hasAccess && track.backKind == EventKind::Free) {
            out.lateByteNs = size * static_cast<double>(track.back.ts - track.lastAccess.ts);
            out.lateByteApis = size * static_cast<double>(track.back.api - track.lastAccess.api);
        }
        if (types & kTemporaryIdleness) {
            out.idleByteNs = size * static_cast<double>(track.longestIdleNs);
            out.idleByteApis = size * static_cast<double>(track.longestIdleApis);
        }
        report.blocks.push_back(out);
    }
    return report;
}

} // namespace msprobe::memory
