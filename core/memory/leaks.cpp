// SPDX-License-Identifier: Apache-2.0
#include "memory/leaks.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <map>
#include <set>
#include <tuple>

namespace msprobe::memory {

namespace {

constexpr std::uint32_t kSkipSteps = 1;
constexpr std::uint32_t kDurationThreshold = 1;
constexpr double kMiB = 1024.0 * 1024.0;

struct LiveBlock {
    std::int64_t size = 0;
    std::uint32_t step = 0;
    std::uint64_t startsBefore = 0; // step starts of its process before its MALLOC (its duration: those since)
    std::uint64_t kernelIndex = 0, allocationId = 0;
    std::uint32_t line = 0;
    // Already in `recorded` under this block's key: a block alive for many steps is reported once, and looked up
    // once rather than at every step end.
    bool recorded = false;
};

struct PoolState {
    std::map<std::uint64_t, LiveBlock> live;
    std::int64_t running = 0; // live bytes from MALLOC/FREE sizes, for rows without `used`
    std::int64_t used = 0; // the last `used` (or running) value
    bool tracked = false; // a MALLOC/FREE seen in the current step
    std::int64_t stepMin = 0, stepMax = 0, usedAtStart = 0;
    PoolGap gap;
};

std::string format(const char* pattern, auto... values)
{
    char text[512];
    std::snprintf(text, sizeof text, pattern, values...);
    return text;
}

} // namespace

std::string poolDisplayName(const std::string& pool)
{
    if (pool == "PTA")
        return "Pytorch Caching memory pool";
    if (pool == "ATB")
        return "ATB memory pool";
    if (pool == "MINDSPORE")
        return "Mindspore memory pool";
    if (pool == "TORCH_CPU")
        return "Torch CPU memory pool";
    if (pool == "HAL")
        return "Hal memory";
    return pool + " memory pool";
}

OnlineLeakReport findStepLeaks(const MemTrace& trace, const MemModel& model, const std::vector<std::string>& poolsWanted)
{
    const std::vector<std::string> pools = poolsWanted.empty() ? std::vector<std::string> { "PTA", "ATB", "MINDSPORE", "TORCH_CPU" } : poolsWanted;
    OnlineLeakReport report;
    report.steps = model.stepSource;
    report.stepCount = model.stepCount;
    std::map<std::tuple<std::int32_t, std::int32_t, std::string>, PoolState> states; // (pid, device, pool)
    std::map<std::tuple<std::int32_t, std::int32_t>, std::uint64_t> kernels; // (pid, device) -> KERNEL_LAUNCH count
    std::map<std::tuple<std::int32_t, std::int32_t, std::uint64_t>, HalLeak> hal; // (pid, device, addr)
    std::set<std::tuple<std::int32_t, std::int32_t, std::uint64_t, std::string, std::uint32_t>> recorded;
    std::map<std::int32_t, std::uint64_t> stepStarts; // per process
    std::size_t nextBoundary = 0;

    // Per string id, what an Event Type is to this analysis (compared as text once, not on every row).
    enum : std::uint8_t { kHal = 1, kWantedPool = 2, kKernelLaunch = 4 };
    std::vector<std::uint8_t> role(trace.strings.size(), 0);
    for (std::size_t id = 0; id < role.size(); ++id) {
        const auto text = trace.strings.view(static_cast<support::StringId>(id));
        role[id] = static_cast<std::uint8_t>((text == "HAL" ? kHal : 0) | (text == "KERNEL_LAUNCH" ? kKernelLaunch : 0)
            | (std::find(pools.begin(), pools.end(), text) != pools.end() ? kWantedPool : 0));
    }
    auto roleOf = [&](support::StringId id) -> std::uint8_t { return id == support::kNoString ? 0 : role[id]; };
    // The last lookups, since the rows of one process, device and pool follow each other.
    struct StateKey {
        std::int32_t pid, device;
        support::StringId pool;
        PoolState* state;
    };
    std::vector<StateKey> stateCache;
    auto stateOf = [&](const MemEvent& e) -> PoolState& {
        for (const auto& key : stateCache)
            if (key.pid == e.pid && key.device == e.device && key.pool == e.subType)
                return *key.state;
        PoolState& state = states[{ e.pid, e.device, std::string(trace.text(e.subType)) }];
        if (stateCache.size() == 8)
            stateCache.pop_back();
        stateCache.insert(stateCache.begin(), { e.pid, e.device, e.subType, &state });
        return state;
    };
    std::uint64_t* lastKernels = nullptr;
    std::tuple<std::int32_t, std::int32_t> lastKernelKey;
    auto kernelsOf = [&](const MemEvent& e) -> std::uint64_t& {
        const std::tuple<std::int32_t, std::int32_t> key { e.pid, e.device };
        if (!lastKernels || key != lastKernelKey) {
            lastKernelKey = key;
            lastKernels = &kernels[key];
        }
        return *lastKernels;
    };

    auto forProcess = [&](std::int32_t pid, auto action) {
        for (auto& [key, state] : states)
            if (std::get<0>(key) == pid)
                action(key, state);
    };
    auto stepStart = [&](std::int32_t pid) {
        ++stepStarts[pid];
        forProcess(pid, [](const auto&, PoolState& state) {
            state.usedAtStart = state.used;
            state.tracked = false;
        });
    };
    auto stepEnd = [&](std::int32_t pid, std::uint32_t step) {
        if (step <= kSkipSteps)
            return;
        const std::uint64_t starts = stepStarts[pid];
        forProcess(pid, [&](const auto& key, PoolState& state) {
            const auto& [p, device, pool] = key;
            for (auto& [ptr, block] : state.live) {
                if (block.recorded || block.step <= kSkipSteps || starts - block.startsBefore < kDurationThreshold)
                    continue;
                block.recorded = true;
                if (!recorded.insert({ p, device, ptr, pool, block.step }).second)
                    continue;
                report.leaks.push_back({ device, pool, ptr, block.size, block.step, block.kernelIndex, block.allocationId, block.line });
            }
            if (!state.tracked)
                return;
            state.gap.steps.push_back({ step, state.stepMin, state.stepMax, state.usedAtStart, state.used });
            if (state.stepMax == 0) {
                report.warnings.push_back("device " + deviceName(device) + " " + pool + " step " + std::to_string(step)
                    + ": the largest allocated memory is 0, no gap");
                return;
            }
            const double ratio = static_cast<double>(state.stepMin) / static_cast<double>(state.stepMax);
            if (!state.gap.maxGap.set || ratio > state.gap.maxGap.ratio)
                state.gap.maxGap = { true, ratio, state.stepMin, step };
            if (!state.gap.minGap.set || ratio < state.gap.minGap.ratio)
                state.gap.minGap = { true, ratio, state.stepMin, step };
            state.tracked = false;
        });
    };

    std::int32_t startsPid = 0;
    std::uint64_t* startsOfPid = nullptr;
    for (std::uint32_t i = 0; i < trace.events.size(); ++i) {
        const MemEvent& e = trace.events[i];
        while (nextBoundary < model.boundaries.size() && model.boundaries[nextBoundary].event == i) {
            const auto& b = model.boundaries[nextBoundary++];
            if (b.start)
                stepStart(e.pid);
            else
                stepEnd(e.pid, b.step);
        }
        if (e.kind == EventKind::KernelLaunch && (roleOf(e.subType) & kKernelLaunch)) {
            ++kernelsOf(e);
            continue;
        }
        if (e.kind != EventKind::Malloc && e.kind != EventKind::Free)
            continue;
        const auto poolRole = roleOf(e.subType);
        if (poolRole & kHal) {
            if (e.kind == EventKind::Malloc)
                hal[{ e.pid, e.device, e.ptr }] = { e.pid, e.device, e.ptr, e.size, e.id };
            else if (!e.shadow())
                hal.erase({ e.pid, e.device, e.ptr });
            continue;
        }
        if (!(poolRole & kWantedPool))
            continue;
        PoolState& state = stateOf(e);
        if (state.gap.pool.empty()) {
            state.gap.pool = trace.text(e.subType);
            state.gap.device = e.device;
        }
        if (e.kind == EventKind::Malloc) {
            state.running += e.size;
            if (!startsOfPid || startsPid != e.pid) {
                startsPid = e.pid;
                startsOfPid = &stepStarts[e.pid];
            }
            LiveBlock block { e.size, model.stepOf[i], *startsOfPid, kernelsOf(e), e.allocationId, e.line };
            if (!state.live.emplace(e.ptr, block).second) {
                report.warnings.push_back("line " + std::to_string(e.line) + ": double malloc at " + hexPtr(e.ptr));
                state.live[e.ptr] = block;
            }
        } else if (!e.shadow()) {
            auto found = state.live.find(e.ptr);
            if (found == state.live.end())
                report.warnings.push_back("line " + std::to_string(e.line) + ": free error, no live block at " + hexPtr(e.ptr));
            else {
                state.running -= found->second.size;
                state.live.erase(found);
            }
        }
        state.used = e.used != kAbsent ? e.used : state.running;
        if (model.stepOf[i] > kSkipSteps) {
            if (!state.tracked) {
                state.stepMin = state.stepMax = state.used;
                state.tracked = true;
            }
            state.stepMin = std::min(state.stepMin, state.used);
            state.stepMax = std::max(state.stepMax, state.used);
        }
    }
    std::stable_sort(report.leaks.begin(), report.leaks.end(), [](const StepLeak& a, const StepLeak& b) {
        return std::tie(a.device, a.step) < std::tie(b.device, b.step);
    });
    for (auto& [key, state] : states)
        if (state.gap.minGap.set)
            report.gaps.push_back(std::move(state.gap));
    for (const auto& [key, leak] : hal)
        report.halLeaks.push_back(leak);
    return report;
}

std::string formatStepLeaks(const OnlineLeakReport& report)
{
    std::string out;
    if (report.steps == StepSource::None)
        out += "No step markers (SYSTEM/STEP rows or mstx \"step start\" ranges): no per-step leak analysis.\n";
    std::size_t k = 0;
    while (k < report.leaks.size()) {
        const auto device = report.leaks[k].device;
        out += "====== ERROR: Detected memory leaks on device " + deviceName(device) + " ======\n";
        double total = 0;
        std::size_t count = 0;
        for (; k < report.leaks.size() && report.leaks[k].device == device; ++k, ++count) {
            const auto& leak = report.leaks[k];
            total += static_cast<double>(leak.size) / kMiB;
            out += format("Direct %s leak of %f Mb(s) at 0x%llx in kernel_%llu at step %u.\n",
                poolDisplayName(leak.pool).c_str(), static_cast<double>(leak.size) / kMiB,
                static_cast<unsigned long long>(leak.ptr), static_cast<unsigned long long>(leak.kernelIndex), leak.step);
        }
        out += format("====== SUMMARY: %g Mb(s) leaked in %zu allocation(s) ======\n", total, count);
    }
    for (const auto& gap : report.gaps) {
        out += "======= " + poolDisplayName(gap.pool) + " Gap Analysis of Device " + deviceName(gap.device) + " =======\n";
        out += format("%-8s%-25s%-25s%s\n", "", "MinAlloc/MaxAlloc(%)", "MinAllocMem(MB)", "StepId");
        for (const auto* row : { &gap.minGap, &gap.maxGap })
            out += format("%-8s%-25s%-25s%u\n", row == &gap.minGap ? "MinGap" : "MaxGap",
                format("%.4f", row->ratio * 100).c_str(), format("%.4f", static_cast<double>(row->stepMin) / kMiB).c_str(),
                row->step);
    }
    if (report.halLeaks.empty())
        out += "There is no hal leak memory.\n";
    for (const auto& leak : report.halLeaks)
        out += format("Leak memory in Malloc operator, addr: 0x%llx (%lld bytes, device %s, process %d, ID %llu)\n",
            static_cast<unsigned long long>(leak.ptr), static_cast<long long>(leak.size), deviceName(leak.device).c_str(),
            leak.pid, static_cast<unsigned long long>(leak.id));
    return out;
}

std::vector<MarkLeakDevice> checkLeaksBetweenMarks(const MemTrace& trace, const std::string& mark, std::size_t startIndex,
    const std::vector<std::string>& pools)
{
    std::map<std::int32_t, std::vector<const MemEvent*>> byDevice;
    std::int32_t lastDevice = kDeviceUnknown;
    std::vector<const MemEvent*>* lastRows = nullptr; // rows of one device come in runs: one map lookup a run
    for (const auto& e : trace.events)
        if (e.device != kDeviceUnknown) {
            if (!lastRows || e.device != lastDevice) {
                lastDevice = e.device;
                lastRows = &byDevice[e.device];
            }
            lastRows->push_back(&e);
        }
    std::vector<MarkLeakDevice> result;
    for (auto& [device, rows] : byDevice) {
        auto byId = [](const MemEvent* a, const MemEvent* b) { return a->id < b->id; };
        if (!std::is_sorted(rows.begin(), rows.end(), byId)) // one process: in ID order already
            std::stable_sort(rows.begin(), rows.end(), byId);
        MarkLeakDevice out;
        out.device = device;
        std::vector<std::uint64_t> marks;
        for (const auto* e : rows)
            if (e->kind == EventKind::Mstx && trace.is(e->subType, "Mark") && trace.is(e->name, mark))
                marks.push_back(e->id);
        out.marks = marks.size();
        if (marks.size() < 3)
            out.status = MarkLeakDevice::Status::FewerThanThreeMarks;
        else if (startIndex + 2 >= marks.size())
            out.status = MarkLeakDevice::Status::StartIndexOutOfRange;
        if (out.status != MarkLeakDevice::Status::Checked) {
            result.push_back(out);
            continue;
        }
        out.idA = marks[startIndex];
        out.idB = marks[startIndex + 1];
        out.idC = marks[startIndex + 2];
        std::map<std::uint64_t, MarkLeak> remembered; // by MALLOC ID
        for (const auto* e : rows) {
            if (e->id > out.idC)
                break;
            if (e->kind != EventKind::Malloc && e->kind != EventKind::Free)
                continue;
            const std::string pool(trace.text(e->subType));
            if (!pools.empty() && std::find(pools.begin(), pools.end(), pool) == pools.end())
                continue;
            if (e->kind == EventKind::Malloc && e->id >= out.idA && e->id <= out.idB)
                remembered[e->id] = { pool, e->ptr, e->size, e->id };
            else if (e->kind == EventKind::Free && e->id >= out.idA)
                std::erase_if(remembered, [&](const auto& item) { return item.second.ptr == e->ptr; });
        }
        for (auto& [id, leak] : remembered)
            out.leaks.push_back(leak);
        result.push_back(std::move(out));
    }
    return result;
}

std::string pythonFloat(double value)
{
    char text[64];
    const auto result = std::to_chars(text, text + sizeof text, value);
    std::string out(text, result.ptr);
    if (out.find_first_of(".en") == std::string::npos)
        out += ".0";
    return out;
}

std::string formatMarkLeaks(const std::vector<MarkLeakDevice>& devices)
{
    std::string out;
    for (const auto& d : devices) {
        const auto name = deviceName(d.device);
        if (d.status == MarkLeakDevice::Status::FewerThanThreeMarks) {
            out += "ERROR: Device " + name + " has fewer than 3 data points (" + std::to_string(d.marks)
                + " marks), cannot check leaks.\n";
            continue;
        }
        if (d.status == MarkLeakDevice::Status::StartIndexOutOfRange) {
            out += "Device " + name + ": start index out of range (" + std::to_string(d.marks) + " marks), skipped.\n";
            continue;
        }
        if (d.leaks.empty()) {
            out += "No hal memory leaks detected on device " + name + ".\n";
            continue;
        }
        out += "====== ERROR: Detected memory leaks on device " + name + " ======\n";
        for (const auto& leak : d.leaks)
            out += "Direct " + std::string(leak.pool == "HAL" ? "Hal" : leak.pool) + " memory leak of "
                + pythonFloat(static_cast<double>(leak.size) / kMiB) + " Mb(s) at " + hexPtr(leak.ptr) + " in Index "
                + std::to_string(leak.id) + ".\n";
    }
    return out;
}

} // namespace msprobe::memory
