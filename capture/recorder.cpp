// SPDX-License-Identifier: Apache-2.0
#include "capture/recorder.h"

#include "capture/leaf_builder.h"
#include "capture/stack_trace.h"

#include <ATen/ATen.h>
#include <ATen/SequenceNumber.h>
#include <ATen/core/dispatch/Dispatcher.h>
#include <ATen/record_function.h>
#include <c10/core/GradMode.h>
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

std::atomic<bool> g_moduleHooksActive { false };

namespace {

using torch::autograd::Edge;
using torch::autograd::Node;
using torch::autograd::variable_list;

void flattenTensors(const c10::IValue& v, std::vector<at::Tensor>& out)
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

std::vector<at::Tensor> flattenTensors(c10::ArrayRef<c10::IValue> values)
{
    std::vector<at::Tensor> out;
    for (const auto& v : values)
        flattenTensors(v, out);
    return out;
}

// "{entry}.{category}.{index}", the stem of a tensor file name; empty when no file is written (the common
// case: building it for every tensor would be wasted work).
std::string fileStem(bool save, const std::string& entry, const char* category, std::size_t index)
{
    return save ? entry + "." + category + "." + std::to_string(index) : std::string();
}

std::string backwardOfModule(const std::string& forwardName)
{
    // "Module.x.C.forward.3" -> "Module.x.C.backward.3"
    const auto pos = forwardName.rfind(".forward.");
    if (pos == std::string::npos)
        return forwardName;
    return forwardName.substr(0, pos) + ".backward." + forwardName.substr(pos + 9);
}

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

thread_local std::vector<OpenModule> tl_modules;

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
};

// > 0 while this thread is inside an op or autograd node being captured, or inside a hook of ours: the callbacks
// ignore what runs there (outermost ops only).
thread_local int tl_suppressed = 0;
// The op whose interior is being hidden by tl_suppressed alone (nullptr: none, or not an op).
thread_local OpInfo* tl_hiddenOp = nullptr;

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
void hideInterior(OpCtx& ctx, OpInfo* info)
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

void showInterior(OpCtx& ctx)
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

} // namespace

struct Recorder::Impl {
    std::recursive_mutex mutex;

    std::vector<std::unique_ptr<ModuleInfo>> modules;
    std::unordered_map<const void*, ModuleInfo*> moduleByKey;
    std::unordered_map<const c10::TensorImpl*, std::pair<ModuleInfo*, std::string>> paramOwner;
    std::vector<std::string> (*scriptStacks)() = nullptr;
    const void* registeredModel = nullptr;
    int modelUsers = 0;

    const DumpConfig* cfg = nullptr;
    DumpWriter* writer = nullptr;
    std::unique_ptr<LeafBuilder> leaves;
    bool dumping = false;
    std::vector<ModuleObserver*> observers;

    std::unordered_map<std::string, std::int64_t> moduleCounter;
    // Per-step call counters by API name ("Aten.add"); node-based so that OpInfo::counter stays valid.
    std::unordered_map<std::string, std::int64_t> apiCounter;
    // Operators by the address of their schema's name (what RecordFunction::name() returns for an op).
    std::unordered_map<const char*, OpInfo> opInfos;
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

    std::vector<std::weak_ptr<BackwardCall>> pendingCalls;
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
        for (auto it = tl_modules.rbegin(); it != tl_modules.rend(); ++it)
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
    bool passes(const std::string& name, bool isModule)
    {
        if (cfg->list.empty() && cfg->scope.empty())
            return isModule || cfg->riskAllows(name);
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

    bool saveFilesFor(const std::string& name) const
    {
        if (cfg->task == Task::Tensor)
            return true;
        for (const auto& item : cfg->tensorList)
            if (name.find(item) != std::string::npos)
                return true;
        return false;
    }

    const SchemaInfo& schemaOf(OpInfo& info)
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
    OpInfo* opInfoOf(const at::RecordFunction& fn)
    {
        const char* name = fn.name();
        auto it = opInfos.find(name);
        if (it != opInfos.end() && it->second.schemaName == name)
            return &it->second;
        const auto op = fn.operator_name();
        if (!op)
            return nullptr; // not cached: such names live in the RecordFunction, their address is not the op's
        OpInfo info;
        info.schemaName = name;
        info.op = *op;
        if (op->name == "msprobe::module_tap") {
            info.kind = OpInfo::Kind::ModuleTap;
        } else if (op->name.compare(0, 6, "prim::") != 0) {
            info.kind = OpInfo::Kind::Api;
            const auto sep = op->name.find("::");
            info.apiName = "Aten." + (sep == std::string::npos ? op->name : op->name.substr(sep + 2));
            info.counter = &apiCounter[info.apiName];
        }
        return &(opInfos.insert_or_assign(name, std::move(info)).first->second);
    }

    // --- backward ------------------------------------------------------------------------------------------
    void attachBackward(const std::shared_ptr<BackwardCall>& call, const std::vector<at::Tensor>& outputs,
        std::uint64_t seqBegin, std::uint64_t seqEnd);
    void emitBackward(BackwardCall& call);
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
    void finishModule(OpenModule& open, const std::vector<c10::IValue>& outputs);
    void closeSynthetic()
    {
        if (!tl_modules.empty() && tl_modules.back().synthetic) {
            OpenModule open = std::move(tl_modules.back());
            tl_modules.pop_back();
            finishModule(open, open.outputs);
        }
    }
    bool trackParameterOwner(c10::ArrayRef<const c10::IValue> inputs);

    // --- ops -----------------------------------------------------------------------------------------------
    std::unique_ptr<at::ObserverContext> opStart(const at::RecordFunction& fn, OpInfo& info);
    void opEnd(const at::RecordFunction& fn, OpCtx& ctx);
    void onParamGrad(ModuleInfo* module, const std::string& param, const at::Tensor& grad, std::uint64_t gen);

    static std::unique_ptr<at::ObserverContext> onStart(const at::RecordFunction& fn);
    static void onEnd(const at::RecordFunction& fn, at::ObserverContext* ctx);
};

namespace {

Recorder::Impl* g_impl = nullptr;

c10::ArrayRef<const c10::IValue> trimmedInputs(const at::RecordFunction& fn)
{
    auto in = fn.inputs();
    const std::size_t n = fn.num_inputs();
    return n < in.size() ? in.slice(in.size() - n) : in;
}

c10::ArrayRef<c10::IValue> trimmedOutputs(const at::RecordFunction& fn)
{
    const c10::ArrayRef<c10::IValue> out = fn.outputs();
    const std::size_t n = fn.num_outputs();
    return n < out.size() ? out.slice(out.size() - n) : out;
}

struct CallHook : torch::autograd::FunctionPostHook {
    CallHook(std::shared_ptr<BackwardCall> c, Node* n)
        : call(std::move(c))
        , self(n)
    {
    }
    variable_list operator()(const variable_list& outputs, const variable_list& inputs) override
    {
        Recorder::Impl* impl = g_impl;
        if (!impl || call->generation != impl->generation.load() || call->emitted)
            return outputs;
        std::lock_guard lock(impl->mutex);
        at::NoGradGuard noGrad;
        SuppressCapture noRecord;
        for (std::size_t i = 0; i < call->outSlots.size(); ++i)
            if (call->outSlots[i].first == self && call->outSlots[i].second < inputs.size())
                call->gradIn[i] = inputs[call->outSlots[i].second];
        for (std::uint32_t j = 0; j < self->num_outputs() && j < outputs.size(); ++j) {
            const Edge& e = self->next_edge(j);
            if (!e.is_valid() || !outputs[j].defined())
                continue;
            for (std::size_t k = 0; k < call->inEdges.size(); ++k) {
                const Edge& in = call->inEdges[k];
                if (in.is_valid() && in.function == e.function && in.input_nr == e.input_nr)
                    call->gradOut[k] = call->gradOut[k].defined() ? call->gradOut[k] + outputs[j] : outputs[j];
            }
        }
        ++call->fired;
        impl->queueEndCallback();
        if (--call->pending == 0)
            impl->emitBackward(*call);
        return outputs;
    }
    std::shared_ptr<BackwardCall> call;
    Node* self;
};

} // namespace

void Recorder::Impl::attachBackward(const std::shared_ptr<BackwardCall>& call, const std::vector<at::Tensor>& outputs,
    std::uint64_t seqBegin, std::uint64_t seqEnd)
{
    if (seqEnd <= seqBegin)
        return;
    const std::uint64_t thread = at::RecordFunction::currentThreadId();
    std::vector<Node*> nodes, stack;
    std::unordered_set<Node*> seen;
    auto consider = [&](Node* n) {
        if (n && n->sequence_nr() >= seqBegin && n->sequence_nr() < seqEnd && n->thread_id() == thread
            && seen.insert(n).second) {
            nodes.push_back(n);
            stack.push_back(n);
        }
    };
    for (const auto& t : outputs) {
        Node* fn = t.defined() && t.requires_grad() ? t.grad_fn().get() : nullptr;
        call->outSlots.emplace_back(fn, fn ? static_cast<std::uint32_t>(t.output_nr()) : 0u);
        consider(fn);
    }
    while (!stack.empty()) {
        Node* n = stack.back();
        stack.pop_back();
        for (const auto& e : n->next_edges())
            consider(e.function.get());
    }
    if (nodes.empty())
        return;
    call->gradIn.resize(call->outSlots.size());
    call->gradOut.resize(call->inEdges.size());
    call->pending = nodes.size();
    call->generation = generation.load();
    for (Node* n : nodes)
        n->add_post_hook(std::make_unique<CallHook>(call, n));
    pendingCalls.push_back(call);
}

void Recorder::Impl::emitBackward(BackwardCall& call)
{
    if (call.emitted)
        return;
    call.emitted = true;
    if (call.observe && call.module)
        for (auto* o : observers)
            o->moduleBackward(*call.module, call.call, call.gradIn, call.gradOut);
    if (!call.dump || !dumping)
        return;
    if (cfg->extraInfo && cfg->level != Level::L1)
        writer->addConstruct(call.name, call.parent);
    if (!passes(call.name, call.module != nullptr))
        return;
    Value body = Value::dict(2);
    auto list = [&](const std::vector<at::Tensor>& grads, const char* category) {
        Value v = Value::list(grads.size());
        for (std::size_t k = 0; k < grads.size(); ++k)
            v.add(leaves->tensor(grads[k], fileStem(call.saveFiles, call.name, category, k), call.saveFiles, false));
        return v;
    };
    if (cfg->dataMode.input)
        body.add("input", list(call.gradIn, "input"));
    if (cfg->dataMode.output)
        body.add("output", list(call.gradOut, "output"));
    writer->addEntry(call.name, std::move(body));
}

void Recorder::Impl::onBackwardEnd()
{
    std::lock_guard lock(mutex);
    std::vector<std::weak_ptr<BackwardCall>> keep;
    for (auto& weak : pendingCalls) {
        auto call = weak.lock();
        if (!call || call->emitted || call->generation != generation.load())
            continue;
        if (call->fired > 0)
            emitBackward(*call); // some nodes never ran (not needed for this backward): partial record
        else
            keep.push_back(weak);
    }
    pendingCalls = std::move(keep);
}

bool Recorder::Impl::enterModule(ModuleInfo* info, const void* key, c10::ArrayRef<c10::IValue> inputs, bool synthetic,
    bool script)
{
    if (!synthetic)
        closeSynthetic();
    OpenModule open;
    open.info = info;
    open.key = key;
    open.synthetic = synthetic;
    open.script = script;
    open.call = moduleCounter[info->prefix]++;
    open.forwardName = info->prefix + ".forward." + std::to_string(open.call);
    open.parent = currentParent();
    open.inputs.assign(inputs.begin(), inputs.end());
    open.seqBegin = at::sequence_number::peek();
    const bool dumpModules = dumping && cfg->dumpsModules() && !info->isRoot;
    if (dumpModules) {
        if (scopeIsModules() && open.forwardName == cfg->scope[0])
            moduleRangeOpen = true;
        if (!cfg->list.empty() && cfg->level == Level::Mix && listMatch(open.forwardName)) {
            open.mixList = true;
            ++mixListDepth;
        }
        if (cfg->extraInfo)
            writer->addConstruct(open.forwardName, open.parent);
        open.dump = cfg->dataMode.forward && passes(open.forwardName, true);
        if (open.dump && cfg->dataMode.input && !synthetic) {
            Value args = Value::list();
            const bool save = saveFilesFor(open.forwardName);
            for (std::size_t k = 0; k < inputs.size(); ++k)
                args.add(leaves->build(inputs[k], fileStem(save, open.forwardName, "input", k), save));
            open.inputValue = std::move(args);
        }
        if (open.dump && cfg->extraInfo) {
            open.pcs = captureStack(2);
            if (script && scriptStacks)
                open.scriptFrames = scriptStacks();
        }
    }
    const bool backward = (dumpModules && wantsBackwardDump()) || !observers.empty();
    if (backward && c10::GradMode::is_enabled()) {
        open.inputTensors = flattenTensors(inputs);
        for (const auto& t : open.inputTensors)
            open.inEdges.push_back(t.defined() && t.requires_grad() ? torch::autograd::impl::gradient_edge(t) : Edge());
    }
    tl_modules.push_back(std::move(open));
    return true;
}

void Recorder::Impl::finishModule(OpenModule& open, const std::vector<c10::IValue>& outputs)
{
    ModuleInfo* info = open.info;
    for (auto* o : observers)
        o->moduleForward(*info, open.call, open.inputs, outputs);
    const bool dumpModules = dumping && cfg->dumpsModules() && !info->isRoot;
    if (dumpModules && open.dump) {
        const bool save = saveFilesFor(open.forwardName);
        Value body = Value::dict();
        if (cfg->dataMode.input) {
            if (open.synthetic) {
                Value args = Value::list();
                for (std::size_t k = 0; k < open.inputs.size(); ++k)
                    args.add(leaves->build(open.inputs[k], fileStem(save, open.forwardName, "input", k), save));
                open.inputValue = std::move(args);
            }
            body.add("input_args", open.inputValue.kind == Value::Kind::Null ? Value::list() : std::move(open.inputValue));
            body.add("input_kwargs", Value::dict());
        }
        if (cfg->dataMode.output && passes(open.forwardName, true)) {
            Value out = Value::list();
            for (std::size_t k = 0; k < outputs.size(); ++k) {
                const c10::IValue& v = outputs[k];
                // A returned tuple is the list of its elements (spec 1.5).
                if (outputs.size() == 1 && v.isTuple()) {
                    std::size_t j = 0;
                    for (const auto& item : v.toTupleRef().elements()) {
                        out.add(leaves->build(item, fileStem(save, open.forwardName, "output", j), save));
                        ++j;
                    }
                } else {
                    out.add(leaves->build(v, fileStem(save, open.forwardName, "output", k), save));
                }
            }
            body.add("output", std::move(out));
            Value params = Value::dict();
            for (const auto& [name, tensor] : info->params)
                params.add(name, leaves->tensor(tensor, open.forwardName + ".parameters." + name, save));
            body.add("parameters", std::move(params));
        }
        writer->addEntry(open.forwardName, std::move(body));
        if (cfg->extraInfo)
            writer->addStack(open.forwardName, std::move(open.pcs), std::move(open.scriptFrames));
    }
    const bool backwardDump = dumpModules && wantsBackwardDump();
    if ((backwardDump || !observers.empty()) && c10::GradMode::is_enabled()) {
        auto call = std::make_shared<BackwardCall>();
        call->name = backwardOfModule(open.forwardName);
        if (open.parent)
            call->parent = backwardOfModule(*open.parent);
        call->module = info;
        call->call = open.call;
        call->dump = backwardDump;
        call->observe = !observers.empty();
        call->saveFiles = dumping && saveFilesFor(call->name);
        call->inEdges = std::move(open.inEdges);
        std::vector<at::Tensor> outTensors;
        for (const auto& v : outputs)
            flattenTensors(v, outTensors);
        attachBackward(call, outTensors, open.seqBegin, at::sequence_number::peek());
    }
    if (dumpModules) {
        if (scopeIsModules() && open.forwardName == cfg->scope[1])
            moduleRangeOpen = false;
        if (open.mixList)
            --mixListDepth;
    }
}

// Ops touching the parameters of a module that has no scope of its own (built-in nn::Linear, LayerNorm, ...)
// are grouped into a synthetic module call: inputs = tensors from outside the group, output = the last op's.
bool Recorder::Impl::trackParameterOwner(c10::ArrayRef<const c10::IValue> inputs)
{
    if (paramOwner.empty())
        return false;
    // The optimizer's in-place updates (no grad, outside every module scope) touch parameters too, but they are
    // no module calls: the reference's module hooks never see them.
    const bool insideScope = std::any_of(tl_modules.begin(), tl_modules.end(), [](const OpenModule& m) { return !m.synthetic; });
    if (!insideScope && !c10::GradMode::is_enabled()) {
        closeSynthetic();
        return false;
    }
    ModuleInfo* owner = nullptr;
    std::vector<at::Tensor> tensors;
    for (const auto& v : inputs)
        flattenTensors(v, tensors);
    OpenModule* top = tl_modules.empty() ? nullptr : &tl_modules.back();
    bool paramOnly = !tensors.empty();
    for (const auto& t : tensors) {
        if (!t.defined())
            continue;
        const c10::TensorImpl* impl = t.unsafeGetTensorImpl();
        auto it = paramOwner.find(impl);
        ModuleInfo* found = it != paramOwner.end() && !it->second.first->scoped ? it->second.first : nullptr;
        // A tensor made from the open group's parameters (the transposed weight) counts as its parameter.
        if (!found && top && top->synthetic && top->paramDerived.count(impl))
            found = top->info;
        if (!found)
            paramOnly = false;
        else if (!owner)
            owner = found;
    }
    if (top && top->synthetic && top->info != owner) {
        closeSynthetic();
        top = nullptr;
    }
    if (!owner)
        return false;
    if (!top || !top->synthetic) {
        enterModule(owner, owner, {}, true, false);
        top = &tl_modules.back();
    }
    for (const auto& t : tensors) {
        if (!t.defined())
            continue;
        const c10::TensorImpl* impl = t.unsafeGetTensorImpl();
        if (paramOwner.count(impl) || top->produced.count(impl))
            continue;
        top->inputs.emplace_back(t);
        if ((wantsBackwardDump() || !observers.empty()) && c10::GradMode::is_enabled()) {
            top->inputTensors.push_back(t);
            top->inEdges.push_back(t.requires_grad() ? torch::autograd::impl::gradient_edge(t) : Edge());
        }
        top->produced.insert(impl); // the same tensor used twice is one input
    }
    return paramOnly;
}

std::unique_ptr<at::ObserverContext> Recorder::Impl::opStart(const at::RecordFunction& fn, OpInfo& info)
{
    auto ctx = std::make_unique<OpCtx>();
    const auto inputs = trimmedInputs(fn);
    if (!dumping || cfg->dumpsModules() || !observers.empty())
        ctx->paramOnlyInputs = trackParameterOwner(inputs);
    if (!dumping || !cfg->dumpsApis()) {
        ctx->kind = OpCtx::Kind::TrackOnly;
        hideInterior(*ctx, &info);
        return ctx;
    }
    const std::int64_t n = (*info.counter)++;
    char number[24];
    const auto numberEnd = std::to_chars(number, number + sizeof number, n).ptr;
    ctx->name.reserve(info.apiName.size() + 10 + static_cast<std::size_t>(numberEnd - number));
    ctx->name.append(info.apiName).append(1, '.').append(number, numberEnd).append(".forward");
    ctx->parent = currentParent();
    if (cfg->extraInfo && cfg->level == Level::Mix)
        writer->addConstruct(ctx->name, ctx->parent);
    const bool pass = cfg->dataMode.forward && passes(ctx->name, false);
    ctx->dumpIn = pass && cfg->dataMode.input;
    if (ctx->dumpIn) {
        const SchemaInfo& schema = schemaOf(info);
        const bool save = saveFilesFor(ctx->name);
        ctx->inputArgs = Value::list(inputs.size());
        ctx->inputKwargs = Value::dict();
        std::size_t positional = 0;
        for (std::size_t k = 0; k < inputs.size(); ++k) {
            const bool kwarg = k < schema.args.size() && schema.args[k].first;
            if (kwarg) {
                const std::string& key = schema.args[k].second;
                ctx->inputKwargs.add(key, leaves->build(inputs[k], save ? ctx->name + ".kwargs." + key : std::string(), save));
            } else {
                ctx->inputArgs.add(leaves->build(inputs[k], fileStem(save, ctx->name, "input", positional), save));
                ++positional;
            }
        }
    }
    if (pass && cfg->extraInfo) {
        ctx->pcs = captureStack(3);
        if (scriptStacks)
            ctx->scriptFrames = scriptStacks();
    }
    // An API the risk level filters out needs its backward hooks only for construct.json (mix).
    ctx->wantBackward = wantsBackwardDump() && c10::GradMode::is_enabled()
        && (cfg->riskAllows(ctx->name) || (cfg->extraInfo && cfg->level == Level::Mix));
    if (ctx->wantBackward) {
        for (const auto& t : flattenTensors(c10::ArrayRef<c10::IValue>(inputs.data(), inputs.size())))
            ctx->inEdges.push_back(t.defined() && t.requires_grad() ? torch::autograd::impl::gradient_edge(t) : Edge());
    }
    ctx->seqBegin = at::sequence_number::peek();
    hideInterior(*ctx, &info); // the op's interior is not ours to see (outermost ops only)
    return ctx;
}

void Recorder::Impl::opEnd(const at::RecordFunction& fn, OpCtx& ctx)
{
    std::lock_guard lock(mutex);
    const c10::ArrayRef<c10::IValue> outputs = trimmedOutputs(fn);
    if (!tl_modules.empty() && tl_modules.back().synthetic) {
        OpenModule& top = tl_modules.back();
        top.outputs.assign(outputs.begin(), outputs.end());
        std::vector<at::Tensor> produced;
        for (const auto& v : outputs)
            flattenTensors(v, produced);
        for (const auto& t : produced)
            if (t.defined()) {
                top.produced.insert(t.unsafeGetTensorImpl());
                if (ctx.paramOnlyInputs)
                    top.paramDerived.insert(t.unsafeGetTensorImpl());
            }
    }
    if (ctx.kind == OpCtx::Kind::TrackOnly || !dumping)
        return;
    const bool dumpOut = cfg->dataMode.forward && cfg->dataMode.output && passes(ctx.name, false);
    std::string backwardName; // "Aten.{op}.{n}.backward", made before the entry takes the forward name
    if (ctx.wantBackward) {
        backwardName.reserve(ctx.name.size() + 1);
        backwardName.append(ctx.name, 0, ctx.name.size() - 8).append(".backward");
    }
    if (ctx.dumpIn || dumpOut) {
        Value body = Value::dict(3);
        if (ctx.dumpIn) {
            body.add("input_args", std::move(ctx.inputArgs));
            body.add("input_kwargs", std::move(ctx.inputKwargs));
        }
        if (dumpOut) {
            const bool save = saveFilesFor(ctx.name);
            Value out = Value::list(outputs.size());
            for (std::size_t k = 0; k < outputs.size(); ++k)
                out.add(leaves->build(outputs[k], fileStem(save, ctx.name, "output", k), save));
            body.add("output", std::move(out));
        }
        if (cfg->extraInfo) {
            writer->addEntry(ctx.name, std::move(body));
            writer->addStack(std::move(ctx.name), std::move(ctx.pcs), std::move(ctx.scriptFrames));
        } else {
            writer->addEntry(std::move(ctx.name), std::move(body));
        }
    }
    if (ctx.wantBackward) {
        auto call = std::make_shared<BackwardCall>();
        call->name = std::move(backwardName);
        if (ctx.parent)
            call->parent = backwardOfModule(*ctx.parent);
        call->dump = true;
        call->saveFiles = saveFilesFor(call->name);
        call->inEdges = std::move(ctx.inEdges);
        std::vector<at::Tensor> outTensors;
        for (const auto& v : outputs)
            flattenTensors(v, outTensors);
        attachBackward(call, outTensors, ctx.seqBegin, at::sequence_number::peek());
    }
}

void Recorder::Impl::onParamGrad(ModuleInfo* module, const std::string& param, const at::Tensor& grad, std::uint64_t gen)
{
    std::lock_guard lock(mutex);
    if (!dumping || gen != generation.load() || !wantsBackwardDump())
        return;
    if (!cfg->list.empty() && !listMatch(module->prefix))
        return;
    ParamGradState& state = paramGrad[module];
    const bool fresh = state.k < 0 || state.seen.count(param);
    if (fresh) {
        ++state.k;
        state.seen.clear();
    }
    state.seen.insert(param);
    const std::string name = module->prefix + ".parameters_grad." + std::to_string(state.k);
    Value leafList = Value::list();
    leafList.add(leaves->tensor(grad, name + "." + param, saveFilesFor(name), true));
    if (fresh) {
        Value body = Value::dict();
        body.add(param, std::move(leafList));
        state.entry = writer->addEntry(name, std::move(body));
    } else {
        writer->updateEntry(state.entry, [&](Value& body) { body.add(param, std::move(leafList)); });
    }
}

std::unique_ptr<at::ObserverContext> Recorder::Impl::onStart(const at::RecordFunction& fn)
{
    Impl* self = g_impl;
    if (tl_suppressed > 0) {
        if (tl_hiddenOp)
            std::atomic_ref(tl_hiddenOp->callsOtherOps).store(true, std::memory_order_relaxed);
        return nullptr;
    }
    if (!self || !self->enabled.load())
        return nullptr;
    try {
        if (fn.scope() == at::RecordScope::TORCHSCRIPT_FUNCTION) {
            const char* name = fn.name();
            if (std::strncmp(name, "forward", 7) != 0)
                return nullptr;
            const auto in = fn.inputs();
            if (in.empty() || !in[0].isObject())
                return nullptr;
            const void* key = &in[0].toObjectRef();
            std::lock_guard lock(self->mutex);
            if (!tl_modules.empty() && tl_modules.back().key == key)
                return nullptr; // the root forward is reported twice (Module::forward and the interpreter frame)
            auto it = self->moduleByKey.find(key);
            if (it == self->moduleByKey.end())
                return nullptr;
            std::vector<c10::IValue> args(in.begin() + 1, in.end());
            if (!self->enterModule(it->second, key, args, false, true))
                return nullptr;
            it->second->scoped = true;
            auto ctx = std::make_unique<OpCtx>();
            ctx->kind = OpCtx::Kind::ScriptModule;
            ctx->moduleKey = key;
            return ctx;
        }
        std::lock_guard lock(self->mutex);
        OpInfo* info = self->opInfoOf(fn);
        if (!info) {
            if (std::strncmp(fn.name(), "autograd::engine::evaluate_function", 35) != 0)
                return nullptr;
            self->closeSynthetic();
            // Ops run inside a backward node are autograd internals.
            auto ctx = std::make_unique<OpCtx>();
            ctx->kind = OpCtx::Kind::Boundary;
            hideInterior(*ctx, nullptr);
            return ctx;
        }
        switch (info->kind) {
        case OpInfo::Kind::Ignored: return nullptr;
        case OpInfo::Kind::ModuleTap: {
            const auto in = trimmedInputs(fn);
            if (in.size() == 2 && in[0].isObject()) {
                const void* key = in[0].toObject().get();
                for (auto it = tl_modules.rbegin(); it != tl_modules.rend(); ++it)
                    if (it->key == key && it->script) {
                        it->outputs = { in[1] };
                        break;
                    }
            }
            return nullptr;
        }
        case OpInfo::Kind::Api: break;
        }
        return self->opStart(fn, *info);
    } catch (const std::exception& error) {
        if (self->writer)
            self->writer->recordError(std::string("callback:") + error.what(), std::string("capture failed: ") + error.what());
        return nullptr;
    }
}

void Recorder::Impl::onEnd(const at::RecordFunction& fn, at::ObserverContext* base)
{
    Impl* self = g_impl;
    auto* ctx = static_cast<OpCtx*>(base);
    if (!self || !ctx)
        return;
    showInterior(*ctx);
    try {
        switch (ctx->kind) {
        case OpCtx::Kind::Boundary: return;
        case OpCtx::Kind::ScriptModule: {
            std::lock_guard lock(self->mutex);
            self->closeSynthetic();
            if (!tl_modules.empty() && tl_modules.back().key == ctx->moduleKey) {
                OpenModule open = std::move(tl_modules.back());
                tl_modules.pop_back();
                self->finishModule(open, open.outputs);
            }
            return;
        }
        case OpCtx::Kind::Op:
        case OpCtx::Kind::TrackOnly: self->opEnd(fn, *ctx); return;
        }
    } catch (const std::exception& error) {
        if (self->writer)
            self->writer->recordError(std::string("callback:") + error.what(), std::string("capture failed: ") + error.what());
    }
}

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
