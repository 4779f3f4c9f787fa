// SPDX-License-Identifier: Apache-2.0
// The out-of-memory report (core/memory/oom): what was live at each OOM_TRIGGER row, on a hand-written dump whose
// answers are worked out in the comments, and the OOM_DETAIL attrs as the reader keeps them.
#include "memory/memscope_reader.h"
#include "memory/oom.h"
#include "support/error.h"
#include "test_util.h"
#include "tst_core_memory_rows.h"

#include <QTemporaryDir>

using namespace msprobe;
using namespace msprobe::memory;
using namespace msprobe::test;
namespace fs = std::filesystem;

namespace {

struct Loaded {
    MemTrace trace;
    MemModel model;
};

Loaded load(const QTemporaryDir& dir, const std::string& text)
{
    const fs::path file = fs::path(dir.path().toStdString()) / "oom.csv";
    writeFile(file, text);
    Loaded loaded { readMemScope(file), {} };
    loaded.model = buildModel(loaded.trace);
    return loaded;
}

// HAL 8 MiB backing the pool; weight 0x10 (1000 B, linear); 0x20 (300 B, mm, freed between the OOMs); 0x30
// (200 B, freed in mm); 0x40 (500 B, cat, freed while cat unwinds after the first OOM).
std::string twoOoms()
{
    MemDumpBuilder d;
    d.malloc("HAL", 0x9000, 8388608, 9);
    d.opStart("aten::linear");
    d.malloc("PTA", 0x10, 1000, 1, -1, ",owner:PTA@weight");
    d.opEnd("aten::linear");
    d.opStart("aten::mm");
    d.malloc("PTA", 0x20, 300, 2, 1300);
    d.malloc("PTA", 0x30, 200, 3, 1500);
    d.free("PTA", 0x30, 200, 3, 1300);
    d.opEnd("aten::mm");
    d.opStart("aten::cat");
    d.row("MALLOC", "PTA", "N/A", MemDumpBuilder::hex(0x40), "{allocation_id:4,addr:0x40,size:500,total:4096,used:1800}");
    d.oom("OOM_TRIGGER", "{func:aclrtMalloc,req_size:4194304,flag:0}");
    d.oom("OOM_RECENT_ALLOC", "{pool:PTA,ptr:0x0000000000000040,size:500,timestamp:12345}");
    d.oom("OOM_TOP_ALLOC", "{pool:PTA,ptr:0x0000000000000010,size:1000,timestamp:1010}");
    d.free("PTA", 0x40, 500, 4, 1300);
    d.opEnd("aten::cat");
    d.free("PTA", 0x20, 300, 2, 1000);
    d.oom("OOM_TRIGGER", "{func:aclrtMalloc,req_size:64,flag:0}");
    return d.text;
}

std::vector<std::uint64_t> ids(const Loaded& dump, const std::vector<std::uint32_t>& blocks)
{
    std::vector<std::uint64_t> out;
    for (const auto b : blocks)
        out.push_back(dump.model.blocks[b].allocationId);
    return out;
}

} // namespace

class TestCoreMemoryOom : public QObject {
    Q_OBJECT

private slots:
    void oomDetailRowsAreRead()
    {
        QTemporaryDir dir;
        const auto dump = load(dir, twoOoms());
        std::vector<const MemEvent*> rows;
        for (const auto& e : dump.trace.events)
            if (e.kind == EventKind::OomDetail)
                rows.push_back(&e);
        QCOMPARE(rows.size(), std::size_t(4));
        QCOMPARE(rows[0]->size, std::int64_t(4194304));
        QCOMPARE(std::string(dump.trace.text(rows[0]->detail)), std::string("aclrtMalloc"));
        QCOMPARE(rows[1]->ptr, std::uint64_t(0x40));
        QCOMPARE(rows[1]->size, std::int64_t(500));
        QCOMPARE(rows[1]->allocationId, std::uint64_t(12345)); // the record's timestamp
        QCOMPARE(std::string(dump.trace.text(rows[1]->detail)), std::string("PTA"));
    }

    void liveBlocksAtEachTrigger()
    {
        QTemporaryDir dir;
        const auto dump = load(dir, twoOoms());
        const auto report = findOomIncidents(dump.trace, dump.model);
        QCOMPARE(report.incidents.size(), std::size_t(2));
        // First OOM, inside cat: 0x10 + 0x20 + 0x40 live (0x30 was freed, 0x40's free comes after), HAL left out.
        const auto& first = report.incidents[0];
        QCOMPARE(first.func, std::string("aclrtMalloc"));
        QCOMPARE(first.requested, std::int64_t(4194304));
        QCOMPARE(first.op, std::string("aten::cat"));
        QCOMPARE(first.liveBytes, std::int64_t(1800));
        QCOMPARE(first.liveBlocks, std::size_t(3));
        QCOMPARE(first.reservedBytes, std::int64_t(4096));
        QCOMPARE(ids(dump, first.live), (std::vector<std::uint64_t> { 1, 4, 2 })); // largest first
        QCOMPARE(ids(dump, first.recent), (std::vector<std::uint64_t> { 4, 2, 1 })); // newest first
        QCOMPARE(first.byOp.size(), std::size_t(3));
        QCOMPARE(first.byOp[0].key, std::string("aten::linear"));
        QCOMPARE(first.byOp[1].key, std::string("aten::cat"));
        QCOMPARE(first.byOp[2].bytes, std::int64_t(300));
        QCOMPARE(first.byOwner[0].key, std::string("PTA@weight"));
        QCOMPARE(first.byOwner[1].key, std::string(""));
        QCOMPARE(first.byOwner[1].bytes, std::int64_t(800));
        // Categories: the weight label; 0x40 freed inside its own op (temporary); 0x20 allocated in mm and freed
        // outside every op, no phase: unknown.
        QCOMPARE(first.byCategory.size(), std::size_t(3));
        QCOMPARE(first.byCategory[0].key, std::string("weight"));
        QCOMPARE(first.byCategory[1].key, std::string("temporary"));
        QCOMPARE(first.byCategory[1].bytes, std::int64_t(500));
        QCOMPARE(first.byCategory[2].key, std::string("unknown"));
        QCOMPARE(first.records.size(), std::size_t(2));
        QCOMPARE(first.records[0].type, std::string("OOM_RECENT_ALLOC"));
        QCOMPARE(first.records[0].allocTsNs, std::uint64_t(12345));
        QCOMPARE(first.records[1].ptr, std::uint64_t(0x10));
        // Second OOM, outside ops: only the weight is left.
        const auto& second = report.incidents[1];
        QCOMPARE(second.requested, std::int64_t(64));
        QCOMPARE(second.op, std::string());
        QCOMPARE(second.liveBytes, std::int64_t(1000));
        QCOMPARE(second.reservedBytes, std::int64_t(1000)); // the last pool row's total (0x20's FREE)
        QVERIFY(second.records.empty());
    }

    void optionsTopAndHal()
    {
        QTemporaryDir dir;
        const auto dump = load(dir, twoOoms());
        OomOptions options;
        options.top = 1;
        options.includeHal = true;
        const auto report = findOomIncidents(dump.trace, dump.model, options);
        QCOMPARE(report.incidents[0].liveBytes, std::int64_t(1800 + 8388608));
        QCOMPARE(ids(dump, report.incidents[0].recent), (std::vector<std::uint64_t> { 4 }));
        QCOMPARE(dump.model.blocks[report.incidents[0].live[0]].allocationId, std::uint64_t(9));
    }

    void noTriggerNoIncident()
    {
        QTemporaryDir dir;
        MemDumpBuilder d;
        d.malloc("PTA", 0x10, 1000, 1);
        const auto dump = load(dir, d.text);
        QVERIFY(findOomIncidents(dump.trace, dump.model).incidents.empty());
    }

    void badOomAttrNamesLine()
    {
        QTemporaryDir dir;
        MemDumpBuilder d;
        d.oom("OOM_TRIGGER", "{func:aclrtMalloc,req_size:lots,flag:0}");
        try {
            load(dir, d.text);
            QFAIL("a bad req_size was accepted");
        } catch (const support::Error& error) {
            QVERIFY2(std::string(error.what()).find("line 2, column 10 (Attr): Attr req_size \"lots\" is not a number") != std::string::npos,
                error.what());
        }
    }
};

QTEST_GUILESS_MAIN(TestCoreMemoryOom)
#include "tst_core_memory_oom.moc"
