// SPDX-License-Identifier: Apache-2.0
// `msprobe memory capture` on a TorchScript model saved here: the dump CSV,
// steps, weights captured at load and tagged, module scopes, ACCESS rows, the watch file, usage errors.
#ifndef Q_MOC_RUN // moc needs nothing of libtorch, and parsing it cost moc 8 CPU-seconds per test
#include <torch/script.h>
#include <torch/torch.h>
#endif

#include "cli_runner.h"
#include "test_util.h"
#include "tst_capture_memory_util.h"

#include "memory/mem_model.h"
#include "memory/memscope_reader.h"

#include <QTemporaryDir>

namespace fs = std::filesystem;
using namespace msprobe::test;

namespace {

torch::jit::Module linear(const std::string& cls, int64_t in, int64_t out)
{
    torch::jit::Module m("__torch__." + cls);
    m.register_parameter("weight", (torch::randn({ out, in }) * 0.3).requires_grad_(), false);
    m.register_parameter("bias", (torch::randn({ out }) * 0.1).requires_grad_(), false);
    m.define("def forward(self, x):\n    return torch.matmul(x, self.weight.t()) + self.bias\n");
    return m;
}

// Net { block: Block { fc: Linear(8, 8) }, head: Linear(8, 3) }.
torch::jit::Module scriptNet()
{
    torch::manual_seed(11);
    torch::jit::Module block("__torch__.Block");
    block.register_module("fc", linear("Linear", 8, 8));
    block.define("def forward(self, x):\n    return torch.tanh(self.fc.forward(x)) + x\n");
    torch::jit::Module net("__torch__.Net");
    net.register_module("block", block);
    net.register_module("head", linear("Linear", 8, 3));
    net.define("def forward(self, x):\n    return self.head.forward(self.block.forward(x))\n");
    return net;
}

fs::path onlyCsv(const fs::path& root, const std::string& stem)
{
    fs::path found;
    for (const auto& item : fs::recursive_directory_iterator(root))
        if (item.path().extension() == ".csv" && item.path().filename().string().rfind(stem, 0) == 0)
            found = item.path();
    return found;
}

} // namespace

class TestCaptureMemoryCli : public QObject {
    Q_OBJECT

private slots:
    void captureTorchScriptModel()
    {
        QTemporaryDir tmp;
        const fs::path root = tmp.path().toStdString();
        scriptNet().save((root / "model.pt").string());
        torch::manual_seed(5);
        const auto bytes = torch::jit::pickle_save(c10::IValue(c10::ivalue::Tuple::create({ c10::IValue(torch::randn({ 4, 8 })) })));
        writeFile(root / "inputs.pt", std::string(bytes.begin(), bytes.end()));
        const Run run = runCli({ "memory", "capture", "--model", q((root / "model.pt").string()), "--input",
            q((root / "inputs.pt").string()), "-o", q((root / "mem").string()), "--steps", "2", "--access", "--backward",
            "--watch", "aten::tanh,aten::add" });
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        QVERIFY(run.out.contains("memory dump: "));
        const fs::path csvPath = onlyCsv(root / "mem", "memscope_dump_");
        QVERIFY(!csvPath.empty());
        QCOMPARE(csvPath.parent_path().filename().string(), std::string("dump"));
        const MemCsv csv = readMemCsv(csvPath);
        QCOMPARE(q(csv.header), q(std::string(
            "ID,Event,Event Type,Name,Timestamp(ns),Process Id,Thread Id,Device Id,Ptr,Attr,Call Stack(Python),Call Stack(C)")));
        QCOMPARE(rowsOf(csv, "SYSTEM", "STEP").size(), std::size_t(2));
        int weights = 0, gradients = 0;
        bool fcScope = false;
        for (const auto* row : rowsOf(csv, "MALLOC")) {
            weights += row->value("owner").find("@weight") != std::string::npos;
            gradients += row->value("owner").find("@gradient") != std::string::npos;
            fcScope = fcScope || row->pyStack().find("<module>(1): Module.block.fc.Linear") != std::string::npos;
        }
        QCOMPARE(weights, 4); // two weights, two biases, loaded under capture
        QCOMPARE(gradients, 4);
        QVERIFY(fcScope);
        QVERIFY(!rowsOf(csv, "ACCESS", "READ").empty());
        QVERIFY(!rowsOf(csv, "OP_LAUNCH", "ATEN_START").empty());
        const fs::path watchCsv = onlyCsv(root / "mem", "watch_dump_data_check_sum_");
        QVERIFY(!watchCsv.empty());
        std::ifstream in(watchCsv);
        std::string header, first;
        std::getline(in, header);
        std::getline(in, first);
        QCOMPARE(q(header), q("Tensor info,Check data sum"));
        QVERIFY2(first.find("/torch._ops.aten.tanh.default_1-torch._ops.aten.tanh.default_0_after,") != std::string::npos,
            first.c_str());
    }

    void captureAsDatabase()
    {
        // --format db: the same rows in memscope_dump_{time}.db, read back by the memory reader.
        QTemporaryDir tmp;
        const fs::path root = tmp.path().toStdString();
        scriptNet().save((root / "model.pt").string());
        torch::manual_seed(5);
        const auto bytes = torch::jit::pickle_save(c10::IValue(c10::ivalue::Tuple::create({ c10::IValue(torch::randn({ 4, 8 })) })));
        writeFile(root / "inputs.pt", std::string(bytes.begin(), bytes.end()));
        const Run run = runCli({ "memory", "capture", "--model", q((root / "model.pt").string()), "--input",
            q((root / "inputs.pt").string()), "-o", q((root / "mem").string()), "--steps", "2", "--backward", "--format", "db" });
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        fs::path db;
        for (const auto& item : fs::recursive_directory_iterator(root / "mem"))
            if (item.path().extension() == ".db")
                db = item.path();
        QVERIFY(!db.empty());
        QVERIFY(onlyCsv(root / "mem", "memscope_dump_").empty());
        const auto trace = msprobe::memory::readMemScope(db);
        int steps = 0, weights = 0, gradients = 0;
        for (const auto& e : trace.events) {
            steps += e.kind == msprobe::memory::EventKind::System && trace.is(e.subType, "STEP");
            weights += e.kind == msprobe::memory::EventKind::Malloc && trace.text(e.owner).find("@weight") != std::string_view::npos;
            gradients += e.kind == msprobe::memory::EventKind::Malloc && trace.text(e.owner).find("@gradient") != std::string_view::npos;
        }
        QCOMPARE(steps, 2);
        QCOMPARE(weights, 4);
        QCOMPARE(gradients, 4);
        QVERIFY(!msprobe::memory::buildModel(trace).blocks.empty());
    }

    void usageErrors()
    {
        QTemporaryDir tmp;
        const QString out = tmp.path() + "/mem";
        QCOMPARE(runCli({ "memory", "capture", "--model", "m.pt", "--input", "i.pt" }).exitCode, 2);
        QCOMPARE(runCli({ "memory", "capture", "--model", "m.pt", "--input", "i.pt", "-o", out, "--steps", "0" }).exitCode, 2);
        const Run missing = runCli({ "memory", "capture", "--model", tmp.path() + "/none.pt", "--input",
            tmp.path() + "/none_inputs.pt", "-o", out });
        QCOMPARE(missing.exitCode, 1);
        QVERIFY2(missing.err.contains("none_inputs.pt"), qPrintable(missing.err));
    }
};

QTEST_APPLESS_MAIN(TestCaptureMemoryCli)
#include "tst_capture_memory_cli.moc"
