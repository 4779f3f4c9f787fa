// SPDX-License-Identifier: Apache-2.0
// TorchScript models: automatic module capture (hierarchy, module_tap outputs, backward), TorchScript call
// stacks, non-intrusiveness, and the `msprobe dump` command line.
// libtorch headers before Qt's: Qt's "slots" macro breaks them.
#ifndef Q_MOC_RUN // moc needs nothing of libtorch, and parsing it cost moc 8 CPU-seconds per test
#include "capture/debugger.h"

#include <torch/csrc/jit/serialization/pickle.h>
#include <torch/script.h>
#include <torch/torch.h>
#endif

#include "dump/construct_stack.h"
#include "tst_capture_util.h"

#include <QProcess>
#include <QTemporaryDir>

using namespace msprobe;
using namespace msprobe::test;
namespace fs = std::filesystem;

namespace {

torch::jit::Module linear(const std::string& cls, int64_t in, int64_t out)
{
    torch::jit::Module m("__torch__." + cls);
    m.register_parameter("weight", (torch::randn({ out, in }) * 0.3).requires_grad_(), false);
    m.register_parameter("bias", (torch::randn({ out }) * 0.1).requires_grad_(), false);
    m.define("def forward(self, x):\n    return torch.matmul(x, self.weight.t()) + self.bias\n");
    return m;
}

// Net { block: Block { fc: Linear, act }, head: Linear }, block called twice.
torch::jit::Module scriptNet()
{
    torch::manual_seed(11);
    torch::jit::Module block("__torch__.Block");
    block.register_module("fc", linear("Linear", 8, 8));
    block.define("def forward(self, x):\n    return torch.tanh(self.fc.forward(x)) + x\n");
    torch::jit::Module net("__torch__.Net");
    net.register_module("block", block);
    net.register_module("head", linear("Linear", 8, 3));
    net.define("def forward(self, x):\n    y = self.block.forward(x)\n    y = self.block.forward(y)\n    return self.head.forward(y)\n");
    return net;
}

std::string saveModel(const fs::path& dir)
{
    const auto path = (dir / "model.pt").string();
    scriptNet().save(path);
    return path;
}

torch::Tensor scriptInput()
{
    torch::manual_seed(5);
    return torch::randn({ 4, 8 }).requires_grad_();
}

} // namespace

class TestCaptureScript : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { at::set_num_threads(1); }

    void modulesOfTorchScriptModel()
    {
        QTemporaryDir tmp;
        const fs::path root = tmp.path().toStdString();
        const std::string modelPath = saveModel(root);
        // Reference output and grads from an uninstrumented copy.
        auto plain = torch::jit::load(modelPath);
        const auto x0 = scriptInput();
        const auto y0 = plain.forward({ x0 }).toTensor();
        y0.sum().backward();

        auto model = torch::jit::load(modelPath);
        const auto x = scriptInput();
        torch::Tensor y;
        {
            PrecisionDebugger debugger(captureConfig((root / "dump").string(), "statistics", "mix"));
            debugger.start(model);
            y = model.forward({ x }).toTensor();
            y.sum().backward();
            debugger.stop();
            debugger.step();
        }
        QVERIFY(torch::equal(y, y0));
        QVERIFY(torch::equal(x.grad(), x0.grad()));

        const fs::path dir = rankDir(root / "dump");
        const dump::DumpFile dump = dump::readDumpJson(dir / "dump.json");
        for (const char* name : { "Module.block.Block.forward.0", "Module.block.Block.forward.1",
                 "Module.block.fc.Linear.forward.0", "Module.block.fc.Linear.forward.1", "Module.head.Linear.forward.0",
                 "Module.head.Linear.backward.0", "Module.block.Block.backward.1", "Module.block.Block.backward.0",
                 "Aten.tanh.1.forward", "Aten.tanh.1.backward", "Module.head.Linear.parameters_grad.0" })
            QVERIFY2(findEntry(dump, name) >= 0, (std::string(name) + "\n" + entryNames(dump)).c_str());
        QVERIFY(findEntry(dump, "Module.Net.forward.0") < 0);
        // Module outputs come from the module_tap rewrite: the head's output is the model output.
        const auto out = nodeAt(dump, "Module.head.Linear.forward.0", { "output", "0" });
        QVERIFY(out >= 0);
        const auto row = dump.nodes[out].payload;
        QCOMPARE(dump.tensors.max[row].f, y.max().item<double>());
        QCOMPARE(dump.tensors.min[row].f, y.min().item<double>());
        QVERIFY(nodeAt(dump, "Module.block.fc.Linear.forward.1", { "parameters", "weight" }) >= 0);
        // Backward of the whole model's input equals x.grad.
        const auto gradNode = nodeAt(dump, "Module.block.Block.backward.0", { "output", "0" });
        QVERIFY(gradNode >= 0);
        QCOMPARE(dump.tensors.max[dump.nodes[gradNode].payload].f, x.grad().max().item<double>());

        const auto construct = dump::readConstructJson(dir / "construct.json");
        auto parentOf = [&](const char* name) {
            const auto* node = construct.find(name);
            return node ? node->parent.value_or("null") : std::string("absent");
        };
        QCOMPARE(parentOf("Module.block.Block.forward.1"), std::string("null"));
        QCOMPARE(parentOf("Module.block.fc.Linear.forward.1"), std::string("Module.block.Block.forward.1"));
        QCOMPARE(parentOf("Aten.tanh.1.forward"), std::string("Module.block.Block.forward.1"));
        QCOMPARE(parentOf("Aten.matmul.0.forward"), std::string("Module.block.fc.Linear.forward.0"));
        QCOMPARE(parentOf("Module.block.fc.Linear.backward.0"), std::string("Module.block.Block.backward.0"));

        // TorchScript source lines in stack.json.
        const auto stack = dump::readStackJson(dir / "stack.json");
        const auto* frames = stack.framesOf("Aten.tanh.0.forward");
        QVERIFY(frames && !frames->empty());
        bool found = false;
        for (const auto& f : *frames)
            found |= f.find("torch.tanh") != std::string::npos;
        QVERIFY2(found, frames->front().c_str());
        QVERIFY(frames->front().find("torch.tanh") != std::string::npos); // innermost first
    }

    void dumpCommandLine()
    {
        QTemporaryDir tmp;
        const fs::path root = tmp.path().toStdString();
        const std::string modelPath = saveModel(root);
        const auto bytes = torch::jit::pickle_save(c10::IValue(c10::ivalue::Tuple::create({ c10::IValue(scriptInput().detach()) })));
        writeFile(root / "inputs.pt", std::string(bytes.begin(), bytes.end()));
        writeFile(root / "config.json",
            "{\"task\": \"tensor\", \"level\": \"L0\", \"dump_path\": \"" + (root / "out").string() + "\"}");
        QProcess process;
        process.start(MSPROBE_CLI_PATH,
            { "dump", "--model", q(modelPath), "--input", q((root / "inputs.pt").string()), "--config",
                q((root / "config.json").string()), "--steps", "2" });
        QVERIFY(process.waitForFinished(120000));
        QVERIFY2(process.exitCode() == 0, process.readAllStandardError().constData());
        for (int step = 0; step < 2; ++step) {
            const fs::path dir = rankDir(root / "out", step);
            const dump::DumpFile dump = dump::readDumpJson(dir / "dump.json");
            QCOMPARE(dump.level, std::string("L0"));
            QVERIFY(findEntry(dump, "Module.block.Block.forward.1") >= 0);
            QVERIFY(findEntry(dump, "Aten.tanh.0.forward") < 0);
            QVERIFY(fs::exists(dir / "dump_tensor_data" / "Module.head.Linear.forward.0.output.0.npy"));
        }

        QProcess bad;
        bad.start(MSPROBE_CLI_PATH, { "dump", "--model", q(modelPath), "--input", q((root / "inputs.pt").string()) });
        QVERIFY(bad.waitForFinished(60000));
        QCOMPARE(bad.exitCode(), 2);
        writeFile(root / "bad.json", "{\"task\": \"tensor\", \"level\": \"L7\"}");
        bad.start(MSPROBE_CLI_PATH, { "dump", "--model", q(modelPath), "--input", q((root / "inputs.pt").string()),
                                        "--config", q((root / "bad.json").string()) });
        QVERIFY(bad.waitForFinished(60000));
        QCOMPARE(bad.exitCode(), 1);
        QVERIFY(bad.readAllStandardError().contains("level"));
    }

    // libtorch failures (a model that is no archive, inputs the model cannot take) are one line naming the
    // cause, never a C++ backtrace of libtorch frames.
    void dumpErrorsAreOneLine()
    {
        QTemporaryDir tmp;
        const fs::path root = tmp.path().toStdString();
        const std::string modelPath = saveModel(root);
        writeFile(root / "config.json", "{\"task\": \"statistics\", \"level\": \"L0\", \"dump_path\": \"" + (root / "out").string() + "\"}");
        writeFile(root / "garbage.pt", "not a zip archive\n");
        const auto wrong = torch::jit::pickle_save(c10::IValue(torch::ones({ 2, 7 })));
        writeFile(root / "wrong.pt", std::string(wrong.begin(), wrong.end()));
        const std::vector<std::pair<QStringList, QString>> cases {
            { { "--model", q((root / "garbage.pt").string()), "--input", q((root / "wrong.pt").string()) }, "not a ZIP archive" },
            { { "--model", q(modelPath), "--input", q((root / "garbage.pt").string()) }, "cannot read inputs" },
            { { "--model", q(modelPath), "--input", q((root / "wrong.pt").string()) }, "running the model failed" },
        };
        for (const auto& [args, expected] : cases) {
            QProcess process;
            process.start(MSPROBE_CLI_PATH, QStringList { "dump" } + args + QStringList { "--config", q((root / "config.json").string()) });
            QVERIFY(process.waitForFinished(120000));
            const QString err = QString::fromUtf8(process.readAllStandardError()).trimmed();
            QCOMPARE(process.exitCode(), 1);
            QVERIFY2(err.contains(expected), qPrintable(err));
            QVERIFY2(!err.contains('\n') && !err.contains("frame #") && !err.contains("Exception raised from"), qPrintable(err));
        }
    }
};

QTEST_APPLESS_MAIN(TestCaptureScript)
#include "tst_capture_script.moc"
