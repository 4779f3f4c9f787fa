// SPDX-License-Identifier: Apache-2.0
#include "memorydocument.h"

#include "memorystacking.h"

#include "memory/memscope_reader.h"
#include "memory/torch_snapshot.h"
#include "support/error.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <future>
#include <limits>
#include <map>
#include <set>

namespace msprobe::studio {

namespace mem = msprobe::memory;

namespace {

void checkCancel(const std::atomic<bool>* cancel)
{
    if (cancel && cancel->load())
        throw msprobe::support::Error("cancelled");
}

std::int64_t eventTime(const mem::MemTrace& trace, std::uint32_t event, std::int64_t fallback)
{
    return event == mem::kNone ? fallback : trace.events[event].tsNs;
}

std::vector<TimelineSpan> stepSpans(const mem::MemTrace& trace, const mem::MemModel& model, std::int64_t endNs)
{
    std::map<std::uint32_t, TimelineSpan> spans;
    for (const auto& boundary : model.boundaries) {
        auto& span = spans[boundary.step];
        const std::int64_t ts = trace.events[boundary.event].tsNs;
        if (boundary.start) {
            span.startNs = ts;
            span.endNs = std::max(span.endNs, ts);
        } else {
            span.endNs = ts;
        }
        span.label = "step " + std::to_string(boundary.step);
    }
    std::vector<TimelineSpan> out;
    for (auto& [step, span] : spans)
        out.push_back(span);
    // A step without an end runs until the next one starts, or to the end of the capture.
    for (std::size_t i = 0; i < out.size(); ++i)
        if (out[i].endNs <= out[i].startNs)
            out[i].endNs = i + 1 < out.size() ? out[i + 1].startNs : endNs;
    return out;
}

// mstx Mark rows as instants; Range_start/Range_end pairs (the end names its start by the process's range count,
// "... 3") as spans, except the "step start" ranges that already make the step lane.
std::vector<TimelineSpan> markSpans(const mem::MemTrace& trace, const mem::MemModel& model, std::int64_t endNs)
{
    std::vector<TimelineSpan> out;
    std::map<std::pair<std::int32_t, std::uint64_t>, std::size_t> open; // (pid, range number) -> out index
    std::map<std::int32_t, std::uint64_t> ranges;
    for (const std::uint32_t event : model.mstxEvents) {
        const auto& e = trace.events[event];
        std::string name(trace.text(e.name));
        if (name.size() >= 2 && name.front() == '"' && name.back() == '"') // msMemScope quotes mark messages
            name = name.substr(1, name.size() - 2);
        if (trace.is(e.subType, "Mark")) {
            out.push_back({ e.tsNs, e.tsNs, name });
        } else if (trace.is(e.subType, "Range_start")) {
            const std::uint64_t number = ++ranges[e.pid];
            if (name == "step start")
                continue;
            open[{ e.pid, number }] = out.size();
            out.push_back({ e.tsNs, endNs, name });
        } else if (trace.is(e.subType, "Range_end")) {
            const auto space = name.rfind(' ');
            if (space == std::string::npos)
                continue;
            try {
                const auto it = open.find({ e.pid, std::stoull(name.substr(space + 1)) });
                if (it != open.end()) {
                    out[it->second].endNs = std::max(e.tsNs, out[it->second].startNs);
                    open.erase(it);
                }
            } catch (const std::exception&) {
                // not a range number: an end this model cannot pair
            }
        }
    }
    std::stable_sort(out.begin(), out.end(), [](const TimelineSpan& a, const TimelineSpan& b) { return a.startNs < b.startNs; });
    return out;
}

// The capture's first and last event times (the model found them).
void timeRange(const mem::MemTrace& trace, const mem::MemModel& model, MemoryTimeline& timeline)
{
    if (trace.events.empty())
        return;
    timeline.beginNs = model.firstNs;
    timeline.endNs = model.lastNs;
}

// The blocks of the timeline from the trace and model alone (stacked, with the live-bytes curve; no analysis
// marks, no level of detail, no lanes), so that loading can lay them out while other threads run the analyses
// and the lanes. `timeline` has its time range.
MemoryTimeline& layoutBlocks(const mem::MemTrace& trace, const mem::MemModel& model, MemoryTimeline& timeline)
{
    if (trace.events.empty())
        return timeline;

    // HAL blocks back the pools: shown only when the dump has nothing else.
    std::vector<std::uint8_t> halPool(trace.strings.size(), 0);
    for (std::size_t id = 0; id < halPool.size(); ++id)
        halPool[id] = trace.strings.view(static_cast<msprobe::support::StringId>(id)) == "HAL";
    auto isHal = [&halPool](msprobe::support::StringId pool) { return pool != msprobe::support::kNoString && halPool[pool]; };
    timeline.halShown = std::all_of(model.blocks.begin(), model.blocks.end(), [&](const mem::Block& block) { return isHal(block.pool); });

    timeline.blocks.reserve(model.blocks.size());
    for (std::uint32_t i = 0; i < model.blocks.size(); ++i) {
        const auto& block = model.blocks[i];
        if (isHal(block.pool) && !timeline.halShown)
            continue;
        if (block.mallocEvent == mem::kNone || block.size <= 0)
            continue;
        TimelineBlock item;
        item.block = i;
        item.size = block.size;
        item.startNs = trace.events[block.mallocEvent].tsNs;
        item.endNs = block.shadowFree ? timeline.endNs : eventTime(trace, block.freeEvent, timeline.endNs);
        item.endNs = std::max(item.endNs, item.startNs);
        if (block.aliveAtEnd())
            item.marks |= kMarkAliveAtEnd;
        timeline.blocks.push_back(item);
    }
    // Blocks come in MALLOC order, which is time order for a one-process dump: sort only when not.
    auto byStart = [](const TimelineBlock& a, const TimelineBlock& b) { return a.startNs < b.startNs; };
    if (!std::is_sorted(timeline.blocks.begin(), timeline.blocks.end(), byStart))
        std::stable_sort(timeline.blocks.begin(), timeline.blocks.end(), byStart);

    // Replay allocations and frees in time order (frees first at a tie, then by block) to stack blocks and trace
    // live bytes. The allocations are the blocks in order; only the frees need sorting, then the two merge.
    struct Free {
        std::int64_t ts;
        std::uint32_t item;
        bool operator<(const Free& other) const { return ts != other.ts ? ts < other.ts : item < other.item; }
    };
    std::vector<Free> frees;
    frees.reserve(timeline.blocks.size());
    for (std::uint32_t i = 0; i < timeline.blocks.size(); ++i)
        if (!(timeline.blocks[i].marks & kMarkAliveAtEnd))
            frees.push_back({ timeline.blocks[i].endNs, i });
    if (!std::is_sorted(frees.begin(), frees.end()))
        std::sort(frees.begin(), frees.end());
    StackPacker packer;
    std::int64_t live = 0;
    timeline.live.reserve(timeline.blocks.size() + frees.size());
    std::size_t nextAlloc = 0, nextFree = 0;
    const std::size_t allocCount = timeline.blocks.size();
    while (nextAlloc < allocCount || nextFree < frees.size()) {
        // A block freed at its own allocation time is placed before it is released (frees first otherwise).
        const bool free = nextFree < frees.size()
            && (nextAlloc == allocCount || frees[nextFree].ts < timeline.blocks[nextAlloc].startNs
                || (frees[nextFree].ts == timeline.blocks[nextAlloc].startNs && frees[nextFree].item < nextAlloc));
        std::int64_t ts;
        if (free) {
            const auto& item = timeline.blocks[frees[nextFree].item];
            ts = frees[nextFree++].ts;
            packer.release(item.offset, item.size);
            live -= item.size;
        } else {
            auto& item = timeline.blocks[nextAlloc++];
            ts = item.startNs;
            item.offset = packer.place(item.size);
            live += item.size;
        }
        const bool lastAtTs = (nextFree == frees.size() || frees[nextFree].ts != ts)
            && (nextAlloc == allocCount || timeline.blocks[nextAlloc].startNs != ts);
        if (lastAtTs) {
            timeline.live.push_back({ ts, live });
            if (live > timeline.peak.liveBytes)
                timeline.peak = timeline.live.back();
        }
    }
    timeline.stackTop = packer.highest();
    return timeline;
}

// The step, operator and mark lanes (into a timeline whose blocks may still be laid out by another thread: they
// touch different members).
void layoutLanes(const mem::MemTrace& trace, const mem::MemModel& model, MemoryTimeline& timeline)
{
    if (trace.events.empty())
        return;
    timeline.steps = stepSpans(trace, model, timeline.endNs);
    timeline.marks = markSpans(trace, model, timeline.endNs);
    timeline.ops.reserve(static_cast<std::size_t>(
        std::count_if(model.ops.begin(), model.ops.end(), [](const mem::OpInstance& op) { return op.depth == 0 && op.startEvent != mem::kNone; })));
    for (std::uint32_t i = 0; i < model.ops.size(); ++i) {
        const auto& op = model.ops[i];
        if (op.depth != 0 || op.startEvent == mem::kNone)
            continue;
        TimelineSpan span;
        span.startNs = trace.events[op.startEvent].tsNs;
        span.endNs = std::max(span.startNs, eventTime(trace, op.endEvent, timeline.endNs));
        span.label = mem::opName(trace, model, i);
        timeline.ops.push_back(std::move(span));
    }
    auto spanByStart = [](const TimelineSpan& a, const TimelineSpan& b) { return a.startNs < b.startNs; };
    if (!std::is_sorted(timeline.ops.begin(), timeline.ops.end(), spanByStart))
        std::sort(timeline.ops.begin(), timeline.ops.end(), spanByStart);
}

// The analyses' marks on the laid-out blocks.
void markTimeline(MemoryTimeline& timeline, const MemoryDocument& document)
{
    const auto& model = document.model;
    std::map<std::pair<std::int32_t, std::uint64_t>, std::uint32_t> stepLeakIds;
    for (const auto& leak : document.stepLeaks.leaks)
        stepLeakIds[{ leak.device, leak.allocationId }] = leak.step;
    std::vector<std::uint8_t> inefficient(model.blocks.size(), 0);
    for (const auto& item : document.inefficient.blocks)
        inefficient[item.block] = 1;
    for (auto& item : timeline.blocks) {
        const auto& block = model.blocks[item.block];
        if (!stepLeakIds.empty() && stepLeakIds.count({ block.device, block.allocationId }))
            item.marks |= kMarkStepLeak;
        if (inefficient[item.block])
            item.marks |= kMarkInefficient;
    }
}

} // namespace

MemoryTimeline buildTimeline(const MemoryDocument& document)
{
    MemoryTimeline timeline;
    timeRange(document.trace, document.model, timeline);
    layoutBlocks(document.trace, document.model, timeline);
    layoutLanes(document.trace, document.model, timeline);
    markTimeline(timeline, document);
    timeline.lod = buildTimelineLod(timeline);
    return timeline;
}

std::string MemoryDocument::markReason(const TimelineBlock& item) const
{
    std::vector<std::string> reasons;
    const auto& block = model.blocks[item.block];
    if (item.marks & kMarkStepLeak) {
        for (const auto& leak : stepLeaks.leaks)
            if (leak.allocationId == block.allocationId && leak.device == block.device)
                reasons.push_back("step leak: allocated in step " + std::to_string(leak.step) + ", still alive at the end of step "
                    + std::to_string(leak.step + 1));
    }
    if (item.marks & kMarkAliveAtEnd)
        reasons.push_back(block.shadowFree ? "leak: freed only by the capture's closing (shadow) FREE" : "leak: never freed");
    if (item.marks & kMarkInefficient) {
        auto it = std::lower_bound(inefficient.blocks.begin(), inefficient.blocks.end(), item.block,
            [](const mem::InefficientBlock& a, std::uint32_t b) { return a.block < b; });
        if (it != inefficient.blocks.end() && it->block == item.block)
            reasons.push_back("inefficient: " + mem::inefficientTypeNames(it->types));
    }
    std::string out;
    for (const auto& reason : reasons)
        out += (out.empty() ? "" : "; ") + reason;
    return out;
}

std::string MemoryDocument::describe(const TimelineBlock& item) const
{
    const auto& block = model.blocks[item.block];
    std::string text = formatBytes(block.size) + " (" + std::to_string(block.size) + " B), allocation id " + std::to_string(block.allocationId);
    text += "\naddress " + mem::hexPtr(block.ptr) + ", pool " + std::string(trace.text(block.pool)) + ", device " + mem::deviceName(block.device);
    if (block.mallocEvent != mem::kNone && trace.events[block.mallocEvent].kind == mem::EventKind::Malloc) // a snapshot's "stream 7"
        if (const std::string_view stream = trace.text(trace.events[block.mallocEvent].detail); !stream.empty())
            text += ", " + std::string(stream);
    const std::string allocOp = mem::opName(trace, model, block.allocOp);
    text += "\noperator: " + (allocOp.empty() ? std::string("(none)") : allocOp);
    if (block.freeOp != mem::kNone && block.freeOp != block.allocOp)
        text += " (freed in " + mem::opName(trace, model, block.freeOp) + ")";
    const std::string_view owner = trace.text(block.owner);
    text += "\nowner: " + (owner.empty() ? std::string("(untagged)") : std::string(owner));
    if (model.stepCount > 0)
        text += "\nstep: " + std::to_string(block.allocStep) + (item.marks & kMarkAliveAtEnd ? std::string() : " to " + std::to_string(block.freeStep));
    text += "\nallocated at " + formatOffsetNs(item.startNs - timeline.beginNs);
    if (item.marks & kMarkAliveAtEnd)
        text += ", still alive at the end";
    else
        text += ", freed at " + formatOffsetNs(item.endNs - timeline.beginNs) + " (lived " + formatOffsetNs(item.endNs - item.startNs).substr(1) + ")";
    const std::string reason = markReason(item);
    if (!reason.empty())
        text += "\n" + reason;
    return text;
}

std::string MemoryDocument::callStacks(const TimelineBlock& item) const
{
    const auto& block = model.blocks[item.block];
    if (!stacks || block.mallocEvent == mem::kNone)
        return {};
    const CallStacks cells = stacks->stacksAt(trace.events[block.mallocEvent].line);
    auto innermost = [](const std::string& cell) { return cell.substr(0, cell.find('\n')); };
    std::string module = frameModule(innermost(cells.c));
    if (module.empty())
        module = frameModule(innermost(cells.python));
    std::string text;
    if (!module.empty())
        text += "module: " + module;
    if (const std::string python = formatStack(cells.python, 12); !python.empty())
        text += (text.empty() ? "" : "\n") + std::string("Python stack (innermost first):\n") + python;
    if (const std::string c = formatStack(cells.c, 12); !c.empty())
        text += (text.empty() ? "" : "\n") + std::string("C stack (innermost first):\n") + c;
    return text;
}

std::shared_ptr<const MemoryDocument> loadMemoryDocument(const std::filesystem::path& file, const std::atomic<bool>* cancel,
    const MemoryProgress& progress)
{
    auto report = [&](int percent, const char* stage) {
        checkCancel(cancel);
        if (progress)
            progress(percent, stage);
    };
    auto document = std::make_shared<MemoryDocument>();
    document->file = file;
    report(0, "reading the dump");
    std::shared_ptr<const CallStackIndex> snapshotStacks;
    if (mem::isTorchSnapshotFile(file)) {
        mem::TorchSnapshot snapshot = mem::readTorchSnapshot(file);
        document->trace = std::move(snapshot.trace);
        snapshotStacks = CallStackIndex::fromSnapshot(std::move(snapshot.stackOfLine), snapshot.stacks);
    } else {
        document->trace = mem::readMemScope(file);
    }
    // Two threads from here, each writing its own members of the model and the timeline. This one rebuilds the
    // blocks, then stacks them and builds the level of detail that does not depend on the analyses. The other
    // pairs the operators (finding the capture's time range, which the stacking needs) and lays out the lanes,
    // then, once the blocks are rebuilt, finishes the model (each block's ops, steps and category: members the
    // stacking does not read) and runs the analyses.
    report(50, "rebuilding blocks and operators, laying out the timeline, finding leaks and inefficient blocks");
    const mem::MemTrace& trace = document->trace;
    mem::MemModel& model = document->model;
    MemoryTimeline timeline;
    std::promise<void> blocksBuilt, opsBuilt;
    auto blocksReady = blocksBuilt.get_future(), opsReady = opsBuilt.get_future();
    auto second = std::async(std::launch::async, [&] {
        try {
            mem::buildModelOps(trace, model);
            timeRange(trace, model, timeline);
        } catch (...) {
            opsBuilt.set_exception(std::current_exception());
            throw;
        }
        opsBuilt.set_value();
        layoutLanes(trace, model, timeline);
        blocksReady.get(); // rethrows when the blocks failed
        mem::finishModel(trace, model);
        checkCancel(cancel);
        document->stepLeaks = mem::findStepLeaks(trace, model);
        document->inefficient = mem::findInefficientBlocks(trace, model);
    });
    try {
        try {
            mem::buildModelBlocks(trace, model);
        } catch (...) {
            blocksBuilt.set_exception(std::current_exception());
            throw;
        }
        blocksBuilt.set_value();
        opsReady.get(); // rethrows the other thread's error (mixed step sources: the file's line)
        layoutBlocks(trace, model, timeline);
        timeline.lod = buildTimelineLodBase(timeline);
    } catch (...) {
        second.get(); // its error first: it names the file's line (one from this thread is out of memory)
        throw;
    }
    second.get();
    report(85, "marking the timeline, level of detail");
    markTimeline(timeline, *document);
    addTimelineLodEnvelope(timeline.lod, timeline);
    document->timeline = std::move(timeline);
    report(95, "indexing call stacks");
    document->stacks = snapshotStacks ? snapshotStacks : CallStackIndex::build(file, cancel);
    report(100, "done");
    return document;
}

std::string formatBytes(std::int64_t bytes)
{
    const char* units[] = { "B", "KiB", "MiB", "GiB", "TiB" };
    double value = static_cast<double>(bytes);
    int unit = 0;
    while (std::abs(value) >= 1024 && unit < 4) {
        value /= 1024;
        ++unit;
    }
    char buffer[48];
    if (unit == 0)
        std::snprintf(buffer, sizeof buffer, "%" PRId64 " B", bytes);
    else
        std::snprintf(buffer, sizeof buffer, "%.1f %s", value, units[unit]);
    return buffer;
}

std::string formatOffsetNs(std::int64_t ns)
{
    char buffer[48];
    const double abs = std::abs(static_cast<double>(ns));
    if (abs >= 1e9)
        std::snprintf(buffer, sizeof buffer, "+%.3f s", ns / 1e9);
    else if (abs >= 1e6)
        std::snprintf(buffer, sizeof buffer, "+%.3f ms", ns / 1e6);
    else
        std::snprintf(buffer, sizeof buffer, "+%.3f us", ns / 1e3);
    return buffer;
}

} // namespace msprobe::studio
