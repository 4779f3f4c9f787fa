// SPDX-License-Identifier: Apache-2.0
// msprobe::MemoryRecorder: every allocation and free of ATen CPU tensors, the outermost operators, steps, marks
// and owner tags of a libtorch program, written as an msMemScope dump CSV (memscope_dump_{ts}.csv, the layout
// msMemScope's and msprobe's memory analyses read).
//
//   msprobe::MemoryRecorder memory({ .outputDir = "mem" });
//   memory.start(*model, optimizer);          // module scopes, weight/gradient/optimizer_state tags
//   for (...) { forward; backward; { msprobe::MemoryOptimizerScope s; optimizer.step(); } memory.step(); }
//   memory.stop();                            // also done by the destructor, at exit() and on std::terminate
//
// Allocations are seen through c10's memory reporting hook on the thread that called start() (and threads
// libtorch hands its thread-local state to: autograd, at::launch; other threads through MemoryThreadScope). Only
// one recorder records at a time. A failed CPU allocation is written as an OOM_DETAIL/OOM_TRIGGER row.
#pragma once

#include <ATen/core/Tensor.h>
#include <c10/util/ThreadLocalDebugInfo.h>

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace torch::nn {
class Module;
}
namespace torch::optim {
class Optimizer;
}
namespace torch::jit {
struct Module;
}

namespace msprobe {

struct MemoryCaptureOptions {
    // Root folder: the dump goes to {outputDir}/msmemscope_{pid}_{time}_ascend/device_{0|cpu}/dump/.
    std::filesystem::path outputDir = "memscopeDumpResults";
    // ACCESS rows (READ/WRITE) for the tensor inputs and outputs of every outermost operator.
    bool access = false;
    // Block watch: {start op, end op} (msMemScope op names such as torch._ops.aten.add.Tensor, or aten::add).
    // When the start op first ends, its outputs are watched: their CRC-64 is written before and after every
    // outermost op until the end op ends, to watch_dump/watch_dump_data_check_sum_{ts}.csv.
    std::vector<std::string> watch {};
    // true: Event Type PTA and Device Id 0, so msMemScope's own analysers accept the file; false: TORCH_CPU, cpu.
    bool compat = true;
    // true: the dump is the SQLite variant memscope_dump_{ts}.db (spec §1.5, as msMemScope's --data-format=db),
    // written by the same writer thread with the same rows.
    bool database = false;
};

class MemoryRecorder {
public:
    explicit MemoryRecorder(MemoryCaptureOptions options = {});
    ~MemoryRecorder(); // stop() and flush(): no event is lost when the scope unwinds
    MemoryRecorder(const MemoryRecorder&) = delete;
    MemoryRecorder& operator=(const MemoryRecorder&) = delete;

    // Starts (or resumes) recording on the calling thread. With a model, module calls give the module scope of
    // each event and step() tags weights and gradients; with an optimizer also its state.
    void start();
    void start(torch::nn::Module& model);
    void start(torch::nn::Module& model, torch::optim::Optimizer& optimizer);
    void start(torch::jit::Module& model);
    // Must be called on the thread that called start(). Writes the blocks alive now as MALLOC without FREE.
    void stop();

    // Ends step n (1-based count of calls) and starts n+1: SYSTEM/STEP row, owner tags refreshed.
    void step();
    // mstx-like marks: MSTX Mark / Range_start / Range_end rows. rangeStart returns the id rangeEnd takes;
    // a range named "step start" delimits a step for the msMemScope step model.
    void mark(const std::string& message);
    std::uint64_t rangeStart(const std::string& message);
    void rangeEnd(std::uint64_t rangeId);
    // Labels the live block holding this tensor's storage: owner level USER_DEFINED_1.
    void describe(const at::Tensor& tensor, const std::string& owner);
    // Tags now: model parameters "weight", their grads "gradient", optimizer state "optimizer_state".
    void tagOwners();

    // Writes every event recorded so far to the file (blocks still alive wait for their free or stop()).
    void flush();
    std::filesystem::path csvPath() const; // the dump: memscope_dump_{ts}.csv, or .db with options.database
    std::filesystem::path watchCsvPath() const; // empty without watch
    std::uint64_t eventCount() const; // events recorded so far (all kinds)

    struct State;

private:
    void startCommon();
    std::unique_ptr<State> m_state;
};

// User owner label (USER_DEFINED_1..3 levels of the owner string) for blocks allocated in its scope.
class MemoryOwnerScope {
public:
    explicit MemoryOwnerScope(const std::string& owner);
    ~MemoryOwnerScope();
    MemoryOwnerScope(const MemoryOwnerScope&) = delete;
    MemoryOwnerScope& operator=(const MemoryOwnerScope&) = delete;

private:
    bool m_pushed = false;
};

// Carries the recording thread's memory reporter to a thread libtorch did not start (spec §5.3 ThreadScope): a
// plain std::thread sees no allocation otherwise. Take the context on the recording thread, open the scope first
// thing in the worker:
//   msprobe::MemoryThreadContext context;
//   std::thread worker([context] { msprobe::MemoryThreadScope scope(context); ... });
class MemoryThreadContext {
public:
    MemoryThreadContext()
        : m_info(c10::ThreadLocalDebugInfo::current())
    {
    }

private:
    friend class MemoryThreadScope;
    std::shared_ptr<c10::ThreadLocalDebugInfo> m_info;
};

class MemoryThreadScope {
public:
    explicit MemoryThreadScope(const MemoryThreadContext& context)
        : m_guard(context.m_info)
    {
    }
    MemoryThreadScope(const MemoryThreadScope&) = delete;
    MemoryThreadScope& operator=(const MemoryThreadScope&) = delete;

private:
    c10::DebugInfoGuard m_guard;
};

// Blocks allocated in its scope belong to the optimizer phase (owner PROCESS level "optimizer").
class MemoryOptimizerScope {
public:
    MemoryOptimizerScope();
    ~MemoryOptimizerScope();
    MemoryOptimizerScope(const MemoryOptimizerScope&) = delete;
    MemoryOptimizerScope& operator=(const MemoryOptimizerScope&) = delete;
};

} // namespace msprobe

namespace msprobe::capture::memory {

// msMemScope's watch checksum: 64-bit table CRC, LSB-first loop with the constant 0x42F0E1EBA9EA3693,
// init and final XOR all ones (not CRC-64/XZ). crc64Hex gives the 16 lowercase hex digits written.
std::uint64_t memscopeCrc64(const void* data, std::size_t size);
std::string crc64Hex(std::uint64_t crc);

} // namespace msprobe::capture::memory
