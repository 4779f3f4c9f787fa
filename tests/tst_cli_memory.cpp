// SPDX-License-Identifier: Apache-2.0
// msprobe memory SUBVERB: the subverbs on msMemScope's example dumps and on small hand-written dumps, their
// --json answers, --fail-on exit status, and clear errors with exit 1 (bad data) or 2 (bad command line).
#include "cli_runner.h"
#include "test_util.h"
#include "tst_core_memory_rows.h"

#include <QTemporaryDir>

#include <nlohmann/json.hpp>

#include <fstream>
#include <sstream>

using namespace msprobe::test;
namespace fs = std::filesystem;

namespace {

QString fixture(const char* name) { return q((dataDir() / "memory" / name).string()); }

nlohmann::json parse(const Run& run) { return nlohmann::json::parse(run.out.toStdString()); }

// A dump with one leak by the step rule (1 MiB allocated in step 2, alive after step 3).
std::string leakingSteps()
{
    MemDumpBuilder d;
    d.step(1);
    d.malloc("PTA", 0x200000, 1048576, 1);
    d.step(2);
    d.step(3);
    return d.text;
}

} // namespace

class TestCliMemory : public QObject {
    Q_OBJECT

private slots:
    void helpListsSubverbs()
    {
        const auto run = runCli({ "memory", "-h" });
        QCOMPARE(run.exitCode, 0);
        for (const char* sub : { "summary", "leaks", "compare", "decompose", "inefficient", "watch" })
            QVERIFY2(run.out.contains(QString("  ") + sub), qPrintable(run.out));
        QCOMPARE(runCli({ "memory" }).exitCode, 2);
        const auto unknown = runCli({ "memory", "capture-all" });
        QCOMPARE(unknown.exitCode, 2);
        QVERIFY(unknown.err.contains("unknown subverb \"capture-all\""));
        QVERIFY(runCli({ "-h" }).out.contains("memory"));
    }

    void summaryOfBaseline()
    {
        const auto run = runCli({ "memory", "summary", fixture("baseline.csv"), "--json" });
        QCOMPARE(run.exitCode, 0);
        const auto json = parse(run);
        QCOMPARE(json["rows"].get<int>(), 121);
        QCOMPARE(json["blocks"].get<int>(), 23);
        QCOMPARE(json["alive_at_end"].get<int>(), 7);
        QCOMPARE(json["rows_by_event"]["MALLOC HAL"].get<int>(), 5);
        QCOMPARE(json["ops"].get<int>(), 40);
        // Peak of live PTA bytes: the 16 MiB block of allocation_id 17 on top of 3584 bytes (its MALLOC row says used:16781824).
        QCOMPARE(json["peak_live_bytes"].get<long long>(), 16778240LL + 3584);
    }

    void summaryOfTorchSnapshot()
    {
        // tests/data/torch_snapshot/snapshot_p4.pickle (tst_core_memory_snapshot works its answers out): 13 events,
        // 5 PTA blocks and 2 HAL segments, the PTA block and the segment allocated before recording still alive.
        const auto snapshot = dataDir() / "torch_snapshot" / "snapshot_p4.pickle";
        const auto run = runCli({ "memory", "summary", q(snapshot.string()), "--json" });
        QCOMPARE(run.exitCode, 0);
        const auto json = parse(run);
        QCOMPARE(json["rows"].get<int>(), 13);
        QCOMPARE(json["blocks"].get<int>(), 7);
        QCOMPARE(json["rows_by_event"]["MALLOC PTA"].get<int>(), 5);
        QCOMPARE(json["rows_by_event"]["MSTX Mark"].get<int>(), 2);
        QCOMPARE(json["peak_live_bytes"].get<long long>(), 3670016LL);
        const auto bad = runCli({ "memory", "leaks", q((dataDir() / "torch_snapshot" / "truncated.pickle").string()) });
        QCOMPARE(bad.exitCode, 1);
        QVERIFY2(bad.err.contains("truncated.pickle") && bad.err.contains("truncated pickle"), qPrintable(bad.err));
    }

    void leaksOnExampleDump()
    {
        const auto run = runCli({ "memory", "leaks", fixture("leaks.csv"), "--json" });
        QCOMPARE(run.exitCode, 0);
        const auto json = parse(run);
        QCOMPARE(json["steps_source"].get<std::string>(), std::string("none"));
        QCOMPARE(json["hal_leaks"].size(), std::size_t(4));
        QCOMPARE(json["alive_at_end"].size(), std::size_t(10));
        QCOMPARE(json["alive_at_end"][0]["size"].get<long long>(), 18874368LL); // largest first
        const auto text = runCli({ "memory", "leaks", fixture("leaks.csv"), "--top", "2" });
        QVERIFY2(text.out.contains("10 block(s) alive at the end of the capture") && text.out.contains("... and 8 more"),
            qPrintable(text.out));
    }

    void failOnLeakSetsExitStatus()
    {
        QTemporaryDir dir;
        const fs::path file = fs::path(dir.path().toStdString()) / "steps.csv";
        writeFile(file, leakingSteps());
        const auto run = runCli({ "memory", "leaks", q(file.string()), "--fail-on", "leak" });
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.out.contains("Direct Pytorch Caching memory pool leak of 1.000000 Mb(s) at 0x200000 in kernel_0 at step 2."),
            qPrintable(run.out));
        QCOMPARE(runCli({ "memory", "leaks", q(file.string()) }).exitCode, 0);
        // Marks mode on a dump without marks: no leak, exit 0 even with --fail-on.
        const auto marks = runCli({ "memory", "leaks", q(file.string()), "--mark", "test", "--fail-on", "leak" });
        QCOMPARE(marks.exitCode, 0);
        QVERIFY(marks.out.contains("ERROR: Device 0 has fewer than 3 data points"));
        QCOMPARE(runCli({ "memory", "leaks", q(file.string()), "--fail-on", "inefficient" }).exitCode, 2);
    }

    void compareWritesMemoryCompareCsv()
    {
        QTemporaryDir dir;
        const fs::path out = fs::path(dir.path().toStdString()) / "memory_compare.csv";
        const auto run = runCli({ "memory", "compare", fixture("baseline.csv"), fixture("leaks.csv"), "-o", q(out.string()) });
        QCOMPARE(run.exitCode, 0);
        std::ifstream in(out);
        std::string header1, header2, first;
        std::getline(in, header1);
        std::getline(in, header2);
        std::getline(in, first);
        QCOMPARE(header1, std::string(",,,Base,Compare"));
        QCOMPARE(first, std::string("OP_LAUNCH,torch._ops.aten.t.default,0,1536,1536,0"));
        const auto net = parse(runCli({ "memory", "compare", fixture("baseline.csv"), fixture("leaks.csv"), "--mode", "net", "--json" }));
        // leaks.csv's extra ops are two _to_copy keeping 4000256 bytes each.
        QCOMPARE(net["total_diff"].get<long long>(), 2 * 4000256LL);
        QCOMPARE(runCli({ "memory", "compare", fixture("baseline.csv") }).exitCode, 2);
        QCOMPARE(runCli({ "memory", "compare", fixture("baseline.csv"), fixture("leaks.csv"), "--level", "kernel", "--mode", "net" }).exitCode, 1);
        QCOMPARE(runCli({ "memory", "compare", fixture("baseline.csv"), fixture("leaks.csv"), "--mode", "fast" }).exitCode, 2);
    }

    void decomposeAndInefficientJson()
    {
        QTemporaryDir dir;
        MemDumpBuilder d;
        d.malloc("PTA", 0x10, 1000, 1, -1, ",owner:PTA@weight");
        d.malloc("PTA", 0x20, 24, 2, -1, ",owner:PTA@gradient");
        d.opStart("op1");
        d.access("op1", 0x20, 24, 2);
        d.opEnd("op1");
        d.opStart("op2");
        d.malloc("PTA", 0x30, 8, 3);
        d.opEnd("op2");
        d.opStart("op3");
        d.free("PTA", 0x20, 24, 2); // gradient freed after another malloc: late
        d.opEnd("op3");
        const fs::path file = fs::path(dir.path().toStdString()) / "small.csv";
        writeFile(file, d.text);
        const auto decomposed = parse(runCli({ "memory", "decompose", q(file.string()), "--at", "end", "--json" }));
        QCOMPARE(decomposed["live_bytes"].get<long long>(), 1008LL);
        QCOMPARE(decomposed["categories"]["weight"].get<long long>(), 1000LL);
        QCOMPARE(decomposed["categories"]["unknown"].get<long long>(), 8LL); // untagged, allocated in op2, never freed
        const auto peak = parse(runCli({ "memory", "decompose", q(file.string()), "--json" }));
        QCOMPARE(peak["live_bytes"].get<long long>(), 1032LL);
        const auto inefficient = runCli({ "memory", "inefficient", q(file.string()), "--json", "--fail-on", "inefficient" });
        QCOMPARE(inefficient.exitCode, 1);
        const auto json = parse(inefficient);
        QCOMPARE(json["blocks"].size(), std::size_t(1));
        QCOMPARE(json["blocks"][0]["allocation_id"].get<int>(), 2);
        QCOMPARE(json["blocks"][0]["inefficient_type"].get<std::string>(), std::string("late_deallocation"));
        QCOMPARE(runCli({ "memory", "inefficient", q(file.string()), "--types", "early_allocation", "--fail-on", "inefficient" }).exitCode, 0);
        QCOMPARE(runCli({ "memory", "inefficient", q(file.string()), "--types", "sloppy" }).exitCode, 2);
        QCOMPARE(runCli({ "memory", "decompose", q(file.string()), "--at", "step:3" }).exitCode, 1);
        QCOMPARE(runCli({ "memory", "decompose", q(file.string()), "--at", "soon" }).exitCode, 2);
    }

    void oomReportTextCsvJson()
    {
        QTemporaryDir dir;
        MemDumpBuilder d;
        d.opStart("aten::linear");
        d.malloc("PTA", 0x10, 1000, 1, 1000, ",owner:PTA@weight");
        d.opEnd("aten::linear");
        d.opStart("aten::cat");
        d.malloc("PTA", 0x20, 24, 2, 1024);
        d.oom("OOM_TRIGGER", "{func:DefaultCPUAllocator,req_size:1048576,flag:0}");
        d.free("PTA", 0x20, 24, 2, 1000);
        d.opEnd("aten::cat");
        const fs::path file = fs::path(dir.path().toStdString()) / "oom.csv";
        writeFile(file, d.text);
        const auto text = runCli({ "memory", "oom", q(file.string()), "--fail-on", "oom" });
        QCOMPARE(text.exitCode, 1);
        QVERIFY2(text.out.contains("OOM 1 at line 7 (ID 6, process 100, device 0, 1050 ns): DefaultCPUAllocator requested 1048576 bytes in aten::cat\n"
                                   "  live: 1024 bytes in 2 block(s), pool reserved 1024 bytes\n"),
            qPrintable(text.out));
        const auto csv = runCli({ "memory", "oom", q(file.string()), "--csv" });
        QCOMPARE(csv.exitCode, 0);
        QVERIFY2(csv.out.startsWith("oom,trigger_line,allocation_id,pool,addr,size,category,owner,alloc_op,alloc_line,alloc_ts_ns\n"
                                    "1,7,1,PTA,0x0000000000000010,1000,weight,PTA@weight,aten::linear,3,1010\n"
                                    "1,7,2,PTA,0x0000000000000020,24,temporary,,aten::cat,6,1040\n"),
            qPrintable(csv.out));
        const auto json = parse(runCli({ "memory", "oom", q(file.string()), "--json", "--top", "1" }));
        QCOMPARE(json["incidents"].size(), std::size_t(1));
        QCOMPARE(json["incidents"][0]["by_op"][0]["key"].get<std::string>(), std::string("aten::linear"));
        QCOMPARE(json["incidents"][0]["largest"].size(), std::size_t(1));
        QCOMPARE(json["incidents"][0]["recent"][0]["allocation_id"].get<int>(), 2);
        QCOMPARE(runCli({ "memory", "oom", q(file.string()), "--csv", "--json" }).exitCode, 2);
        QCOMPARE(runCli({ "memory", "oom", q(file.string()), "--top", "0" }).exitCode, 2);
    }

    void writeBackIntoTheDump()
    {
        QTemporaryDir dir;
        MemDumpBuilder d;
        d.opStart("op0");
        d.malloc("PTA", 0x10, 64, 1);
        d.opEnd("op0");
        d.opStart("op1");
        d.access("op1", 0x10, 64, 1);
        d.opEnd("op1");
        d.opStart("op2");
        d.malloc("PTA", 0x20, 32, 2);
        d.opEnd("op2");
        d.opStart("op3");
        d.free("PTA", 0x10, 64, 1);
        d.opEnd("op3");
        const fs::path file = fs::path(dir.path().toStdString()) / "late.csv";
        writeFile(file, d.text);
        const auto run = runCli({ "memory", "inefficient", q(file.string()), "--write-back" });
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(run.err.contains("inefficient_type written to 1 MALLOC row(s)"), qPrintable(run.err));
        QCOMPARE(runCli({ "memory", "decompose", q(file.string()), "--write-back", "--at", "end" }).exitCode, 0);
        std::ifstream in(file);
        std::stringstream text;
        text << in.rdbuf();
        QVERIFY2(text.str().find("size:64,inefficient_type:late_deallocation,category:unknown}") != std::string::npos, text.str().c_str());
        QVERIFY2(text.str().find("size:32,category:unknown}") != std::string::npos, text.str().c_str());
        // Read back: the dump is still a valid dump and says the same.
        const auto again = parse(runCli({ "memory", "inefficient", q(file.string()), "--json" }));
        QCOMPARE(again["blocks"].size(), std::size_t(1));
    }

    void watchReport()
    {
        QTemporaryDir dir;
        const fs::path file = fs::path(dir.path().toStdString()) / "watch.csv";
        writeFile(file, "Tensor info,Check data sum\n0_1/aten.add_1-w_0_before,00000000000000aa\n0_1/aten.add_1-w_0_after,00000000000000bb\n");
        const auto run = runCli({ "memory", "watch", q(file.string()), "--fail-on", "change" });
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.out.contains("w_0 changed inside aten.add (call 1): 00000000000000aa -> 00000000000000bb"), qPrintable(run.out));
    }

    void badInputIsAClearError()
    {
        QTemporaryDir dir;
        const fs::path file = fs::path(dir.path().toStdString()) / "bad.csv";
        writeFile(file, std::string(MemDumpBuilder::kHeader) + "1,MALLOC,PTA,N/A,100,7,7,0,0x10,\"{allocation_id:1,size:1e3}\",,\n");
        const auto run = runCli({ "memory", "leaks", q(file.string()) });
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains(q(file.string()) + ": line 2, column 10 (Attr): Attr size \"1e3\" is not a number"), qPrintable(run.err));
        const auto missing = runCli({ "memory", "summary", q((fs::path(dir.path().toStdString()) / "none.csv").string()) });
        QCOMPARE(missing.exitCode, 1);
        QVERIFY(missing.err.contains("none.csv"));
        QCOMPARE(runCli({ "memory", "summary" }).exitCode, 2);
        QCOMPARE(runCli({ "memory", "leaks", q(file.string()), "--top", "-1" }).exitCode, 2);
        QCOMPARE(runCli({ "memory", "summary", q(file.string()), "--bogus" }).exitCode, 2);
    }
};

QTEST_GUILESS_MAIN(TestCliMemory)
#include "tst_cli_memory.moc"
