// SPDX-License-Identifier: Apache-2.0
// msprobe::PrecisionDebugger for libtorch programs: msprobe-compatible dumps (dump.json, construct.json,
// stack.json, dump_tensor_data/) of aten ops (L1), modules (L0) or both (mix), forward and backward.
#pragma once

#include "capture/config.h"

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>

namespace torch::nn {
class Module;
}
namespace torch::jit {
struct Module;
}

namespace msprobe {

class PrecisionDebugger {
public:
    // Reads config.json (schema of the reference, section 1.13); dumpPath overrides its dump_path.
    explicit PrecisionDebugger(const std::filesystem::path& configPath, std::optional<std::string> dumpPath = {});
    explicit PrecisionDebugger(capture::DumpConfig config);
    ~PrecisionDebugger();
    PrecisionDebugger(const PrecisionDebugger&) = delete;
    PrecisionDebugger& operator=(const PrecisionDebugger&) = delete;

    // Starts (or resumes) dumping the current step. Without a model only aten ops are seen (L1). A C++ model
    // contributes its modules (scopes placed with MSPROBE_MODULE_SCOPE, and parameter owners); a TorchScript
    // model all of its submodules (its graph executor optimisation is switched off, as msprobe does).
    void start();
    void start(torch::nn::Module& model);
    void start(torch::jit::Module& model);
    void stop();
    // Ends the step: writes the files and resets all call counters.
    void step();
    // Writes everything captured so far and waits for the async writer (also done at process exit).
    void flush();

    // Brackets optimizer.step() / gradient clipping the way the reference's optimizer hooks do: construct.json
    // gets an "optimizer" (or "clip_grad") root and every entry captured in between is placed under it.
    void beginOptimizerStep();
    void beginClipGrad();
    void endOptimizerScope();

    // Rank for the rank{R} directory and the "rank" filter; default: $RANK when set, else proc{PID}.
    void setRank(std::int64_t rank);
    std::int64_t currentStep() const;
    // The step/rank directory being written (empty when this step is not dumped).
    std::filesystem::path currentDumpDir() const;
    const capture::DumpConfig& config() const;

private:
    struct State;
    std::unique_ptr<State> m_state;
    void startCommon();
    void releaseModel();
};

// RAII form of beginOptimizerStep()/endOptimizerScope() around an optimizer.step() call.
class OptimizerStepScope {
public:
    explicit OptimizerStepScope(PrecisionDebugger& debugger)
        : m_debugger(debugger)
    {
        m_debugger.beginOptimizerStep();
    }
    ~OptimizerStepScope() { m_debugger.endOptimizerScope(); }
    OptimizerStepScope(const OptimizerStepScope&) = delete;
    OptimizerStepScope& operator=(const OptimizerStepScope&) = delete;

private:
    PrecisionDebugger& m_debugger;
};

// RAII form of one dumped step: start(model) now, stop() and step() at scope exit.
class DebuggerStep {
public:
    template <class Model>
    DebuggerStep(PrecisionDebugger& debugger, Model& model)
        : m_debugger(debugger)
    {
        m_debugger.start(model);
    }
    explicit DebuggerStep(PrecisionDebugger& debugger)
        : m_debugger(debugger)
    {
        m_debugger.start();
    }
    ~DebuggerStep()
    {
        m_debugger.stop();
        m_debugger.step();
    }
    DebuggerStep(const DebuggerStep&) = delete;
    DebuggerStep& operator=(const DebuggerStep&) = delete;

private:
    PrecisionDebugger& m_debugger;
};

} // namespace msprobe
