// SPDX-License-Identifier: Apache-2.0
// PyTorch memory snapshots (core/memory/torch_snapshot) on the pickles tests/scripts/make_torch_snapshot.py writes
// with torch's dict layout. Device 0 (MiB = 1048576 B, times in µs):
//   segment A (2 MiB) and its blocks A (1 MiB, alive) and A+1.5 MiB (512 KiB, freed at 1050) predate the recording;
//   1000 segment_alloc B (2 MiB), 1010 alloc B (1 MiB), 1020 alloc B+1 MiB (512 KiB), 1030 alloc A+1 MiB (512 KiB,
//   stream 7, still alive), 1040 free_requested B, 1041 free_completed B, 1050 free_completed A+1.5 MiB,
//   1060 free_completed B+1 MiB, 1070 oom, 1080 segment_free B, 1090 snapshot.
// PTA live bytes: 1.5 MiB at 1000, 2.5 at 1010, 3 at 1020, 3.5 at 1030 (the peak), 2.5 at 1041, 2 at 1050, 1.5 at 1060.
#include "memory/mem_model.h"
#include "memory/memscope_reader.h"
#include "memory/torch_snapshot.h"
#include "support/error.h"
#include "support/input_file.h"
#include "support/pickle_value.h"
#include "test_util.h"

#include <QTemporaryDir>
#include <QTest>

using namespace msprobe;
using namespace msprobe::memory;
using namespace msprobe::test;
namespace fs = std::filesystem;

namespace {

constexpr std::int64_t kMiB = 1 << 20;
constexpr std::uint64_t kSegmentA = 0x7F0000000000, kSegmentB = 0x7F0000200000;

fs::path snapshotData() { return dataDir() / "torch_snapshot"; }

std::string readError(const fs::path& file)
{
    try {
        readTorchSnapshot(file);
    } catch (const support::Error& error) {
        return error.what();
    }
    return {};
}

const Block* blockAt(const MemTrace& trace, const MemModel& model, std::string_view pool, std::uint64_t ptr)
{
    for (const Block& block : model.blocks)
        if (trace.text(block.pool) == pool && block.ptr == ptr)
            return &block;
    return nullptr;
}

} // namespace

class TestCoreMemorySnapshot : public QObject {
    Q_OBJECT

private slots:
    void blocksAndTimes_data()
    {
        QTest::addColumn<QString>("file");
        for (const char* name : { "snapshot_p2.pickle", "snapshot_p4.pickle", "snapshot_p5.pickle" })
            QTest::newRow(name) << QString::fromUtf8(name);
    }

    void blocksAndTimes()
    {
        QFETCH(QString, file);
        const TorchSnapshot snapshot = readTorchSnapshot(snapshotData() / file.toStdString());
        QCOMPARE(snapshot.segments, std::size_t(1));
        QCOMPARE(snapshot.blocks, std::size_t(3));
        QCOMPARE(snapshot.traceEntries, std::size_t(11));
        const MemTrace& trace = snapshot.trace;
        // 11 entries less the free_requested, plus three MALLOCs for what predates the recording.
        QCOMPARE(trace.events.size(), std::size_t(13));
        const MemModel model = buildModel(trace);
        QCOMPARE(model.blocks.size(), std::size_t(7)); // 5 PTA blocks, 2 HAL segments
        QVERIFY(model.unmatchedFrees.empty());

        const Block* early = blockAt(trace, model, "PTA", kSegmentA);
        QVERIFY(early);
        QCOMPARE(early->size, kMiB);
        QCOMPARE(trace.events[early->mallocEvent].tsNs, std::int64_t(1000000));
        QVERIFY(early->aliveAtEnd());
        const Block* unrecorded = blockAt(trace, model, "PTA", kSegmentA + 3 * kMiB / 2);
        QVERIFY(unrecorded);
        QCOMPARE(trace.events[unrecorded->mallocEvent].tsNs, std::int64_t(1000000));
        QCOMPARE(trace.events[unrecorded->freeEvent].tsNs, std::int64_t(1050000));
        const Block* first = blockAt(trace, model, "PTA", kSegmentB);
        QVERIFY(first);
        QCOMPARE(first->size, kMiB);
        QCOMPARE(trace.events[first->mallocEvent].tsNs, std::int64_t(1010000));
        QCOMPARE(trace.events[first->freeEvent].tsNs, std::int64_t(1041000)); // free_completed, not free_requested
        const Block* optimizer = blockAt(trace, model, "PTA", kSegmentA + kMiB);
        QVERIFY(optimizer);
        QVERIFY(optimizer->aliveAtEnd());
        QCOMPARE(trace.text(trace.events[optimizer->mallocEvent].detail), std::string_view("stream 7"));
        const Block* segment = blockAt(trace, model, "HAL", kSegmentB);
        QVERIFY(segment);
        QCOMPARE(trace.events[segment->freeEvent].tsNs, std::int64_t(1080000));
        QVERIFY(blockAt(trace, model, "HAL", kSegmentA)->aliveAtEnd());

        // used = PTA bytes allocated after the event, total = HAL bytes reserved: the peak is at 1030 µs.
        std::int64_t peak = 0, peakTs = 0, reservedAtPeak = 0;
        for (const MemEvent& e : trace.events)
            if (e.kind == EventKind::Malloc && e.used > peak)
                peak = e.used, peakTs = e.tsNs, reservedAtPeak = e.total;
        QCOMPARE(peak, 7 * kMiB / 2);
        QCOMPARE(peakTs, std::int64_t(1030000));
        QCOMPARE(reservedAtPeak, 4 * kMiB);
        const auto lastFree = std::find_if(trace.events.rbegin(), trace.events.rend(),
            [&trace](const MemEvent& e) { return e.kind == EventKind::Free && trace.is(e.subType, "PTA"); });
        QCOMPARE(lastFree->used, 3 * kMiB / 2); // 1060 µs: the block allocated before recording and the optimizer's
        QCOMPARE(lastFree->total, 4 * kMiB); // segment B is freed only at 1080 µs

        // oom and snapshot entries are marks.
        std::vector<std::string> marks;
        for (const MemEvent& e : trace.events)
            if (e.kind == EventKind::Mstx)
                marks.emplace_back(trace.text(e.name));
        QCOMPARE(marks, (std::vector<std::string> { "out of memory: 4194304 B requested, 1048576 B free on the device", "snapshot" }));
    }

    void stacks()
    {
        const TorchSnapshot snapshot = readTorchSnapshot(snapshotData() / "snapshot_p4.pickle");
        const MemTrace& trace = snapshot.trace;
        const MemModel model = buildModel(trace);
        const Block* first = blockAt(trace, model, "PTA", kSegmentB);
        const SnapshotStack* stack = snapshot.stackAt(trace.events[first->mallocEvent].line);
        QVERIFY(stack);
        QCOMPARE(stack->python, std::string("/work/model.py(42): forward\n/work/train.py(7): main"));
        // CapturedTraceback::gather is the recorder's own frame: left out.
        QCOMPARE(stack->c, std::string("/pytorch/c10/cuda/CUDACachingAllocator.cpp(c10::cuda::CUDACachingAllocator::malloc):1234"));
        // A block whose alloc was not recorded carries the stack of its free, saying so.
        const Block* unrecorded = blockAt(trace, model, "PTA", kSegmentA + 3 * kMiB / 2);
        const SnapshotStack* freeStack = snapshot.stackAt(trace.events[unrecorded->mallocEvent].line);
        QVERIFY(freeStack);
        QVERIFY(freeStack->python.starts_with("(allocated before recording; stack of its free)\n/work/optim.py(99): step"));
        // A block alive in the final segments without a recorded alloc: the block's own frames.
        const Block* early = blockAt(trace, model, "PTA", kSegmentA);
        QCOMPARE(snapshot.stackAt(trace.events[early->mallocEvent].line)->python, std::string("/work/setup.py(3): load_weights"));
        // Equal stacks are stored once: forward, optimizer, setup, and the free-of-unrecorded variant.
        QCOMPARE(snapshot.stacks.size(), std::size_t(4));
    }

    void readMemScopeDetectsSnapshotsByContent()
    {
        QTemporaryDir dir;
        const fs::path renamed = fs::path(dir.path().toStdString()) / "memory_trace.dat";
        fs::copy_file(snapshotData() / "snapshot_p4.pickle", renamed);
        QVERIFY(isTorchSnapshotFile(renamed));
        const MemTrace trace = readMemScope(renamed);
        QCOMPARE(trace.events.size(), std::size_t(13));
        QVERIFY(!isTorchSnapshotFile(dataDir() / "memory" / "baseline.csv"));
    }

    void badInput()
    {
        const std::string truncated = readError(snapshotData() / "truncated.pickle");
        QVERIFY2(truncated.find("truncated.pickle") != std::string::npos, truncated.c_str());
        QVERIFY2(truncated.find("truncated pickle") != std::string::npos, truncated.c_str());
        QVERIFY2(truncated.find("pickle byte") != std::string::npos, truncated.c_str());

        const std::string other = readError(snapshotData() / "not_a_snapshot.pickle");
        QVERIFY2(other.find("not_a_snapshot.pickle") != std::string::npos, other.c_str());
        QVERIFY2(other.find("not a PyTorch memory snapshot") != std::string::npos, other.c_str());

        QTemporaryDir dir;
        const fs::path csv = fs::path(dir.path().toStdString()) / "trace.pickle";
        writeFile(csv, "ID,Event,Event Type\n");
        const std::string text = readError(csv);
        QVERIFY2(text.find("trace.pickle") != std::string::npos && text.find("not a pickle") != std::string::npos, text.c_str());

        // An entry with a wrong type names its place.
        const std::string place = readError(snapshotData() / "wrong_type.pickle");
        QVERIFY2(place.find("device_traces[0][0].addr") != std::string::npos, place.c_str());
    }

    void pickleValues()
    {
        // [2**64 - 1, -2, 2**70, 1.5, b'ab', (None, True)] pickled by Python with protocol 4.
        const std::string bytes = support::readRegularFile(snapshotData() / "values.pickle");
        const auto value = support::readPickle(reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size(), "values.pickle");
        QCOMPARE(value.kind, support::PickleValue::Kind::List);
        const auto& items = value.items();
        QCOMPARE(items.size(), std::size_t(6));
        QVERIFY(items[0].isUnsigned);
        QCOMPARE(static_cast<std::uint64_t>(items[0].integer), ~std::uint64_t(0));
        QCOMPARE(items[1].integer, std::int64_t(-2));
        QCOMPARE(items[2].kind, support::PickleValue::Kind::BigInt);
        QCOMPARE(items[3].real, 1.5);
        QCOMPARE(items[4].str(), std::string("ab"));
        QCOMPARE(items[5].items().size(), std::size_t(2));
        QCOMPARE(items[5].items()[1].integer, std::int64_t(1));
    }
};

QTEST_GUILESS_MAIN(TestCoreMemorySnapshot)
#include "tst_core_memory_snapshot.moc"
