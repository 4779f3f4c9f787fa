// SPDX-License-Identifier: Apache-2.0
// core/memory analyses on hand-written dumps with hand-computed answers: the spec §6 checks 3 (per-step leak),
// 4 (marks A, B, C), 5 (inefficient), owner decomposition, step growth by op (net compare), the msmemscope
// compare rows of the example dumps, and watch checksum changes.
#include "memory/compare.h"
#include "memory/inefficient.h"
#include "memory/leaks.h"
#include "memory/memscope_reader.h"
#include "memory/owners.h"
#include "memory/watch.h"
#include "support/error.h"
#include "test_util.h"
#include "tst_core_memory_rows.h"

#include <QTemporaryDir>

#include <map>

using namespace msprobe;
using namespace msprobe::memory;
using namespace msprobe::test;
namespace fs = std::filesystem;

namespace {

struct Loaded {
    MemTrace trace;
    MemModel model;
};

Loaded load(const QTemporaryDir& dir, const std::string& name, const std::string& text)
{
    const fs::path file = fs::path(dir.path().toStdString()) / name;
    writeFile(file, text);
    Loaded loaded { readMemScope(file), {} };
    loaded.model = buildModel(loaded.trace);
    return loaded;
}

std::size_t countOf(const std::string& text, const std::string& part)
{
    std::size_t count = 0;
    for (auto at = text.find(part); at != std::string::npos; at = text.find(part, at + 1))
        ++count;
    return count;
}

} // namespace

class TestCoreMemoryAnalyses : public QObject {
    Q_OBJECT

private slots:
    void stepLeakOfOneMebibyte()
    {
        // Spec §6 check 3: steps 1..4, 1 MiB allocated in step 2 and never freed; a step-1 block never freed is
        // not a leak (step 1 is skipped), nor are blocks freed within their step.
        QTemporaryDir dir;
        MemDumpBuilder d;
        d.malloc("PTA", 0x100, 4096, 1, 4096);
        d.step(1);
        d.malloc("PTA", 0x200000, 1048576, 2, 1052672);
        d.malloc("PTA", 0x300, 512, 3, 1053184);
        d.free("PTA", 0x300, 512, 3, 1052672);
        d.step(2);
        d.malloc("PTA", 0x400, 256, 4, 1052928);
        d.free("PTA", 0x400, 256, 4, 1052672);
        d.step(3);
        d.step(4);
        const auto dump = load(dir, "steps.csv", d.text);
        const auto report = findStepLeaks(dump.trace, dump.model);
        QCOMPARE(report.leaks.size(), std::size_t(1));
        QCOMPARE(report.leaks[0].step, 2u);
        QCOMPARE(report.leaks[0].size, std::int64_t(1048576));
        const auto text = formatStepLeaks(report);
        QCOMPARE(countOf(text, "Direct "), std::size_t(1));
        QVERIFY2(text.find("Direct Pytorch Caching memory pool leak of 1.000000 Mb(s) at 0x200000 in kernel_0 at step 2.\n")
                != std::string::npos, text.c_str());
        QVERIFY2(text.find("====== SUMMARY: 1 Mb(s) leaked in 1 allocation(s) ======") != std::string::npos, text.c_str());
        QVERIFY(text.find("====== ERROR: Detected memory leaks on device 0 ======") != std::string::npos);
        // Fluctuation: step 2 used 1052672..1053184, step 3 1052672..1052928; step 4 has no pool row.
        QCOMPARE(report.gaps.size(), std::size_t(1));
        const auto& gap = report.gaps[0];
        QCOMPARE(gap.minGap.step, 2u);
        QCOMPARE(gap.maxGap.step, 3u);
        QCOMPARE(gap.minGap.stepMin, std::int64_t(1052672));
        QCOMPARE(gap.minGap.ratio, 1052672.0 / 1053184.0);
        QCOMPARE(gap.maxGap.ratio, 1052672.0 / 1052928.0);
        QVERIFY2(text.find("MinGap  99.9514                  1.0039                   2\n") != std::string::npos, text.c_str());
        QVERIFY2(text.find("MaxGap  99.9757                  1.0039                   3\n") != std::string::npos, text.c_str());
    }

    void leakAllocatedInLastStepIsNotYetALeak()
    {
        // Allocated in step 3, alive at the end of step 3 only: duration 0, not reported.
        QTemporaryDir dir;
        MemDumpBuilder d;
        d.step(1);
        d.step(2);
        d.malloc("PTA", 0x500, 2048, 1);
        d.step(3);
        const auto dump = load(dir, "late.csv", d.text);
        QVERIFY(findStepLeaks(dump.trace, dump.model).leaks.empty());
    }

    void leaksBetweenMarks()
    {
        // Spec §6 check 4 (mstx_info "test", start_index 0).
        QTemporaryDir dir;
        MemDumpBuilder d;
        d.malloc("HAL", 0x1, 1048576, 1); // before A: ignored
        d.mark("test"); // A (ID 2)
        d.malloc("HAL", 0xA, 2097152, 2); // ID 3, freed after C: leak
        d.malloc("HAL", 0xB, 1048576, 3); // ID 4, freed between B and C: fine
        d.mark("test"); // B
        d.free("HAL", 0xB, 1048576, 3);
        d.mark("test"); // C
        d.free("HAL", 0xA, 2097152, 2);
        const auto dump = load(dir, "marks.csv", d.text);
        const auto devices = checkLeaksBetweenMarks(dump.trace, "test", 0);
        QCOMPARE(devices.size(), std::size_t(1));
        QCOMPARE(devices[0].leaks.size(), std::size_t(1));
        QCOMPARE(devices[0].leaks[0].id, std::uint64_t(3));
        QCOMPARE(formatMarkLeaks(devices),
            std::string("====== ERROR: Detected memory leaks on device 0 ======\n"
                        "Direct Hal memory leak of 2.0 Mb(s) at 0x000000000000000a in Index 3.\n"));
        // start_index 1 needs marks 1, 2, 3: only 3 marks exist.
        const auto shifted = checkLeaksBetweenMarks(dump.trace, "test", 1);
        QVERIFY(shifted[0].status == MarkLeakDevice::Status::StartIndexOutOfRange);
        const auto other = checkLeaksBetweenMarks(dump.trace, "nothing", 0);
        QVERIFY(formatMarkLeaks(other).starts_with("ERROR: Device 0 has fewer than 3 data points"));
        // A pool filter that leaves out HAL finds nothing.
        const auto pta = checkLeaksBetweenMarks(dump.trace, "test", 0, { "PTA" });
        QCOMPARE(formatMarkLeaks(pta), std::string("No hal memory leaks detected on device 0.\n"));
        QCOMPARE(pythonFloat(2.0), std::string("2.0"));
        QCOMPARE(pythonFloat(1536.0 / 1048576.0), std::string("0.00146484375"));
    }

    void earlyAllocation()
    {
        // Spec §6 check 5: op1{MALLOC x}, op2{FREE y}, op3{ACCESS x}, y allocated by an earlier op.
        QTemporaryDir dir;
        MemDumpBuilder d;
        d.opStart("op0");
        d.malloc("PTA", 0x10, 100, 1); // y
        d.opEnd("op0");
        d.opStart("op1");
        d.malloc("PTA", 0x20, 200, 2); // x
        d.opEnd("op1");
        d.opStart("op2");
        d.free("PTA", 0x10, 100, 1);
        d.opEnd("op2");
        d.opStart("op3");
        d.access("op3", 0x20, 200, 2);
        d.opEnd("op3");
        const auto dump = load(dir, "early.csv", d.text);
        const auto report = findInefficientBlocks(dump.trace, dump.model);
        QCOMPARE(report.blocks.size(), std::size_t(1));
        const auto& flagged = report.blocks[0];
        QCOMPARE(dump.model.blocks[flagged.block].allocationId, std::uint64_t(2));
        QCOMPARE(inefficientTypeNames(flagged.types), std::string("early_allocation"));
        // MALLOC x is row 5, ACCESS x row 11: 60 ns apart, APIs 2 and 4.
        QCOMPARE(flagged.earlyByteNs, 200.0 * 60);
        QCOMPARE(flagged.earlyByteApis, 200.0 * 2);
        QCOMPARE(report.apis, std::uint64_t(4));
    }

    void lateDeallocation()
    {
        // op1{ACCESS z}, op2{MALLOC w}, op3{FREE z}, z allocated by an earlier op.
        QTemporaryDir dir;
        const MemDumpBuilder d = lateDeallocationTrace();
        const auto dump = load(dir, "late.csv", d.text);
        auto report = findInefficientBlocks(dump.trace, dump.model);
        QCOMPARE(report.blocks.size(), std::size_t(1));
        QCOMPARE(dump.model.blocks[report.blocks[0].block].allocationId, std::uint64_t(1));
        QCOMPARE(inefficientTypeNames(report.blocks[0].types), std::string("late_deallocation"));
        QCOMPARE(report.blocks[0].lateByteApis, 64.0 * 2);
        // Filters: a size floor above 64 bytes, or only the other types, leave nothing.
        QVERIFY(findInefficientBlocks(dump.trace, dump.model, { 65, kAllInefficientTypes, 3000 }).blocks.empty());
        QVERIFY(findInefficientBlocks(dump.trace, dump.model, { 0, kEarlyAllocation | kTemporaryIdleness, 3000 }).blocks.empty());
    }

    void temporaryIdlenessThreshold()
    {
        // Block a: consecutive accesses 3001 APIs apart (flagged); block b: exactly 3000 apart (not flagged).
        QTemporaryDir dir;
        MemDumpBuilder d;
        d.opStart("op0");
        d.malloc("PTA", 0x100, 10, 1); // a
        d.malloc("PTA", 0x200, 20, 2); // b
        d.opEnd("op0"); // API 1
        d.opStart("op1");
        d.access("op1", 0x100, 10, 1);
        d.opEnd("op1"); // API 2
        d.opStart("op2");
        d.access("op2", 0x200, 20, 2);
        d.opEnd("op2"); // API 3
        for (int k = 4; k <= 3002; ++k) {
            d.opStart("idle");
            d.opEnd("idle");
        }
        d.opStart("use");
        d.access("use", 0x100, 10, 1);
        d.access("use", 0x200, 20, 2);
        d.opEnd("use"); // API 3003
        const auto dump = load(dir, "idle.csv", d.text);
        const auto report = findInefficientBlocks(dump.trace, dump.model);
        QCOMPARE(report.blocks.size(), std::size_t(1));
        QCOMPARE(dump.model.blocks[report.blocks[0].block].allocationId, std::uint64_t(1));
        QCOMPARE(inefficientTypeNames(report.blocks[0].types), std::string("temporary_idleness"));
        QCOMPARE(report.blocks[0].idleByteApis, 10.0 * 3001);
        // With a threshold of 2999 both are idle.
        QCOMPARE(findInefficientBlocks(dump.trace, dump.model, { 0, kAllInefficientTypes, 2999 }).blocks.size(), std::size_t(2));
    }

    void ownerDecomposition()
    {
        QTemporaryDir dir;
        MemDumpBuilder d;
        d.malloc("HAL", 0x9000, 5000, 9); // backs the pool: left out
        d.malloc("PTA", 0x10, 1000, 1, -1, ",owner:PTA@weight");
        d.malloc("PTA", 0x20, 500, 2, -1, ",owner:PTA@gradient");
        d.malloc("PTA", 0x30, 700, 3, -1, ",owner:PTA@activation");
        d.malloc("PTA", 0x40, 300, 4, -1, ",owner:PTA@activation@layer1");
        d.malloc("PTA", 0x50, 2000, 5, -1, ",owner:PTA@optimizer_state");
        d.step(1);
        d.free("PTA", 0x30, 700, 3);
        d.malloc("PTA", 0x60, 100, 6);
        const auto dump = load(dir, "owners.csv", d.text);
        const auto peak = decompose(dump.trace, dump.model, { DecomposeOptions::At::Peak });
        QCOMPARE(peak.liveBytes, std::int64_t(4500));
        QCOMPARE(peak.categories.at("activation"), std::int64_t(1000));
        QCOMPARE(peak.categories.at("optimizer_state"), std::int64_t(2000));
        QCOMPARE(peak.owners.front().owner, std::string("PTA@optimizer_state"));
        const auto atStep = decompose(dump.trace, dump.model, { DecomposeOptions::At::StepEnd, 0, 1 });
        QCOMPARE(atStep.liveBytes, std::int64_t(4500));
        const auto end = decompose(dump.trace, dump.model, { DecomposeOptions::At::End });
        QCOMPARE(end.liveBytes, std::int64_t(3900));
        QCOMPARE(end.liveBlocks, std::size_t(5));
        QCOMPARE(end.categories.at("weight"), std::int64_t(1000));
        QCOMPARE(end.categories.at("gradient"), std::int64_t(500));
        QCOMPARE(end.categories.at("optimizer_state"), std::int64_t(2000));
        QCOMPARE(end.categories.at("activation"), std::int64_t(300));
        QCOMPARE(end.categories.at("unknown"), std::int64_t(100)); // untagged, no op, never freed
        DecomposeOptions withHal { DecomposeOptions::At::End };
        withHal.includeHal = true;
        QCOMPARE(decompose(dump.trace, dump.model, withHal).liveBytes, std::int64_t(8900));
        QVERIFY_THROWS_EXCEPTION(support::Error, decompose(dump.trace, dump.model, { DecomposeOptions::At::StepEnd, 0, 7 }));
    }

    void categoriesInferred()
    {
        // Spec §5.3 on one training step as our capture labels phases (owner PROCESS level forward / backward /
        // optimizer), each rule met once; the comment after each block is the category worked out by hand.
        QTemporaryDir dir;
        MemDumpBuilder d;
        d.malloc("PTA", 0x100, 100, 1, -1, ",owner:PTA@forward"); // A: before the step's first op: input
        d.opStart("aten::linear");
        d.malloc("PTA", 0x200, 1000, 2, -1, ",owner:PTA@forward@weight"); // W: labelled weight
        d.opEnd("aten::linear");
        d.opStart("aten::mm");
        d.malloc("PTA", 0x300, 50, 3, -1, ",owner:PTA@forward"); // T: freed in relu, same phase: temporary
        d.opStart("aten::empty");
        d.malloc("PTA", 0x350, 60, 4, -1, ",owner:PTA@forward"); // T2: freed inside the same outermost op (mm): temporary
        d.opEnd("aten::empty");
        d.free("PTA", 0x350, 60, 4);
        d.malloc("PTA", 0x400, 200, 5, -1, ",owner:PTA@forward"); // ACT: freed in backward: activation
        d.opEnd("aten::mm");
        d.opStart("aten::relu");
        d.free("PTA", 0x300, 50, 3);
        d.opEnd("aten::relu");
        d.opStart("aten::mm");
        d.malloc("PTA", 0x500, 1000, 6, -1, ",owner:PTA@backward@gradient"); // G: labelled gradient
        d.malloc("PTA", 0x600, 30, 7, -1, ",owner:PTA@backward"); // BT: freed in its op: temporary
        d.free("PTA", 0x400, 200, 5);
        d.free("PTA", 0x600, 30, 7);
        d.opEnd("aten::mm");
        d.opStart("aten::add_");
        d.malloc("PTA", 0x700, 2000, 8, -1, ",owner:PTA@optimizer"); // OS: optimizer phase, outlives the step
        d.malloc("PTA", 0x800, 10, 9, -1, ",owner:PTA@optimizer"); // OT: freed in its op: temporary
        d.free("PTA", 0x800, 10, 9);
        d.opEnd("aten::add_");
        d.free("PTA", 0x100, 100, 1);
        d.step(1);
        d.opStart("aten::cat");
        d.malloc("PTA", 0x900, 77, 10); // U: untagged, never freed: unknown
        d.opEnd("aten::cat");
        d.malloc("PTA", 0xA00, 5, 11); // L: outside ops but after the step's first op: unknown
        d.step(2);
        const auto dump = load(dir, "categories.csv", d.text);
        const std::map<std::uint64_t, std::string> expected { { 1, "input" }, { 2, "weight" }, { 3, "temporary" },
            { 4, "temporary" }, { 5, "activation" }, { 6, "gradient" }, { 7, "temporary" }, { 8, "optimizer_state" },
            { 9, "temporary" }, { 10, "unknown" }, { 11, "unknown" } };
        QCOMPARE(dump.model.blocks.size(), expected.size());
        for (const auto& block : dump.model.blocks)
            QCOMPARE(std::string(categoryName(block.category)), expected.at(block.allocationId));
        // End of step 1: W, G and OS live (4000 bytes); at the end also U and L.
        const auto step1 = decompose(dump.trace, dump.model, { DecomposeOptions::At::StepEnd, 0, 1 });
        QCOMPARE(step1.liveBytes, std::int64_t(4000));
        QCOMPARE(step1.categories, (std::map<std::string, std::int64_t> { { "weight", 1000 }, { "gradient", 1000 }, { "optimizer_state", 2000 } }));
        const auto end = decompose(dump.trace, dump.model, { DecomposeOptions::At::End });
        QCOMPARE(end.categories.at("unknown"), std::int64_t(82));
        // The peak is OT's MALLOC: A 100 + W 1000 + G 1000 + OS 2000 + OT 10 = 4110 live.
        const auto peak = decompose(dump.trace, dump.model, { DecomposeOptions::At::Peak });
        QCOMPARE(peak.liveBytes, std::int64_t(4110));
        QCOMPARE(peak.categories, (std::map<std::string, std::int64_t> { { "input", 100 }, { "weight", 1000 }, { "gradient", 1000 },
                                      { "optimizer_state", 2000 }, { "temporary", 10 } }));
    }

    void stepGrowthByOp()
    {
        // Step 2 runs an extra aten.cat that keeps 1 MiB: net compare of steps 1 and 2 names it.
        QTemporaryDir dir;
        MemDumpBuilder d;
        std::uint64_t id = 1, ptr = 0x1000;
        auto op = [&](const std::string& name, std::int64_t keep, std::int64_t temporary) {
            d.opStart(name);
            d.malloc("PTA", ptr, keep, id++);
            ptr += 0x100000;
            if (temporary) {
                d.malloc("PTA", ptr, temporary, id);
                d.free("PTA", ptr, temporary, id++);
                ptr += 0x100000;
            }
            d.opEnd(name);
        };
        op("aten.mm", 1024, 0);
        op("aten.relu", 512, 4096);
        d.step(1);
        op("aten.mm", 1024, 0);
        op("aten.cat", 1048576, 0);
        op("aten.relu", 512, 4096);
        d.step(2);
        const auto dump = load(dir, "growth.csv", d.text);
        const auto result = compareMemory({ &dump.trace, &dump.model, 1 }, { &dump.trace, &dump.model, 2 }, CompareLevel::Op, CompareMode::Net);
        QCOMPARE(result.rows.size(), std::size_t(3));
        QCOMPARE(result.rows[0].name, std::string("aten.mm"));
        QCOMPARE(result.rows[0].diff, std::int64_t(0));
        QCOMPARE(result.rows[1].name, std::string("aten.cat"));
        QVERIFY(!result.rows[1].base);
        QCOMPARE(*result.rows[1].compare, std::int64_t(1048576));
        QCOMPARE(result.rows[1].diff, std::int64_t(1048576));
        QCOMPARE(*result.rows[2].base, std::int64_t(512));
        QCOMPARE(result.rows[2].basePeak, std::int64_t(512 + 4096));
        QVERIFY_THROWS_EXCEPTION(support::Error, compareMemory({ &dump.trace, &dump.model, 1 }, { &dump.trace, &dump.model, 3 }, CompareLevel::Op, CompareMode::Net));
    }

    void plantedLeakAndLateFreeInCaptureLayout()
    {
        // Rows as our libtorch capture writes them (spec §5.4 native mode: Event Type TORCH_CPU, Device Id cpu,
        // extra Attr keys): one leak planted in step 2 and one late free; each found, nothing else reported.
        QTemporaryDir dir;
        MemDumpBuilder d;
        d.device = "cpu";
        const std::string extra = ",device_type:cpu,op:aten::empty,step:1";
        auto step = [&](int n, bool leak) {
            d.opStart("aten::linear");
            d.malloc("TORCH_CPU", 0x1000, 128, 10 * n + 1, -1, extra); // activation
            d.access("aten::linear", 0x1000, 128, 10 * n + 1);
            d.opEnd("aten::linear");
            d.opStart("aten::relu");
            d.access("aten::relu", 0x1000, 128, 10 * n + 1);
            d.malloc("TORCH_CPU", 0x2000, 128, 10 * n + 2, -1, extra);
            d.free("TORCH_CPU", 0x1000, 128, 10 * n + 1);
            d.opEnd("aten::relu");
            if (leak) {
                d.opStart("aten::cat");
                d.malloc("TORCH_CPU", 0x9000, 4096, 10 * n + 3, -1, extra); // never freed
                d.opEnd("aten::cat");
            }
            d.opStart("aten::sum");
            d.access("aten::sum", 0x2000, 128, 10 * n + 2);
            d.opEnd("aten::sum");
            d.opStart("aten::zeros");
            d.malloc("TORCH_CPU", 0x3000, 64, 10 * n + 4, -1, extra);
            d.opEnd("aten::zeros");
            d.opStart("aten::add");
            d.access("aten::add", 0x3000, 64, 10 * n + 4);
            d.free("TORCH_CPU", 0x2000, 128, 10 * n + 2); // last used in sum, freed after zeros allocated: late
            d.free("TORCH_CPU", 0x3000, 64, 10 * n + 4);
            d.opEnd("aten::add");
            d.step(n);
        };
        step(1, false);
        step(2, true);
        step(3, false);
        step(4, false);
        const auto dump = load(dir, "capture.csv", d.text);
        const auto leaks = findStepLeaks(dump.trace, dump.model);
        QCOMPARE(leaks.leaks.size(), std::size_t(1));
        QCOMPARE(leaks.leaks[0].allocationId, std::uint64_t(23));
        QCOMPARE(leaks.leaks[0].pool, std::string("TORCH_CPU"));
        QVERIFY2(formatStepLeaks(leaks).find("Direct Torch CPU memory pool leak of 0.003906 Mb(s) at 0x9000 in kernel_0 at step 2.")
                != std::string::npos, formatStepLeaks(leaks).c_str());
        std::size_t alive = 0;
        for (const auto& b : dump.model.blocks)
            alive += b.aliveAtEnd();
        QCOMPARE(alive, std::size_t(1));
        const auto inefficient = findInefficientBlocks(dump.trace, dump.model);
        QCOMPARE(inefficient.blocks.size(), std::size_t(4)); // the late free of each of the 4 steps
        for (const auto& item : inefficient.blocks) {
            QCOMPARE(inefficientTypeNames(item.types), std::string("late_deallocation"));
            QCOMPARE(dump.model.blocks[item.block].allocationId % 10, std::uint64_t(2));
        }
        // Step 2 keeps 4096 bytes more than step 1, all of it in aten::cat.
        const auto growth = compareMemory({ &dump.trace, &dump.model, 1 }, { &dump.trace, &dump.model, 2 }, CompareLevel::Op, CompareMode::Net);
        std::int64_t total = 0;
        for (const auto& row : growth.rows)
            total += row.diff;
        QCOMPARE(total, std::int64_t(4096));
        QCOMPARE(growth.framework, std::string("TORCH_CPU"));
    }

    void compatCompareOfExampleDumps()
    {
        const auto baseTrace = readMemScope(dataDir() / "memory" / "baseline.csv");
        const auto leakTrace = readMemScope(dataDir() / "memory" / "leaks.csv");
        const auto baseModel = buildModel(baseTrace);
        const auto leakModel = buildModel(leakTrace);
        const auto result = compareMemory({ &baseTrace, &baseModel }, { &leakTrace, &leakModel }, CompareLevel::Op, CompareMode::Compat);
        QCOMPARE(result.framework, std::string("PTA"));
        // 40 ops in the baseline, 44 in leaks.csv: every baseline op aligned, 4 only in leaks.csv.
        QCOMPARE(result.rows.size(), std::size_t(44));
        std::size_t onlyCompare = 0;
        for (const auto& row : result.rows)
            onlyCompare += !row.base;
        QCOMPARE(onlyCompare, std::size_t(4));
        // Hand-checked first ops: t ends at ID 3, the next PTA row in time is MALLOC ID 5 (1536 bytes); addmm
        // ends at ID 6, next MALLOC ID 8 (512); mse_loss ends at ID 13 after its own FREE (ID 12), next ID 19 (512).
        const auto csv = compareCsv(result);
        QVERIFY2(csv.starts_with(",,,Base,Compare\nEvent,Name,Device Id,Allocated Memory(byte),Allocated Memory(byte),Diff Memory(byte)\n"
                                 "OP_LAUNCH,torch._ops.aten.t.default,0,1536,1536,0\n"
                                 "OP_LAUNCH,torch._ops.aten.addmm.default,0,512,512,0\n"
                                 "OP_LAUNCH,torch._ops.aten.mse_loss.default,0,512,512,0\n"),
            csv.c_str());
    }

    void myersAlignment()
    {
        // The classic example of Myers' paper: ABCABBA vs CBABAC, edit distance 5, so 4 items kept.
        const std::vector<std::string_view> a { "A", "B", "C", "A", "B", "B", "A" }, b { "C", "B", "A", "B", "A", "C" };
        const auto matches = myersMatches(a, b);
        QCOMPARE(matches.size(), std::size_t(4));
        for (std::size_t k = 0; k < matches.size(); ++k) {
            QCOMPARE(a[matches[k].first], b[matches[k].second]);
            if (k) {
                QVERIFY(matches[k].first > matches[k - 1].first);
                QVERIFY(matches[k].second > matches[k - 1].second);
            }
        }
        QVERIFY(myersMatches({}, b).empty());
        QCOMPARE(myersMatches(a, a).size(), a.size());
    }

    void watchChangesLocateTheWriter()
    {
        QTemporaryDir dir;
        const fs::path file = fs::path(dir.path().toStdString()) / "watch_dump_data_check_sum_20250101000000.csv";
        const std::string w = "torch._ops.aten.mse_loss.default";
        const std::string a(16, 'a'), b(16, 'b'), c(16, 'c');
        writeFile(file, "Tensor info,Check data sum\n"
                "0_123/" + w + "_1-" + w + "_0_after," + a + "\n"
                "0_123/torch._ops.aten.add.Tensor_1-" + w + "_0_before," + a + "\n"
                "0_123/torch._ops.aten.add.Tensor_1-" + w + "_0_after," + a + "\n"
                "0_123/torch._ops.aten.mul.Tensor_3-" + w + "_0_before," + a + "\n"
                "0_123/torch._ops.aten.mul.Tensor_3-" + w + "_0_after," + b + "\n"
                "0_123/torch._ops.aten.sum.default_1-" + w + "_0_before," + c + "\n");
        const auto report = readWatchChecksums(file);
        QCOMPARE(report.dumps.size(), std::size_t(6));
        QCOMPARE(report.changes.size(), std::size_t(2));
        QVERIFY(report.changes[0].insideOp);
        QCOMPARE(report.dumps[report.changes[0].to].op, std::string("torch._ops.aten.mul.Tensor"));
        QCOMPARE(report.dumps[report.changes[0].to].call, std::uint64_t(3));
        QVERIFY(!report.changes[1].insideOp);
        QCOMPARE(report.dumps[report.changes[1].to].line, std::size_t(7));

        writeFile(file, "Tensor info,Check data sum\n0_1/op_1-w_0_after,xyz\n");
        try {
            readWatchChecksums(file);
            QFAIL("a bad checksum was accepted");
        } catch (const support::Error& error) {
            QVERIFY2(std::string(error.what()).find("line 2, column 2 (Check data sum)") != std::string::npos, error.what());
        }
    }
};

QTEST_GUILESS_MAIN(TestCoreMemoryAnalyses)
#include "tst_core_memory_analyses.moc"
