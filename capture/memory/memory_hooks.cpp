// SPDX-License-Identifier: Apache-2.0
// libtorch side of the memory capture: c10's memory reporter (every CPU allocation and free on threads that carry
// the recording thread's debug info) and one RecordFunction callback pair for the outermost operators, the
// backward phase and ACCESS rows. Memory events are attributed to the op open on their thread.
#include "capture/memory/memory_session.h"

#include "capture/memory/memory_watch.h"
#include "capture/recorder_impl.h"

#include <ATen/record_function.h>
#include <c10/core/Allocator.h>
#include <c10/core/CPUAllocator.h>
#include <c10/util/Exception.h>
#include <c10/util/ThreadLocalDebugInfo.h>

#include <cctype>
#include <cstring>
#include <ctime>
#include <unordered_set>

#include <sys/syscall.h>
#include <unistd.h>

namespace msprobe::capture::memory {

std::atomic<Session*> g_session { nullptr };

StringTable& strings()
{
    static auto* table = new StringTable(); // never destroyed: the atexit flush may still need it
    return *table;
}

std::int64_t nowNs()
{
    timespec ts {};
    clock_gettime(CLOCK_REALTIME, &ts);
    return static_cast<std::int64_t>(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

std::int32_t currentTid()
{
    thread_local const auto tid = static_cast<std::int32_t>(::syscall(SYS_gettid));
    return tid;
}

std::string opDisplayName(const std::string& name, const std::string& overload, bool compat)
{
    if (!compat)
        return overload.empty() ? name : name + "." + overload;
    const auto sep = name.find("::");
    const std::string ns = sep == std::string::npos ? std::string("aten") : name.substr(0, sep);
    const std::string op = sep == std::string::npos ? name : name.substr(sep + 2);
    return "torch._ops." + ns + "." + op + "." + (overload.empty() ? std::string("default") : overload);
}

namespace {

struct OpEntry {
    std::string schemaName; // checked on every hit: a recycled name address cannot alias another op
    bool isOp = false;
    std::uint32_t compatName = 0, nativeName = 0;
    std::vector<bool> writes; // per schema argument: the op writes it
    bool view = false; // returns an alias of an input without writing: no data touched
    bool uninitialisedOutput = false; // empty, empty_like, ...: outputs are not written
};

enum class Frame : std::uint8_t { Ignored, Nested, Backward, Outer };

struct ThreadState {
    std::vector<Frame> frames; // one per RecordFunction started on this thread while the callback was on
    int opDepth = 0, backwardDepth = 0, optimizerDepth = 0;
    std::uint32_t opName = 0, context = 0;
    const OpEntry* op = nullptr;
    std::vector<std::string> users;
    std::uint32_t userOwner = 0;
    std::unordered_map<const char*, OpEntry> ops;
    std::unordered_map<std::uint64_t, std::uint32_t> contexts; // (op name, innermost module) -> frames text
    bool inWatchedAllocation = false; // the failure-watching allocator reports this thread's CPU failures itself
};

thread_local ThreadState tl;
thread_local std::optional<c10::DebugInfoGuard> tl_reporterGuard;
std::optional<at::CallbackHandle> g_callback;

Phase currentPhase()
{
    if (tl.backwardDepth > 0)
        return Phase::Backward;
    return tl.optimizerDepth > 0 ? Phase::Optimizer : Phase::Forward;
}

Session* recordingSession()
{
    Session* s = g_session.load(std::memory_order_acquire);
    return s && s->recording.load(std::memory_order_relaxed) ? s : nullptr;
}

// An OOM_DETAIL/OOM_TRIGGER row (spec §5.3): emitted on the failing thread before the exception unwinds, so the
// blocks freed by the unwinding still count as live at the failure.
void emitOutOfMemory(std::int64_t requested, const char* func, std::int64_t used, std::int64_t reserved)
{
    Session* s = recordingSession();
    if (!s)
        return;
    Event e;
    e.kind = EventKind::OomTrigger;
    e.size = requested;
    e.used = used;
    e.reserved = reserved;
    e.name = tl.opName;
    e.context = tl.context;
    e.extra = strings().intern(func);
    s->emit(e);
}

// A pass-through CPU allocator over libtorch's own (§5.3's wrapper allocator, used only to see failures), so a
// failed CPU allocation is reported whether or not this libtorch build tells the memory reporter about it.
struct FailureWatchingAllocator final : c10::Allocator {
    c10::Allocator* inner = nullptr;
    c10::DataPtr allocate(std::size_t bytes) const override
    {
        // libtorch's CPU allocator also tells the memory reporter when profiling is on; one row per failure.
        struct Watching {
            Watching() { tl.inWatchedAllocation = true; }
            ~Watching() { tl.inWatchedAllocation = false; }
        };
        try {
            Watching watching;
            return inner->allocate(bytes);
        } catch (const c10::Error&) {
            emitOutOfMemory(static_cast<std::int64_t>(bytes), "DefaultCPUAllocator", -1, -1);
            throw;
        }
    }
    c10::DeleterFnPtr raw_deleter() const override { return inner->raw_deleter(); }
};

void installFailureWatchingAllocator()
{
    static FailureWatchingAllocator wrapper;
    static std::once_flag once;
    std::call_once(once, [] {
        wrapper.inner = c10::GetCPUAllocator();
        c10::SetCPUAllocator(&wrapper, 1); // the default is registered at priority 0; it stays, passed through
    });
}

struct Reporter final : c10::MemoryReportingInfoBase {
    void reportOutOfMemory(std::int64_t requested, std::int64_t totalAllocated, std::int64_t totalReserved, c10::Device) override
    {
        if (tl.inWatchedAllocation)
            return;
        emitOutOfMemory(requested, "reportOutOfMemory", totalAllocated, totalReserved);
    }
    void reportMemoryUsage(void* ptr, std::int64_t size, std::int64_t totalAllocated, std::int64_t totalReserved,
        c10::Device) override
    {
        Session* s = recordingSession();
        if (!s || size == 0)
            return;
        Event e;
        e.kind = size > 0 ? EventKind::Malloc : EventKind::Free;
        e.ptr = reinterpret_cast<std::uintptr_t>(ptr);
        e.size = size > 0 ? size : -size;
        e.used = totalAllocated;
        e.reserved = totalReserved;
        e.name = tl.opName;
        e.context = tl.context;
        s->emit(e);
    }
    bool memoryProfilingEnabled() const override { return recordingSession() != nullptr; }
};

const OpEntry* opEntryOf(const at::RecordFunction& fn)
{
    const char* name = fn.name();
    auto it = tl.ops.find(name);
    if (it != tl.ops.end() && it->second.schemaName == name)
        return &it->second;
    const auto op = fn.operator_name();
    if (!op)
        return nullptr; // not cached: such names live in the RecordFunction, their address is not the op's
    OpEntry entry;
    entry.schemaName = name;
    entry.isOp = op->name.rfind("prim::", 0) != 0 && op->name.rfind("msprobe::", 0) != 0;
    entry.compatName = strings().intern(opDisplayName(op->name, op->overload_name, true));
    entry.nativeName = strings().intern(opDisplayName(op->name, op->overload_name, false));
    if (const auto schema = fn.operator_schema()) {
        for (const auto& arg : schema->arguments())
            entry.writes.push_back(arg.alias_info() && arg.alias_info()->isWrite());
        const auto& returns = schema->returns();
        entry.view = !returns.empty() && returns[0].alias_info() && !returns[0].alias_info()->isWrite();
    }
    static const std::unordered_set<std::string> uninitialised { "aten::empty", "aten::empty_like",
        "aten::empty_strided", "aten::new_empty", "aten::new_empty_strided", "aten::resize_" };
    entry.uninitialisedOutput = uninitialised.count(op->name) != 0;
    return &(tl.ops.insert_or_assign(name, std::move(entry)).first->second);
}

// "<op>(0): name" then the open modules, innermost first: what Call Stack(Python) shows for C++ programs.
std::uint32_t contextOf(const Session& s, std::uint32_t opName)
{
    const capture::ModuleInfo* inner = nullptr;
    if (s.modules && !capture::detail::tl_modules.empty())
        inner = capture::detail::tl_modules.back().info;
    const std::uint64_t key = (static_cast<std::uint64_t>(opName) << 32)
        ^ static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(inner));
    if (auto it = tl.contexts.find(key); it != tl.contexts.end())
        return it->second;
    std::string text = "<op>(0): " + strings().get(opName);
    if (inner) {
        const auto& open = capture::detail::tl_modules;
        int depth = 1;
        for (auto it = open.rbegin(); it != open.rend(); ++it)
            text += "\n<module>(" + std::to_string(depth++) + "): " + it->info->prefix;
    }
    const auto id = strings().intern(text);
    tl.contexts.emplace(key, id);
    return id;
}

std::string dtypeName(c10::ScalarType type)
{
    switch (type) {
    case c10::ScalarType::Float: return "torch.float32";
    case c10::ScalarType::Double: return "torch.float64";
    case c10::ScalarType::Half: return "torch.float16";
    case c10::ScalarType::BFloat16: return "torch.bfloat16";
    case c10::ScalarType::Long: return "torch.int64";
    case c10::ScalarType::Int: return "torch.int32";
    case c10::ScalarType::Short: return "torch.int16";
    case c10::ScalarType::Char: return "torch.int8";
    case c10::ScalarType::Byte: return "torch.uint8";
    case c10::ScalarType::Bool: return "torch.bool";
    default: {
        std::string name = c10::toString(type);
        for (auto& c : name)
            c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        return "torch." + name;
    }
    }
}

void accessTensor(Session& s, const at::Tensor& t, bool write, std::uint32_t opName)
{
    if (!t.defined() || !t.has_storage() || t.is_sparse())
        return;
    const void* base = t.storage().data();
    if (!base)
        return;
    Event e;
    e.kind = EventKind::Access;
    e.sub = write ? 1 : 0;
    e.name = opName;
    e.ptr = reinterpret_cast<std::uintptr_t>(t.data_ptr());
    e.base = reinterpret_cast<std::uintptr_t>(base);
    e.size = static_cast<std::int64_t>(t.numel()) * static_cast<std::int64_t>(t.itemsize());
    e.dtype = strings().intern(dtypeName(t.scalar_type()));
    std::string shape = "torch.Size([";
    for (std::size_t i = 0; i < t.sizes().size(); ++i)
        shape += (i ? ", " : "") + std::to_string(t.sizes()[i]);
    e.shape = strings().intern(shape + "])");
    s.emit(e);
}

void accessValue(Session& s, const c10::IValue& v, bool write, std::uint32_t opName)
{
    if (v.isTensor())
        accessTensor(s, v.toTensor(), write, opName);
    else if (v.isTensorList())
        for (const at::Tensor& t : v.toTensorList().vec())
            accessTensor(s, t, write, opName);
}

std::unique_ptr<at::ObserverContext> onStart(const at::RecordFunction& fn)
{
    Session* s = recordingSession();
    if (!s) {
        tl.frames.push_back(Frame::Ignored);
        return nullptr;
    }
    if (tl.opDepth > 0) { // inside an outermost op: its allocations are the outer op's
        ++tl.opDepth;
        tl.frames.push_back(Frame::Nested);
        return nullptr;
    }
    const OpEntry* op = opEntryOf(fn);
    if (!op || !op->isOp) {
        if (!op && std::strncmp(fn.name(), "autograd::engine::evaluate_function", 35) == 0) {
            ++tl.backwardDepth;
            tl.frames.push_back(Frame::Backward);
            // The capture Recorder (module scopes) switches RecordFunction off inside backward nodes; its
            // callback ignores what it then sees (it counts itself suppressed), ours needs the ops.
            if (s->modules && !at::isRecordFunctionEnabled())
                at::enableRecordFunction(true);
        } else {
            tl.frames.push_back(Frame::Ignored);
        }
        return nullptr;
    }
    tl.frames.push_back(Frame::Outer);
    tl.opDepth = 1;
    tl.op = op;
    tl.opName = s->compat ? op->compatName : op->nativeName;
    tl.context = contextOf(*s, tl.opName);
    Event e;
    e.kind = EventKind::OpStart;
    e.name = tl.opName;
    s->emit(e);
    if (s->access && !op->view) {
        const auto inputs = fn.inputs();
        for (std::size_t i = 0; i < inputs.size(); ++i)
            accessValue(*s, inputs[i], i < op->writes.size() && op->writes[i], tl.opName);
    }
    if (s->watch)
        watchOpStart(*s, tl.opName);
    return nullptr;
}

void onEnd(const at::RecordFunction& fn, at::ObserverContext*)
{
    if (tl.frames.empty())
        return; // started before the callback was installed
    const Frame frame = tl.frames.back();
    tl.frames.pop_back();
    switch (frame) {
    case Frame::Ignored: return;
    case Frame::Nested: --tl.opDepth; return;
    case Frame::Backward: --tl.backwardDepth; return;
    case Frame::Outer: break;
    }
    const std::uint32_t opName = tl.opName;
    const OpEntry* op = tl.op;
    tl.opDepth = 0;
    tl.opName = tl.context = 0;
    tl.op = nullptr;
    Session* s = recordingSession();
    if (!s)
        return;
    if (s->access && op && !op->view && !op->uninitialisedOutput)
        for (const auto& out : fn.outputs())
            accessValue(*s, out, true, opName);
    Event e;
    e.kind = EventKind::OpEnd;
    e.name = opName;
    s->emit(e);
    if (s->watch)
        watchOpEnd(*s, opName, fn.outputs());
}

} // namespace

void Session::emit(Event& e)
{
    e.id = nextId.fetch_add(1, std::memory_order_relaxed);
    e.tsNs = nowNs();
    e.tid = currentTid();
    e.step = step.load(std::memory_order_relaxed);
    e.phase = currentPhase();
    e.userOwner = tl.userOwner;
    events.fetch_add(1, std::memory_order_relaxed);
    writer->queue().push(e);
}

void installHooks()
{
    Session* s = g_session.load();
    const bool needsValues = s && (s->access || s->watch);
    auto callback = at::RecordFunctionCallback(&onStart, &onEnd)
                        .needsInputs(needsValues)
                        .needsOutputs(needsValues)
                        .scopes({ at::RecordScope::FUNCTION });
    g_callback = at::addGlobalCallback(callback);
    installFailureWatchingAllocator();
    if (!tl_reporterGuard)
        tl_reporterGuard.emplace(c10::DebugInfoKind::PROFILER_STATE, std::make_shared<Reporter>());
}

void uninstallHooks()
{
    if (g_callback) {
        at::removeCallback(*g_callback);
        g_callback.reset();
    }
    tl_reporterGuard.reset();
}

namespace {

void refreshUserOwner()
{
    std::string joined;
    for (const auto& label : tl.users)
        joined += (joined.empty() ? "" : "@") + label;
    tl.userOwner = strings().intern(joined);
}

} // namespace

void pushUserOwner(const std::string& owner)
{
    tl.users.push_back(owner);
    refreshUserOwner();
}

bool userOwnerFull()
{
    return tl.users.size() >= 3;
}

void popUserOwner()
{
    if (!tl.users.empty())
        tl.users.pop_back();
    refreshUserOwner();
}

void enterOptimizerPhase()
{
    ++tl.optimizerDepth;
}

void leaveOptimizerPhase()
{
    if (tl.optimizerDepth > 0)
        --tl.optimizerDepth;
}

} // namespace msprobe::capture::memory
