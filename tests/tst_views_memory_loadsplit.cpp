// SPDX-License-Identifier: Apache-2.0
// Opening a memory dump splits the work over two threads: one rebuilds the model's blocks and stacks them, the
// other pairs the operators (finding the capture's time range), lays out the lanes, finishes the model once the
// blocks are rebuilt and runs the analyses; the timeline's level of detail is built in two halves, the one the
// analysis marks do not change (allocations, live bytes, density) beside the analyses and the envelope after them.
// The loaded model must be the one core's buildModel gives, member for member, and the loaded timeline the one the
// sequential build (buildTimeline) gives, block for block and bucket for bucket: on the spec fixture leaks.csv, on
// hand-made traces whose blocks the step-leak and inefficiency analyses mark, on a generated trace large enough
// for buildModel's two threads, and on three processes written interleaved (dense, sparse and absent allocation
// ids); a dump mixing the two step sources fails with buildModel's message.
#include "memorydocument.h"
#include "test_util.h"
#include "tst_core_memory_rows.h"

#include <QTemporaryDir>
#include <QTest>

#include "memory/mem_model.h"
#include "memory/memscope_reader.h"
#include "support/error.h"

#include <algorithm>
#include <fstream>

namespace {

using msprobe::studio::MemoryDocument;
using msprobe::studio::MemoryTimeline;

std::shared_ptr<const MemoryDocument> writeAndLoad(const QTemporaryDir& dir, const char* name, const std::string& text)
{
    const std::string file = dir.filePath(QString::fromLatin1(name)).toStdString();
    std::ofstream(file) << text;
    return msprobe::studio::loadMemoryDocument(file);
}

// A trace of `steps` steps, each one outermost op per block: block k (k = 1, 2, ...) of 512 + 37 * (k % 100) bytes
// is freed three blocks later, except every 50th, freed two steps later (a step leak), and every 400th, never freed.
std::string generatedTrace(int steps, int blocksPerStep)
{
    msprobe::test::MemDumpBuilder b;
    struct Pending {
        std::uint64_t id;
        int freeStep; // 0: three blocks later
    };
    std::vector<Pending> held;
    std::uint64_t id = 0;
    auto sizeOf = [](std::uint64_t k) { return 512 + 37 * static_cast<std::int64_t>(k % 100); };
    auto freeBlock = [&](std::uint64_t k) {
        b.opStart("aten.free_op");
        b.free("PTA", 0x100000 * k, sizeOf(k), k);
        b.opEnd("aten.free_op");
    };
    for (int step = 1; step <= steps; ++step) {
        for (int i = 0; i < blocksPerStep; ++i) {
            ++id;
            b.opStart("aten.op" + std::to_string(id % 7));
            b.malloc("PTA", 0x100000 * id, sizeOf(id), id);
            b.access("aten.op" + std::to_string(id % 7), 0x100000 * id, sizeOf(id), id);
            b.opEnd("aten.op" + std::to_string(id % 7));
            if (id % 400 == 0)
                continue;
            held.push_back({ id, id % 50 == 0 ? step + 2 : 0 });
            // Free the oldest block due three allocations later.
            for (auto it = held.begin(); it != held.end(); ++it)
                if (it->freeStep == 0 && it->id + 3 <= id) {
                    freeBlock(it->id);
                    held.erase(it);
                    break;
                }
        }
        for (auto it = held.begin(); it != held.end();)
            if (it->freeStep != 0 && it->freeStep <= step) {
                freeBlock(it->id);
                it = held.erase(it);
            } else {
                ++it;
            }
        b.step(step);
    }
    return b.text;
}

void compareTimelines(const MemoryTimeline& loaded, const MemoryTimeline& sequential)
{
    QCOMPARE(loaded.beginNs, sequential.beginNs);
    QCOMPARE(loaded.endNs, sequential.endNs);
    QCOMPARE(loaded.stackTop, sequential.stackTop);
    QCOMPARE(loaded.blocks.size(), sequential.blocks.size());
    for (std::size_t i = 0; i < loaded.blocks.size(); ++i) {
        const auto &a = loaded.blocks[i], &b = sequential.blocks[i];
        QVERIFY2(a.startNs == b.startNs && a.endNs == b.endNs && a.offset == b.offset && a.size == b.size && a.block == b.block
                && a.marks == b.marks,
            qPrintable(QStringLiteral("block %1").arg(i)));
    }
    QCOMPARE(loaded.live.size(), sequential.live.size());
    for (std::size_t i = 0; i < loaded.live.size(); ++i)
        QVERIFY(loaded.live[i].tsNs == sequential.live[i].tsNs && loaded.live[i].liveBytes == sequential.live[i].liveBytes);
    QCOMPARE(loaded.peak.tsNs, sequential.peak.tsNs);
    QCOMPARE(loaded.peak.liveBytes, sequential.peak.liveBytes);
    for (const auto& [a, b] : { std::pair { &loaded.steps, &sequential.steps }, std::pair { &loaded.ops, &sequential.ops },
             std::pair { &loaded.marks, &sequential.marks } }) {
        QCOMPARE(a->size(), b->size());
        for (std::size_t i = 0; i < a->size(); ++i)
            QVERIFY((*a)[i].startNs == (*b)[i].startNs && (*a)[i].endNs == (*b)[i].endNs && (*a)[i].label == (*b)[i].label);
    }
    const auto &lodA = loaded.lod, &lodB = sequential.lod;
    QCOMPARE(lodA.leafNs, lodB.leafNs);
    QCOMPARE(lodA.levels.size(), lodB.levels.size());
    for (std::size_t l = 0; l < lodA.levels.size(); ++l) {
        QCOMPARE(lodA.levels[l].size(), lodB.levels[l].size());
        for (std::size_t i = 0; i < lodA.levels[l].size(); ++i) {
            const auto &a = lodA.levels[l][i], &b = lodB.levels[l][i];
            QVERIFY2(a.liveMax == b.liveMax && a.top == b.top && a.bottom == b.bottom && a.plainTop == b.plainTop
                    && a.plainBottom == b.plainBottom && a.allocatedBytes == b.allocatedBytes && a.allocations == b.allocations
                    && a.marks == b.marks,
                qPrintable(QStringLiteral("level %1 bucket %2").arg(l).arg(i)));
        }
    }
    QCOMPARE(lodA.density.bandBytes, lodB.density.bandBytes);
    QCOMPARE(lodA.density.leafNs, lodB.density.leafNs);
    QVERIFY(lodA.density.levels == lodB.density.levels);
}

// The model of a loaded document against core's buildModel of the same trace, member for member.
void compareModels(const msprobe::memory::MemModel& loaded, const msprobe::memory::MemModel& built)
{
    QCOMPARE(loaded.ops.size(), built.ops.size());
    for (std::size_t i = 0; i < loaded.ops.size(); ++i) {
        const auto &a = loaded.ops[i], &b = built.ops[i];
        QVERIFY2(a.name == b.name && a.pid == b.pid && a.tid == b.tid && a.device == b.device && a.startEvent == b.startEvent
                && a.endEvent == b.endEvent && a.depth == b.depth && a.parent == b.parent && a.atb == b.atb,
            qPrintable(QStringLiteral("op %1").arg(i)));
    }
    QVERIFY(loaded.opOf == built.opOf);
    QVERIFY(loaded.stepOf == built.stepOf);
    QVERIFY(loaded.blockOf == built.blockOf);
    QCOMPARE(loaded.blocks.size(), built.blocks.size());
    for (std::size_t i = 0; i < loaded.blocks.size(); ++i) {
        const auto &a = loaded.blocks[i], &b = built.blocks[i];
        QVERIFY2(a.allocationId == b.allocationId && a.pool == b.pool && a.pid == b.pid && a.device == b.device && a.ptr == b.ptr
                && a.size == b.size && a.mallocEvent == b.mallocEvent && a.freeEvent == b.freeEvent && a.shadowFree == b.shadowFree
                && a.allocOp == b.allocOp && a.freeOp == b.freeOp && a.allocStep == b.allocStep && a.freeStep == b.freeStep
                && a.owner == b.owner && a.category == b.category && a.accesses == b.accesses,
            qPrintable(QStringLiteral("block %1").arg(i)));
    }
    QVERIFY(loaded.unmatchedAccesses == built.unmatchedAccesses);
    QVERIFY(loaded.unmatchedFrees == built.unmatchedFrees);
    QVERIFY(loaded.mstxEvents == built.mstxEvents);
    QCOMPARE(loaded.firstNs, built.firstNs);
    QCOMPARE(loaded.lastNs, built.lastNs);
    QVERIFY(loaded.stepSource == built.stepSource);
    QCOMPARE(loaded.stepCount, built.stepCount);
    QCOMPARE(loaded.boundaries.size(), built.boundaries.size());
    for (std::size_t i = 0; i < loaded.boundaries.size(); ++i)
        QVERIFY(loaded.boundaries[i].event == built.boundaries[i].event && loaded.boundaries[i].step == built.boundaries[i].step
            && loaded.boundaries[i].start == built.boundaries[i].start);
}

// Three processes whose rows are written interleaved (the reader sorts them by process): pid 300 numbers its
// allocations densely, pid 200 sparsely (ids far apart: looked up by hash), pid 100 writes no allocation ids (its
// blocks are matched by pool and address), each freeing its blocks in a scrambled order, some never, pid 200 also
// freeing an address it never allocated, and marking a point and a range every 1000 rounds. `rounds` MALLOCs
// of each process.
std::string interleavedProcesses(int rounds)
{
    msprobe::test::MemDumpBuilder b;
    struct Live {
        std::uint64_t id, ptr;
        std::int64_t size;
    };
    std::vector<Live> live[3];
    const int pids[3] = { 300, 200, 100 };
    std::uint64_t serial = 0;
    for (int round = 0; round < rounds; ++round) {
        for (int p = 0; p < 3; ++p) {
            b.pid = pids[p];
            b.tid = pids[p] + round % 2;
            ++serial;
            const std::uint64_t id = p == 0 ? serial : serial * 1000003ull;
            const std::uint64_t ptr = 0x10000000ull * (p + 1) + 0x1000 * serial;
            const std::int64_t size = 64 + static_cast<std::int64_t>((serial * 2654435761ull) % 5000);
            if (round % 97 == 0)
                b.step(round / 97 + 1);
            b.opStart("aten.op" + std::to_string(serial % 5));
            if (p == 2) // no allocation_id: matched by pool and address
                b.row("MALLOC", "PTA", "N/A", b.hex(ptr), "{addr:" + b.hex(ptr) + ",size:" + std::to_string(size) + "}");
            else
                b.malloc("PTA", ptr, size, id);
            b.opEnd("aten.op" + std::to_string(serial % 5));
            if (serial % 11 != 0)
                live[p].push_back({ id, ptr, size });
            // Free a block picked by a scrambled index once a few are live.
            if (live[p].size() > 6) {
                const std::size_t pick = (serial * 7919) % live[p].size();
                const Live gone = live[p][pick];
                live[p].erase(live[p].begin() + static_cast<std::ptrdiff_t>(pick));
                if (p == 2)
                    b.row("FREE", "PTA", "N/A", b.hex(gone.ptr), "{addr:" + b.hex(gone.ptr) + ",size:" + std::to_string(gone.size) + "}");
                else
                    b.free("PTA", gone.ptr, gone.size, gone.id);
            }
            if (p == 1 && round % 50 == 7)
                b.free("PTA", 0xdead0000 + serial, 128, serial * 1000003ull + 1); // never allocated
            if (p == 1 && round % 1000 == 5) {
                b.mark("checkpoint " + std::to_string(round));
                b.row("MSTX", "Range_start", "region", "N/A", "");
            }
            if (p == 1 && round % 1000 == 605)
                b.row("MSTX", "Range_end", "region " + std::to_string(round / 1000 + 1), "N/A", "");
        }
    }
    return b.text;
}

// The model's time range is the earliest and latest event, and its MSTX rows every MSTX event.
void checkTimeRange(const MemoryDocument& document)
{
    const auto& events = document.trace.events;
    QVERIFY(!events.empty());
    std::vector<std::uint32_t> mstx;
    for (std::uint32_t i = 0; i < events.size(); ++i)
        if (events[i].kind == msprobe::memory::EventKind::Mstx)
            mstx.push_back(i);
    QVERIFY(document.model.mstxEvents == mstx);
    const auto [first, last] = std::minmax_element(events.begin(), events.end(), [](const auto& a, const auto& b) { return a.tsNs < b.tsNs; });
    QCOMPARE(document.model.firstNs, first->tsNs);
    QCOMPARE(document.model.lastNs, last->tsNs);
}

} // namespace

class TestMemoryLoadSplit : public QObject {
    Q_OBJECT
private slots:
    void fixtureLoadsAsTheSequentialBuild()
    {
        const auto document = msprobe::studio::loadMemoryDocument(msprobe::test::dataDir() / "memory" / "leaks.csv");
        checkTimeRange(*document);
        // leaks.csv: START_TRACE and STOP_TRACE are its first and last events.
        QCOMPARE(document->model.firstNs, std::int64_t(1764753365727896900));
        QCOMPARE(document->model.lastNs, std::int64_t(1764753366323513710));
        compareTimelines(document->timeline, msprobe::studio::buildTimeline(*document));
        compareModels(document->model, msprobe::memory::buildModel(document->trace));
    }

    void markedBlocksLoadAsTheSequentialBuild()
    {
        QTemporaryDir dir;
        // tst_core_memory_analyses' §2.1 case: allocation 2 made in step 2, alive after step 3 (a step leak).
        msprobe::test::MemDumpBuilder steps;
        steps.malloc("PTA", 0x100, 4096, 1, 4096);
        steps.step(1);
        steps.malloc("PTA", 0x200000, 1048576, 2, 1052672);
        steps.step(2);
        steps.step(3);
        steps.free("PTA", 0x200000, 1048576, 2, 4096);
        steps.step(4);
        const auto leaky = writeAndLoad(dir, "steps.csv", steps.text);
        QCOMPARE(leaky->stepLeaks.leaks.size(), std::size_t(1));
        compareTimelines(leaky->timeline, msprobe::studio::buildTimeline(*leaky));
        const auto marked = std::count_if(leaky->timeline.blocks.begin(), leaky->timeline.blocks.end(),
            [](const auto& block) { return block.marks == msprobe::studio::kMarkStepLeak; });
        QCOMPARE(marked, 1); // freed at last, so only the step-leak mark
        // Allocation 1 is never freed (alive at the end), allocation 2 a step leak: the whole capture's bucket has
        // both marks and no unmarked block in its envelope.
        const auto& whole = leaky->timeline.lod.levels.back().front();
        QCOMPARE(whole.marks, std::uint8_t(msprobe::studio::kMarkStepLeak | msprobe::studio::kMarkAliveAtEnd));
        QCOMPARE(whole.plainTop, std::int64_t(-1));
        QCOMPARE(whole.top, std::int64_t(4096 + 1048576));

        // The late deallocation of tst_core_memory_analyses: allocation 1 freed two ops after its last use.
        const msprobe::test::MemDumpBuilder late = msprobe::test::lateDeallocationTrace();
        const auto wasteful = writeAndLoad(dir, "late.csv", late.text);
        QCOMPARE(wasteful->inefficient.blocks.size(), std::size_t(1));
        compareTimelines(wasteful->timeline, msprobe::studio::buildTimeline(*wasteful));
    }

    void generatedTraceLoadsAsTheSequentialBuild()
    {
        // 40 steps of 400 blocks: 16000 blocks, about 92000 rows (more than the model's two-thread threshold).
        QTemporaryDir dir;
        const auto document = writeAndLoad(dir, "generated.csv", generatedTrace(40, 400));
        QVERIFY(document->trace.events.size() > (std::size_t(1) << 16));
        checkTimeRange(*document);
        QCOMPARE(document->model.blocks.size(), std::size_t(16000));
        QCOMPARE(document->model.stepCount, std::uint32_t(40));
        // Every block's MALLOC and FREE are its own rows, whichever thread matched them.
        std::size_t neverFreed = 0;
        for (const auto& block : document->model.blocks) {
            QCOMPARE(document->trace.events[block.mallocEvent].allocationId, block.allocationId);
            if (block.freeEvent == msprobe::memory::kNone)
                ++neverFreed;
            else
                QCOMPARE(document->trace.events[block.freeEvent].allocationId, block.allocationId);
            QCOMPARE(block.accesses.size(), std::size_t(1));
        }
        QVERIFY(neverFreed >= 40); // every 400th, and those still waiting for their free at the end
        QVERIFY(!document->stepLeaks.leaks.empty());
        compareTimelines(document->timeline, msprobe::studio::buildTimeline(*document));
        compareModels(document->model, msprobe::memory::buildModel(document->trace));
    }

    void interleavedProcessesLoadAsBuildModel()
    {
        QTemporaryDir dir;
        // Small (buildModel on one thread) and large (buildModel's two threads) against the loader's two threads.
        for (const int rounds : { 40, 9000 }) {
            const auto document = writeAndLoad(dir, "interleaved.csv", interleavedProcesses(rounds));
            checkTimeRange(*document);
            const auto& trace = document->trace;
            const auto& model = document->model;
            // Every block is its own process's MALLOC, freed (if at all) by that process's FREE of its id or address.
            std::size_t perProcess[3] = {};
            for (const auto& block : model.blocks) {
                const auto& malloc = trace.events[block.mallocEvent];
                QVERIFY(malloc.kind == msprobe::memory::EventKind::Malloc && malloc.pid == block.pid && malloc.ptr == block.ptr);
                ++perProcess[block.pid == 300 ? 0 : block.pid == 200 ? 1 : 2];
                if (block.freeEvent == msprobe::memory::kNone)
                    continue;
                const auto& free = trace.events[block.freeEvent];
                QVERIFY(free.kind == msprobe::memory::EventKind::Free && free.pid == block.pid && free.ptr == block.ptr);
                QVERIFY(block.pid == 100 || free.allocationId == block.allocationId);
                QVERIFY(free.tsNs > malloc.tsNs);
            }
            for (const std::size_t count : perProcess)
                QCOMPARE(count, static_cast<std::size_t>(rounds));
            QCOMPARE(model.unmatchedFrees.size(), static_cast<std::size_t>((rounds + 42) / 50));
            const std::size_t marked = static_cast<std::size_t>((rounds + 994) / 1000);
            QCOMPARE(model.mstxEvents.size(), 2 * marked + static_cast<std::size_t>((rounds + 394) / 1000));
            QCOMPARE(document->timeline.marks.size(), 2 * marked); // each point and each region
            compareModels(model, msprobe::memory::buildModel(trace));
            compareTimelines(document->timeline, msprobe::studio::buildTimeline(*document));
        }
    }

    void mixedStepSourcesFailAsBuildModel()
    {
        QTemporaryDir dir;
        msprobe::test::MemDumpBuilder mixed;
        for (int i = 1; i <= 3; ++i)
            mixed.malloc("PTA", 0x1000 * i, 256, i);
        mixed.step(1);
        mixed.row("MSTX", "Range_start", "step start", "N/A", "");
        mixed.malloc("PTA", 0x9000, 256, 9);
        const std::string file = dir.filePath(QStringLiteral("mixed.csv")).toStdString();
        std::ofstream(file) << mixed.text;
        std::string expected;
        try {
            msprobe::memory::buildModel(msprobe::memory::readMemScope(file));
        } catch (const msprobe::support::Error& error) {
            expected = error.what();
        }
        QVERIFY(expected.find("steps are marked both by SYSTEM/STEP rows") != std::string::npos);
        QVERIFY(expected.find("line 6") != std::string::npos);
        std::string got;
        try {
            msprobe::studio::loadMemoryDocument(file);
        } catch (const msprobe::support::Error& error) {
            got = error.what();
        }
        QCOMPARE(got, expected);
    }
};

QTEST_MAIN(TestMemoryLoadSplit)
#include "tst_views_memory_loadsplit.moc"
