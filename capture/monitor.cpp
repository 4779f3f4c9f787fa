// SPDX-License-Identifier: Apache-2.0
#include "capture/monitor.h"

#include "capture/model_registry.h"
#include "capture/recorder.h"
#include "capture/tensor_stats.h"
#include "support/error.h"
#include "support/json_file.h"
#include "support/python_text.h"

#include <torch/nn/module.h>
#include <torch/optim/adam.h>
#include <torch/optim/adamw.h>

#include <cmath>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <mutex>
#include <random>

namespace msprobe {

using namespace capture;

namespace {

struct Row {
    std::string name;
    bool hasMicroStep = false;
    RawStats stats;
    std::string shape, dtype;
    bool missing = false;
};

std::string shapeText(const at::Tensor& t)
{
    std::string s = "[";
    for (int64_t d = 0; d < t.dim(); ++d)
        s += (d ? ", " : "") + std::to_string(t.size(d));
    s += "]";
    return t.dim() > 1 ? "\"" + s + "\"" : s;
}

Row makeRow(std::string name, const at::Tensor& t, bool microStep)
{
    Row row;
    row.name = std::move(name);
    row.hasMicroStep = microStep;
    if (!t.defined() || t.numel() == 0) {
        row.missing = true;
        return row;
    }
    row.stats = computeRawStats(t);
    row.shape = shapeText(t);
    row.dtype = torchDtypeName(t.scalar_type());
    return row;
}

class Collector : public ModuleObserver {
public:
    Collector(const TrainerMonitor::Options& options)
        : m_options(options)
    {
    }
    void moduleForward(const ModuleInfo& module, std::int64_t, const std::vector<c10::IValue>& inputs,
        const std::vector<c10::IValue>& outputs) override
    {
        if (!collecting || !m_options.activations || m_options.backwardOnly || !wanted(module))
            return;
        add(actv, module.path, "input", tensorsOf(inputs));
        add(actv, module.path, "output", tensorsOf(outputs));
    }
    void moduleBackward(const ModuleInfo& module, std::int64_t, const std::vector<at::Tensor>& gradIn,
        const std::vector<at::Tensor>& gradOut) override
    {
        if (!collecting || !m_options.activations || m_options.forwardOnly || !wanted(module))
            return;
        add(actvGrad, module.path, "input", gradOut);
        add(actvGrad, module.path, "output", gradIn);
    }

    bool collecting = false;
    std::vector<Row> actv, actvGrad;
    std::mutex mutex;

private:
    static std::vector<at::Tensor> tensorsOf(const std::vector<c10::IValue>& values)
    {
        std::vector<at::Tensor> out;
        for (const auto& v : values) {
            if (v.isTensor())
                out.push_back(v.toTensor());
            else if (v.isTuple())
                for (const auto& item : v.toTupleRef().elements())
                    if (item.isTensor())
                        out.push_back(item.toTensor());
        }
        return out;
    }
    bool wanted(const ModuleInfo& module) const
    {
        if (m_options.targets.empty())
            return true;
        for (const auto& t : m_options.targets)
            if (module.path.rfind(t, 0) == 0)
                return true;
        return false;
    }
    void add(std::vector<Row>& rows, const std::string& path, const char* side, const std::vector<at::Tensor>& tensors)
    {
        std::lock_guard lock(mutex);
        const std::string base = path + "." + side;
        if (tensors.size() <= 1) {
            rows.push_back(makeRow(base, tensors.empty() ? at::Tensor() : tensors[0], true));
            return;
        }
        for (std::size_t k = 0; k < tensors.size(); ++k)
            rows.push_back(makeRow(base + "." + std::to_string(k), tensors[k], true));
    }
    const TrainerMonitor::Options& m_options;
};

std::string runDirName(std::int64_t rank)
{
    char stamp[64];
    const std::time_t now = std::time(nullptr);
    std::tm tm {};
    localtime_r(&now, &tm);
    std::strftime(stamp, sizeof stamp, "%b%d_%H-%M-%S", &tm);
    std::random_device rd;
    char hash[16];
    std::snprintf(hash, sizeof hash, "%08x", rd());
    return std::string(stamp) + "-rank" + std::to_string(rank) + "-" + hash;
}

} // namespace

struct TrainerMonitor::State {
    Options options;
    std::filesystem::path dir;
    Collector collector { options };
    torch::nn::Module* model = nullptr;
    torch::optim::Optimizer* optimizer = nullptr;
    std::vector<std::pair<std::string, at::Tensor>> params;
    std::int64_t step = 0;
    std::int64_t collected = 0;
    bool observing = false;
    std::vector<Row> gradRows, originRows, avgRows, avgSqRows;

    bool collectsStep() const
    {
        return step >= options.startStep && (step - options.startStep) % options.stepInterval == 0
            && collected < options.collectTimes;
    }

    std::string format(double v) const
    {
        if (std::isnan(v))
            return "nan";
        if (std::isinf(v))
            return v > 0 ? "inf" : "-inf";
        const double scale = std::pow(10.0, options.ndigits);
        const double r = std::round(v * scale) / scale;
        return support::pythonFloatRepr(std::isfinite(r) ? r : v);
    }

    void writeCsv(const std::string& metric, const std::vector<Row>& rows)
    {
        if (rows.empty())
            return;
        const bool micro = rows.front().hasMicroStep;
        std::string text = "vpp_stage,name,step";
        if (micro)
            text += ",micro_step";
        for (const auto& op : options.ops)
            text += "," + op;
        text += ",shape,dtype\n";
        for (const auto& row : rows) {
            text += "0," + row.name + "," + std::to_string(step);
            if (micro)
                text += ",0";
            for (const auto& op : options.ops) {
                text += ",";
                if (row.missing) {
                    text += "nan";
                    continue;
                }
                const RawStats& s = row.stats;
                const bool nanAll = s.nanCount > 0 && op != "nans" && op != "zeros";
                if (op == "min")
                    text += nanAll ? "nan" : format(s.min);
                else if (op == "max")
                    text += nanAll ? "nan" : format(s.max);
                else if (op == "norm")
                    text += nanAll ? "nan" : format(s.norm());
                else if (op == "mean")
                    text += nanAll ? "nan" : format(s.mean());
                else if (op == "zeros")
                    text += format(static_cast<double>(s.zeroCount) / static_cast<double>(s.numel));
                else if (op == "nans")
                    text += std::to_string(s.nanCount);
                else
                    text += "nan";
            }
            text += row.missing ? ",nan,nan\n" : "," + row.shape + "," + row.dtype + "\n";
        }
        const auto file = dir / (metric + "_" + std::to_string(step) + "-" + std::to_string(step) + ".csv");
        std::ofstream out(file, std::ios::binary);
        out << text;
        if (!out)
            std::fprintf(stderr, "msprobe monitor: cannot write %s\n", file.c_str());
    }

    void moments(bool exp)
    {
        if (!optimizer)
            return;
        auto& state = optimizer->state();
        for (const auto& [name, p] : params) {
            auto it = state.find(c10::guts::to_string(p.unsafeGetTensorImpl()));
            if (it == state.end())
                continue;
            at::Tensor t;
            if (auto* adam = dynamic_cast<torch::optim::AdamParamState*>(it->second.get()))
                t = exp ? adam->exp_avg() : adam->exp_avg_sq();
            else if (auto* adamw = dynamic_cast<torch::optim::AdamWParamState*>(it->second.get()))
                t = exp ? adamw->exp_avg() : adamw->exp_avg_sq();
            if (t.defined())
                (exp ? avgRows : avgSqRows).push_back(makeRow(name, t, false));
        }
    }
};

TrainerMonitor::TrainerMonitor(Options options)
    : m_state(std::make_unique<State>())
{
    m_state->options = std::move(options);
    if (m_state->options.stepInterval < 1)
        m_state->options.stepInterval = 1;
}

TrainerMonitor::TrainerMonitor(const std::filesystem::path& configPath, const std::filesystem::path& outputDir)
    : TrainerMonitor([&] {
        const auto json = support::readSmallJsonFile(configPath);
        const std::string file = configPath.string();
        Options o;
        o.outputDir = outputDir;
        auto integer = [&](const char* key, std::int64_t& out, std::int64_t min) {
            if (!json.contains(key))
                return;
            if (!json[key].is_number_integer() || json[key].get<std::int64_t>() < min)
                throw support::Error(file, std::string("key \"") + key + "\"", "must be an integer >= " + std::to_string(min));
            out = json[key].get<std::int64_t>();
        };
        auto boolean = [&](const char* key, bool& out) {
            if (!json.contains(key))
                return;
            if (!json[key].is_boolean())
                throw support::Error(file, std::string("key \"") + key + "\"", "must be true or false");
            out = json[key].get<bool>();
        };
        integer("start_step", o.startStep, 0);
        integer("step_interval", o.stepInterval, 1);
        integer("collect_times", o.collectTimes, 1);
        std::int64_t digits = o.ndigits;
        integer("ndigits", digits, 0);
        o.ndigits = static_cast<int>(std::min<std::int64_t>(digits, 17));
        boolean("xy_distribution", o.activations);
        boolean("forward_only", o.forwardOnly);
        boolean("backward_only", o.backwardOnly);
        boolean("wg_distribution", o.gradients);
        boolean("param_distribution", o.parameters);
        boolean("mv_distribution", o.moments);
        if (json.contains("format") && json["format"] != "csv")
            throw support::Error(file, "key \"format\"", "only \"csv\" is supported by the libtorch monitor; allowed values: \"csv\"");
        if (json.contains("ops")) {
            static const std::vector<std::string> allowed = { "min", "max", "norm", "zeros", "nans", "mean" };
            o.ops.clear();
            for (const auto& op : json["ops"]) {
                const std::string name = op.is_string() ? op.get<std::string>() : op.dump();
                if (std::find(allowed.begin(), allowed.end(), name) == allowed.end())
                    throw support::Error(file, "key \"ops\"",
                        "invalid op \"" + name + "\"; allowed values: \"min\", \"max\", \"norm\", \"zeros\", \"nans\", \"mean\"");
                o.ops.push_back(name);
            }
        }
        if (json.contains("targets") && json["targets"].is_object())
            for (const auto& item : json["targets"].items())
                o.targets.push_back(item.key());
        return o;
    }())
{
}

TrainerMonitor::~TrainerMonitor() { stop(); }

void TrainerMonitor::start(torch::nn::Module& model, torch::optim::Optimizer& optimizer)
{
    State& s = *m_state;
    stop();
    s.model = &model;
    s.optimizer = &optimizer;
    s.params.clear();
    for (const auto& p : model.named_parameters(true))
        s.params.emplace_back(p.key(), p.value());
    if (s.dir.empty()) {
        s.dir = s.options.outputDir / runDirName(s.options.rank);
        std::error_code ec;
        std::filesystem::create_directories(s.dir, ec);
        if (ec)
            throw support::Error(s.dir.string(), "", "cannot create monitor output directory: " + ec.message());
    }
    if (Recorder::instance().acquireModel(&model))
        registerNnModel(model);
    Recorder::instance().addObserver(&s.collector);
    s.observing = true;
    s.collector.collecting = s.collectsStep();
}

void TrainerMonitor::stop()
{
    State& s = *m_state;
    if (!s.observing)
        return;
    Recorder::instance().removeObserver(&s.collector);
    Recorder::instance().releaseModel(s.model);
    s.observing = false;
}

void TrainerMonitor::beforeOptimizerStep()
{
    State& s = *m_state;
    s.gradRows.clear();
    s.originRows.clear();
    s.avgRows.clear();
    s.avgSqRows.clear();
    if (!s.collectsStep())
        return;
    for (const auto& [name, p] : s.params) {
        if (s.options.gradients && p.grad().defined())
            s.gradRows.push_back(makeRow(name, p.grad(), false));
        if (s.options.parameters)
            s.originRows.push_back(makeRow(name, p, false));
    }
    if (s.options.moments) {
        s.moments(true);
        s.moments(false);
    }
}

void TrainerMonitor::afterOptimizerStep()
{
    State& s = *m_state;
    if (s.collectsStep()) {
        std::vector<Row> updated;
        if (s.options.parameters)
            for (const auto& [name, p] : s.params)
                updated.push_back(makeRow(name, p, false));
        {
            std::lock_guard lock(s.collector.mutex);
            s.writeCsv("actv", s.collector.actv);
            s.writeCsv("actv_grad", s.collector.actvGrad);
        }
        // Without data parallelism the gradients before and after reduction are the same; the unreduced ones
        // are listed in the order autograd produces them (last layer first).
        std::vector<Row> unreduced(s.gradRows.rbegin(), s.gradRows.rend());
        s.writeCsv("grad_unreduced", unreduced);
        s.writeCsv("grad_reduced", s.gradRows);
        s.writeCsv("param_origin", s.originRows);
        s.writeCsv("param_updated", updated);
        s.writeCsv("exp_avg", s.avgRows);
        s.writeCsv("exp_avg_sq", s.avgSqRows);
        ++s.collected;
    }
    {
        std::lock_guard lock(s.collector.mutex);
        s.collector.actv.clear();
        s.collector.actvGrad.clear();
    }
    ++s.step;
    s.collector.collecting = s.observing && s.collectsStep();
}

void TrainerMonitor::optimizerStep()
{
    beforeOptimizerStep();
    if (m_state->optimizer)
        m_state->optimizer->step();
    afterOptimizerStep();
}

const std::filesystem::path& TrainerMonitor::outputDir() const { return m_state->dir; }
std::int64_t TrainerMonitor::step() const { return m_state->step; }

} // namespace msprobe
