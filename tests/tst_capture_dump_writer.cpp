// SPDX-License-Identifier: Apache-2.0
// The capture's writer: async dump equal to sync, I/O failures recorded while training goes on, outermost ops
// only, in-place changes after a reused statistic, step files complete, tensor files waiting for room, an
// unmakeable dump folder, and seed_all reproducibility.
// libtorch headers before Qt's: Qt's "slots" macro breaks them.
#ifndef Q_MOC_RUN // moc needs nothing of libtorch, and parsing it cost moc 8 CPU-seconds per test
#include "capture/debugger.h"
#include "capture/dump_writer.h"
#include "capture/seed.h"

#include <torch/torch.h>
#endif

#include "dump/tensor_file.h"
#include "support/error.h"
#include "tst_capture_training.h"
#include "tst_capture_util.h"

#include <QTemporaryDir>

#include <atomic>
#include <fcntl.h>
#include <fstream>
#include <future>
#include <thread>
#include <unistd.h>

using namespace msprobe;
using namespace msprobe::test;
namespace fs = std::filesystem;

class TestCaptureDumpWriter : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { at::set_num_threads(1); }

    void asyncDumpMatchesSync_data()
    {
        QTest::addColumn<QString>("task");
        QTest::newRow("statistics") << "statistics"; // CPU statistics are computed at once even with async_dump
        QTest::newRow("tensor") << "tensor"; // files (and their statistics) are made on the writer thread
    }

    void asyncDumpMatchesSync()
    {
        QFETCH(QString, task);
        QTemporaryDir a, b;
        const auto sync = captureConfig(a.path().toStdString(), task.toStdString(), "mix");
        const auto async = captureConfig(b.path().toStdString(), task.toStdString(), "mix", "", "\"async_dump\": true");
        trainTiny(1, &sync);
        trainTiny(1, &async);
        const fs::path dirS = rankDir(a.path().toStdString()), dirA = rankDir(b.path().toStdString());
        const dump::DumpFile ds = dump::readDumpJson(dirS / "dump.json");
        const dump::DumpFile da = dump::readDumpJson(dirA / "dump.json");
        QCOMPARE(da.entries.size(), ds.entries.size());
        QCOMPARE(da.tensors.size(), ds.tensors.size());
        for (std::size_t k = 0; k < ds.entries.size(); ++k)
            QCOMPARE(da.entryName(k), ds.entryName(k));
        for (std::size_t r = 0; r < ds.tensors.size(); ++r) {
            QVERIFY(da.tensors.max[r] == ds.tensors.max[r]);
            QVERIFY(da.tensors.norm[r] == ds.tensors.norm[r]);
        }
        if (task == "tensor") {
            std::size_t files = 0;
            for (const auto& file : fs::directory_iterator(dirS / "dump_tensor_data")) {
                const fs::path other = dirA / "dump_tensor_data" / file.path().filename();
                QVERIFY2(fs::exists(other), other.c_str());
                QVERIFY2(readText(other) == readText(file.path()), other.c_str());
                ++files;
            }
            QVERIFY(files > 100);
        }
    }

    void ioFailureIsRecordedAndTrainingContinues()
    {
        if (!fs::exists("/dev/full"))
            QSKIP("no /dev/full");
        QTemporaryDir tmp;
        const std::string root = tmp.path().toStdString();
        // dump.json and one tensor file land on a full disk.
        const fs::path dir = fs::path(root) / "step0" / ("proc" + std::to_string(::getpid()));
        fs::create_directories(dir / "dump_tensor_data");
        fs::create_symlink("/dev/full", dir / "dump.json");
        fs::create_symlink("/dev/full", dir / "dump_tensor_data" / "Aten.exp.0.forward.output.0.npy");
        const auto cfg = captureConfig(root, "tensor", "L1");
        const auto x = torch::randn({ 64 });
        torch::Tensor y, z;
        {
            PrecisionDebugger debugger(cfg);
            debugger.start();
            y = torch::exp(x);
            z = torch::sin(y);
            debugger.stop();
            debugger.step();
        }
        QVERIFY(torch::equal(z, torch::sin(torch::exp(x))));
        std::ifstream log(dir / "dump_error_info.log");
        std::stringstream text;
        text << log.rdbuf();
        QVERIFY2(text.str().find("No space left on device") != std::string::npos, text.str().c_str());
        QVERIFY(fs::exists(dir / "dump_tensor_data" / "Aten.sin.0.forward.output.0.npy"));
    }

    void onlyOutermostOpsOnFirstAndLaterCalls()
    {
        // einsum runs permutes, reshapes and bmm inside. Its first call in the process is hidden by the capture's
        // own counter; once seen calling other ops, its interior is hidden by switching RecordFunction off.
        // Both must give the outer op alone, with its values.
        QTemporaryDir tmp;
        const auto cfg = captureConfig(tmp.path().toStdString(), "statistics", "L1");
        torch::manual_seed(3);
        const auto a = torch::randn({ 5, 4 }), b = torch::randn({ 4, 6 });
        std::vector<torch::Tensor> results;
        {
            PrecisionDebugger debugger(cfg);
            debugger.start();
            for (int k = 0; k < 3; ++k)
                results.push_back(torch::einsum("ij,jk->ik", { a * (k + 1), b }));
            debugger.stop();
            debugger.step();
        }
        const dump::DumpFile dump = dump::readDumpJson(rankDir(tmp.path().toStdString()) / "dump.json");
        QCOMPARE(entryNames(dump),
            std::string("Aten.mul.0.forward\nAten.einsum.0.forward\nAten.mul.1.forward\nAten.einsum.1.forward\n"
                        "Aten.mul.2.forward\nAten.einsum.2.forward\n"));
        for (int k = 0; k < 3; ++k) {
            const std::string entry = "Aten.einsum." + std::to_string(k) + ".forward";
            QCOMPARE(checkLeaf(dump, nodeAt(dump, entry, { "output", "0" }), results[static_cast<std::size_t>(k)]),
                std::string());
        }
        QVERIFY(at::isRecordFunctionEnabled()); // left as found
    }

    void reusedStatisticsFollowInPlaceChanges()
    {
        // Statistics of a tensor seen again (op output, then next op input) are reused only while it is unchanged;
        // more tensors than the reuse ring holds pass in between for the second half.
        QTemporaryDir tmp;
        const auto cfg = captureConfig(tmp.path().toStdString(), "statistics", "L1");
        torch::manual_seed(5);
        const auto x = torch::randn({ 6, 5 });
        torch::Tensor before, after, sine, late;
        std::vector<torch::Tensor> many;
        {
            PrecisionDebugger debugger(cfg);
            debugger.start();
            auto y = torch::exp(x);
            before = y.clone();
            y.mul_(-3);
            after = y.clone();
            sine = torch::sin(y);
            for (int k = 0; k < 150; ++k)
                many.push_back(torch::cos(x + k));
            many.front().add_(1);
            late = torch::tanh(many.front());
            debugger.stop();
            debugger.step();
        }
        const dump::DumpFile dump = dump::readDumpJson(rankDir(tmp.path().toStdString()) / "dump.json");
        QCOMPARE(checkLeaf(dump, nodeAt(dump, "Aten.exp.0.forward", { "output", "0" }), before), std::string());
        QCOMPARE(checkLeaf(dump, nodeAt(dump, "Aten.mul_.0.forward", { "input_args", "0" }), before), std::string());
        QCOMPARE(checkLeaf(dump, nodeAt(dump, "Aten.mul_.0.forward", { "output", "0" }), after), std::string());
        QCOMPARE(checkLeaf(dump, nodeAt(dump, "Aten.sin.0.forward", { "input_args", "0" }), after), std::string());
        QCOMPARE(checkLeaf(dump, nodeAt(dump, "Aten.add_.0.forward", { "output", "0" }), many.front()), std::string());
        QCOMPARE(
            checkLeaf(dump, nodeAt(dump, "Aten.tanh.0.forward", { "input_args", "0" }), many.front()), std::string());
        QCOMPARE(checkLeaf(dump, nodeAt(dump, "Aten.tanh.0.forward", { "output", "0" }), late), std::string());
        QCOMPARE(checkLeaf(dump, nodeAt(dump, "Aten.cos.149.forward", { "output", "0" }), many.back()), std::string());
    }

    void stepStartsWithEmptyFilesAndEndsWithEveryRecord()
    {
        QTemporaryDir tmp;
        const auto cfg = captureConfig(tmp.path().toStdString(), "statistics", "mix");
        capture::DumpWriter writer(cfg);
        writer.open(0, 3);
        const fs::path dir = fs::path(tmp.path().toStdString()) / "step0" / "rank3";
        QCOMPARE(writer.dir(), dir);
        capture::Value body = capture::Value::dict();
        body.add("output", capture::Value::list());
        writer.addEntry("Aten.add.0.forward", std::move(body));
        writer.addConstruct("Aten.add.0.forward", std::nullopt);
        writer.drain();
        // The files of a step that has begun exist, empty, whatever the records added meanwhile.
        QCOMPARE(dump::readDumpJson(dir / "dump.json").entries.size(), std::size_t(0));
        QCOMPARE(readText(dir / "construct.json"), std::string("{}"));
        QCOMPARE(readText(dir / "stack.json"), std::string("{}"));
        writer.close();
        writer.drain();
        const dump::DumpFile dump = dump::readDumpJson(dir / "dump.json");
        QCOMPARE(dump.entries.size(), std::size_t(1));
        QCOMPARE(dump.entryName(0), std::string("Aten.add.0.forward"));
        QCOMPARE(readText(dir / "construct.json"), std::string("{\n \"Aten.add.0.forward\": null\n}"));
    }

    void queuedTensorFilesWaitForRoom()
    {
        QTemporaryDir tmp;
        // async_dump: post() queues for the writer thread (instead of running at once).
        const auto cfg = captureConfig(tmp.path().toStdString(), "tensor", "L1", "", "\"async_dump\": true");
        capture::DumpWriter writer(cfg);
        writer.setMaxPendingFileBytes(1000);
        writer.open(0, 0);
        const fs::path dir = writer.tensorDir();
        // Hold the writer thread.
        std::promise<void> release;
        std::shared_future<void> released = release.get_future().share();
        writer.post([released] { released.wait(); });
        std::atomic<int> queued { 0 };
        auto a = std::make_shared<capture::TensorLeaf>(), b = std::make_shared<capture::TensorLeaf>();
        std::thread training([&] {
            writer.writeTensorFileLater(dir, "a.npy", std::string(600, 'a'), a);
            ++queued;
            writer.writeTensorFileLater(dir, "b.npy", std::string(600, 'b'), b); // 1200 > 1000: waits for a
            ++queued;
        });
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
        const int before = queued.load();
        release.set_value();
        training.join();
        writer.drain();
        QCOMPARE(before, 1);
        QCOMPARE(queued.load(), 2);
        QCOMPARE(readText(dir / "a.npy"), std::string(600, 'a'));
        QCOMPARE(readText(dir / "b.npy"), std::string(600, 'b'));
        QCOMPARE(a->dataName, std::string("a.npy"));
        QCOMPARE(b->dataName, std::string("b.npy"));
    }

    void dumpDirectoryThatCannotBeMadeIsReportedAndTrainingContinues()
    {
        QTemporaryDir tmp;
        const fs::path blocker = fs::path(tmp.path().toStdString()) / "a_file";
        std::ofstream(blocker) << "not a directory";
        const auto cfg = captureConfig((blocker / "dump").string(), "statistics", "L1");
        const auto x = torch::randn({ 64 });
        torch::Tensor y;
        // The writer thread reports on stderr (there is no directory for dump_error_info.log): catch it.
        const fs::path errFile = fs::path(tmp.path().toStdString()) / "stderr.txt";
        std::fflush(stderr);
        const int savedErr = ::dup(2);
        const int errFd = ::open(errFile.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
        ::dup2(errFd, 2);
        {
            PrecisionDebugger debugger(cfg);
            debugger.start();
            y = torch::exp(x);
            debugger.stop();
            debugger.step();
        }
        std::fflush(stderr);
        ::dup2(savedErr, 2);
        ::close(savedErr);
        ::close(errFd);
        QVERIFY(torch::equal(y, torch::exp(x)));
        QVERIFY(!fs::exists(blocker / "dump"));
        std::ifstream in(errFile);
        std::stringstream text;
        text << in.rdbuf();
        QVERIFY2(text.str().find("cannot create dump directory " + (blocker / "dump" / "step0").string())
                != std::string::npos,
            text.str().c_str());
        // Reported once, not once per file it could not write.
        QCOMPARE(text.str().find("cannot write"), std::string::npos);
    }

    void seedAllIsReproducible()
    {
        msprobe::seed_all(42, true, true);
        const auto a = torch::rand({ 4 });
        const int r1 = std::rand();
        msprobe::seed_all(42, true, true);
        const auto b = torch::rand({ 4 });
        QVERIFY(torch::equal(a, b));
        QCOMPARE(std::rand(), r1);
        QVERIFY(at::globalContext().deterministicAlgorithms());
        auto drop = torch::nn::Dropout(0.5);
        const auto ones = torch::ones({ 16 });
        QVERIFY(torch::equal(drop(ones), ones)); // disable_dropout: dropout is the identity
        msprobe::seed_all(42, false, false);
        QVERIFY(!at::globalContext().deterministicAlgorithms());
    }
};

QTEST_APPLESS_MAIN(TestCaptureDumpWriter)
#include "tst_capture_dump_writer.moc"
