// SPDX-License-Identifier: Apache-2.0
// The recording in progress, shared by MemoryRecorder (memory_recorder.cpp) and the libtorch hooks
// (memory_hooks.cpp): one at a time per process, reached through a global pointer from the hooks.
#pragma once

#include "capture/memory/memory_csv_writer.h"

#include <ATen/core/Tensor.h>

#include <cstdio>
#include <memory>
#include <optional>

namespace msprobe::capture::memory {

struct WatchState {
    std::string startOp, endOp; // as given
    std::FILE* file = nullptr;
    std::mutex mutex;
    bool watching = false, done = false;
    std::vector<at::Tensor> tensors; // held while watched
    std::string watchedName;
    std::unordered_map<std::uint32_t, std::int64_t> calls; // per op name id
};

struct Session {
    std::unique_ptr<CsvWriter> writer;
    std::atomic<std::uint64_t> nextId { 1 };
    std::atomic<std::int64_t> step { 1 };
    std::atomic<bool> recording { false };
    bool access = false;
    bool compat = true;
    bool modules = false; // module scopes come from the capture Recorder's module stack
    std::unique_ptr<WatchState> watch;
    std::atomic<std::uint64_t> events { 0 };

    // Fills id, time, thread, step, phase and the owner scope of the calling thread, then queues it.
    void emit(Event& e);
};

// The session the hooks report to; nullptr when none.
extern std::atomic<Session*> g_session;

// Registers the RecordFunction callbacks and pushes the memory reporter on the calling thread; undone by
// uninstallHooks() on the same thread.
void installHooks();
void uninstallHooks();

// Thread state the recorder's scopes change.
void pushUserOwner(const std::string& owner);
bool userOwnerFull();
void popUserOwner();
void enterOptimizerPhase();
void leaveOptimizerPhase();

// "torch._ops.aten.add.Tensor" (compat) or "aten::add.Tensor" of an operator.
std::string opDisplayName(const std::string& name, const std::string& overload, bool compat);

} // namespace msprobe::capture::memory
