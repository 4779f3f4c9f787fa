// SPDX-License-Identifier: Apache-2.0
#include "capture/debugger.h"

#include "capture/dump_writer.h"
#include "capture/model_registry.h"
#include "capture/recorder.h"
#include "capture/script_support.h"

#include <torch/csrc/jit/api/module.h>
#include <torch/nn/module.h>

#include <cstdlib>
#include <mutex>
#include <set>

namespace msprobe {

using namespace capture;

namespace {

std::mutex g_liveMutex;
std::set<PrecisionDebugger*> g_live;

std::string className(const std::string& full)
{
    std::string name = full;
    int depth = 0;
    std::size_t cut = 0;
    for (std::size_t k = 0; k < name.size(); ++k) {
        if (name[k] == '<')
            ++depth;
        else if (name[k] == '>')
            --depth;
        else if (depth == 0 && name[k] == ':' && k + 1 < name.size() && name[k + 1] == ':')
            cut = k + 2;
    }
    name = name.substr(cut);
    if (name.size() > 4 && name.compare(name.size() - 4, 4, "Impl") == 0)
        name.resize(name.size() - 4);
    return name;
}

void flushAllAtExit()
{
    std::lock_guard lock(g_liveMutex);
    for (auto* d : g_live)
        d->flush();
}

} // namespace

void capture::registerNnModel(torch::nn::Module& model)
{
    Recorder& recorder = Recorder::instance();
    for (const auto& item : model.named_modules("", true)) {
        ModuleInfo info;
        info.path = item.key();
        info.cls = className(item.value()->name());
        info.isRoot = item.value().get() == &model;
        for (const auto& p : item.value()->named_parameters(false))
            info.params.emplace_back(p.key(), p.value());
        recorder.registerModule(item.value().get(), std::move(info));
    }
}

struct PrecisionDebugger::State {
    DumpConfig config;
    std::unique_ptr<DumpWriter> writer;
    std::int64_t step = 0;
    std::int64_t rank = -1;
    bool running = false;
    const void* model = nullptr;
};

PrecisionDebugger::PrecisionDebugger(const std::filesystem::path& configPath, std::optional<std::string> dumpPath)
    : PrecisionDebugger([&] {
        DumpConfig cfg = readDumpConfig(configPath);
        if (dumpPath)
            cfg.dumpPath = *dumpPath;
        return cfg;
    }())
{
}

PrecisionDebugger::PrecisionDebugger(DumpConfig config)
    : m_state(std::make_unique<State>())
{
    m_state->config = std::move(config);
    m_state->writer = std::make_unique<DumpWriter>(m_state->config);
    if (const char* rank = std::getenv("RANK"); rank && *rank)
        m_state->rank = std::strtoll(rank, nullptr, 10);
    Recorder::instance().resetStep();
    static std::once_flag once;
    std::call_once(once, [] { std::atexit(flushAllAtExit); });
    std::lock_guard lock(g_liveMutex);
    g_live.insert(this);
}

PrecisionDebugger::~PrecisionDebugger()
{
    {
        std::lock_guard lock(g_liveMutex);
        g_live.erase(this);
    }
    stop();
    m_state->writer->close();
    m_state->writer->drain();
    Recorder::instance().resetStep();
    releaseModel();
}

void PrecisionDebugger::releaseModel()
{
    if (m_state->model)
        Recorder::instance().releaseModel(m_state->model);
    m_state->model = nullptr;
}

void PrecisionDebugger::startCommon()
{
    State& s = *m_state;
    if (s.running)
        return;
    if (s.config.pastLastStep(s.step) || !s.config.wantsStep(s.step))
        return;
    if (s.rank >= 0 && !s.config.wantsRank(s.rank))
        return;
    if (!s.writer->isOpen())
        s.writer->open(s.step, s.rank);
    Recorder::instance().beginDump(s.config, *s.writer);
    s.running = true;
}

void PrecisionDebugger::start()
{
    startCommon();
}

void PrecisionDebugger::start(torch::nn::Module& model)
{
    if (m_state->model != &model) {
        releaseModel();
        m_state->model = &model;
        if (Recorder::instance().acquireModel(m_state->model))
            registerNnModel(model);
    }
    startCommon();
}

void PrecisionDebugger::start(torch::jit::Module& model)
{
    if (m_state->model != model._ivalue().get()) {
        releaseModel();
        m_state->model = model._ivalue().get();
        if (Recorder::instance().acquireModel(m_state->model))
            registerScriptModel(model);
    }
    startCommon();
}

void PrecisionDebugger::stop()
{
    State& s = *m_state;
    if (!s.running)
        return;
    Recorder::instance().endDump();
    s.running = false;
    s.writer->flush();
}

void PrecisionDebugger::flush()
{
    stop();
    m_state->writer->flush();
    m_state->writer->drain();
}

void PrecisionDebugger::step()
{
    stop();
    m_state->writer->close();
    Recorder::instance().resetStep();
    ++m_state->step;
}

void PrecisionDebugger::beginOptimizerStep() { m_state->writer->setConstructScope("optimizer"); }
void PrecisionDebugger::beginClipGrad() { m_state->writer->setConstructScope("clip_grad"); }
void PrecisionDebugger::endOptimizerScope() { m_state->writer->setConstructScope(std::nullopt); }

void PrecisionDebugger::setRank(std::int64_t rank) { m_state->rank = rank; }
std::int64_t PrecisionDebugger::currentStep() const { return m_state->step; }
std::filesystem::path PrecisionDebugger::currentDumpDir() const { return m_state->writer->dir(); }
const DumpConfig& PrecisionDebugger::config() const { return m_state->config; }

} // namespace msprobe
