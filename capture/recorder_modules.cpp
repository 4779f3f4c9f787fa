// SPDX-License-Identifier: Apache-2.0
// Module calls (entered, finished, synthetic groups of built-in modules) and the backward of every captured call.
#include "capture/recorder_impl.h"

namespace msprobe::capture {

using detail::BackwardCall;
using detail::OpenModule;
using detail::SuppressCapture;
using detail::backwardOfModule;
using detail::fileStem;
using detail::flattenTensors;
using detail::tl_modules;
using detail::Edge;
using detail::Node;
using detail::variable_list;

namespace {

struct CallHook : torch::autograd::FunctionPostHook {
    CallHook(std::shared_ptr<BackwardCall> c, Node* n)
        : call(std::move(c))
        , self(n)
    {
    }
    // A node of the call that is freed before it ran (an in-place change of a view output drops the view's node)
    // will never run: the call no longer waits for it, so that its record still comes in autograd's order.
    ~CallHook() override
    {
        Recorder::Impl* impl = g_impl;
        if (ran || !impl || call->emitted || call->generation != impl->generation.load())
            return;
        std::lock_guard lock(impl->mutex);
        if (call->pending > 0 && --call->pending == 0 && call->fired > 0)
            impl->emitBackward(*call);
    }
    variable_list operator()(const variable_list& outputs, const variable_list& inputs) override
    {
        Recorder::Impl* impl = g_impl;
        if (!impl || call->generation != impl->generation.load() || call->emitted)
            return outputs;
        ran = true;
        std::lock_guard lock(impl->mutex);
        at::NoGradGuard noGrad;
        SuppressCapture noRecord;
        for (std::size_t i = 0; i < call->outSlots.size(); ++i)
            if (call->outSlots[i].first == self && call->outSlots[i].second < inputs.size())
                call->gradIn[i] = inputs[call->outSlots[i].second];
        // The view's node did not run (it runs before its base's): the gradient reached the base.
        for (std::size_t i = 0; i < call->baseSlots.size(); ++i)
            if (!call->gradIn[i].defined() && call->baseSlots[i].first == self && call->baseSlots[i].second < inputs.size()
                && inputs[call->baseSlots[i].second].defined())
                call->gradIn[i] = inputs[call->baseSlots[i].second].reshape(call->outShapes[i]);
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
    bool ran = false;
};


} // namespace


void Recorder::Impl::attachBackward(const std::shared_ptr<BackwardCall>& call, const std::vector<at::Tensor>& outputs,
    std::uint64_t seqBegin, std::uint64_t seqEnd)
{
    if (seqEnd <= seqBegin)
        return;
    const std::uint64_t thread = at::RecordFunction::currentThreadId();
    std::vector<Node*> nodes, stack;
    nodes.reserve(8);
    stack.reserve(8);
    // An op's call has a few nodes: a linear search of them costs less than a hash set's allocations; a large
    // module's call switches to the set.
    std::unordered_set<Node*> seen;
    auto firstSeen = [&](Node* n) {
        if (nodes.size() < 32)
            return std::find(nodes.begin(), nodes.end(), n) == nodes.end();
        if (seen.empty())
            seen.insert(nodes.begin(), nodes.end());
        return seen.insert(n).second;
    };
    auto consider = [&](Node* n) {
        if (n && n->sequence_nr() >= seqBegin && n->sequence_nr() < seqEnd && n->thread_id() == thread && firstSeen(n)) {
            nodes.push_back(n);
            stack.push_back(n);
        }
    };
    call->outSlots.reserve(outputs.size());
    call->baseSlots.reserve(outputs.size());
    call->outShapes.reserve(outputs.size());
    for (const auto& t : outputs) {
        Node* fn = t.defined() && t.requires_grad() ? t.grad_fn().get() : nullptr;
        call->outSlots.emplace_back(fn, fn ? static_cast<std::uint32_t>(t.output_nr()) : 0u);
        const Node* baseFn = nullptr;
        std::uint32_t baseSlot = 0;
        if (fn && t.is_view()) {
            const at::TensorBase& base = t._base();
            if (base.defined() && base.requires_grad() && base.grad_fn() && base.numel() == t.numel() && base.is_contiguous()
                && t.is_contiguous() && base.storage_offset() == t.storage_offset()) {
                baseFn = base.grad_fn().get();
                baseSlot = static_cast<std::uint32_t>(base.output_nr());
            }
        }
        call->baseSlots.emplace_back(baseFn, baseSlot);
        call->outShapes.push_back(baseFn ? t.sizes().vec() : std::vector<std::int64_t>());
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
    if (!passes(call.name, call.module != nullptr, call.op))
        return;
    Value body = Value::dict(2);
    // flowedOnly: the gradients that exist, as Python msprobe lists a module's (an Embedding fed indices: []).
    auto list = [&](const std::vector<at::Tensor>& grads, const char* category, bool flowedOnly) {
        Value v = Value::list(grads.size());
        std::size_t k = 0;
        for (const auto& grad : grads) {
            if (flowedOnly && !grad.defined())
                continue;
            v.add(leaves->tensor(grad, fileStem(call.saveFiles, call.name, category, k), call.saveFiles, false));
            ++k;
        }
        return v;
    };
    if (cfg->dataMode.input)
        body.add("input", list(call.gradIn, "input", false));
    if (cfg->dataMode.output)
        body.add("output", list(call.gradOut, "output", call.module != nullptr));
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
                params.add(name, leaves->tensor(tensor, save ? open.forwardName + ".parameters." + name : std::string(), save));
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

} // namespace msprobe::capture
