// SPDX-License-Identifier: Apache-2.0
// The capture engine behind PrecisionDebugger and TrainerMonitor: one set of RecordFunction callbacks,
// module scopes (C++ macro, TorchScript, parameter-owner attribution) and autograd post hooks.
#pragma once

#include "capture/config.h"
#include "capture/dump_writer.h"

#include <ATen/core/ivalue.h>

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace msprobe::capture {

struct ModuleInfo {
    std::string path; // named_modules() path, "" for the root
    std::string cls; // class name without namespace and "Impl"
    std::string prefix; // "Module.{path}.{cls}"
    std::vector<std::pair<std::string, at::Tensor>> params; // direct parameters (short name, tensor)
    bool isRoot = false;
    bool scoped = false; // seen entering through a scope (macro / TorchScript): no parameter-owner synthesis
};

// Receives every module call the engine sees (monitor). Tensors are only valid during the call.
class ModuleObserver {
public:
    virtual ~ModuleObserver() = default;
    virtual void moduleForward(const ModuleInfo& module, std::int64_t call, const std::vector<c10::IValue>& inputs,
        const std::vector<c10::IValue>& outputs) = 0;
    // gradIn: grads of the module outputs (incoming), gradOut: grads of its inputs (outgoing).
    virtual void moduleBackward(const ModuleInfo& module, std::int64_t call, const std::vector<at::Tensor>& gradIn,
        const std::vector<at::Tensor>& gradOut) = 0;
};

class Recorder {
public:
    static Recorder& instance();

    // Model registration (replaces the previous model). key: the nn::Module* or the TorchScript object.
    void clearModules();
    ModuleInfo* registerModule(const void* key, ModuleInfo info);
    // Reference-counted model registration (debugger and monitor may share a model): acquireModel returns
    // true when the caller must register the model's modules now; releaseModel forgets them at count zero.
    bool acquireModel(const void* model);
    void releaseModel(const void* model);
    // Frames of the current TorchScript call stack, innermost first (set by the TorchScript support).
    void setScriptStackProvider(std::vector<std::string> (*provider)());

    // Dumping: between beginDump and endDump every op/module/backward is written through writer.
    void beginDump(const DumpConfig& config, DumpWriter& writer);
    void endDump();
    // Step boundary: counters to 0, pending backward records dropped.
    void resetStep();

    void addObserver(ModuleObserver* observer);
    void removeObserver(ModuleObserver* observer);

    // Module scope events (ModuleScope, TorchScript callbacks). moduleEnter returns false when the module is not
    // tracked; then moduleExit/moduleAbort must not be called.
    bool moduleEnter(const void* key, c10::ArrayRef<c10::IValue> inputs);
    void moduleExit(const void* key, const std::vector<c10::IValue>& outputs);
    void moduleAbort(const void* key);
    void moduleTap(const void* key, const c10::IValue& value);

    struct Impl;

private:
    Recorder();
    std::unique_ptr<Impl> m_impl;
};

// Cheap test used by the ModuleScope macro before doing any work.
extern std::atomic<bool> g_moduleHooksActive;

} // namespace msprobe::capture
