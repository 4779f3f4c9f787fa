// SPDX-License-Identifier: Apache-2.0
// Our libtorch capture of a small block (layer_norm, linear, transpose, matmul, softmax, residual add, MLP with
// gelu), forward and backward, compared with the dump the Python tool would write for the same nn.Module: its
// entry names, argument layouts, module entries and construct.json are written here by hand from the Python
// tool's naming rules (Functional.layer_norm with 5 positional arguments, Torch.softmax with dim=-1 as a keyword,
// Tensor.__add__, counters per API name, a backward entry's input = grads of the outputs, output = grads of the
// tensor arguments). libtorch's nn::Linear decomposes into t + addmm (2-d input) or t + matmul + add_ (3-d),
// which must pair with F.linear forward and backward.
// The Python side's statistics are not taken from the capture: the test runs the calls Python's F.* would run
// (at::layer_norm, at::linear, ...) on the same weights and input, gets each call's gradients with
// torch::autograd::grad, and computes Max/Min/Mean/Norm as the Python tool does (torch.max/min/mean and
// torch.norm = linalg.vector_norm(t, 2), in the tensor's dtype). So "identical tensors pass" is shown here
// independently of the capture's own statistics code; a fault planted in the Python side's gelu is found there.
// libtorch headers before Qt's: Qt's "slots" macro breaks them.
#ifndef Q_MOC_RUN // moc needs nothing of libtorch, and parsing it cost moc 8 CPU-seconds per test
#include "capture/debugger.h"
#include "capture/module_scope.h"

#include <torch/torch.h>
#endif

#include "compare/compare_engine.h"
#include "compare/divergence.h"
#include "compare_pairs.h"
#include "tst_capture_util.h"

#include <QTemporaryDir>

#include <functional>

#include <nlohmann/json.hpp>

using namespace msprobe;
using namespace msprobe::test;
namespace fs = std::filesystem;
using OJson = nlohmann::ordered_json;

namespace {

struct CrossBlockImpl : torch::nn::Module {
    CrossBlockImpl()
    {
        norm = register_module("norm", torch::nn::LayerNorm(torch::nn::LayerNormOptions({ 4 })));
        qk = register_module("qk", torch::nn::Linear(4, 4));
        fc1 = register_module("fc1", torch::nn::Linear(4, 8));
        fc2 = register_module("fc2", torch::nn::Linear(8, 4));
    }
    torch::Tensor forward(torch::Tensor x)
    {
        MSPROBE_MODULE_SCOPE(x);
        const auto h = norm(x);
        const auto q = qk(h);
        const auto s = torch::matmul(q, h.transpose(0, 1));
        const auto p = torch::softmax(s, -1);
        const auto a = torch::matmul(p, h);
        const auto x1 = x + a;
        const auto m = fc2(torch::gelu(fc1(x1)));
        MSPROBE_RETURN(x1 + m);
    }
    torch::nn::LayerNorm norm { nullptr };
    torch::nn::Linear qk { nullptr }, fc1 { nullptr }, fc2 { nullptr };
};
TORCH_MODULE(CrossBlock);

struct CrossModelImpl : torch::nn::Module {
    CrossModelImpl() { block = register_module("block", CrossBlock()); }
    torch::Tensor forward(torch::Tensor x) { return block(x); }
    CrossBlock block { nullptr };
};
TORCH_MODULE(CrossModel);

std::string readText(const fs::path& file)
{
    std::ifstream in(file, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

// The gradient each tensor of `inputs` gets from `output` alone, given the gradient arriving at `output` (what a
// backward entry's "output" holds); undefined for a tensor that needs none.
std::vector<at::Tensor> gradsThrough(const at::Tensor& output, const std::vector<at::Tensor>& inputs, const at::Tensor& grad)
{
    return torch::autograd::grad({ output }, inputs, { grad }, /*retain_graph=*/true, /*create_graph=*/false, /*allow_unused=*/true);
}

// What the Python tool writes for a tensor: torch.max / torch.min / torch.mean / torch.norm of it, each .item().
OJson pythonStats(const at::Tensor& tensor)
{
    if (!tensor.defined())
        return nullptr;
    const at::Tensor t = tensor.detach();
    OJson shape = OJson::array();
    for (const auto size : t.sizes())
        shape.push_back(size);
    return { { "type", "torch.Tensor" }, { "dtype", "torch.float32" }, { "shape", shape }, { "Max", t.max().item<double>() },
        { "Min", t.min().item<double>() }, { "Mean", t.mean().item<double>() },
        { "Norm", at::linalg_vector_norm(t, 2).item<double>() }, { "requires_grad", tensor.requires_grad() } };
}

OJson scalar(const char* type, OJson value) { return { { "type", type }, { "value", std::move(value) } }; }

// A Python-side dump written call by call.
class PythonDump {
public:
    // An API call: its forward entry (args / kwargs as the Python tool writes them) and its backward entry. `op`
    // runs the call on its tensor arguments; its output is returned.
    at::Tensor api(const std::string& name, OJson args, OJson kwargs, const std::vector<at::Tensor>& tensorArgs,
        std::function<at::Tensor(const std::vector<at::Tensor>&)> op, const std::string& parent)
    {
        const at::Tensor output = op(tensorArgs);
        m_data[name + ".forward"] = { { "input_args", std::move(args) }, { "input_kwargs", std::move(kwargs) },
            { "output", OJson::array({ pythonStats(output) }) } };
        m_construct[name + ".forward"] = parent;
        m_backward.push_back({ name + ".backward", output, tensorArgs, backwardOf(parent), std::move(op) });
        return output;
    }
    void module(const std::string& forward, const at::Tensor& input, const at::Tensor& output, const std::vector<std::pair<const char*, at::Tensor>>& parameters,
        const char* parent, bool withBackward = true)
    {
        OJson body = { { "input_args", OJson::array({ pythonStats(input) }) }, { "input_kwargs", OJson::object() }, { "output", OJson::array({ pythonStats(output) }) } };
        if (!parameters.empty()) {
            OJson params = OJson::object();
            for (const auto& [name, tensor] : parameters)
                params[name] = pythonStats(tensor);
            body["parameters"] = params;
        }
        m_data[forward] = body;
        m_construct[forward] = parent ? OJson(parent) : OJson(nullptr);
        const std::string backward = backwardOf(forward);
        if (withBackward)
            m_backward.push_back({ backward, output, { input }, parent ? backwardOf(parent) : std::string(), nullptr });
        for (const auto& [name, tensor] : parameters)
            m_parameterGrads.push_back({ forward.substr(0, forward.find(".forward.")) + ".parameters_grad", name, tensor });
    }
    // The backward entries, with every gradient from one autograd::grad of the model's output (gradient `seed`).
    void backward(const at::Tensor& output, const at::Tensor& seed)
    {
        std::vector<at::Tensor> targets;
        for (const auto& call : m_backward)
            targets.push_back(call.output);
        for (const auto& grad : m_parameterGrads)
            targets.push_back(grad.tensor);
        const auto total = torch::autograd::grad({ output }, targets, { seed }, true, false, true);
        for (std::size_t k = 0; k < m_backward.size(); ++k) {
            const BackwardCall& call = m_backward[k];
            OJson inputs = OJson::array({ pythonStats(total[k]) }), outputs = OJson::array();
            for (const auto& grad : call.op ? gradsOfCall(call, total[k]) : gradsThrough(call.output, call.inputs, total[k]))
                outputs.push_back(pythonStats(grad));
            m_data[call.name] = { { "input", inputs }, { "output", outputs } };
            m_construct[call.name] = call.parent.empty() ? OJson(nullptr) : OJson(call.parent);
        }
        for (std::size_t k = 0; k < m_parameterGrads.size(); ++k) {
            const ParameterGrad& grad = m_parameterGrads[k];
            m_data[grad.entry + ".0"][grad.name] = OJson::array({ pythonStats(total[m_backward.size() + k]) });
        }
    }
    OJson& entry(const std::string& name) { return m_data.at(name); }

    void write(const fs::path& dir) const
    {
        OJson dump = { { "task", "statistics" }, { "level", "mix" }, { "framework", "pytorch" }, { "dump_data_dir", nullptr },
            { "data", m_data } };
        fs::create_directories(dir);
        writeFile(dir / "dump.json", dump.dump(1));
        writeFile(dir / "construct.json", m_construct.dump(1));
        writeFile(dir / "stack.json", "{}");
    }

private:
    static std::string backwardOf(const std::string& name)
    {
        const std::size_t at = name.find(".forward");
        return at == std::string::npos ? name : name.substr(0, at) + ".backward" + name.substr(at + 8);
    }
    struct BackwardCall {
        std::string name;
        at::Tensor output;
        std::vector<at::Tensor> inputs;
        std::string parent;
        std::function<at::Tensor(const std::vector<at::Tensor>&)> op; // an API call; null for a module
    };
    // The gradients an API call's own backward gives its tensor arguments: the call run again on detached
    // arguments (an argument may also reach the output through other calls, which must not count here).
    static std::vector<at::Tensor> gradsOfCall(const BackwardCall& call, const at::Tensor& grad)
    {
        std::vector<at::Tensor> local;
        for (const auto& t : call.inputs)
            local.push_back(t.detach().requires_grad_(t.requires_grad()));
        return torch::autograd::grad({ call.op(local) }, local, { grad }, false, false, true);
    }
    struct ParameterGrad {
        std::string entry, name;
        at::Tensor tensor;
    };
    OJson m_data = OJson::object(), m_construct = OJson::object();
    std::vector<BackwardCall> m_backward;
    std::vector<ParameterGrad> m_parameterGrads;
};

struct LinearModelImpl : torch::nn::Module {
    LinearModelImpl() { fc = register_module("fc", torch::nn::Linear(4, 3)); }
    torch::Tensor forward(torch::Tensor x) { return fc(x); }
    torch::nn::Linear fc { nullptr };
};
TORCH_MODULE(LinearModel);

constexpr const char* kBlock = "Module.block.CrossBlock.forward.0";
constexpr const char* kNorm = "Module.block.norm.LayerNorm.forward.0";
constexpr const char* kQk = "Module.block.qk.Linear.forward.0";
constexpr const char* kFc1 = "Module.block.fc1.Linear.forward.0";
constexpr const char* kFc2 = "Module.block.fc2.Linear.forward.0";

// The Python tool's mix dump of CrossModel's forward and backward for `input` (gradient `seed` at the output),
// the calls run again here the way Python's F.* runs them: F.linear reaches aten linear.
void writePythonSide(CrossModel& model, const at::Tensor& input, const at::Tensor& seed, const fs::path& dir, bool faultyGelu)
{
    const CrossBlockImpl& block = *model->block;
    const at::Tensor& normW = block.norm->weight;
    const at::Tensor& normB = block.norm->bias;
    auto linearArgs = [](const at::Tensor& in, const torch::nn::Linear& layer) {
        return OJson::array({ pythonStats(in), pythonStats(layer->weight), pythonStats(layer->bias) });
    };
    PythonDump py;
    const at::Tensor x = input.detach().clone().requires_grad_(true);
    const at::Tensor h = py.api("Functional.layer_norm.0",
        OJson::array({ pythonStats(x), OJson::array({ scalar("int", 4) }), pythonStats(normW), pythonStats(normB), scalar("float", 1e-05) }),
        OJson::object(), { x, normW, normB }, [](const auto& t) { return at::layer_norm(t[0], { 4 }, t[1], t[2], 1e-05); }, kNorm);
    py.module(kNorm, x, h, { { "weight", normW }, { "bias", normB } }, kBlock);
    const auto linear = [](const auto& t) { return at::linear(t[0], t[1], t[2]); };
    const at::Tensor q = py.api("Functional.linear.0", linearArgs(h, block.qk), OJson::object(), { h, block.qk->weight, block.qk->bias }, linear, kQk);
    py.module(kQk, h, q, { { "weight", block.qk->weight }, { "bias", block.qk->bias } }, kBlock);
    const at::Tensor ht = py.api("Tensor.transpose.0", OJson::array({ pythonStats(h), scalar("int", 0), scalar("int", 1) }), OJson::object(),
        { h }, [](const auto& t) { return t[0].transpose(0, 1); }, kBlock);
    const auto matmul = [](const auto& t) { return at::matmul(t[0], t[1]); };
    const auto add = [](const auto& t) { return t[0] + t[1]; };
    const at::Tensor s = py.api("Torch.matmul.0", OJson::array({ pythonStats(q), pythonStats(ht) }), OJson::object(), { q, ht }, matmul, kBlock);
    const at::Tensor p = py.api("Torch.softmax.0", OJson::array({ pythonStats(s) }), OJson { { "dim", scalar("int", -1) } }, { s },
        [](const auto& t) { return at::softmax(t[0], -1); }, kBlock);
    const at::Tensor a = py.api("Tensor.__matmul__.0", OJson::array({ pythonStats(p), pythonStats(h) }), OJson::object(), { p, h }, matmul, kBlock);
    const at::Tensor x1 = py.api("Tensor.__add__.0", OJson::array({ pythonStats(x), pythonStats(a) }), OJson::object(), { x, a }, add, kBlock);
    const at::Tensor f1
        = py.api("Functional.linear.1", linearArgs(x1, block.fc1), OJson::object(), { x1, block.fc1->weight, block.fc1->bias }, linear, kFc1);
    py.module(kFc1, x1, f1, { { "weight", block.fc1->weight }, { "bias", block.fc1->bias } }, kBlock);
    const at::Tensor g = py.api("Functional.gelu.0", OJson::array({ pythonStats(f1) }), OJson::object(), { f1 },
        [](const auto& t) { return at::gelu(t[0]); }, kBlock);
    if (faultyGelu) {
        OJson& out = py.entry("Functional.gelu.0.forward")["output"][0];
        out["Max"] = out["Max"].get<double>() * 1.5;
    }
    const at::Tensor f2
        = py.api("Functional.linear.2", linearArgs(g, block.fc2), OJson::object(), { g, block.fc2->weight, block.fc2->bias }, linear, kFc2);
    py.module(kFc2, g, f2, { { "weight", block.fc2->weight }, { "bias", block.fc2->bias } }, kBlock);
    const at::Tensor out = py.api("Tensor.__add__.1", OJson::array({ pythonStats(x1), pythonStats(f2) }), OJson::object(), { x1, f2 }, add, kBlock);
    py.module(kBlock, x, out, {}, nullptr);
    py.backward(out, seed);
    py.write(dir);
}

std::string failingRows(const compare::CompareTable& table)
{
    std::string text;
    for (std::size_t r = 0; r < table.rows.size() && text.size() < 4000; ++r)
        if (table.rows[r].level != compare::ResultLevel::Pass || table.rows[r].bench == compare::kUnmatched) {
            compare::Cell cell;
            table.cell(r, compare::Column::ErrMessage, cell);
            text += table.npu.items->name(table.npuItem(table.rows[r])) + ": " + cell.text + "\n";
        }
    return text;
}

} // namespace

class TestCaptureCrossRuntime : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { at::set_num_threads(1); }

    void captureOfABlockPairsWithThePythonDump()
    {
        QTemporaryDir tmp;
        const fs::path root = tmp.path().toStdString();
        torch::manual_seed(7);
        CrossModel model;
        const torch::Tensor input = torch::randn({ 2, 4 });
        const torch::Tensor seed = torch::randn({ 2, 4 });
        {
            const auto cfg = captureConfig((root / "cpp").string(), "statistics", "mix", "", "\"risk_level\": \"ALL\"");
            const torch::Tensor x = input.clone().requires_grad_(true);
            PrecisionDebugger debugger(cfg);
            debugger.start(*model);
            model(x).backward(seed);
            debugger.stop();
        }
        const fs::path cppDir = rankDir(root / "cpp");
        const OJson aten = OJson::parse(readText(cppDir / "dump.json"));
        const std::string names = entryNames(dump::readDumpJson(cppDir / "dump.json"));
        // libtorch's C++ nn::Linear runs t + addmm (torch::nn::functional::linear) where Python's F.linear reaches
        // aten linear: the pairing takes the two for one linear call, forward and backward.
        for (const char* entry : { "Aten.layer_norm.0.forward", "Aten.t.2.forward", "Aten.addmm.2.forward", "Aten.transpose.0.forward",
                 "Aten.matmul.1.forward", "Aten.softmax.0.forward", "Aten.add.1.forward", "Aten.gelu.0.forward", "Aten.t.1.backward",
                 "Aten.addmm.1.backward", "Aten.gelu.0.backward", kBlock, kNorm, kFc2 })
            QVERIFY2(aten.at("data").contains(entry), (std::string(entry) + " not in:\n" + names).c_str());

        for (const bool faulty : { false, true }) {
            const fs::path pyDir = root / (faulty ? "py_faulty" : "py");
            writePythonSide(model, input, seed, pyDir, faulty);
            const auto table = compare::compareDumpFiles(cppDir / "dump.json", pyDir / "dump.json", {});
            const compare::CrossRuntimeReport& report = table->crossRuntime;
            QVERIFY(report.active);
            QVERIFY(report.scoped);
            QVERIFY2(report.unpairedNpuEntries.empty(), (failingRows(*table) + "\n" + names).c_str());
            QVERIFY2(report.unpairedBenchEntries.empty(), (report.unpairedBenchEntries.empty() ? "" : report.unpairedBenchEntries[0]).c_str());
            QCOMPARE(report.unpairedRows, std::size_t(0));
            QCOMPARE(report.pairedRows, table->rows.size());
            QVERIFY(table->rows.size() > 80);
            // The decomposed linear: t's input is F.linear's weight, addmm's bias/input/output are its own; backward:
            // addmm's incoming gradient and its bias and input gradients, t's weight gradient.
            const auto pairs = pairsOf(*table);
            const std::map<std::string, std::string> expected = {
                { "Aten.t.1.forward.input.0", "Functional.linear.1.forward.input.1" },
                { "Aten.addmm.1.forward.input.0", "Functional.linear.1.forward.input.2" },
                { "Aten.addmm.1.forward.input.1", "Functional.linear.1.forward.input.0" },
                { "Aten.addmm.1.forward.output.0", "Functional.linear.1.forward.output.0" },
                { "Aten.addmm.1.backward.input.0", "Functional.linear.1.backward.input.0" },
                { "Aten.addmm.1.backward.output.0", "Functional.linear.1.backward.output.2" },
                { "Aten.addmm.1.backward.output.1", "Functional.linear.1.backward.output.0" },
                { "Aten.t.1.backward.output.0", "Functional.linear.1.backward.output.1" },
                { "Aten.softmax.0.forward.input.1", "Torch.softmax.0.forward.input.dim" },
                { "Aten.softmax.0.backward.output.0", "Torch.softmax.0.backward.output.0" },
            };
            for (const auto& [npu, bench] : expected) {
                QVERIFY2(pairs.contains(npu), npu.c_str());
                QCOMPARE(QString::fromStdString(pairs.at(npu)), QString::fromStdString(bench));
            }
            // The transposed weight's gradient (addmm's third, t's incoming) is an intermediate result: left out.
            QVERIFY(!pairs.contains("Aten.addmm.1.backward.output.2"));
            QVERIFY(!pairs.contains("Aten.t.1.backward.input.0"));
            QVERIFY(report.ignoredRows >= 4); // cudnn_enable, softmax dtype, alpha x2 (and gelu's approximate when written)
            const auto point = compare::firstDivergence(*table);
            if (!faulty) {
                QVERIFY2(!point, point ? (point->entry + ": " + point->reason).c_str() : "");
                QVERIFY2(table->countLevel(compare::ResultLevel::Pass) == table->rows.size(), failingRows(*table).c_str());
            } else {
                QVERIFY(point);
                QCOMPARE(QString::fromStdString(point->entry), QStringLiteral("Aten.gelu.0.forward"));
            }
        }
    }

    // A 3-d input: libtorch's nn::Linear runs t + matmul + add_ (the bias added in place), forward and backward
    // against one F.linear call.
    void linearOnThreeDimensionalInputPairsForwardAndBackward()
    {
        QTemporaryDir tmp;
        const fs::path root = tmp.path().toStdString();
        torch::manual_seed(3);
        LinearModel model;
        const torch::Tensor input = torch::randn({ 2, 2, 4 });
        const torch::Tensor seed = torch::randn({ 2, 2, 3 });
        {
            const auto cfg = captureConfig((root / "cpp").string(), "statistics", "mix", "", "\"risk_level\": \"ALL\"");
            const torch::Tensor x = input.clone().requires_grad_(true);
            PrecisionDebugger debugger(cfg);
            debugger.start(*model);
            model(x).backward(seed);
            debugger.stop();
        }
        const fs::path cppDir = rankDir(root / "cpp");
        const std::string names = entryNames(dump::readDumpJson(cppDir / "dump.json"));
        for (const char* entry : { "Aten.t.0.forward", "Aten.matmul.0.forward", "Aten.add_.0.forward", "Aten.add_.0.backward",
                 "Aten.matmul.0.backward", "Aten.t.0.backward" })
            QVERIFY2(names.find(std::string(entry) + "\n") != std::string::npos, (std::string(entry) + " not in:\n" + names).c_str());

        constexpr const char* kFc = "Module.fc.Linear.forward.0";
        PythonDump py;
        const at::Tensor x = input.detach().clone().requires_grad_(true);
        const at::Tensor& weight = model->fc->weight;
        const at::Tensor& bias = model->fc->bias;
        const at::Tensor out = py.api("Functional.linear.0", OJson::array({ pythonStats(x), pythonStats(weight), pythonStats(bias) }),
            OJson::object(), { x, weight, bias }, [](const auto& t) { return at::linear(t[0], t[1], t[2]); }, kFc);
        // The capture writes no Module.fc.Linear.backward.0 for this module (its output is the tensor add_ changed
        // in place), so the Python side's module backward entry is left out here: this test is about F.linear.
        const bool moduleBackward = names.find("Module.fc.Linear.backward.0\n") != std::string::npos;
        QVERIFY2(!moduleBackward, "the capture now writes the module's backward: write it on the Python side too");
        py.module(kFc, x, out, { { "weight", weight }, { "bias", bias } }, nullptr, moduleBackward);
        py.backward(out, seed);
        py.write(root / "py");

        const auto table = compare::compareDumpFiles(cppDir / "dump.json", root / "py" / "dump.json", {});
        const compare::CrossRuntimeReport& report = table->crossRuntime;
        QVERIFY(report.active);
        QVERIFY2(report.unpairedRows == 0, (failingRows(*table) + "\n" + names).c_str());
        QVERIFY2(report.unpairedBenchEntries.empty(), (report.unpairedBenchEntries.empty() ? "" : report.unpairedBenchEntries[0] + "\n" + names).c_str());
        const auto pairs = pairsOf(*table);
        const std::map<std::string, std::string> expected = {
            { "Aten.t.0.forward.input.0", "Functional.linear.0.forward.input.1" },
            { "Aten.matmul.0.forward.input.0", "Functional.linear.0.forward.input.0" },
            { "Aten.add_.0.forward.input.1", "Functional.linear.0.forward.input.2" },
            { "Aten.add_.0.forward.output.0", "Functional.linear.0.forward.output.0" },
            { "Aten.add_.0.backward.input.0", "Functional.linear.0.backward.input.0" },
            { "Aten.add_.0.backward.output.1", "Functional.linear.0.backward.output.2" },
            { "Aten.matmul.0.backward.output.0", "Functional.linear.0.backward.output.0" },
            { "Aten.t.0.backward.output.0", "Functional.linear.0.backward.output.1" },
        };
        for (const auto& [npu, bench] : expected) {
            QVERIFY2(pairs.contains(npu), (npu + " not a row:\n" + names).c_str());
            QCOMPARE(QString::fromStdString(pairs.at(npu)), QString::fromStdString(bench));
        }
        // Intermediate results (the transposed weight, the product before the bias) and their gradients: left out.
        for (const char* leftOut : { "Aten.matmul.0.forward.output.0", "Aten.matmul.0.backward.output.1", "Aten.matmul.0.backward.input.0",
                 "Aten.add_.0.backward.output.0", "Aten.t.0.backward.input.0" })
            QVERIFY2(!pairs.contains(leftOut), leftOut);
        QVERIFY2(!compare::firstDivergence(*table), failingRows(*table).c_str());
        QVERIFY2(table->countLevel(compare::ResultLevel::Pass) == table->rows.size(), failingRows(*table).c_str());
    }
};

QTEST_GUILESS_MAIN(TestCaptureCrossRuntime)
#include "tst_capture_crossruntime.moc"
