// SPDX-License-Identifier: Apache-2.0
#include "capture/memory/memory_recorder.h"

#include "capture/memory/memory_session.h"
#include "capture/memory/memory_watch.h"
#include "capture/model_registry.h"
#include "capture/recorder.h"
#include "capture/script_support.h"
#include "support/error.h"

#include <torch/csrc/jit/api/module.h>
#include <torch/nn/module.h>
#include <torch/optim/adagrad.h>
#include <torch/optim/adam.h>
#include <torch/optim/adamw.h>
#include <torch/optim/rmsprop.h>
#include <torch/optim/sgd.h>

#include <ctime>
#include <exception>
#include <fstream>
#include <thread>

#include <unistd.h>

namespace msprobe {

using namespace capture::memory;

namespace {

// Module scopes come from the capture Recorder's module stack, which it keeps while it has an observer.
struct ScopeOnlyObserver final : capture::ModuleObserver {
    void moduleForward(const capture::ModuleInfo&, std::int64_t, const std::vector<c10::IValue>&,
        const std::vector<c10::IValue>&) override
    {
    }
    void moduleBackward(const capture::ModuleInfo&, std::int64_t, const std::vector<at::Tensor>&,
        const std::vector<at::Tensor>&) override
    {
    }
};

std::string timeStamp()
{
    const std::time_t now = std::time(nullptr);
    std::tm local {};
    localtime_r(&now, &local);
    char text[32];
    std::strftime(text, sizeof text, "%Y%m%d%H%M%S", &local);
    return text;
}

// MemTotal / MemAvailable of /proc/meminfo in bytes (0 when unreadable): the START_TRACE free/total.
std::pair<std::int64_t, std::int64_t> hostMemory()
{
    std::ifstream in("/proc/meminfo");
    std::string key, unit;
    std::int64_t value = 0, total = 0, available = 0;
    while (in >> key >> value >> unit) {
        if (key == "MemTotal:")
            total = value * 1024;
        else if (key == "MemAvailable:")
            available = value * 1024;
    }
    return { available, total };
}

void finishSession(Session& s)
{
    s.recording = false;
    if (s.writer)
        s.writer->finish();
    if (s.watch)
        closeWatch(*s.watch);
}

// exit() without stop() or destruction, and std::terminate (an uncaught exception): the file is completed.
void finishAtExit()
{
    if (Session* s = g_session.load())
        finishSession(*s);
}

std::terminate_handler g_previousTerminate = nullptr;

[[noreturn]] void finishOnTerminate()
{
    finishAtExit();
    if (g_previousTerminate)
        g_previousTerminate();
    std::abort();
}

void installExitHandlers()
{
    static const bool installed = [] {
        std::atexit(&finishAtExit);
        g_previousTerminate = std::set_terminate(&finishOnTerminate);
        return true;
    }();
    (void)installed;
}

} // namespace

struct MemoryRecorder::State {
    MemoryCaptureOptions options;
    std::unique_ptr<Session> session;
    std::filesystem::path csv, watchCsv;
    bool running = false;
    std::thread::id thread;
    torch::nn::Module* nnModel = nullptr;
    std::optional<torch::jit::Module> jitModel;
    torch::optim::Optimizer* optimizer = nullptr;
    const void* acquired = nullptr; // model registered with the capture Recorder
    ScopeOnlyObserver observer;
    bool observing = false;
    std::int64_t steps = 0;

    void releaseModel()
    {
        if (observing) {
            capture::Recorder::instance().removeObserver(&observer);
            observing = false;
        }
        if (acquired) {
            capture::Recorder::instance().releaseModel(acquired);
            acquired = nullptr;
        }
    }

    void label(const at::Tensor& t, const char* owner, int level)
    {
        if (!t.defined() || !t.has_storage() || !t.storage().data())
            return;
        Event e;
        e.kind = EventKind::Label;
        e.ptr = reinterpret_cast<std::uintptr_t>(t.storage().data());
        e.name = strings().intern(owner);
        e.sub = static_cast<std::uint8_t>(level);
        session->emit(e);
    }
};

MemoryRecorder::MemoryRecorder(MemoryCaptureOptions options)
    : m_state(std::make_unique<State>())
{
    if (options.watch.size() != 0 && options.watch.size() != 2)
        throw support::Error("memory watch needs a start op and an end op, " + std::to_string(options.watch.size()) + " given");
    m_state->options = std::move(options);
}

MemoryRecorder::~MemoryRecorder()
{
    try {
        stop();
    } catch (...) { // a destructor must not throw; the file is still completed below
    }
    State& s = *m_state;
    s.releaseModel();
    if (s.session) {
        finishSession(*s.session);
        Session* mine = s.session.get();
        g_session.compare_exchange_strong(mine, nullptr);
    }
}

void MemoryRecorder::start()
{
    startCommon();
}

void MemoryRecorder::start(torch::nn::Module& model)
{
    State& s = *m_state;
    if (s.nnModel != &model) {
        s.releaseModel();
        s.jitModel.reset();
        s.nnModel = &model;
        if (capture::Recorder::instance().acquireModel(&model))
            capture::registerNnModel(model);
        s.acquired = &model;
    }
    startCommon();
}

void MemoryRecorder::start(torch::nn::Module& model, torch::optim::Optimizer& optimizer)
{
    m_state->optimizer = &optimizer;
    start(model);
}

void MemoryRecorder::start(torch::jit::Module& model)
{
    State& s = *m_state;
    if (!s.jitModel || s.jitModel->_ivalue().get() != model._ivalue().get()) {
        s.releaseModel();
        s.nnModel = nullptr;
        s.jitModel = model;
        if (capture::Recorder::instance().acquireModel(model._ivalue().get()))
            capture::registerScriptModel(model);
        s.acquired = model._ivalue().get();
    }
    startCommon();
}

void MemoryRecorder::startCommon()
{
    State& s = *m_state;
    if (s.running) { // start(model) while recording (e.g. the model was loaded under capture): scopes from now on
        if (s.acquired && !s.observing) {
            capture::Recorder::instance().addObserver(&s.observer);
            s.observing = true;
            s.session->modules = true;
        }
        return;
    }
    if (!s.session) {
        const std::string ts = timeStamp();
        const auto project = s.options.outputDir
            / ("msmemscope_" + std::to_string(::getpid()) + "_" + ts + "_ascend");
        const auto dir = project / (s.options.compat ? "device_0" : "device_cpu") / "dump";
        std::error_code ec;
        std::filesystem::create_directories(dir, ec);
        if (ec)
            throw support::Error(dir.string(), "", "cannot create memory dump folder: " + ec.message());
        const std::string extension = s.options.database ? ".db" : ".csv";
        s.csv = dir / ("memscope_dump_" + ts + extension);
        for (int k = 1; std::filesystem::exists(s.csv); ++k) // two recorders in one second: one file each
            s.csv = dir / ("memscope_dump_" + ts + "_" + std::to_string(k) + extension);
        auto session = std::make_unique<Session>();
        session->access = s.options.access;
        session->compat = s.options.compat;
        if (!s.options.watch.empty()) {
            s.watchCsv = project / (s.options.compat ? "device_0" : "device_cpu") / "watch_dump"
                / ("watch_dump_data_check_sum_" + ts + ".csv");
            session->watch = openWatch(s.options.watch[0], s.options.watch[1], s.watchCsv);
        }
        session->writer = std::make_unique<CsvWriter>(s.csv, s.options.compat, s.options.database);
        Session* expected = nullptr;
        if (!g_session.compare_exchange_strong(expected, session.get()))
            throw support::Error(s.csv.string(), "", "another MemoryRecorder is already recording in this process");
        s.session = std::move(session);
        installExitHandlers();
    }
    if (s.acquired && !s.observing) {
        capture::Recorder::instance().addObserver(&s.observer);
        s.observing = true;
    }
    s.session->modules = s.observing;
    s.thread = std::this_thread::get_id();
    const auto [available, total] = hostMemory();
    Event e;
    e.kind = EventKind::StartTrace;
    e.size = available;
    e.extra = static_cast<std::uint64_t>(total);
    s.session->emit(e);
    s.session->recording = true;
    installHooks();
    s.running = true;
}

void MemoryRecorder::stop()
{
    State& s = *m_state;
    if (!s.running)
        return;
    if (std::this_thread::get_id() != s.thread)
        throw support::Error("MemoryRecorder::stop() must be called on the thread that called start()");
    s.session->recording = false;
    uninstallHooks();
    if (s.observing) {
        capture::Recorder::instance().removeObserver(&s.observer);
        s.observing = false;
    }
    Event e;
    e.kind = EventKind::StopTrace;
    s.session->emit(e);
    s.running = false;
    s.session->writer->flush();
}

void MemoryRecorder::step()
{
    State& s = *m_state;
    if (!s.session)
        return;
    tagOwners();
    Event e;
    e.kind = EventKind::Step;
    e.extra = static_cast<std::uint64_t>(++s.steps);
    s.session->emit(e);
    s.session->step.store(s.steps + 1);
}

void MemoryRecorder::mark(const std::string& message)
{
    if (!m_state->session)
        return;
    Event e;
    e.kind = EventKind::Mark;
    e.name = strings().intern(message);
    m_state->session->emit(e);
}

std::uint64_t MemoryRecorder::rangeStart(const std::string& message)
{
    if (!m_state->session)
        return 0;
    Event e;
    e.kind = EventKind::RangeStart;
    e.name = strings().intern(message);
    m_state->session->emit(e);
    return e.id;
}

void MemoryRecorder::rangeEnd(std::uint64_t rangeId)
{
    if (!m_state->session)
        return;
    Event e;
    e.kind = EventKind::RangeEnd;
    e.extra = rangeId;
    m_state->session->emit(e);
}

void MemoryRecorder::describe(const at::Tensor& tensor, const std::string& owner)
{
    if (m_state->session)
        m_state->label(tensor, owner.c_str(), kOwnerUser1);
}

void MemoryRecorder::tagOwners()
{
    State& s = *m_state;
    if (!s.session)
        return;
    std::vector<at::Tensor> params;
    if (s.nnModel)
        params = s.nnModel->parameters(true);
    else if (s.jitModel)
        for (const auto& p : s.jitModel->parameters(true))
            params.push_back(p);
    for (const auto& p : params) {
        s.label(p, "weight", kOwnerDetail1);
        s.label(p.grad(), "gradient", kOwnerDetail1);
    }
    if (!s.optimizer)
        return;
    for (const auto& [key, state] : s.optimizer->state()) {
        const auto* base = state.get();
        if (const auto* adam = dynamic_cast<const torch::optim::AdamParamState*>(base)) {
            for (const auto* t : { &adam->exp_avg(), &adam->exp_avg_sq(), &adam->max_exp_avg_sq() })
                s.label(*t, "optimizer_state", kOwnerDetail1);
        } else if (const auto* adamw = dynamic_cast<const torch::optim::AdamWParamState*>(base)) {
            for (const auto* t : { &adamw->exp_avg(), &adamw->exp_avg_sq(), &adamw->max_exp_avg_sq() })
                s.label(*t, "optimizer_state", kOwnerDetail1);
        } else if (const auto* sgd = dynamic_cast<const torch::optim::SGDParamState*>(base)) {
            s.label(sgd->momentum_buffer(), "optimizer_state", kOwnerDetail1);
        } else if (const auto* rms = dynamic_cast<const torch::optim::RMSpropParamState*>(base)) {
            for (const auto* t : { &rms->square_avg(), &rms->momentum_buffer(), &rms->grad_avg() })
                s.label(*t, "optimizer_state", kOwnerDetail1);
        } else if (const auto* ada = dynamic_cast<const torch::optim::AdagradParamState*>(base)) {
            s.label(ada->sum(), "optimizer_state", kOwnerDetail1);
        }
    }
}

void MemoryRecorder::flush()
{
    if (m_state->session && m_state->session->writer)
        m_state->session->writer->flush();
}

std::filesystem::path MemoryRecorder::csvPath() const
{
    return m_state->csv;
}

std::filesystem::path MemoryRecorder::watchCsvPath() const
{
    return m_state->watchCsv;
}

std::uint64_t MemoryRecorder::eventCount() const
{
    return m_state->session ? m_state->session->events.load() : 0;
}

MemoryOwnerScope::MemoryOwnerScope(const std::string& owner)
{
    if (userOwnerFull())
        return; // msMemScope keeps three user levels; deeper labels are dropped
    pushUserOwner(owner);
    m_pushed = true;
}

MemoryOwnerScope::~MemoryOwnerScope()
{
    if (m_pushed)
        popUserOwner();
}

MemoryOptimizerScope::MemoryOptimizerScope()
{
    enterOptimizerPhase();
}

MemoryOptimizerScope::~MemoryOptimizerScope()
{
    leaveOptimizerPhase();
}

} // namespace msprobe
