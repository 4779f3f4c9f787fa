// SPDX-License-Identifier: Apache-2.0
#include "capture/recorder.h"
#include "capture/recorder_impl.h"

namespace msprobe::capture {

using detail::OpenModule;
using detail::tl_modules;

std::atomic<bool> g_moduleHooksActive { false };

// --- Recorder --------------------------------------------------------------------------------------------------

Recorder::Recorder()
    : m_impl(std::make_unique<Impl>())
{
    g_impl = m_impl.get();
}

Recorder& Recorder::instance()
{
    static Recorder* recorder = new Recorder(); // never destroyed: autograd hooks may outlive static destruction
    return *recorder;
}

void Recorder::clearModules()
{
    std::lock_guard lock(m_impl->mutex);
    m_impl->modules.clear();
    m_impl->moduleByKey.clear();
    m_impl->paramOwner.clear();
    m_impl->paramGrad.clear();
    // Pending backward records point at the modules: drop them.
    m_impl->pendingCalls.clear();
    ++m_impl->generation;
    tl_modules.clear();
}

bool Recorder::acquireModel(const void* model)
{
    std::lock_guard lock(m_impl->mutex);
    if (m_impl->registeredModel == model && m_impl->modelUsers > 0) {
        ++m_impl->modelUsers;
        return false;
    }
    clearModules();
    m_impl->registeredModel = model;
    m_impl->modelUsers = 1;
    return true;
}

void Recorder::releaseModel(const void* model)
{
    std::lock_guard lock(m_impl->mutex);
    if (m_impl->registeredModel != model || --m_impl->modelUsers > 0)
        return;
    clearModules();
    m_impl->registeredModel = nullptr;
    m_impl->modelUsers = 0;
}

ModuleInfo* Recorder::registerModule(const void* key, ModuleInfo info)
{
    std::lock_guard lock(m_impl->mutex);
    info.prefix = "Module." + (info.path.empty() ? std::string() : info.path + ".") + info.cls;
    m_impl->modules.push_back(std::make_unique<ModuleInfo>(std::move(info)));
    ModuleInfo* stored = m_impl->modules.back().get();
    m_impl->moduleByKey[key] = stored;
    for (const auto& [name, tensor] : stored->params)
        if (tensor.defined())
            m_impl->paramOwner[tensor.unsafeGetTensorImpl()] = { stored, name };
    return stored;
}

void Recorder::setScriptStackProvider(std::vector<std::string> (*provider)()) { m_impl->scriptStacks = provider; }

void Recorder::beginDump(const DumpConfig& config, DumpWriter& writer)
{
    Impl& I = *m_impl;
    {
        std::lock_guard lock(I.mutex);
        I.cfg = &config;
        ++I.dumpEpoch;
        I.writer = &writer;
        I.leaves = std::make_unique<LeafBuilder>(config, writer);
        I.dumping = true;
        if (I.wantsBackwardDump()) {
            const std::uint64_t gen = I.generation.load();
            for (const auto& module : I.modules) {
                if (module->isRoot && !module->params.empty() && config.level != Level::L1)
                    continue;
                ModuleInfo* m = module.get();
                for (const auto& [name, tensor] : m->params) {
                    if (!tensor.defined() || !tensor.requires_grad())
                        continue;
                    const std::string param = name;
                    const unsigned id = tensor.register_hook([m, param, gen](const at::Tensor& grad) {
                        if (g_impl)
                            g_impl->onParamGrad(m, param, grad, gen);
                    });
                    I.paramHooks.emplace_back(tensor, id);
                }
            }
        }
    }
    I.updateEnabled();
}

void Recorder::endDump()
{
    Impl& I = *m_impl;
    {
        std::lock_guard lock(I.mutex);
        I.closeSynthetic();
        for (auto& [tensor, id] : I.paramHooks)
            tensor.remove_hook(id);
        I.paramHooks.clear();
        I.onBackwardEnd();
        I.dumping = false;
        I.leaves.reset(); // releases the tensors its statistics cache holds
    }
    I.updateEnabled();
}

void Recorder::resetStep()
{
    Impl& I = *m_impl;
    std::lock_guard lock(I.mutex);
    tl_modules.clear();
    I.closeSynthetic();
    for (auto& [api, count] : I.apiCounter)
        count = 0; // OpInfo::counter points at these
    I.moduleCounter.clear();
    I.paramGrad.clear();
    I.pendingCalls.clear();
    I.apiRangeOpen = I.moduleRangeOpen = false;
    I.mixListDepth = 0;
    ++I.generation;
    // Param hooks were registered with the old generation: re-register for the new one.
    if (I.dumping && !I.paramHooks.empty()) {
        for (auto& [tensor, id] : I.paramHooks)
            tensor.remove_hook(id);
        I.paramHooks.clear();
        const DumpConfig& cfg = *I.cfg;
        DumpWriter& writer = *I.writer;
        I.dumping = false;
        beginDump(cfg, writer);
    }
}

void Recorder::addObserver(ModuleObserver* observer)
{
    {
        std::lock_guard lock(m_impl->mutex);
        m_impl->observers.push_back(observer);
    }
    m_impl->updateEnabled();
}

void Recorder::removeObserver(ModuleObserver* observer)
{
    {
        std::lock_guard lock(m_impl->mutex);
        auto& list = m_impl->observers;
        list.erase(std::remove(list.begin(), list.end(), observer), list.end());
    }
    m_impl->updateEnabled();
}

bool Recorder::moduleEnter(const void* key, c10::ArrayRef<c10::IValue> inputs)
{
    Impl& I = *m_impl;
    if (!I.enabled.load())
        return false;
    std::lock_guard lock(I.mutex);
    auto it = I.moduleByKey.find(key);
    if (it == I.moduleByKey.end())
        return false;
    it->second->scoped = true;
    return I.enterModule(it->second, key, inputs, false, false);
}

void Recorder::moduleExit(const void* key, const std::vector<c10::IValue>& outputs)
{
    Impl& I = *m_impl;
    std::lock_guard lock(I.mutex);
    I.closeSynthetic();
    if (tl_modules.empty() || tl_modules.back().key != key)
        return;
    OpenModule open = std::move(tl_modules.back());
    tl_modules.pop_back();
    I.finishModule(open, outputs);
}

void Recorder::moduleAbort(const void* key)
{
    Impl& I = *m_impl;
    std::lock_guard lock(I.mutex);
    I.closeSynthetic();
    if (!tl_modules.empty() && tl_modules.back().key == key)
        tl_modules.pop_back();
}

void Recorder::moduleTap(const void* key, const c10::IValue& value)
{
    std::lock_guard lock(m_impl->mutex);
    for (auto it = tl_modules.rbegin(); it != tl_modules.rend(); ++it)
        if (it->key == key) {
            it->outputs = { value };
            return;
        }
}

} // namespace msprobe::capture
