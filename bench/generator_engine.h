// SPDX-License-Identifier: Apache-2.0
// Internal to the dump generator: the machinery that turns API and module calls into dump.json,
// construct.json and stack.json text the way msprobe's hooks do. The model walk drives it.
#pragma once

#include "dump_generator.h"
#include "json_emitter.h"

#include <array>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace msprobe::bench::detail {

// xoshiro256**: fast, and the same sequence everywhere for a given seed.
class Rng {
public:
    explicit Rng(std::uint64_t seed);
    std::uint64_t next();
    double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; } // [0, 1)
    double symmetric() { return 2.0 * uniform() - 1.0; } // [-1, 1)
    double normalish() { return (uniform() + uniform() + uniform() - 1.5) * 2.0; } // mean 0, sd 1
    std::int64_t between(std::int64_t lo, std::int64_t hi) { return lo + static_cast<std::int64_t>(next() % static_cast<std::uint64_t>(hi - lo + 1)); }

private:
    std::array<std::uint64_t, 4> m_s {};
};

struct Shape {
    std::array<std::int64_t, 4> dims {};
    std::uint8_t rank = 0;
    Shape() = default;
    Shape(std::initializer_list<std::int64_t> list);
    double numel() const;
};

enum class TensorKind : std::uint8_t { Float, Int, Bool };

struct Tensor {
    TensorKind kind = TensorKind::Float;
    const char* dtype = "torch.float32";
    Shape shape;
    double max = 0, min = 0, mean = 0, norm = 0; // Int: max/min hold integers; Bool: max/min are 0/1
    bool requiresGrad = false;
    std::uint8_t fault = 0; // 0: finite; else a NaN/Infinity pattern that spreads to outputs
};

// One element of input_args / input_kwargs / output.
struct Arg {
    enum class Kind : std::uint8_t { Null, Tensor, Int, Float, Bool, Str, Slice, Ellipsis, EmptyObject, Typed, Group, List };
    static constexpr std::int64_t kNone = INT64_MIN; // a null slice bound

    Kind kind = Kind::Null;
    Tensor tensor;
    std::int64_t i = 0;
    double f = 0.0;
    const char* text = nullptr; // Str value; Typed value
    const char* type = nullptr; // Typed: "torch.dtype", "torch.device", ...
    std::array<std::int64_t, 3> slice {};
    std::vector<Arg> items;

    static Arg null() { return {}; }
    static Arg of(const Tensor& t) { Arg a; a.kind = Kind::Tensor; a.tensor = t; return a; }
    static Arg integer(std::int64_t v) { Arg a; a.kind = Kind::Int; a.i = v; return a; }
    static Arg real(double v) { Arg a; a.kind = Kind::Float; a.f = v; return a; }
    static Arg boolean(bool v) { Arg a; a.kind = Kind::Bool; a.i = v; return a; }
    static Arg str(const char* v) { Arg a; a.kind = Kind::Str; a.text = v; return a; }
    static Arg typed(const char* type, const char* value) { Arg a; a.kind = Kind::Typed; a.type = type; a.text = value; return a; }
    static Arg sliceOf(std::int64_t start, std::int64_t stop, std::int64_t step) { Arg a; a.kind = Kind::Slice; a.slice = { start, stop, step }; return a; }
    static Arg ellipsis() { Arg a; a.kind = Kind::Ellipsis; return a; }
    static Arg emptyObject() { Arg a; a.kind = Kind::EmptyObject; return a; }
    static Arg group() { Arg a; a.kind = Kind::Group; return a; }
    static Arg list(std::vector<Arg> items) { Arg a; a.kind = Kind::List; a.items = std::move(items); return a; }
};

using Args = std::vector<Arg>;
using Kwargs = std::vector<std::pair<const char*, Arg>>;
using Params = std::vector<std::pair<const char*, std::string>>; // short name -> parameter key

// Thrown at an entry boundary once a size or entry target is reached.
struct StopGeneration { };

class Engine {
public:
    Engine(const GeneratorOptions& options, const TextSink& dump, const TextSink& construct, const TextSink& stack);

    // Stack frames: one text per call site (the frame where the API or module is called) and the
    // outer frames of the training script, innermost first.
    void setSites(std::vector<std::string> siteFrames, std::vector<std::string> outerFrames);
    GeneratedStats finish();

    Rng& rng() { return m_rng; }
    Tensor floatTensor(const Shape& shape, double sd, bool requiresGrad, const char* dtype = "torch.float32");
    Tensor intTensor(const Shape& shape, std::int64_t lo, std::int64_t hi);
    Tensor boolTensor(const Shape& shape, bool max, bool min);
    Tensor zeroDim(double value, bool requiresGrad);
    Tensor like(const Tensor& t, double sdScale = 1.0);
    // A persistent parameter, created on first use.
    const Tensor& parameter(const std::string& key, const Shape& shape, double sd, double center = 0.0);

    // One dumped API call; returns the first output with faults spread from the inputs.
    Tensor api(const char* prefix, const char* op, int site, Args args, Kwargs kwargs, Args outputs, bool backward = true);
    // A call that is counted and appears in construct.json, but is filtered out of dump.json.
    void hiddenApi(const char* prefix, const char* op);
    void beginModule(const std::string& path, const char* cls, int site, Args args);
    void endModule(Args outputs, const Params& params);
    // The backward pass of everything recorded since the last call, in autograd order.
    void backward();
    void optimizerStep(double lr);

private:
    struct Node {
        std::string name; // forward entry name
        std::string moduleBase; // "Module.{path}.{Class}" for modules, empty for APIs
        int callIndex = 0;
        bool backward = true;
        Args args, outputs;
        Params params;
        std::vector<int> children;
    };
    struct OpenModule {
        int node;
        int site;
    };

    void beginEntry(const std::string& name);
    void endEntry();
    void writeArg(const Arg& arg);
    void writeTensor(const Tensor& t);
    void writeStat(double value, double finite, TensorKind kind, bool isNull);
    void writeArgsList(const char* key, const Args& args);
    void constructEdge(const std::string& child, const std::string* parent);
    void recordStack(const std::string& name, int site);
    int addNode(Node node);
    void backwardNode(int index, const std::string* parentName);
    void writeBackward(const std::string& name, const Args& incoming, const Args& forwardInputs);
    Tensor gradOf(const Tensor& t);
    std::uint8_t faultOf(const Args& args) const;
    void injectFaults(Args& outputs, std::uint8_t inherited);
    std::string counted(const char* prefix, const char* op);

    GeneratorOptions m_options;
    Rng m_rng; // structure and clean values: identical for both sides of a pair
    Rng m_noise; // faults only
    Rng m_drift; // distinct values (unless repeatValues): drawn the same on both sides of a pair
    JsonEmitter m_dump;
    JsonEmitter m_construct;
    bool m_writeConstruct;
    bool m_writeStack;
    TextSink m_stackSink;
    GeneratedStats m_stats;
    std::int64_t m_entryIndex = 0;
    bool m_nanInjected = false;
    std::uint8_t m_gradFault = 0;

    std::unordered_map<std::string, int> m_apiCounters, m_moduleCounters, m_gradCounters;
    std::unordered_map<std::string, Tensor> m_params;
    std::vector<std::string> m_paramOrder;
    std::vector<Node> m_nodes;
    std::vector<int> m_roots;
    std::vector<OpenModule> m_open;

    std::vector<std::string> m_siteFrames, m_outerFrames;
    struct StackGroup {
        std::vector<int> sites;
        std::vector<std::string> names;
    };
    std::vector<StackGroup> m_stackGroups;
    std::unordered_map<std::string, std::size_t> m_stackGroupOf;
};

} // namespace msprobe::bench::detail
