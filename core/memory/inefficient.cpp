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

struct BlockTrack {
    struct Step {
        std::uint64_t api;
        EventKind kind;
        std::int64_t ts;
    };
    std::vector<Step> events;
    std::uint8_t types = 0;
    std::int64_t longestIdleNs = 0;
    std::uint64_t longestIdleApis = 0;
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
    std::map<std::tuple<int, std::int32_t>, FamilyState> families; // (family, pid)
    std::vector<BlockTrack> tracks(model.blocks.size());
    InefficientReport report;
    for (std::uint32_t i = 0; i < trace.events.size(); ++i) {
        const MemEvent& e = trace.events[i];
        if (e.kind == EventKind::OpLaunch) {
            const auto type = trace.text(e.subType);
            const int family = type.starts_with("ATB_") ? 1 : type.starts_with("ATEN_") ? 0 : -1;
            if (family < 0)
                continue;
            FamilyState& state = families[{ family, e.pid }];
            if (type.ends_with("_START")) {
                ++state.apiId;
                ++report.apis;
                state.inOp = true;
                state.opMalloc = state.opFree = false;
            } else if (type.ends_with("_END")) {
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
        const int family = familyOfPool(trace.text(block.pool));
        if (family < 0)
            continue;
        FamilyState& state = families[{ family, e.pid }];
        const bool alone = !state.inOp;
        if (alone) {
            ++state.apiId;
            ++report.apis;
        }
        const std::uint64_t api = state.apiId;
        BlockTrack& track = tracks[blockIndex];
        const bool hasPrevious = !track.events.empty();
        const BlockTrack::Step previous = hasPrevious ? track.events.back() : BlockTrack::Step {};
        track.events.push_back({ api, e.kind, e.tsNs });
        const bool startsWithMalloc = track.events.front().kind == EventKind::Malloc;
        if (startsWithMalloc && e.kind == EventKind::Access) {
            if (hasPrevious && previous.kind == EventKind::Access) {
                const std::uint64_t gap = api - previous.api;
                if (gap > options.idleThreshold)
                    track.types |= kTemporaryIdleness;
                if (e.tsNs - previous.ts > track.longestIdleNs)
                    track.longestIdleNs = e.tsNs - previous.ts;
                track.longestIdleApis = std::max(track.longestIdleApis, gap);
            }
            if (state.lastFreeApi && !(track.types & kEarlyAllocation)) {
                const std::uint64_t m = track.events.front().api;
                std::optional<std::uint64_t> firstAccess;
                for (const auto& step : track.events)
                    if (step.kind == EventKind::Access && step.api != m) {
                        firstAccess = step.api;
                        break;
                    }
                const std::uint64_t lastFree = *state.lastFreeApi;
                if (firstAccess && m != lastFree && m < lastFree && lastFree < *firstAccess)
                    track.types |= kEarlyAllocation;
            }
        } else if (startsWithMalloc && e.kind == EventKind::Free && state.lastMallocApi && hasPrevious
            && previous.kind == EventKind::Access && previous.api != api) {
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
        out.mallocApi = track.events.front().api;
        const double size = static_cast<double>(block.size);
        const auto firstAccess = std::find_if(track.events.begin(), track.events.end(),
            [](const BlockTrack::Step& s) { return s.kind == EventKind::Access; });
        const auto lastAccess = std::find_if(track.events.rbegin(), track.events.rend(),
            [](const BlockTrack::Step& s) { return s.kind == EventKind::Access; });
        if ((types & kEarlyAllocation) && firstAccess != track.events.end()) {
            out.earlyByteNs = size * static_cast<double>(firstAccess->ts - track.events.front().ts);
            out.earlyByteApis = size * static_cast<double>(firstAccess->api - track.events.front().api);
        }
        if ((types & kLateDeallocation) && lastAccess != track.events.rend() && track.events.back().kind == EventKind::Free) {
            out.lateByteNs = size * static_cast<double>(track.events.back().ts - lastAccess->ts);
            out.lateByteApis = size * static_cast<double>(track.events.back().api - lastAccess->api);
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
