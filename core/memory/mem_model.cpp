// SPDX-License-Identifier: Apache-2.0
#include "memory/mem_model.h"

#include "memory/attr_parse.h"
#include "support/error.h"

#include <algorithm>
#include <exception>
#include <map>
#include <thread>
#include <tuple>
#include <unordered_map>

namespace msprobe::memory {

namespace {

std::uint64_t threadKey(const MemEvent& e)
{
    return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(e.pid)) << 32) | static_cast<std::uint32_t>(e.tid);
}

// The step model of one process (§2.0): SYSTEM/STEP rows, or mstx "step start" ranges.
class StepTracker {
public:
    StepTracker(const MemTrace& trace, MemModel& model)
        : m_trace(trace)
        , m_model(model)
    {
    }
    // `first` is the process's first event; with SYSTEM/STEP rows in the trace, step 1 starts there (§2.0: code
    // before the first msmemscope.step() call is step 1).
    void newProcess(std::uint32_t first, bool systemSteps)
    {
        m_current = 0;
        if (systemSteps) {
            m_current = 1;
            m_model.boundaries.push_back({ first, 1, true });
        }
        m_rangeCount = 0;
        m_openRange = 0;
    }
    // Returns the step `event` belongs to.
    std::uint32_t feed(std::uint32_t index)
    {
        const MemEvent& e = m_trace.events[index];
        if (e.kind == EventKind::System && m_trace.is(e.subType, "STEP")) {
            use(StepSource::SystemStep, e);
            const std::uint32_t ended = m_current;
            m_model.boundaries.push_back({ index, ended, false });
            m_current = ended + 1;
            m_model.boundaries.push_back({ index, m_current, true });
            m_model.stepCount = std::max(m_model.stepCount, ended);
            return ended;
        }
        if (e.kind == EventKind::Mstx && m_trace.is(e.subType, "Range_start")) {
            ++m_rangeCount;
            if (m_trace.is(e.name, "step start")) {
                use(StepSource::Mstx, e);
                m_current = ++m_mstxSteps;
                m_openRange = m_rangeCount;
                m_model.boundaries.push_back({ index, m_current, true });
                m_model.stepCount = std::max(m_model.stepCount, m_current);
            }
            return m_current;
        }
        if (e.kind == EventKind::Mstx && m_trace.is(e.subType, "Range_end") && m_openRange) {
            const auto text = m_trace.text(e.name);
            const auto at = text.rfind(' ');
            unsigned long long id = 0;
            if (at != std::string_view::npos && parseUnsigned(text.substr(at + 1), id) && id == m_openRange) {
                m_model.boundaries.push_back({ index, m_current, false });
                const std::uint32_t step = m_current;
                m_current = 0;
                m_openRange = 0;
                return step;
            }
        }
        return m_current;
    }

private:
    void use(StepSource source, const MemEvent& e)
    {
        if (m_model.stepSource == StepSource::None)
            m_model.stepSource = source;
        else if (m_model.stepSource != source)
            throw support::Error(m_trace.file, "line " + std::to_string(e.line),
                "steps are marked both by SYSTEM/STEP rows and by mstx \"step start\" ranges; a dump must use one");
    }

    const MemTrace& m_trace;
    MemModel& m_model;
    std::uint32_t m_current = 0, m_mstxSteps = 0;
    std::uint64_t m_rangeCount = 0, m_openRange = 0;
};

// The blocks of one process by allocation_id. msMemScope numbers allocations with a counter, so a process's ids
// usually fill a range a few times their count at most: then a table indexed by id replaces the hash map (whose
// lookups miss the cache on every FREE and ACCESS of a large dump). Sparse ids fall back to the map.
class BlocksByAllocationId {
public:
    // Sizes the index for one process whose `count` MALLOCs with an allocation_id carry ids from `low` to `high`.
    void reset(std::uint64_t low, std::uint64_t high, std::uint64_t count)
    {
        m_map.clear();
        m_table.clear();
        m_dense = count > 0 && high - low < 4 * count + 1024;
        if (m_dense) {
            m_low = low;
            m_table.assign(high - low + 1, kNone);
        } else
            m_map.reserve(std::min<std::uint64_t>(count, 1u << 20));
    }
    void set(std::uint64_t id, std::uint32_t block)
    {
        if (m_dense)
            m_table[id - m_low] = block;
        else
            m_map[id] = block;
    }
    std::uint32_t find(std::uint64_t id) const
    {
        if (m_dense)
            return id - m_low < m_table.size() ? m_table[id - m_low] : kNone;
        const auto found = m_map.find(id);
        return found == m_map.end() ? kNone : found->second;
    }

private:
    bool m_dense = false;
    std::uint64_t m_low = 0;
    std::vector<std::uint32_t> m_table;
    std::unordered_map<std::uint64_t, std::uint32_t> m_map;
};

// The events of one process (a run: the trace is sorted by process) and its MALLOCs' allocation ids.
struct ProcessRun {
    std::uint32_t first = 0; // its first event; it ends where the next run begins
    std::uint64_t lowId = ~0ull, highId = 0, ids = 0;
};

} // namespace

namespace {

// The step and the innermost open op of every event, and the op instances (one half of buildModel).
void buildOpsAndSteps(const MemTrace& trace, MemModel& model, bool systemSteps)
{
    const auto& events = trace.events;
    const auto count = static_cast<std::uint32_t>(events.size());
    model.opOf.assign(count, kNone);
    model.stepOf.assign(count, 0);
    // What an OP_LAUNCH Event Type does, per string id (compared as text once, not on every row).
    enum : std::uint8_t { kNotAnOpEdge, kAtenStart, kAtbStart, kOpEnd };
    std::vector<std::uint8_t> opEdge(trace.strings.size(), kNotAnOpEdge);
    for (std::size_t id = 0; id < opEdge.size(); ++id) {
        const auto type = trace.strings.view(static_cast<support::StringId>(id));
        opEdge[id] = type == "ATEN_START" ? kAtenStart : type == "ATB_START" ? kAtbStart : type == "ATEN_END" || type == "ATB_END" ? kOpEnd : kNotAnOpEdge;
    }
    std::unordered_map<std::uint64_t, std::vector<std::uint32_t>> openOps; // per thread: stack of op indexes
    StepTracker steps(trace, model);
    std::int32_t pid = -2;
    std::uint64_t stackKey = 0;
    std::vector<std::uint32_t>* stackOfKey = nullptr; // the open ops of the thread of the previous event
    std::int64_t firstNs = events.empty() ? 0 : events.front().tsNs, lastNs = firstNs;
    for (std::uint32_t i = 0; i < count; ++i) {
        const MemEvent& e = events[i];
        firstNs = std::min(firstNs, e.tsNs);
        lastNs = std::max(lastNs, e.tsNs);
        if (e.pid != pid) {
            pid = e.pid;
            steps.newProcess(i, systemSteps);
        }
        model.stepOf[i] = steps.feed(i);
        if (e.kind == EventKind::Mstx)
            model.mstxEvents.push_back(i);
        if (!stackOfKey || threadKey(e) != stackKey) {
            stackKey = threadKey(e);
            stackOfKey = &openOps[stackKey];
        }
        auto& stack = *stackOfKey;
        if (e.kind == EventKind::OpLaunch) {
            const auto edge = e.subType == support::kNoString ? std::uint8_t(kNotAnOpEdge) : opEdge[e.subType];
            if (edge == kAtenStart || edge == kAtbStart) {
                OpInstance op;
                op.name = e.name;
                op.pid = e.pid;
                op.tid = e.tid;
                op.device = e.device;
                op.startEvent = i;
                op.depth = static_cast<std::uint32_t>(stack.size());
                op.parent = stack.empty() ? kNone : stack.back();
                op.atb = edge == kAtbStart;
                model.opOf[i] = static_cast<std::uint32_t>(model.ops.size());
                stack.push_back(model.opOf[i]);
                model.ops.push_back(op);
            } else if (edge == kOpEnd) {
                for (std::size_t k = stack.size(); k-- > 0;)
                    if (model.ops[stack[k]].name == e.name) {
                        model.ops[stack[k]].endEvent = i;
                        model.opOf[i] = stack[k];
                        stack.resize(k);
                        break;
                    }
            }
            continue;
        }
        if (!stack.empty())
            model.opOf[i] = stack.back();
    }
    model.firstNs = firstNs;
    model.lastNs = lastNs;
}

// The blocks rebuilt from the MALLOC/ACCESS/FREE rows (the other half of buildModel; the blocks' ops and steps are
// filled in once both halves are done).
void buildBlocks(const MemTrace& trace, MemModel& model, const std::vector<ProcessRun>& runs, bool addressMaps, std::size_t mallocs)
{
    const auto& events = trace.events;
    const auto count = static_cast<std::uint32_t>(events.size());
    BlocksByAllocationId byAllocationId; // per process (reset on pid change)
    std::map<std::tuple<support::StringId, std::uint64_t>, std::uint32_t> liveByPoolPtr; // rows without allocation_id
    std::map<std::uint64_t, std::uint32_t> liveByPtr; // for ACCESS containment
    model.blocks.reserve(mallocs);
    auto run = runs.begin();
    for (std::uint32_t i = 0; i < count; ++i) {
        const MemEvent& e = events[i];
        if (run != runs.end() && i == run->first) {
            byAllocationId.reset(run->lowId, run->highId, run->ids);
            liveByPoolPtr.clear();
            liveByPtr.clear();
            ++run;
        }
        if (!e.isMemory())
            continue;
        const bool byId = e.flags & kFlagHasAllocationId;
        if (e.kind == EventKind::Malloc) {
            Block block;
            block.allocationId = e.allocationId;
            block.pool = e.subType;
            block.pid = e.pid;
            block.device = e.device;
            block.ptr = e.ptr;
            block.size = e.size;
            block.mallocEvent = i;
            block.owner = e.owner;
            const auto index = static_cast<std::uint32_t>(model.blocks.size());
            model.blocks.push_back(std::move(block));
            model.blockOf[i] = index;
            if (byId)
                byAllocationId.set(e.allocationId, index);
            if (addressMaps) {
                liveByPoolPtr[{ e.subType, e.ptr }] = index;
                liveByPtr[e.ptr] = index;
            }
            continue;
        }
        std::uint32_t index = kNone;
        if (byId) {
            const auto found = byAllocationId.find(e.allocationId);
            if (found != kNone && model.blocks[found].freeEvent == kNone)
                index = found;
        } else if (e.kind == EventKind::Free) {
            auto found = liveByPoolPtr.find({ e.subType, e.ptr });
            if (found != liveByPoolPtr.end())
                index = found->second;
        } else {
            // ACCESS without allocation_id: the live block at or containing the address (§1.3).
            auto found = liveByPtr.upper_bound(e.ptr);
            if (found != liveByPtr.begin()) {
                --found;
                const Block& b = model.blocks[found->second];
                const auto size = e.size > 0 ? static_cast<std::uint64_t>(e.size) : 0;
                if (b.freeEvent == kNone && b.ptr <= e.ptr && e.ptr + size <= b.ptr + static_cast<std::uint64_t>(b.size))
                    index = found->second;
            }
        }
        if (index == kNone) {
            (e.kind == EventKind::Free ? model.unmatchedFrees : model.unmatchedAccesses).push_back(i);
            continue;
        }
        model.blockOf[i] = index;
        Block& block = model.blocks[index];
        if (e.kind == EventKind::Access) {
            if (block.accesses.empty())
                block.accesses.reserve(2); // most blocks are written once and read once: one allocation, not two
            block.accesses.push_back(i);
            continue;
        }
        block.freeEvent = i;
        block.shadowFree = e.shadow();
        if (e.owner != support::kNoString && block.owner == support::kNoString)
            block.owner = e.owner;
        if (!addressMaps)
            continue;
        auto live = liveByPoolPtr.find({ block.pool, block.ptr });
        if (live != liveByPoolPtr.end() && live->second == index)
            liveByPoolPtr.erase(live);
        auto byPtr = liveByPtr.find(block.ptr);
        if (byPtr != liveByPtr.end() && byPtr->second == index)
            liveByPtr.erase(byPtr);
    }
}

constexpr std::uint32_t kEventsForTwoThreads = 1u << 16; // smaller traces are modelled on the calling thread

// Whether the trace marks steps by SYSTEM/STEP rows. No event is looked at when no text of the trace is "STEP",
// and the first such row ends the scan.
bool hasSystemSteps(const MemTrace& trace)
{
    std::vector<std::uint8_t> isStep(trace.strings.size(), 0);
    bool anyStep = false;
    for (std::size_t id = 0; id < isStep.size(); ++id)
        anyStep |= (isStep[id] = trace.strings.view(static_cast<support::StringId>(id)) == "STEP") != 0;
    return anyStep && std::any_of(trace.events.begin(), trace.events.end(), [&isStep](const MemEvent& e) {
        return e.kind == EventKind::System && e.subType != support::kNoString && isStep[e.subType];
    });
}

// The blocks' half with the scan that sizes it: whether any memory row lacks an allocation_id (the address maps
// serve only those; a dump whose memory rows all carry one skips them), how many MALLOCs, and each process's
// events and allocation ids.
void scanAndBuildBlocks(const MemTrace& trace, MemModel& model)
{
    const auto& events = trace.events;
    model.blockOf.assign(events.size(), kNone);
    bool addressMaps = false;
    std::size_t mallocs = 0;
    std::vector<ProcessRun> runs;
    const auto count = static_cast<std::uint32_t>(events.size());
    for (std::uint32_t i = 0; i < count; ++i) {
        const MemEvent& e = events[i];
        if (runs.empty() || e.pid != events[i - 1].pid)
            runs.push_back({ i });
        addressMaps = addressMaps || (e.isMemory() && !(e.flags & kFlagHasAllocationId));
        if (e.kind == EventKind::Malloc) {
            ++mallocs;
            if (e.flags & kFlagHasAllocationId) {
                ProcessRun& run = runs.back();
                run.lowId = std::min(run.lowId, e.allocationId);
                run.highId = std::max(run.highId, e.allocationId);
                ++run.ids;
            }
        }
    }
    buildBlocks(trace, model, runs, addressMaps, mallocs);
}

} // namespace

void buildModelBlocks(const MemTrace& trace, MemModel& model) { scanAndBuildBlocks(trace, model); }

void buildModelOps(const MemTrace& trace, MemModel& model) { buildOpsAndSteps(trace, model, hasSystemSteps(trace)); }

void finishModel(const MemTrace& trace, MemModel& model)
{
    for (auto& block : model.blocks) {
        block.allocOp = model.opOf[block.mallocEvent];
        block.allocStep = model.stepOf[block.mallocEvent];
        if (block.freeEvent != kNone) {
            block.freeOp = model.opOf[block.freeEvent];
            block.freeStep = model.stepOf[block.freeEvent];
        }
    }
    inferCategories(trace, model);
}

MemModel buildModel(const MemTrace& trace)
{
    MemModel model;
    const auto count = static_cast<std::uint32_t>(trace.events.size());
    // The two halves write different members of the model, so they run side by side on a large trace, each with
    // its own scan of the events.
    if (count >= kEventsForTwoThreads && std::thread::hardware_concurrency() > 1) {
        std::exception_ptr blocksError;
        std::thread blocks([&] {
            try {
                buildModelBlocks(trace, model);
            } catch (...) {
                blocksError = std::current_exception();
            }
        });
        try {
            buildModelOps(trace, model);
        } catch (...) {
            blocks.join();
            throw;
        }
        blocks.join();
        if (blocksError)
            std::rethrow_exception(blocksError);
    } else {
        buildModelOps(trace, model);
        buildModelBlocks(trace, model);
    }
    finishModel(trace, model);
    return model;
}

std::string opName(const MemTrace& trace, const MemModel& model, std::uint32_t op)
{
    return op == kNone ? std::string() : std::string(trace.text(model.ops[op].name));
}

} // namespace msprobe::memory
