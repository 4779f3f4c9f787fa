// SPDX-License-Identifier: Apache-2.0
// Leak analyses of spec §2.1 (online per-step leaks and fluctuation, replayed on a dump), §2.2 (offline check
// between mstx marks A, B, C) and the plain "alive at the end of the capture" list.
#pragma once

#include "memory/mem_model.h"

#include <optional>
#include <string>
#include <vector>

namespace msprobe::memory {

// §2.1: a pool block allocated in step k >= 2 and still alive at the end of step k+1 or later.
struct StepLeak {
    std::int32_t device = kDeviceUnknown;
    std::string pool; // PTA, ATB, MINDSPORE, TORCH_CPU
    std::uint64_t ptr = 0;
    std::int64_t size = 0;
    std::uint32_t step = 0; // allocation step
    std::uint64_t kernelIndex = 0; // KERNEL_LAUNCH rows seen before the MALLOC
    std::uint64_t allocationId = 0;
    std::uint32_t line = 0;
};

struct StepUsage {
    std::uint32_t step = 0;
    std::int64_t minUsed = 0, maxUsed = 0; // over the pool's MALLOC/FREE rows of the step
    std::int64_t usedAtStart = 0, usedAtEnd = 0;
};

struct GapExtreme {
    bool set = false;
    double ratio = 0; // stepMin / stepMax
    std::int64_t stepMin = 0;
    std::uint32_t step = 0;
};

struct PoolGap {
    std::int32_t device = kDeviceUnknown;
    std::string pool;
    GapExtreme minGap, maxGap;
    std::vector<StepUsage> steps; // steps >= 2 that ended, in order
};

// The §2.1 HAL analyzer: HAL blocks never (really) freed, per process.
struct HalLeak {
    std::int32_t pid = -1, device = kDeviceUnknown;
    std::uint64_t ptr = 0;
    std::int64_t size = 0;
    std::uint64_t id = 0;
};

struct OnlineLeakReport {
    StepSource steps = StepSource::None;
    std::uint32_t stepCount = 0;
    std::vector<StepLeak> leaks; // sorted by device, then allocation step
    std::vector<PoolGap> gaps;
    std::vector<HalLeak> halLeaks;
    std::vector<std::string> warnings; // "double malloc", "free error", "step N: max used is 0"
};

// Replays the online analyzer over the dump. `pools` empty = the §2.1 pools (PTA, ATB, MINDSPORE) and our own
// TORCH_CPU.
OnlineLeakReport findStepLeaks(const MemTrace& trace, const MemModel& model, const std::vector<std::string>& pools = {});
// The console text of §2.1 (leak lines, SUMMARY, Gap Analysis table, HAL lines).
std::string formatStepLeaks(const OnlineLeakReport& report);
// "Pytorch Caching memory pool" for PTA, ...
std::string poolDisplayName(const std::string& pool);

// §2.2 check_leaks(input, mstx_info, start_index), with a pool filter (empty = every pool; msMemScope's own
// check uses HAL only).
struct MarkLeak {
    std::string pool;
    std::uint64_t ptr = 0;
    std::int64_t size = 0;
    std::uint64_t id = 0; // the MALLOC's ID
};
struct MarkLeakDevice {
    std::int32_t device = kDeviceUnknown;
    enum class Status { Checked, FewerThanThreeMarks, StartIndexOutOfRange } status = Status::Checked;
    std::size_t marks = 0;
    std::uint64_t idA = 0, idB = 0, idC = 0;
    std::vector<MarkLeak> leaks;
};
std::vector<MarkLeakDevice> checkLeaksBetweenMarks(const MemTrace& trace, const std::string& mark, std::size_t startIndex,
    const std::vector<std::string>& pools = {});
std::string formatMarkLeaks(const std::vector<MarkLeakDevice>& devices);

// Python's repr of a float ("1.0", "0.0146484375"), as check_leaks prints sizes.
std::string pythonFloat(double value);

} // namespace msprobe::memory
