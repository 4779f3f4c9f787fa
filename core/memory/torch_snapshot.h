// SPDX-License-Identifier: Apache-2.0
// PyTorch CUDA memory snapshots (torch.cuda.memory._snapshot() / _dump_snapshot(): the pickle memory_viz opens,
// spec §4.1) read into the same MemTrace as a msMemScope dump, so the model, the analyses and the timeline work on
// them. Per device, in trace order:
//   alloc                     MALLOC, pool "PTA", a fresh allocation id; used/total tracked per device
//   free_completed            FREE of the block allocated at that address (free_requested only marks the request)
//   segment_alloc/_map        MALLOC in pool "HAL" (the reserved memory backing the blocks)
//   segment_free/_unmap       FREE in pool "HAL"
//   oom, snapshot             mstx Mark rows ("out of memory: …", "snapshot")
// Blocks freed but never allocated in the trace, and blocks still allocated in the final `segments` that the trace
// never allocated, were allocated before recording started: they get a MALLOC at the device's first time (as
// memory_viz draws them from x = 0). time_us becomes ns; a trace without times uses the entry index (1 µs each).
// Every event has a stack (innermost frame first): Python frames "file(line): name" (as msMemScope writes them), C++
// frames "file(name):line" ("(name)" without a file), with the recorder's, dispatcher's and interpreter's own frames
// left out as memory_viz does.
#pragma once

#include "memory/mem_event.h"

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace msprobe::memory {

struct SnapshotStack {
    std::string python, c; // one frame per line, innermost first; "" when none
};

struct TorchSnapshot {
    MemTrace trace; // events sorted by (pid = 0, ID = time order); MemEvent::line numbers stackOfLine
    std::vector<std::uint32_t> stackOfLine; // MemEvent::line - 1 -> index into stacks, or kNoSnapshotStack
    std::vector<SnapshotStack> stacks; // distinct stacks
    std::size_t segments = 0, blocks = 0, traceEntries = 0; // as read from the file
    static constexpr std::uint32_t kNoSnapshotStack = 0xffffffffu;

    const SnapshotStack* stackAt(std::uint64_t line) const
    {
        if (line == 0 || line > stackOfLine.size() || stackOfLine[line - 1] == kNoSnapshotStack)
            return nullptr;
        return &stacks[stackOfLine[line - 1]];
    }
};

// True when the file starts as a binary pickle (PROTO 2..5) or is named *.pickle / *.pkl.
bool isTorchSnapshotFile(const std::filesystem::path& file);

// Throws msprobe::Error naming the file and the place (pickle byte, or the key path such as
// "device_traces[0][12].size") for a malformed pickle or a pickle that is not a memory snapshot.
TorchSnapshot readTorchSnapshot(const std::filesystem::path& file);

} // namespace msprobe::memory
