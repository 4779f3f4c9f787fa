// SPDX-License-Identifier: Apache-2.0
// msprobe::MemoryRecorder on real libtorch CPU runs: sizes computed by hand, balanced alloc/free, a planted leak,
// operator and module attribution, owners, marks and steps, ACCESS rows, block watch, and files completed by
// exit() and std::terminate.
#ifndef Q_MOC_RUN // moc needs nothing of libtorch, and parsing it cost moc 8 CPU-seconds per test
#include "../examples/tiny_transformer.h"
#include "capture/memory/memory_recorder.h"
#include "capture/seed.h"
#include "memory/memscope_reader.h"
#include "memory/oom.h"

#include <torch/torch.h>
#endif

#include "test_util.h"
#include "tst_capture_memory_util.h"

#include <QTemporaryDir>

#include <csignal>
#include <set>
#include <thread>

#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace msprobe;
using namespace msprobe::test;

namespace {

std::filesystem::path tempRoot(const QTemporaryDir& dir)
{
    return std::filesystem::path(dir.path().toStdString());
}

std::vector<const MemRow*> mallocsWithoutFree(const MemCsv& csv)
{
    std::set<std::int64_t> freed;
    for (const auto* row : rowsOf(csv, "FREE"))
        freed.insert(row->number("allocation_id"));
    std::vector<const MemRow*> out;
    for (const auto* row : rowsOf(csv, "MALLOC"))
        if (!freed.count(row->number("allocation_id")))
            out.push_back(row);
    return out;
}

std::vector<at::Tensor> g_plantedLeak;

} // namespace

class TestCaptureMemory : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { at::set_num_threads(1); }

    void headerIsMsMemScopes()
    {
        QTemporaryDir dir;
        MemoryRecorder memory({ .outputDir = tempRoot(dir) });
        memory.start();
        { auto t = torch::ones({ 8 }); }
        memory.stop();
        memory.flush();
        const auto csvPath = memory.csvPath();
        QVERIFY(csvPath.string().find("/device_0/dump/memscope_dump_") != std::string::npos);
        QVERIFY(csvPath.parent_path().parent_path().parent_path().filename().string().rfind("msmemscope_", 0) == 0);
        std::ifstream fixture(dataDir() / "memscope" / "baseline.csv");
        std::string fixtureHeader;
        std::getline(fixture, fixtureHeader);
        const MemCsv csv = readMemCsv(csvPath);
        QCOMPARE(q(csv.header), q(fixtureHeader));
        for (const auto& row : csv.rows)
            QCOMPARE(row.cells.size(), std::size_t(12));
        QCOMPARE(rowsOf(csv, "SYSTEM", "START_TRACE").size(), std::size_t(1));
        QCOMPARE(rowsOf(csv, "SYSTEM", "STOP_TRACE").size(), std::size_t(1));
        const auto* malloc = rowsOf(csv, "MALLOC").at(0);
        QCOMPARE(q(malloc->type()), q("PTA"));
        QCOMPARE(q(malloc->cells[7]), q("0"));
        QVERIFY(malloc->cells[8].size() == 18 && malloc->cells[8].rfind("0x", 0) == 0);
        QCOMPARE(q(malloc->value("addr")), q(malloc->cells[8]));
    }

    // torch::empty({1000}) float: one 4000-byte block, allocated in aten::empty, freed when the tensor dies.
    void floatTensorOfThousandIs4000Bytes()
    {
        QTemporaryDir dir;
        MemoryRecorder memory({ .outputDir = tempRoot(dir) });
        memory.start();
        { auto t = torch::empty({ 1000 }); }
        memory.stop();
        const MemCsv csv = readMemCsv(memory.csvPath());
        const auto mallocs = rowsOf(csv, "MALLOC");
        const auto frees = rowsOf(csv, "FREE");
        QCOMPARE(mallocs.size(), std::size_t(1));
        QCOMPARE(frees.size(), std::size_t(1));
        QCOMPARE(mallocs[0]->number("size"), std::int64_t(4000));
        QCOMPARE(mallocs[0]->number("used"), std::int64_t(4000));
        QCOMPARE(frees[0]->number("size"), std::int64_t(4000));
        QCOMPARE(frees[0]->number("used"), std::int64_t(0));
        QCOMPARE(frees[0]->number("allocation_id"), mallocs[0]->number("allocation_id"));
        QCOMPARE(q(opAround(csv, *mallocs[0])), q("torch._ops.aten.empty.memory_format"));
        QVERIFY(mallocs[0]->pyStack().find("<op>(0): torch._ops.aten.empty.memory_format") != std::string::npos);
        QVERIFY(frees[0]->id() > mallocs[0]->id());
    }

    // Linear forward + backward: every temporary is freed; what stays alive are the two gradients.
    void linearTemporariesBalance()
    {
        QTemporaryDir dir;
        torch::manual_seed(0);
        torch::nn::Linear linear(8, 4);
        MemoryRecorder memory({ .outputDir = tempRoot(dir) });
        memory.start(*linear);
        {
            auto x = torch::randn({ 16, 8 });
            auto loss = linear(x).sum();
            loss.backward();
        }
        memory.step(); // tags the gradients
        memory.stop();
        const MemCsv csv = readMemCsv(memory.csvPath());
        const auto alive = mallocsWithoutFree(csv);
        QCOMPARE(alive.size(), std::size_t(2));
        std::set<std::int64_t> sizes { alive[0]->number("size"), alive[1]->number("size") };
        QCOMPARE(sizes, (std::set<std::int64_t> { 4 * 8 * 4, 4 * 4 })); // weight.grad 4x8 float, bias.grad 4
        for (const auto* row : alive)
            QVERIFY2(row->value("owner").find("@gradient") != std::string::npos, row->attr().c_str());
        QCOMPARE(rowsOf(csv, "MALLOC").size() - alive.size(), rowsOf(csv, "FREE").size());
        std::int64_t live = 0; // running total recomputed from the rows equals the reported one
        for (const auto& row : csv.rows) {
            if (row.event() == "MALLOC" || row.event() == "FREE")
                live += row.event() == "MALLOC" ? row.number("size") : -row.number("size");
        }
        QCOMPARE(live, linear->weight.grad().nbytes() + linear->bias.grad().nbytes());
        bool backwardOwner = false;
        for (const auto* row : rowsOf(csv, "MALLOC")) {
            QVERIFY2(!opAround(csv, *row).empty(), row->attr().c_str()); // every allocation has its op
            backwardOwner = backwardOwner || row->value("owner").rfind("PTA@backward", 0) == 0;
        }
        QVERIFY(backwardOwner);
    }

    // Spec §6 check 8, last part: a plain std::thread under MemoryThreadScope loses no event (its ten 1000-byte
    // blocks are written, each freed); a plain thread without the scope is not seen at all.
    void threadScopeLosesNoEvent()
    {
        QTemporaryDir dir;
        MemoryRecorder memory({ .outputDir = tempRoot(dir) });
        memory.start();
        const MemoryThreadContext context;
        std::int64_t scopedTid = 0;
        std::thread scoped([&scopedTid, context] {
            MemoryThreadScope scope(context);
            scopedTid = static_cast<std::int64_t>(::syscall(SYS_gettid));
            for (int i = 0; i < 10; ++i)
                auto t = torch::empty({ 250 });
        });
        scoped.join();
        std::thread plain([] { auto t = torch::empty({ 500 }); });
        plain.join();
        memory.stop();
        const MemCsv csv = readMemCsv(memory.csvPath());
        const auto mallocs = rowsOf(csv, "MALLOC");
        const auto frees = rowsOf(csv, "FREE");
        QCOMPARE(mallocs.size(), std::size_t(10));
        QCOMPARE(frees.size(), std::size_t(10));
        for (const auto* row : mallocs) {
            QCOMPARE(row->number("size"), std::int64_t(1000));
            QCOMPARE(q(row->cells[6]), q(std::to_string(scopedTid)));
        }
        QVERIFY(mallocsWithoutFree(csv).empty());
    }

    void plantedLeakIsTheOnlyLiveBlock()
    {
        QTemporaryDir dir;
        MemoryRecorder memory({ .outputDir = tempRoot(dir) });
        memory.start();
        for (int i = 0; i < 3; ++i) {
            auto a = torch::randn({ 64 });
            auto b = (a * 2 + 1).relu();
            if (i == 1)
                g_plantedLeak.push_back(torch::ones({ 256 })); // 1024 bytes, never freed
            memory.step();
        }
        memory.stop();
        const MemCsv csv = readMemCsv(memory.csvPath());
        const auto alive = mallocsWithoutFree(csv);
        QCOMPARE(alive.size(), std::size_t(1));
        QCOMPARE(alive[0]->number("size"), std::int64_t(1024));
        QCOMPARE(alive[0]->number("step"), std::int64_t(2));
        QCOMPARE(q(opAround(csv, *alive[0])), q("torch._ops.aten.ones.default"));
        g_plantedLeak.clear();
    }

    void marksRangesAndSteps()
    {
        QTemporaryDir dir;
        MemoryRecorder memory({ .outputDir = tempRoot(dir) });
        memory.start();
        memory.mark("A");
        const auto range = memory.rangeStart("step start");
        { auto t = torch::zeros({ 10 }); }
        memory.rangeEnd(range);
        memory.step();
        memory.mark("B, with comma");
        memory.stop();
        const MemCsv csv = readMemCsv(memory.csvPath());
        const auto marks = rowsOf(csv, "MSTX", "Mark");
        QCOMPARE(marks.size(), std::size_t(2));
        QCOMPARE(q(marks[0]->name()), q("A"));
        QCOMPARE(q(marks[1]->name()), q("B, with comma"));
        const auto starts = rowsOf(csv, "MSTX", "Range_start");
        const auto ends = rowsOf(csv, "MSTX", "Range_end");
        QCOMPARE(starts.size(), std::size_t(1));
        QCOMPARE(q(starts[0]->name()), q("step start"));
        QCOMPARE(q(ends.at(0)->name()), q("Range end from id " + std::to_string(range)));
        QCOMPARE(starts[0]->id(), range);
        const auto steps = rowsOf(csv, "SYSTEM", "STEP");
        QCOMPARE(steps.size(), std::size_t(1));
        QCOMPARE(q(steps[0]->name()), q("1"));
        QCOMPARE(q(steps[0]->cells[7]), q("N/A"));
        // Raw text: the MSTX name cell is written in quotes as msMemScope does.
        std::ifstream in(memory.csvPath());
        std::stringstream text;
        text << in.rdbuf();
        QVERIFY(text.str().find(",MSTX,Mark,\"A\",") != std::string::npos);
    }

    void accessRowsReadAndWrite()
    {
        QTemporaryDir dir;
        MemoryRecorder memory({ .outputDir = tempRoot(dir), .access = true });
        auto a = torch::ones({ 2, 3 });
        auto b = torch::ones({ 2, 3 });
        memory.start();
        { auto c = a + b; }
        memory.stop();
        const MemCsv csv = readMemCsv(memory.csvPath());
        const auto reads = rowsOf(csv, "ACCESS", "READ");
        const auto writes = rowsOf(csv, "ACCESS", "WRITE");
        QCOMPARE(reads.size(), std::size_t(2));
        QCOMPARE(writes.size(), std::size_t(1));
        for (const auto* row : reads) {
            QCOMPARE(q(row->name()), q("torch._ops.aten.add.Tensor"));
            QCOMPARE(row->number("size"), std::int64_t(24));
            QCOMPARE(q(row->value("dtype")), q("torch.float32"));
            QCOMPARE(q(row->value("shape")), q("torch.Size([2, 3])"));
            QCOMPARE(row->number("allocation_id"), std::int64_t(0)); // a and b were allocated before start()
        }
        const auto mallocs = rowsOf(csv, "MALLOC");
        QCOMPARE(mallocs.size(), std::size_t(1));
        QCOMPARE(writes[0]->number("allocation_id"), mallocs[0]->number("allocation_id"));
        QCOMPARE(q(writes[0]->cells[8]), q(mallocs[0]->cells[8]));
    }

    // Model + optimizer: optimizer state, gradients and activations are tagged, module scopes reach the rows.
    void ownersAndModuleScopesOnTinyTransformer()
    {
        QTemporaryDir dir;
        msprobe::seed_all(1234, true, false);
        tiny::Options options;
        tiny::TinyTransformer model(options);
        torch::optim::Adam optimizer(model->parameters(), torch::optim::AdamOptions(1e-3));
        MemoryRecorder memory({ .outputDir = tempRoot(dir) });
        memory.start(*model, optimizer);
        for (int step = 0; step < 2; ++step) {
            auto [input, target] = tiny::makeBatch(options, step);
            optimizer.zero_grad();
            auto logits = model->forward(input);
            auto loss = torch::nn::functional::cross_entropy(logits.view({ -1, options.vocab }), target.view({ -1 }));
            loss.backward();
            {
                MemoryOptimizerScope optimizerPhase;
                optimizer.step();
            }
            memory.step();
        }
        memory.stop();
        const MemCsv csv = readMemCsv(memory.csvPath());
        std::map<std::string, int> owners;
        bool attentionScope = false;
        for (const auto* row : rowsOf(csv, "MALLOC")) {
            const std::string owner = row->value("owner");
            for (const char* tag : { "@optimizer_state", "@gradient", "@activation" })
                if (owner.find(tag) != std::string::npos)
                    ++owners[tag];
            attentionScope = attentionScope || row->pyStack().find("<module>(1): Module.blocks.0.attn.Attention")
                    != std::string::npos;
        }
        const auto params = model->parameters().size();
        QCOMPARE(owners["@optimizer_state"], static_cast<int>(2 * params)); // Adam: exp_avg, exp_avg_sq
        QCOMPARE(owners["@gradient"], static_cast<int>(params));
        QVERIFY(owners["@activation"] > 0);
        QVERIFY(attentionScope);
        QCOMPARE(rowsOf(csv, "SYSTEM", "STEP").size(), std::size_t(2));
    }

    // Native spelling (compat off), user owner scopes (three levels kept) and describe() on one tensor.
    void ownerScopesDescribeAndNativeNames()
    {
        QTemporaryDir dir;
        MemoryRecorder memory({ .outputDir = tempRoot(dir), .compat = false });
        memory.start();
        at::Tensor scoped, described, deep;
        {
            MemoryOwnerScope a("a");
            MemoryOwnerScope b("b");
            scoped = torch::ones({ 16 });
            MemoryOwnerScope c("c");
            MemoryOwnerScope d("d"); // a fourth level is dropped, as msMemScope does
            deep = torch::ones({ 4 });
        }
        described = torch::zeros({ 8 });
        memory.describe(described, "mine");
        memory.stop();
        QVERIFY(memory.csvPath().string().find("/device_cpu/dump/") != std::string::npos);
        const MemCsv csv = readMemCsv(memory.csvPath());
        std::map<std::int64_t, std::string> ownerBySize;
        for (const auto* row : rowsOf(csv, "MALLOC")) {
            QCOMPARE(q(row->type()), q("TORCH_CPU"));
            QCOMPARE(q(row->cells[7]), q("cpu"));
            ownerBySize[row->number("size")] = row->value("owner");
        }
        QCOMPARE(q(ownerBySize[64]), q("TORCH_CPU@forward@a@b"));
        QCOMPARE(q(ownerBySize[16]), q("TORCH_CPU@forward@a@b@c"));
        QCOMPARE(q(ownerBySize[32]), q("TORCH_CPU@forward@mine"));
        QCOMPARE(q(rowsOf(csv, "OP_LAUNCH", "ATEN_START").at(0)->name()), q("aten::ones"));
    }

    // An allocation libtorch cannot serve (2^50 bytes): an OOM_DETAIL/OOM_TRIGGER row written on the failing op
    // before the exception unwinds, and the core's OOM report finds the one tensor kept alive.
    void outOfMemoryIsReported()
    {
        QTemporaryDir dir;
        MemoryRecorder memory({ .outputDir = tempRoot(dir) });
        memory.start();
        const auto kept = torch::ones({ 1000 }); // 4000 bytes live at the failure
        bool threw = false;
        try {
            const auto huge = torch::empty({ std::int64_t(1) << 48 }); // float: 2^50 bytes
        } catch (const c10::Error&) {
            threw = true;
        }
        QVERIFY(threw);
        memory.stop();
        const MemCsv csv = readMemCsv(memory.csvPath());
        const auto triggers = rowsOf(csv, "OOM_DETAIL", "OOM_TRIGGER");
        QCOMPARE(triggers.size(), std::size_t(1));
        QCOMPARE(triggers[0]->number("req_size"), std::int64_t(1) << 50);
        const auto trace = memory::readMemScope(memory.csvPath());
        const auto model = memory::buildModel(trace);
        const auto report = memory::findOomIncidents(trace, model);
        QCOMPARE(report.incidents.size(), std::size_t(1));
        const auto& oom = report.incidents[0];
        QCOMPARE(oom.requested, std::int64_t(1) << 50);
        QCOMPARE(q(oom.func), q("DefaultCPUAllocator"));
        QCOMPARE(q(oom.op), q("torch._ops.aten.empty.memory_format"));
        QCOMPARE(oom.liveBlocks, std::size_t(1));
        QCOMPARE(oom.liveBytes, std::int64_t(4000));
        QCOMPARE(q(opAround(csv, *rowsOf(csv, "MALLOC").at(0))), q("torch._ops.aten.ones.default"));
    }

    void crcVectors()
    {
        QCOMPARE(q(capture::memory::crc64Hex(capture::memory::memscopeCrc64(nullptr, 0))), q("0000000000000000"));
        QCOMPARE(q(capture::memory::crc64Hex(capture::memory::memscopeCrc64("123456789", 9))), q("b86883e6fa710a9f"));
        unsigned char all[256];
        for (int i = 0; i < 256; ++i)
            all[i] = static_cast<unsigned char>(i);
        QCOMPARE(q(capture::memory::crc64Hex(capture::memory::memscopeCrc64(all, 256))), q("c48455633bde63a5"));
        const unsigned char zeros[16] = {};
        QCOMPARE(q(capture::memory::crc64Hex(capture::memory::memscopeCrc64(zeros, 16))), q("f1a9d99093e793c0"));
    }

    // Watch add .. sub: the add output's checksum before/after each op; mul_ writes it in place, so it changes.
    void watchChecksumsBetweenTwoOps()
    {
        QTemporaryDir dir;
        MemoryRecorder memory({ .outputDir = tempRoot(dir), .watch = { "aten::add", "aten::sub" } });
        auto a = torch::ones({ 4 });
        memory.start();
        auto s = a + a;
        s.mul_(3);
        auto d = s - a;
        memory.stop();
        std::ifstream in(memory.watchCsvPath());
        std::vector<std::string> lines;
        for (std::string line; std::getline(in, line);)
            lines.push_back(line);
        QVERIFY(lines.size() >= 6);
        QCOMPARE(q(lines[0]), q("Tensor info,Check data sum"));
        auto crcOf = [&](const std::string& suffix) {
            for (const auto& line : lines)
                if (line.find(suffix + ",") != std::string::npos)
                    return line.substr(line.find(',') + 1);
            return std::string();
        };
        const std::vector<float> two(4, 2.0F), six(4, 6.0F);
        const std::string watched = "-torch._ops.aten.add.Tensor_0_";
        QCOMPARE(q(crcOf("torch._ops.aten.add.Tensor_1" + watched + "after")),
            q(capture::memory::crc64Hex(capture::memory::memscopeCrc64(two.data(), 16))));
        QCOMPARE(q(crcOf("torch._ops.aten.mul_.Scalar_1" + watched + "before")),
            q(capture::memory::crc64Hex(capture::memory::memscopeCrc64(two.data(), 16))));
        QCOMPARE(q(crcOf("torch._ops.aten.mul_.Scalar_1" + watched + "after")),
            q(capture::memory::crc64Hex(capture::memory::memscopeCrc64(six.data(), 16))));
        QVERIFY(!crcOf("torch._ops.aten.sub.Tensor_1" + watched + "after").empty());
        QVERIFY(lines[1].find("0_" + std::to_string(::gettid()) + "/torch._ops.aten.add.Tensor_1-") == 0);
    }

    // exit() without stop() or destruction, and an uncaught exception: the rows recorded are in the file.
    void exitAndTerminateCompleteTheFile_data()
    {
        QTest::addColumn<bool>("throwUncaught");
        QTest::newRow("exit") << false;
        QTest::newRow("terminate") << true;
    }
    void exitAndTerminateCompleteTheFile()
    {
        QFETCH(bool, throwUncaught);
        QTemporaryDir dir;
        const auto root = tempRoot(dir);
        const pid_t child = ::fork();
        if (child == 0) {
            std::signal(SIGABRT, SIG_DFL); // no Qt Test crash report from the child
            auto* memory = new MemoryRecorder({ .outputDir = root }); // never destroyed
            memory->start();
            g_plantedLeak.push_back(torch::empty({ 1000 }));
            { auto t = torch::empty({ 10 }); }
            if (throwUncaught) // Qt Test would catch it on this thread: a thread's uncaught exception terminates
                std::thread([] { throw std::runtime_error("uncaught"); }).join();
            std::exit(0);
        }
        int status = 0;
        QCOMPARE(::waitpid(child, &status, 0), child);
        QCOMPARE(WIFSIGNALED(status), throwUncaught); // terminate() aborts
        std::filesystem::path csvPath;
        for (const auto& item : std::filesystem::recursive_directory_iterator(root))
            if (item.path().extension() == ".csv")
                csvPath = item.path();
        QVERIFY(!csvPath.empty());
        const MemCsv csv = readMemCsv(csvPath);
        const auto alive = mallocsWithoutFree(csv);
        QCOMPARE(alive.size(), std::size_t(1));
        QCOMPARE(alive[0]->number("size"), std::int64_t(4000));
        QCOMPARE(rowsOf(csv, "FREE").size(), std::size_t(1));
        QCOMPARE(rowsOf(csv, "FREE")[0]->number("size"), std::int64_t(40));
    }
};

QTEST_APPLESS_MAIN(TestCaptureMemory)
#include "tst_capture_memory.moc"
