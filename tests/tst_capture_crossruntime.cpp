// SPDX-License-Identifier: Apache-2.0
// Our libtorch capture of a small block (layer_norm, linear, transpose, matmul, softmax, residual add, MLP with
// gelu) compared with the dump the Python tool would write for the same nn.Module: its entry names, argument
// layouts, module entries and construct.json are written here by hand from the Python tool's naming rules
// (Functional.layer_norm with 5 positional arguments, Torch.softmax with dim=-1 as a keyword, Tensor.__add__,
// counters per API name). libtorch's nn::Linear decomposes into t + addmm, which must pair with F.linear.
// Its tensor statistics are the capture's own for the same tensors (what identical
// weights give), so every row must pair and pass; a fault planted in the Python side's gelu is found there.
// libtorch headers before Qt's: Qt's "slots" macro breaks them.
#include "capture/debugger.h"
#include "capture/module_scope.h"

#include <torch/torch.h>

#include "compare/compare_engine.h"
#include "compare/divergence.h"
#include "tst_capture_util.h"

#include <QTemporaryDir>

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

// The Python tool's dump of the same forward, written by hand; tensors are taken from the capture's entries
// (the same tensor at the same place), every name and non-tensor argument is the Python tool's.
class PythonDump {
public:
    explicit PythonDump(const OJson& aten)
        : m_aten(aten.at("data"))
    {
    }

    // The tensor leaf at `path` of the capture's entry `entry` ("input_args", 0) etc.
    OJson tensor(const std::string& entry, const char* field, std::size_t index) const
    {
        return m_aten.at(entry).at(field).at(index);
    }
    OJson parameter(const std::string& module, const char* name) const { return m_aten.at(module).at("parameters").at(name); }
    static OJson scalar(const char* type, OJson value) { return { { "type", type }, { "value", std::move(value) } }; }

    void api(const std::string& name, OJson args, OJson kwargs, OJson output, const char* parent)
    {
        m_data[name] = { { "input_args", std::move(args) }, { "input_kwargs", std::move(kwargs) }, { "output", std::move(output) } };
        m_construct[name] = parent;
    }
    // A module from the capture's entry of the same name (the Python tool writes the same fields for it).
    void module(const std::string& name, const char* parent)
    {
        m_data[name] = m_aten.at(name);
        m_construct[name] = parent ? OJson(parent) : OJson(nullptr);
    }

    void write(const fs::path& dir) const
    {
        OJson dump = { { "task", "statistics" }, { "level", "mix" }, { "framework", "pytorch" }, { "dump_data_dir", nullptr },
            { "data", m_data } };
        writeFile(dir / "dump.json", dump.dump(1));
        writeFile(dir / "construct.json", m_construct.dump(1));
        writeFile(dir / "stack.json", "{}");
    }

private:
    const OJson& m_aten;
    OJson m_data = OJson::object(), m_construct = OJson::object();
};

constexpr const char* kBlock = "Module.block.CrossBlock.forward.0";
constexpr const char* kNorm = "Module.block.norm.LayerNorm.forward.0";
constexpr const char* kQk = "Module.block.qk.Linear.forward.0";
constexpr const char* kFc1 = "Module.block.fc1.Linear.forward.0";
constexpr const char* kFc2 = "Module.block.fc2.Linear.forward.0";

// The Python tool's mix dump of CrossModel's forward, in its order (a module after the calls inside it).
void writePythonSide(const OJson& aten, const fs::path& dir, bool faultyGelu)
{
    PythonDump py(aten);
    auto t = [&](const char* entry, const char* field, std::size_t i) { return py.tensor(entry, field, i); };
    py.api("Functional.layer_norm.0.forward",
        OJson::array({ t("Aten.layer_norm.0.forward", "input_args", 0), OJson::array({ PythonDump::scalar("int", 4) }),
            py.parameter(kNorm, "weight"), py.parameter(kNorm, "bias"), PythonDump::scalar("float", 1e-05) }),
        OJson::object(), OJson::array({ t("Aten.layer_norm.0.forward", "output", 0) }), kNorm);
    py.module(kNorm, kBlock);
    py.api("Functional.linear.0.forward",
        OJson::array({ t("Aten.addmm.0.forward", "input_args", 1), py.parameter(kQk, "weight"), py.parameter(kQk, "bias") }),
        OJson::object(), OJson::array({ t("Aten.addmm.0.forward", "output", 0) }), kQk);
    py.module(kQk, kBlock);
    py.api("Tensor.transpose.0.forward",
        OJson::array({ t("Aten.transpose.0.forward", "input_args", 0), PythonDump::scalar("int", 0), PythonDump::scalar("int", 1) }),
        OJson::object(), OJson::array({ t("Aten.transpose.0.forward", "output", 0) }), kBlock);
    py.api("Torch.matmul.0.forward",
        OJson::array({ t("Aten.matmul.0.forward", "input_args", 0), t("Aten.matmul.0.forward", "input_args", 1) }), OJson::object(),
        OJson::array({ t("Aten.matmul.0.forward", "output", 0) }), kBlock);
    py.api("Torch.softmax.0.forward", OJson::array({ t("Aten.softmax.0.forward", "input_args", 0) }),
        OJson { { "dim", PythonDump::scalar("int", -1) } }, OJson::array({ t("Aten.softmax.0.forward", "output", 0) }), kBlock);
    py.api("Tensor.__matmul__.0.forward",
        OJson::array({ t("Aten.matmul.1.forward", "input_args", 0), t("Aten.matmul.1.forward", "input_args", 1) }), OJson::object(),
        OJson::array({ t("Aten.matmul.1.forward", "output", 0) }), kBlock);
    py.api("Tensor.__add__.0.forward",
        OJson::array({ t("Aten.add.0.forward", "input_args", 0), t("Aten.add.0.forward", "input_args", 1) }), OJson::object(),
        OJson::array({ t("Aten.add.0.forward", "output", 0) }), kBlock);
    py.api("Functional.linear.1.forward",
        OJson::array({ t("Aten.addmm.1.forward", "input_args", 1), py.parameter(kFc1, "weight"), py.parameter(kFc1, "bias") }),
        OJson::object(), OJson::array({ t("Aten.addmm.1.forward", "output", 0) }), kFc1);
    py.module(kFc1, kBlock);
    OJson geluOut = t("Aten.gelu.0.forward", "output", 0);
    if (faultyGelu)
        geluOut["Max"] = geluOut["Max"].get<double>() * 1.5;
    py.api("Functional.gelu.0.forward", OJson::array({ t("Aten.gelu.0.forward", "input_args", 0) }), OJson::object(),
        OJson::array({ geluOut }), kBlock);
    py.api("Functional.linear.2.forward",
        OJson::array({ t("Aten.addmm.2.forward", "input_args", 1), py.parameter(kFc2, "weight"), py.parameter(kFc2, "bias") }),
        OJson::object(), OJson::array({ t("Aten.addmm.2.forward", "output", 0) }), kFc2);
    py.module(kFc2, kBlock);
    py.api("Tensor.__add__.1.forward",
        OJson::array({ t("Aten.add.1.forward", "input_args", 0), t("Aten.add.1.forward", "input_args", 1) }), OJson::object(),
        OJson::array({ t("Aten.add.1.forward", "output", 0) }), kBlock);
    py.module(kBlock, nullptr);
    py.write(dir);
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
        {
            torch::manual_seed(7);
            CrossModel model;
            torch::NoGradGuard noGrad;
            const auto cfg = captureConfig((root / "cpp").string(), "statistics", "mix", "", "\"risk_level\": \"ALL\"");
            const torch::Tensor input = torch::randn({ 2, 4 });
            PrecisionDebugger debugger(cfg);
            debugger.start(*model);
            model(input);
            debugger.stop();
        }
        const fs::path cppDir = rankDir(root / "cpp");
        const OJson aten = OJson::parse(readText(cppDir / "dump.json"));
        const std::string names = entryNames(readDumpJson(cppDir / "dump.json"));
        // libtorch's C++ nn::Linear runs t + addmm (torch::nn::functional::linear) where Python's F.linear reaches
        // aten linear: the pairing takes the two for one linear call.
        for (const char* entry : { "Aten.layer_norm.0.forward", "Aten.t.2.forward", "Aten.addmm.2.forward", "Aten.transpose.0.forward", "Aten.matmul.1.forward",
                 "Aten.softmax.0.forward", "Aten.add.1.forward", "Aten.gelu.0.forward", kBlock, kNorm, kFc2 })
            QVERIFY2(aten.at("data").contains(entry), (std::string(entry) + " not in:\n" + names).c_str());

        for (const bool faulty : { false, true }) {
            const fs::path pyDir = root / (faulty ? "py_faulty" : "py");
            writePythonSide(aten, pyDir, faulty);
            const auto table = compareDumpFiles(cppDir / "dump.json", pyDir / "dump.json", {});
            const CrossRuntimeReport& report = table->crossRuntime;
            QVERIFY(report.active);
            QVERIFY(report.scoped);
            QVERIFY2(report.unpairedNpuEntries.empty(), (report.unpairedNpuEntries.empty() ? "" : report.unpairedNpuEntries[0]).c_str());
            QVERIFY2(report.unpairedBenchEntries.empty(), (report.unpairedBenchEntries.empty() ? "" : report.unpairedBenchEntries[0]).c_str());
            QCOMPARE(report.unpairedRows, std::size_t(0));
            QCOMPARE(report.pairedRows, table->rows.size());
            QVERIFY(table->rows.size() > 40);
            // The decomposed linear: t's input is F.linear's weight, addmm's bias/input/output are its own.
            std::map<std::string, std::string> pairs;
            for (const CompareRow& row : table->rows)
                pairs[table->npu.items->name(table->npuItem(row))] = table->bench.items->name(*table->benchItem(row));
            QCOMPARE(QString::fromStdString(pairs["Aten.t.1.forward.input.0"]), QStringLiteral("Functional.linear.1.forward.input.1"));
            QCOMPARE(QString::fromStdString(pairs["Aten.addmm.1.forward.input.0"]), QStringLiteral("Functional.linear.1.forward.input.2"));
            QCOMPARE(QString::fromStdString(pairs["Aten.addmm.1.forward.input.1"]), QStringLiteral("Functional.linear.1.forward.input.0"));
            QCOMPARE(QString::fromStdString(pairs["Aten.addmm.1.forward.output.0"]), QStringLiteral("Functional.linear.1.forward.output.0"));
            QCOMPARE(QString::fromStdString(pairs["Aten.softmax.0.forward.input.1"]), QStringLiteral("Torch.softmax.0.forward.input.dim"));
            QVERIFY(report.ignoredRows >= 4); // cudnn_enable, softmax dtype, alpha x2 (and gelu's approximate when written)
            const auto point = firstDivergence(*table);
            if (!faulty) {
                QVERIFY2(!point, point ? (point->entry + ": " + point->reason).c_str() : "");
                QCOMPARE(table->countLevel(ResultLevel::Pass), table->rows.size());
            } else {
                QVERIFY(point);
                QCOMPARE(QString::fromStdString(point->entry), QStringLiteral("Aten.gelu.0.forward"));
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestCaptureCrossRuntime)
#include "tst_capture_crossruntime.moc"
