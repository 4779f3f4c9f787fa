// SPDX-License-Identifier: Apache-2.0
#include "generator_engine.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

namespace msprobe::bench::detail {

namespace {

std::uint64_t splitmix(std::uint64_t& x)
{
    std::uint64_t z = (x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

// Statistics are float32 values printed as doubles, hence the 17-digit reprs of real dumps.
double f32(double x) { return static_cast<double>(static_cast<float>(x)); }

bool requiresGrad(const Args& outputs)
{
    for (const Arg& out : outputs)
        if (out.kind == Arg::Kind::Tensor && out.tensor.requiresGrad)
            return true;
    return false;
}

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

} // namespace

Rng::Rng(std::uint64_t seed)
{
    for (auto& word : m_s)
        word = splitmix(seed);
}

std::uint64_t Rng::next()
{
    const std::uint64_t result = rotl(m_s[1] * 5, 7) * 9;
    const std::uint64_t t = m_s[1] << 17;
    m_s[2] ^= m_s[0];
    m_s[3] ^= m_s[1];
    m_s[1] ^= m_s[2];
    m_s[0] ^= m_s[3];
    m_s[2] ^= t;
    m_s[3] = rotl(m_s[3], 45);
    return result;
}

Shape::Shape(std::initializer_list<std::int64_t> list)
{
    for (std::int64_t d : list)
        if (rank < dims.size())
            dims[rank++] = d;
}

double Shape::numel() const
{
    double n = 1.0;
    for (std::uint8_t i = 0; i < rank; ++i)
        n *= static_cast<double>(dims[i]);
    return n;
}

Engine::Engine(const GeneratorOptions& options, const TextSink& dump, const TextSink& construct, const TextSink& stack)
    : m_options(options)
    , m_rng(options.seed * 1000003u + static_cast<std::uint64_t>(options.rank))
    , m_noise(~options.seed)
    , m_drift(options.seed * 0x9e3779b97f4a7c15ull + 7)
    , m_dump(dump)
    , m_construct(construct ? construct : TextSink([](std::string_view) { }))
    , m_writeConstruct(static_cast<bool>(construct))
    , m_writeStack(static_cast<bool>(stack))
    , m_stackSink(stack)
{
    m_dump.beginObject();
    m_dump.key("task");
    m_dump.string("statistics");
    m_dump.key("level");
    m_dump.string("mix");
    m_dump.key("framework");
    m_dump.string("pytorch");
    m_dump.key("dump_data_dir");
    m_dump.null();
    m_dump.key("data");
    m_dump.beginObject();
    m_construct.beginObject();
}

void Engine::setSites(std::vector<std::string> siteFrames, std::vector<std::string> outerFrames)
{
    m_siteFrames = std::move(siteFrames);
    m_outerFrames = std::move(outerFrames);
}

GeneratedStats Engine::finish()
{
    m_dump.endObject();
    m_dump.endObject();
    m_dump.flush();
    m_stats.bytes = m_dump.bytesWritten();
    m_construct.endObject();
    if (m_writeConstruct)
        m_construct.flush();
    if (m_writeStack) {
        JsonEmitter out(m_stackSink);
        out.beginObject();
        for (std::size_t g = 0; g < m_stackGroups.size(); ++g) {
            const StackGroup& group = m_stackGroups[g];
            out.key(std::to_string(g));
            out.beginArray();
            out.beginArray();
            for (const std::string& name : group.names)
                out.string(name);
            out.endArray();
            out.beginArray();
            // Each site is the line inside some forward(); the module it belongs to was entered
            // through torch's Module.__call__ frames.
            for (int site : group.sites) {
                out.string(m_siteFrames.at(static_cast<std::size_t>(site)));
                out.string("File /usr/lib/python3/dist-packages/torch/nn/modules/module.py, line 1750, in _call_impl, \n return forward_call(*args, **kwargs)");
                out.string("File /usr/lib/python3/dist-packages/torch/nn/modules/module.py, line 1739, in _wrapped_call_impl, \n return self._call_impl(*args, **kwargs)");
            }
            for (const std::string& frame : m_outerFrames)
                out.string(frame);
            out.endArray();
            out.endArray();
            out.maybeFlush();
        }
        out.endObject();
        out.flush();
    }
    return m_stats;
}

Tensor Engine::floatTensor(const Shape& shape, double sd, bool requiresGrad, const char* dtype)
{
    Tensor t;
    t.dtype = dtype;
    t.shape = shape;
    t.requiresGrad = requiresGrad;
    sd *= 0.5 + m_rng.uniform();
    const double mean = sd * 0.1 * m_rng.normalish();
    t.mean = f32(mean);
    t.max = f32(mean + sd * (3.0 + 2.0 * m_rng.uniform()));
    t.min = f32(mean - sd * (3.0 + 2.0 * m_rng.uniform()));
    t.norm = f32(std::sqrt(shape.numel() * (sd * sd + mean * mean)));
    return t;
}

Tensor Engine::intTensor(const Shape& shape, std::int64_t lo, std::int64_t hi)
{
    Tensor t;
    t.kind = TensorKind::Int;
    t.dtype = "torch.int64";
    t.shape = shape;
    t.max = static_cast<double>(m_rng.between((lo + hi) / 2, hi));
    t.min = static_cast<double>(m_rng.between(lo, (lo + hi) / 2));
    return t;
}

Tensor Engine::boolTensor(const Shape& shape, bool max, bool min)
{
    Tensor t;
    t.kind = TensorKind::Bool;
    t.dtype = "torch.bool";
    t.shape = shape;
    t.max = max;
    t.min = min;
    return t;
}

Tensor Engine::zeroDim(double value, bool requiresGrad)
{
    Tensor t;
    t.requiresGrad = requiresGrad;
    t.max = t.min = t.mean = f32(value);
    t.norm = std::fabs(t.max);
    return t;
}

Tensor Engine::like(const Tensor& t, double sdScale)
{
    const double sd = std::max(1e-12, (t.max - t.min) / 8.0) * sdScale;
    Tensor out = floatTensor(t.shape, sd, t.requiresGrad, t.dtype);
    out.fault = t.fault;
    return out;
}

const Tensor& Engine::parameter(const std::string& key, const Shape& shape, double sd, double center)
{
    auto it = m_params.find(key);
    if (it != m_params.end())
        return it->second;
    Tensor t = floatTensor(shape, sd, true);
    t.max = f32(t.max + center);
    t.min = f32(t.min + center);
    t.mean = f32(t.mean + center);
    t.norm = f32(std::sqrt(shape.numel()) * std::fabs(t.mean));
    m_paramOrder.push_back(key);
    return m_params.emplace(key, t).first->second;
}

std::string Engine::counted(const char* prefix, const char* op)
{
    std::string base = std::string(prefix) + '.' + op;
    const int n = m_apiCounters[base]++;
    return base + '.' + std::to_string(n) + ".forward";
}

std::uint8_t Engine::faultOf(const Args& args) const
{
    for (const Arg& arg : args) {
        if (arg.kind == Arg::Kind::Tensor && arg.tensor.fault)
            return arg.tensor.fault;
        if (arg.kind == Arg::Kind::List)
            if (std::uint8_t f = faultOf(arg.items))
                return f;
    }
    return 0;
}

void Engine::injectFaults(Args& outputs, std::uint8_t inherited)
{
    std::uint8_t fault = inherited;
    if (!m_nanInjected && m_options.nanAt >= 0 && m_entryIndex >= m_options.nanAt) {
        m_nanInjected = true;
        fault = static_cast<std::uint8_t>(1 + m_noise.next() % 3);
    }
    if (!fault)
        return;
    for (Arg& arg : outputs)
        if (arg.kind == Arg::Kind::Tensor && arg.tensor.kind == TensorKind::Float)
            arg.tensor.fault = fault;
}

Tensor Engine::api(const char* prefix, const char* op, int site, Args args, Kwargs kwargs, Args outputs, bool backward)
{
    Node node;
    node.name = counted(prefix, op);
    node.backward = backward;
    const std::string* parent = m_open.empty() ? nullptr : &m_nodes[static_cast<std::size_t>(m_open.back().node)].name;
    constructEdge(node.name, parent);
    recordStack(node.name, site);
    injectFaults(outputs, faultOf(args));

    beginEntry(node.name);
    writeArgsList("input_args", args);
    m_dump.key("input_kwargs");
    m_dump.beginObject();
    for (const auto& [key, value] : kwargs) {
        m_dump.key(key);
        writeArg(value);
    }
    m_dump.endObject();
    writeArgsList("output", outputs);
    endEntry();

    Tensor first = outputs.empty() || outputs.front().kind != Arg::Kind::Tensor ? Tensor {} : outputs.front().tensor;
    node.args = std::move(args);
    node.outputs = std::move(outputs);
    addNode(std::move(node));
    return first;
}

void Engine::hiddenApi(const char* prefix, const char* op)
{
    const std::string name = counted(prefix, op);
    constructEdge(name, m_open.empty() ? nullptr : &m_nodes[static_cast<std::size_t>(m_open.back().node)].name);
}

void Engine::beginModule(const std::string& path, const char* cls, int site, Args args)
{
    Node node;
    node.moduleBase = "Module." + path + '.' + cls;
    node.callIndex = m_moduleCounters[node.moduleBase]++;
    node.name = node.moduleBase + ".forward." + std::to_string(node.callIndex);
    node.args = std::move(args);
    constructEdge(node.name, m_open.empty() ? nullptr : &m_nodes[static_cast<std::size_t>(m_open.back().node)].name);
    recordStack(node.name, site);
    const int index = addNode(std::move(node));
    m_open.push_back({ index, site });
}

// Modules are written when their forward ends, after everything called inside them.
void Engine::endModule(Args outputs, const Params& params)
{
    const int index = m_open.back().node;
    m_open.pop_back();
    Node& node = m_nodes[static_cast<std::size_t>(index)];
    node.outputs = std::move(outputs);
    node.params = params;

    beginEntry(node.name);
    writeArgsList("input_args", node.args);
    m_dump.key("input_kwargs");
    m_dump.emptyObject();
    writeArgsList("output", node.outputs);
    m_dump.key("parameters");
    m_dump.beginObject();
    for (const auto& [shortName, key] : params) {
        m_dump.key(shortName);
        writeTensor(m_params.at(key));
    }
    m_dump.endObject();
    endEntry();
}

int Engine::addNode(Node node)
{
    const int index = static_cast<int>(m_nodes.size());
    m_nodes.push_back(std::move(node));
    if (m_open.empty())
        m_roots.push_back(index);
    else
        m_nodes[static_cast<std::size_t>(m_open.back().node)].children.push_back(index);
    return index;
}

void Engine::backward()
{
    m_gradFault = 0;
    for (const Node& node : m_nodes)
        if (std::uint8_t f = faultOf(node.outputs))
            m_gradFault = f; // a NaN anywhere in the forward poisons the loss and every gradient
    for (auto it = m_roots.rbegin(); it != m_roots.rend(); ++it)
        backwardNode(*it, nullptr);
    m_nodes.clear();
    m_roots.clear();
}

void Engine::backwardNode(int index, const std::string* parentName)
{
    const Node& node = m_nodes[static_cast<std::size_t>(index)];
    if (node.moduleBase.empty()) {
        if (!node.backward || !requiresGrad(node.outputs))
            return;
        std::string name = node.name.substr(0, node.name.size() - 7) + "backward";
        constructEdge(name, parentName);
        writeBackward(name, node.outputs, node.args);
        return;
    }
    if (!requiresGrad(node.outputs))
        return; // no gradient flows through it: autograd fires no hook
    const std::string name = node.moduleBase + ".backward." + std::to_string(node.callIndex);
    constructEdge(name, parentName);
    for (auto it = node.children.rbegin(); it != node.children.rend(); ++it)
        backwardNode(*it, &name);
    if (!node.params.empty()) {
        const std::string base = node.moduleBase + ".parameters_grad.";
        beginEntry(base + std::to_string(m_gradCounters[base]++));
        for (const auto& [shortName, key] : node.params) {
            m_dump.key(shortName);
            m_dump.beginArray();
            writeTensor(gradOf(m_params.at(key)));
            m_dump.endArray();
        }
        endEntry();
    }
    writeBackward(name, node.outputs, node.args);
}

void Engine::writeBackward(const std::string& name, const Args& incoming, const Args& forwardInputs)
{
    beginEntry(name);
    m_dump.key("input");
    m_dump.beginArray();
    for (const Arg& out : incoming)
        if (out.kind == Arg::Kind::Tensor && out.tensor.kind == TensorKind::Float)
            writeTensor(gradOf(out.tensor));
    m_dump.endArray();
    // Gradients w.r.t. the forward inputs: a tensor that needs one, None for a Python scalar.
    m_dump.key("output");
    m_dump.beginArray();
    for (const Arg& in : forwardInputs) {
        if (in.kind == Arg::Kind::Tensor && in.tensor.requiresGrad)
            writeTensor(gradOf(in.tensor));
        else if (in.kind == Arg::Kind::Int || in.kind == Arg::Kind::Float)
            m_dump.null();
        else if (in.kind == Arg::Kind::List)
            for (const Arg& item : in.items)
                if (item.kind == Arg::Kind::Tensor && item.tensor.requiresGrad)
                    writeTensor(gradOf(item.tensor));
    }
    m_dump.endArray();
    endEntry();
}

Tensor Engine::gradOf(const Tensor& t)
{
    Tensor g = floatTensor(t.shape, 1e-4, false, t.dtype);
    g.fault = m_gradFault;
    return g;
}

void Engine::optimizerStep(double lr)
{
    for (const std::string& key : m_paramOrder) {
        Tensor& param = m_params.at(key);
        Tensor grad = gradOf(param);
        Tensor updated = param;
        updated.max = f32(param.max + lr * grad.max);
        updated.min = f32(param.min - lr * grad.max);
        api("Tensor", "add_", -1, { Arg::of(param), Arg::of(grad) }, { { "alpha", Arg::real(-lr) } }, { Arg::of(updated) }, false);
        param = updated;
    }
}

void Engine::beginEntry(const std::string& name)
{
    m_dump.key(name);
    m_dump.beginObject();
}

void Engine::endEntry()
{
    m_dump.endObject();
    ++m_entryIndex;
    ++m_stats.entries;
    m_dump.maybeFlush();
    m_construct.maybeFlush();
    if ((m_options.targetEntries && m_stats.entries >= m_options.targetEntries)
        || (m_options.targetBytes && m_dump.bytesWritten() >= m_options.targetBytes))
        throw StopGeneration {};
}

void Engine::writeArgsList(const char* key, const Args& args)
{
    m_dump.key(key);
    m_dump.beginArray();
    for (const Arg& arg : args)
        writeArg(arg);
    m_dump.endArray();
}

void Engine::writeArg(const Arg& arg)
{
    auto typedLeaf = [this](const char* type) {
        m_dump.beginObject();
        m_dump.key("type");
        m_dump.string(type);
        m_dump.key("value");
    };
    switch (arg.kind) {
    case Arg::Kind::Null: m_dump.null(); return;
    case Arg::Kind::Tensor: writeTensor(arg.tensor); return;
    case Arg::Kind::Int: typedLeaf("int"); m_dump.integer(arg.i); break;
    case Arg::Kind::Float: typedLeaf("float"); m_dump.number(arg.f); break;
    case Arg::Kind::Bool: typedLeaf("bool"); m_dump.boolean(arg.i != 0); break;
    case Arg::Kind::Str: typedLeaf("str"); m_dump.string(arg.text); break;
    case Arg::Kind::Typed: typedLeaf(arg.type); m_dump.string(arg.text); break;
    case Arg::Kind::Ellipsis: typedLeaf("ellipsis"); m_dump.string("..."); break;
    case Arg::Kind::Slice:
        typedLeaf("slice");
        m_dump.beginArray();
        for (std::int64_t bound : arg.slice) {
            if (bound == Arg::kNone)
                m_dump.null();
            else
                m_dump.integer(bound);
        }
        m_dump.endArray();
        break;
    case Arg::Kind::EmptyObject: m_dump.emptyObject(); return;
    case Arg::Kind::Group:
        m_dump.beginObject();
        m_dump.key("type");
        m_dump.string("torch.ProcessGroup");
        m_dump.key("group_ranks");
        m_dump.beginArray();
        for (int r = 0; r < m_options.worldSize; ++r)
            m_dump.integer(r);
        m_dump.endArray();
        m_dump.key("group_id");
        m_dump.string("3c4f6e1a");
        break;
    case Arg::Kind::List:
        m_dump.beginArray();
        for (const Arg& item : arg.items)
            writeArg(item);
        m_dump.endArray();
        return;
    }
    m_dump.endObject();
}

void Engine::writeTensor(const Tensor& t)
{
    ++m_stats.tensors;
    std::uint8_t fault = t.fault;
    if (t.kind == TensorKind::Float && !fault && m_options.nanRate > 0 && m_noise.uniform() < m_options.nanRate)
        fault = static_cast<std::uint8_t>(1 + m_noise.next() % 3);
    if (t.kind != TensorKind::Float)
        fault = 0;
    if (fault)
        ++m_stats.nonFiniteTensors;

    m_dump.beginObject();
    m_dump.key("type");
    m_dump.string("torch.Tensor");
    m_dump.key("dtype");
    m_dump.string(t.dtype);
    m_dump.key("shape");
    m_dump.beginArray();
    for (std::uint8_t i = 0; i < t.shape.rank; ++i)
        m_dump.integer(t.shape.dims[i]);
    m_dump.endArray();

    double stats[4] = { t.max, t.min, t.mean, t.norm };
    if (t.kind == TensorKind::Float) {
        const bool diverged = m_options.divergeAt >= 0 && m_entryIndex >= m_options.divergeAt;
        for (double& v : stats) {
            if (!m_options.repeatValues)
                v *= 1.0 + 1e-3 * m_drift.symmetric();
            if (m_options.perturb > 0)
                v *= 1.0 + m_options.perturb * m_noise.symmetric();
            if (diverged)
                v *= 1.0 + m_options.divergence * (0.5 + m_noise.uniform());
            v = f32(v);
        }
        if (fault == 1)
            stats[0] = stats[1] = stats[2] = stats[3] = kNaN;
        else if (fault == 2)
            stats[0] = kInf, stats[1] = -kInf, stats[2] = kNaN, stats[3] = kInf;
        else if (fault == 3)
            stats[0] = kInf, stats[2] = kInf, stats[3] = kInf;
    }
    static constexpr const char* kStatNames[4] = { "Max", "Min", "Mean", "Norm" };
    for (int i = 0; i < 4; ++i) {
        m_dump.key(kStatNames[i]);
        if (t.kind == TensorKind::Float)
            m_dump.number(stats[i]);
        else if (t.kind == TensorKind::Bool && i < 2)
            m_dump.boolean(stats[i] != 0.0);
        else if (t.kind == TensorKind::Int && i < 2)
            m_dump.integer(static_cast<std::int64_t>(stats[i]));
        else
            m_dump.null(); // integer and bool tensors: no Mean/Norm
    }
    m_dump.key("requires_grad");
    m_dump.boolean(t.requiresGrad);
    if (m_options.md5) {
        auto h = static_cast<std::uint64_t>(t.shape.dims[0]);
        for (double v : stats) {
            std::uint64_t bits;
            std::memcpy(&bits, &v, sizeof bits);
            h ^= bits;
            h = splitmix(h);
        }
        h >>= 32;
        char hex[9];
        for (int i = 7; i >= 0; --i, h >>= 4)
            hex[i] = "0123456789abcdef"[h & 15];
        m_dump.key("md5");
        m_dump.string(std::string_view(hex, 8));
    }
    m_dump.endObject();
}

void Engine::constructEdge(const std::string& child, const std::string* parent)
{
    if (!m_writeConstruct)
        return;
    m_construct.key(child);
    if (parent)
        m_construct.string(*parent);
    else
        m_construct.null();
}

// Calls from the same line of code under the same chain of modules share one stack group,
// as in msprobe's stack.json; the layer index does not change the stack.
void Engine::recordStack(const std::string& name, int site)
{
    if (!m_writeStack || site < 0)
        return;
    std::vector<int> sites { site };
    for (auto it = m_open.rbegin(); it != m_open.rend(); ++it)
        sites.push_back(it->site);
    const std::string key(reinterpret_cast<const char*>(sites.data()), sites.size() * sizeof(int));
    auto [it, inserted] = m_stackGroupOf.try_emplace(key, m_stackGroups.size());
    if (inserted)
        m_stackGroups.push_back({ std::move(sites), {} });
    m_stackGroups[it->second].names.push_back(name);
}

} // namespace msprobe::bench::detail
