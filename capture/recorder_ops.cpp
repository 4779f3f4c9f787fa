// SPDX-License-Identifier: Apache-2.0
// The RecordFunction callbacks: which operator calls are recorded, their inputs, outputs and parameter owners.
#include "capture/recorder_impl.h"

namespace msprobe::capture {

using detail::BackwardCall;
using detail::OpCtx;
using detail::OpInfo;
using detail::OpenModule;
using detail::SchemaInfo;
using detail::backwardOfModule;
using detail::fileStem;
using detail::flattenTensors;
using detail::hideInterior;
using detail::showInterior;
using detail::tl_hiddenOp;
using detail::tl_modules;
using detail::tl_suppressed;
using detail::Edge;

namespace {

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


} // namespace

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
    c10::SmallVector<at::Tensor, 8> tensors;
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
    ctx->info = &info;
    const bool pass = cfg->dataMode.forward && passes(ctx->name, false, &info);
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
        && (riskAllows(info) || (cfg->extraInfo && cfg->level == Level::Mix));
    if (ctx->wantBackward) {
        c10::SmallVector<at::Tensor, 8> tensors;
        for (const auto& v : inputs)
            flattenTensors(v, tensors);
        ctx->inEdges.reserve(tensors.size());
        for (const auto& t : tensors)
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
    // The output tensors, flattened once for the synthetic module and the backward hooks.
    const bool syntheticTop = !tl_modules.empty() && tl_modules.back().synthetic;
    const bool attach = ctx.kind != OpCtx::Kind::TrackOnly && dumping && ctx.wantBackward;
    std::vector<at::Tensor> outTensors;
    if (syntheticTop || attach)
        for (const auto& v : outputs)
            flattenTensors(v, outTensors);
    if (syntheticTop) {
        OpenModule& top = tl_modules.back();
        top.outputs.assign(outputs.begin(), outputs.end());
        for (const auto& t : outTensors)
            if (t.defined()) {
                top.produced.insert(t.unsafeGetTensorImpl());
                if (ctx.paramOnlyInputs)
                    top.paramDerived.insert(t.unsafeGetTensorImpl());
            }
    }
    if (ctx.kind == OpCtx::Kind::TrackOnly || !dumping)
        return;
    const bool dumpOut = cfg->dataMode.forward && cfg->dataMode.output && passes(ctx.name, false, ctx.info);
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
        call->op = ctx.info;
        call->saveFiles = saveFilesFor(call->name);
        call->inEdges = std::move(ctx.inEdges);
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

} // namespace msprobe::capture
