// SPDX-License-Identifier: Apache-2.0
// L0 for C++ torch::nn::Module models: libtorch has no module hooks, so a module's forward() declares its
// scope itself. Costs one relaxed atomic load when nothing is captured.
//
//   torch::Tensor forward(torch::Tensor x) {
//       MSPROBE_MODULE_SCOPE(x);
//       ...
//       MSPROBE_RETURN(y);
//   }
#pragma once

#include "capture/recorder.h"

#include <torch/nn/module.h>

#include <initializer_list>
#include <vector>

namespace msprobe {

class ModuleScope {
public:
    ModuleScope(const torch::nn::Module& module, std::initializer_list<c10::IValue> inputs)
        : m_key(&module)
    {
        if (capture::g_moduleHooksActive.load(std::memory_order_relaxed))
            m_active = capture::Recorder::instance().moduleEnter(m_key, c10::ArrayRef<c10::IValue>(inputs.begin(), inputs.size()));
    }
    ~ModuleScope()
    {
        if (m_active)
            capture::Recorder::instance().moduleAbort(m_key);
    }
    ModuleScope(const ModuleScope&) = delete;
    ModuleScope& operator=(const ModuleScope&) = delete;

    template <class T>
    T output(T value)
    {
        if (m_active) {
            m_active = false;
            capture::Recorder::instance().moduleExit(m_key, { c10::IValue(value) });
        }
        return value;
    }

private:
    const void* m_key;
    bool m_active = false;
};

} // namespace msprobe

#define MSPROBE_MODULE_SCOPE(...) ::msprobe::ModuleScope msprobe_module_scope_(*this, { __VA_ARGS__ })
#define MSPROBE_RETURN(value) return msprobe_module_scope_.output(value)
