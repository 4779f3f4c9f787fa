// SPDX-License-Identifier: Apache-2.0
// An open msMemScope dump as the memory panel shows it: the trace, core's model and analyses (step leaks,
// blocks alive at the end, inefficient blocks), and the timeline laid out from them — every block with its
// time span and a stacking offset, the live-bytes curve, its peak, and the step and operator lanes.
// Widgets-free; built on a worker thread by MemorySession, or directly by tests and the headless export.
#pragma once

#include "memory/inefficient.h"
#include "memory/leaks.h"
#include "memory/mem_model.h"
#include "memorylod.h"
#include "memorystacks.h"

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace msprobe::studio {

enum MemoryMark : std::uint8_t {
    kMarkStepLeak = 1, // §2.1: allocated in step k, still alive at the end of step k+1 or later
    kMarkAliveAtEnd = 2, // never (really) freed before the capture stopped
    kMarkInefficient = 4, // §2.5: early allocation, late deallocation or idle
};

struct TimelineBlock {
    std::int64_t startNs = 0, endNs = 0; // allocation and free times; the capture's end when never freed
    std::int64_t offset = 0, size = 0; // stacking: bytes below the block, and its own bytes
    std::uint32_t block = 0; // MemModel::blocks index
    std::uint8_t marks = 0; // MemoryMark bits
};

struct TimelineSpan {
    std::int64_t startNs = 0, endNs = 0;
    std::string label;
};

struct LivePoint {
    std::int64_t tsNs = 0;
    std::int64_t liveBytes = 0; // after every event at tsNs
};

struct MemoryTimeline {
    std::int64_t beginNs = 0, endNs = 0; // the first and last event of the capture
    std::int64_t stackTop = 0; // the highest offset + size of any block
    std::vector<TimelineBlock> blocks; // by start time
    std::vector<LivePoint> live; // by time, one point per allocation or free time
    LivePoint peak;
    std::vector<TimelineSpan> steps, ops; // outermost ops only
    // mstx marks (startNs == endNs) and mstx ranges other than "step start" (user regions), by start time.
    std::vector<TimelineSpan> marks;
    bool halShown = false; // true when the dump has only HAL blocks; otherwise HAL (backing the pools) is left out
    TimelineLod lod; // per-bucket summaries for zoomed-out frames
};

struct MemoryDocument {
    std::filesystem::path file;
    msprobe::memory::MemTrace trace;
    msprobe::memory::MemModel model;
    msprobe::memory::OnlineLeakReport stepLeaks;
    msprobe::memory::InefficientReport inefficient;
    MemoryTimeline timeline;
    std::shared_ptr<const CallStackIndex> stacks; // null: the dump carries no call stacks

    // The reason a block is highlighted ("" when it is not): "leak: allocated in step 2, alive at the end of step 3", ...
    std::string markReason(const TimelineBlock& block) const;
    // Tooltip lines: size, address, pool, operator, owner, step, allocation/free times, reason.
    std::string describe(const TimelineBlock& block) const;
    // The block's allocation stacks read from the file (hover only: it reads the MALLOC row again): "module: …",
    // then the Python and C stacks, innermost frame first; "" when the dump has no stacks.
    std::string callStacks(const TimelineBlock& block) const;
};

using MemoryProgress = std::function<void(int percent, const std::string& stage)>;

// Reads `file` (msMemScope CSV or .db, or a PyTorch memory snapshot) with core/memory, builds the model, runs the
// analyses and lays out the timeline.
// Throws msprobe::Error (core's message, naming file and line) on bad input, and "cancelled" when cancel is set
// between stages.
std::shared_ptr<const MemoryDocument> loadMemoryDocument(const std::filesystem::path& file, const std::atomic<bool>* cancel = nullptr,
    const MemoryProgress& progress = {});

// Lays out the timeline of a trace and model already analysed (exposed for tests).
MemoryTimeline buildTimeline(const MemoryDocument& document);

// "1.5 MiB", "512 B".
std::string formatBytes(std::int64_t bytes);
// "+12.345 ms" relative to the capture's start.
std::string formatOffsetNs(std::int64_t ns);

} // namespace msprobe::studio
