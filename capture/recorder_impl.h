// SPDX-License-Identifier: Apache-2.0
#pragma once

// The recorder's own state and the types its callbacks share: included only by recorder*.cpp (the public face
// is recorder.h). recorder.cpp holds the Recorder calls, recorder_ops.cpp the RecordFunction callbacks for
// operators, recorder_modules.cpp module calls and their backward.

#include "capture/recorder.h"

#include "capture/leaf_builder.h"
#include "capture/stack_trace.h"

#include <ATen/ATen.h>
#include <ATen/SequenceNumber.h>
#include <ATen/core/dispatch/Dispatcher.h>
#include <ATen/record_function.h>
#include <c10/core/GradMode.h>
#include <c10/util/SmallVector.h>
#include <torch/csrc/autograd/engine.h>
#include <torch/csrc/autograd/function.h>
#include <torch/csrc/autograd/function_hook.h>
#include <torch/csrc/autograd/variable.h>

#include <algorithm>
#include <charconv>
#include <cstring>
#include <mutex>
#include <optional>
#include <unordered_map>
#include <unordered_set>

namespace msprobe::capture {

// Names used by the recorder*.cpp files only.
namespace detail {

using torch::autograd::Edge;
using torch::autograd::Node;
using torch::autograd::variable_list;

// Out: std::vector<at::Tensor> or a c10::SmallVector (the per-op calls: no allocation for a few tensors).
template <class Out>
void flattenTensors(const c10::IValue& v, Out& out)
{
    if (v.isTensor()) {
        out.push_back(v.toTensor());
    } else if (v.isTuple()) {
        for (const auto& item : v.toTupleRef().elements())
            flattenTensors(item, out);
    } else if (v.isList()) {
        for (const auto& item : v.toListRef())
            flattenTensors(item, out);
    } else if (v.isGenericDict()) {
        for (const auto& item : v.toGenericDict())
            flattenTensors(item.value(), out);
    }
}

inline std::vector<at::Tensor> flattenTensors(c10::ArrayRef<c10::IValue> values)
{
    std::vector<at::Tensor> out;
    for (const auto& v : values)
        flattenTensors(v, out);
    return out;
}

// "{entry}.{category}.{index}", the stem of a tensor file name; empty when no file is written (the common
// case: building it for every tensor would be wasted work).
inline std::string fileStem(bool save, const std::string& entry, const char* category, std::size_t index)
{
    return save ? entry + "." + category + "." + std::to_string(index) : std::string();
}

inline std::string backwardOfModule(const std::string& forwardName)
{
    // "Module.x.C.forward.3" -> "Module.x.C.backward.3"
    const auto pos = forwardName.rfind(".forward.");
    if (pos == std::string::npos)
        return forwardName;
    std::string out; // one allocation (this runs for every captured call)
    out.reserve(forwardName.size() + 1);
    out.append(forwardName, 0, pos).append(".backward.").append(forwardName, pos + 9);
    return out;
}

struct OpInfo;

struct BackwardCall {
    std::uint64_t generation = 0;
    std::string name; // backward entry name
    std::optional<std::string> parent; // backward parent (construct.json)
    ModuleInfo* module = nullptr; // module calls only
    std::int64_t call = 0;
    bool dump = false; // write a dump entry
    bool observe = false; // tell the observers
    bool saveFiles = false;
    std::vector<std::pair<const Node*, std::uint32_t>> outSlots; // per forward output tensor
    // Per forward output that is a reshaped view of a whole base made inside the call (a Linear's 3-d output):
    // the base's node and slot, and the output's shape. A caller's in-place change of the view rewrites the base's
    // history, so the view's own node never runs; the output's gradient is then read where it reaches the base.
    std::vector<std::pair<const Node*, std::uint32_t>> baseSlots;
    std::vector<std::vector<std::int64_t>> outShapes;
    OpInfo* op = nullptr; // the operator of an API call (nullptr: a module call)
    std::vector<Edge> inEdges; // per forward input tensor
    std::vector<at::Tensor> gradIn, gradOut;
    std::size_t pending = 0;
    std::size_t fired = 0;
    bool emitted = false;
};

struct OpenModule {
    ModuleInfo* info = nullptr;
    const void* key = nullptr;
    bool synthetic = false;
    bool script = false;
    std::string forwardName;
    std::int64_t call = 0;
    std::optional<std::string> parent;
    std::vector<c10::IValue> inputs;
    std::vector<at::Tensor> inputTensors;
    std::vector<Edge> inEdges;
    std::uint64_t seqBegin = 0;
    bool dump = false; // passes the filters
    bool mixList = false;
    Value inputValue;
    std::vector<std::uintptr_t> pcs;
    std::vector<std::string> scriptFrames;
    std::unordered_set<const c10::TensorImpl*> produced; // synthetic: tensors made inside the group
    std::unordered_set<const c10::TensorImpl*> paramDerived; // synthetic: made from the owner's parameters only
    std::vector<c10::IValue> outputs; // synthetic: last op's outputs; script: tapped outputs
};

inline thread_local std::vector<OpenModule> tl_modules;

struct SchemaInfo {
    std::vector<std::pair<bool, std::string>> args; // kwarg_only, name
};

// What the callbacks need of one operator overload, resolved on its first call (operator_name() copies strings,
// the schema lookup hashes them: too slow for every call).
struct OpInfo {
    enum class Kind : std::uint8_t { Api, Ignored, ModuleTap };
    std::string schemaName; // "aten::add": checked on every hit, so a recycled address cannot alias another op
    Kind kind = Kind::Ignored;
    c10::OperatorName op { "", "" };
    std::string apiName; // "Aten.add"
    std::int64_t* counter = nullptr; // shared by the overloads of one API name (counts per step)
    std::optional<SchemaInfo> schema; // looked up when inputs are first dumped
    // Seen calling other ops from inside: its interior is then hidden by switching RecordFunction off (the other
    // ops never enter the callback machinery). Ops without interior calls only raise tl_suppressed, which saves the
    // switch: at::enableRecordFunction rebuilds the thread's callback lists each way (~600 cycles).
    bool callsOtherOps = false;
    // riskAllows of this API under the config of dump riskEpoch (a set lookup by string, 4 times per call).
    std::uint64_t riskEpoch = 0;
    bool riskAllowed = true;
};

// > 0 while this thread is inside an op or autograd node being captured, or inside a hook of ours: the callbacks
// ignore what runs there (outermost ops only).
inline thread_local int tl_suppressed = 0;
// The op whose interior is being hidden by tl_suppressed alone (nullptr: none, or not an op).
inline thread_local OpInfo* tl_hiddenOp = nullptr;

// For the capture's own work (hooks): what it runs is not the model's.
struct SuppressCapture {
    SuppressCapture()
        : prevHiddenOp(tl_hiddenOp)
    {
        ++tl_suppressed;
        tl_hiddenOp = nullptr;
    }
    ~SuppressCapture()
    {
        --tl_suppressed;
        tl_hiddenOp = prevHiddenOp;
    }
    OpInfo* prevHiddenOp;
    SuppressCapture(const SuppressCapture&) = delete;
    SuppressCapture& operator=(const SuppressCapture&) = delete;
};

struct OpCtx : at::ObserverContext {
    enum class Kind { Op, TrackOnly, Boundary, ScriptModule } kind = Kind::Op;
    // Interior hiding (hideInterior/showInterior).
    bool hiding = false;
    bool recordSwitchedOff = false;
    bool prevRecordEnabled = true;
    OpInfo* prevHiddenOp = nullptr;
    const void* moduleKey = nullptr;
    OpInfo* info = nullptr;
    std::string name;
    std::optional<std::string> parent;
    bool dumpIn = false;
    Value inputArgs, inputKwargs;
    std::uint64_t seqBegin = 0;
    std::vector<Edge> inEdges;
    bool wantBackward = false;
    bool paramOnlyInputs = false; // every tensor input is a parameter of the open synthetic module (or made from them)
    std::vector<std::uintptr_t> pcs;
    std::vector<std::string> scriptFrames;
};

// Until showInterior, the callbacks ignore the ops run inside the current op or autograd node. info: the op (its
// interior calls are recorded there), nullptr for an autograd node, whose interior is always switched off.
inline void hideInterior(OpCtx& ctx, OpInfo* info)
{
    ctx.hiding = true;
    ++tl_suppressed;
    ctx.prevHiddenOp = tl_hiddenOp;
    tl_hiddenOp = info;
    if (!info || std::atomic_ref(info->callsOtherOps).load(std::memory_order_relaxed)) {
        ctx.prevRecordEnabled = at::isRecordFunctionEnabled();
        at::enableRecordFunction(false);
        ctx.recordSwitchedOff = true;
    }
}

inline void showInterior(OpCtx& ctx)
{
    if (!ctx.hiding)
        return;
    ctx.hiding = false;
    --tl_suppressed;
    tl_hiddenOp = ctx.prevHiddenOp;
    if (ctx.recordSwitchedOff) {
        ctx.recordSwitchedOff = false;
        at::enableRecordFunction(ctx.prevRecordEnabled);
    }
}

} // namespace detail

struct Recorder::Impl {
    std::recursive_mutex mutex;

    std::vector<std::unique_ptr<ModuleInfo>> modules;
    std::unordered_map<const void*, ModuleInfo*> moduleByKey;
    std::unordered_map<const c10::TensorImpl*, std::pair<ModuleInfo*, std::string>> paramOwner;
    std::vector<std::string> (*scriptStacks)() = nullptr;
    const void* registeredModel = nullptr;
    int modelUsers = 0;

    const DumpConfig* cfg = nullptr;
    std::uint64_t dumpEpoch = 0; // counts beginDump calls: what was derived from an earlier cfg is stale
    DumpWriter* writer = nullptr;
    std::unique_ptr<LeafBuilder> leaves;
    bool dumping = false;
    std::vector<ModuleObserver*> observers;

    std::unordered_map<std::string, std::int64_t> moduleCounter;
    // Per-step call counters by API name ("Aten.add"); node-based so that OpInfo::counter stays valid.
    std::unordered_map<std::string, std::int64_t> apiCounter;
    // Operators by the address of their schema's name (what RecordFunction::name() returns for an op).
    std::unordered_map<const char*, detail::OpInfo> opInfos;
    std::atomic<std::uint64_t> generation { 1 };

    bool registered = false;
    at::CallbackHandle handle = 0;
    std::atomic<bool> enabled { false };

    bool apiRangeOpen = false, moduleRangeOpen = false;
    int mixListDepth = 0;

    std::vector<std::pair<at::Tensor, unsigned>> paramHooks;
    struct ParamGradState {
        std::size_t entry = 0;
        std::int64_t k = -1;
        std::unordered_set<std::string> seen;
    };
    std::unordered_map<ModuleInfo*, ParamGradState> paramGrad;

    std::vector<std::weak_ptr<detail::BackwardCall>> pendingCalls;
    std::atomic<bool> endCallbackQueued { false };

    // --- helpers -------------------------------------------------------------------------------------------
    bool active() const { return dumping || !observers.empty(); }
    bool wantsBackwardDump() const { return dumping && cfg->dataMode.backward && cfg->task != Task::Structure; }

    void updateEnabled()
    {
        const bool on = active();
        if (on && !registered) {
            auto cb = at::RecordFunctionCallback(&onStart, &onEnd)
                          .needsInputs(true)
                          .needsOutputs(true)
                          .scopes({ at::RecordScope::FUNCTION, at::RecordScope::TORCHSCRIPT_FUNCTION });
            handle = at::addGlobalCallback(cb);
            registered = true;
        } else if (registered && on != enabled.load()) {
            if (on)
                at::reenableCallback(handle);
            else
                at::disableCallback(handle);
        }
        enabled = on;
        g_moduleHooksActive = on;
    }

    std::optional<std::string> currentParent() const
    {
        for (auto it = detail::tl_modules.rbegin(); it != detail::tl_modules.rend(); ++it)
            if (!it->info->isRoot)
                return it->forwardName;
        return std::nullopt;
    }

    bool listMatch(const std::string& name) const
    {
        for (const auto& item : cfg->list)
            if (name.find(item) != std::string::npos)
                return true;
        return false;
    }

    bool scopeIsModules() const { return !cfg->scope.empty() && cfg->scope[0].rfind("Module.", 0) == 0; }

    // Whether an entry passes scope/list (spec 1.13 "Filtering semantics"); advances the API range.
    // op: the operator of an API entry (its risk level is looked up once per dump).
    bool passes(const std::string& name, bool isModule, detail::OpInfo* op = nullptr)
    {
        if (cfg->list.empty() && cfg->scope.empty())
            return isModule || (op ? riskAllows(*op) : cfg->riskAllows(name));
        if (mixListDepth > 0 || listMatch(name))
            return true;
        if (cfg->scope.empty())
            return false;
        if (scopeIsModules())
            return moduleRangeOpen;
        if (isModule)
            return false;
        if (name == cfg->scope[0])
            apiRangeOpen = true;
        const bool result = apiRangeOpen;
        if (name == cfg->scope[1])
            apiRangeOpen = false;
        return result;
    }

    bool riskAllows(detail::OpInfo& op)
    {
        if (op.riskEpoch != dumpEpoch) {
            op.riskAllowed = cfg->riskAllows(op.apiName + ".0.forward");
            op.riskEpoch = dumpEpoch;
        }
        return op.riskAllowed;
    }

    bool saveFilesFor(const std::string& name) const
    {
        if (cfg->task == Task::Tensor)
            return true;
        for (const auto& item : cfg->tensorList)
            if (name.find(item) != std::string::npos)
                return true;
        return false;
    }

    const detail::SchemaInfo& schemaOf(detail::OpInfo& info)
    {
        if (!info.schema) {
            info.schema.emplace();
            if (auto handle = c10::Dispatcher::singleton().findSchema(info.op)) {
                for (const auto& arg : handle->schema().arguments())
                    info.schema->args.emplace_back(arg.kwarg_only(), arg.name());
            }
        }
        return *info.schema;
    }

    // The operator of an op's RecordFunction, nullptr when it is no op (autograd nodes, user ranges).
    detail::OpInfo* opInfoOf(const at::RecordFunction& fn)
    {
        const char* name = fn.name();
        auto it = opInfos.find(name);
        if (it != opInfos.end() && std::strcmp(it->second.schemaName.c_str(), name) == 0)
            return &it->second;
        const auto op = fn.operator_name();
        if (!op)
            return nullptr; // not cached: such names live in the RecordFunction, their address is not the op's
        detail::OpInfo info;
        info.schemaName = name;
        info.op = *op;
        if (op->name == "msprobe::module_tap") {
            info.kind = detail::OpInfo::Kind::ModuleTap;
        } else if (op->name.compare(0, 6, "prim::") != 0) {
            info.kind = detail::OpInfo::Kind::Api;
            const auto sep = op->name.find("::");
            info.apiName = "Aten." + (sep == std::string::npos ? op->name : op->name.substr(sep + 2));
            info.counter = &apiCounter[info.apiName];
        }
        return &(opInfos.insert_or_assign(name, std::move(info)).first->second);
    }

    // --- backward ------------------------------------------------------------------------------------------
    void attachBackward(const std::shared_ptr<detail::BackwardCall>& call, const std::vector<at::Tensor>& outputs,
        std::uint64_t seqBegin, std::uint64_t seqEnd);
    void emitBackward(detail::BackwardCall& call);
    void onBackwardEnd();
    void queueEndCallback()
    {
        if (endCallbackQueued.exchange(true))
            return;
        torch::autograd::Engine::get_default_engine().queue_callback([this] {
            endCallbackQueued = false;
            onBackwardEnd();
        });
    }

    // --- modules -------------------------------------------------------------------------------------------
    bool enterModule(ModuleInfo* info, const void* key, c10::ArrayRef<c10::IValue> inputs, bool synthetic, bool script);
    void finishModule(detail::OpenModule& open, const std::vector<c10::IValue>& outputs);
    void closeSynthetic()
    {
        if (!detail::tl_modules.empty() && detail::tl_modules.back().synthetic) {
            detail::OpenModule open = std::move(detail::tl_modules.back());
            detail::tl_modules.pop_back();
            finishModule(open, open.outputs);
        }
    }
    bool trackParameterOwner(c10::ArrayRef<const c10::IValue> inputs);

    // --- ops -----------------------------------------------------------------------------------------------
    std::unique_ptr<at::ObserverContext> opStart(const at::RecordFunction& fn, detail::OpInfo& info);
    void opEnd(const at::RecordFunction& fn, detail::OpCtx& ctx);
    void onParamGrad(ModuleInfo* module, const std::string& param, const at::Tensor& grad, std::uint64_t gen);

    static std::unique_ptr<at::ObserverContext> onStart(const at::RecordFunction& fn);
    static void onEnd(const at::RecordFunction& fn, at::ObserverContext* ctx);
};


// The recorder the static RecordFunction callbacks and autograd hooks reach.
inline Recorder::Impl* g_impl = nullptr;

} // namespace msprobe::capture
