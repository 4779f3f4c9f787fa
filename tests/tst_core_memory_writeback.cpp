// SPDX-License-Identifier: Apache-2.0
// Results written back into the dump (core/memory/write_back, spec §2.5 offline mode): the Attr cell of the
// addressed rows changed and every other byte kept, list values merged as msMemScope does, the .db variant by
// (ID, Process Id), and a dump left exactly as it was (no temporary files either) when an update does not fit.
#include "memory/dump_database.h"
#include "memory/inefficient.h"
#include "memory/memscope_reader.h"
#include "memory/write_back.h"
#include "support/error.h"
#include "test_util.h"
#include "tst_core_memory_rows.h"

#include <QTemporaryDir>

#include <fstream>
#include <sstream>

using namespace msprobe;
using namespace msprobe::memory;
using namespace msprobe::test;
namespace fs = std::filesystem;

namespace {

std::string readAll(const fs::path& file)
{
    std::ifstream in(file, std::ios::binary);
    std::ostringstream out;
    out << in.rdbuf();
    return out.str();
}

std::size_t filesIn(const fs::path& dir)
{
    return static_cast<std::size_t>(std::distance(fs::directory_iterator(dir), fs::directory_iterator()));
}

// AtomicFile's temporaries are hidden files (".name.tmpPID_N").
std::size_t temporariesIn(const fs::path& dir)
{
    std::size_t count = 0;
    for (const auto& entry : fs::directory_iterator(dir))
        count += entry.path().filename().string().starts_with(".");
    return count;
}

// op1 reads z (allocation 1), op2 allocates w (2), op3 frees z: z is a late deallocation. z's MALLOC row already
// says early_allocation; line 3 holds the MALLOC of z, line 9 the one of w.
std::string lateFree()
{
    MemDumpBuilder d;
    d.opStart("op0");
    d.malloc("PTA", 0x10, 64, 1, -1, ",inefficient_type:early_allocation");
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
    return d.text;
}

std::string errorOf(const fs::path& file, const std::vector<AttrUpdate>& updates)
{
    try {
        writeBackAttrs(file, updates);
    } catch (const support::Error& error) {
        return error.what();
    }
    return {};
}

} // namespace

class TestCoreMemoryWriteBack : public QObject {
    Q_OBJECT

private slots:
    void attrCellEdits()
    {
        AttrUpdate add { 0, 0, 0, "inefficient_type", "late_deallocation,early_allocation", true };
        QCOMPARE(updatedAttr("", add), std::string("{inefficient_type:late_deallocation,early_allocation}"));
        QCOMPARE(updatedAttr("{}", add), std::string("{inefficient_type:late_deallocation,early_allocation}"));
        QCOMPARE(updatedAttr("{size:8,shape:torch.Size([2, 3])}", add),
            std::string("{size:8,shape:torch.Size([2, 3]),inefficient_type:late_deallocation,early_allocation}"));
        // Merged: kept, new ones appended once, the keys after it untouched.
        QCOMPARE(updatedAttr("{size:8,inefficient_type:early_allocation,owner:PTA@weight}", add),
            std::string("{size:8,inefficient_type:early_allocation,late_deallocation,owner:PTA@weight}"));
        AttrUpdate replace { 0, 0, 0, "category", "weight", false };
        QCOMPARE(updatedAttr("{size:8,category:unknown,used:3}", replace), std::string("{size:8,category:weight,used:3}"));
        QVERIFY_THROWS_EXCEPTION(support::Error, updatedAttr("size:8", replace));
    }

    void csvRowsByLineEverythingElseKept()
    {
        QTemporaryDir dir;
        const fs::path file = fs::path(dir.path().toStdString()) / "late.csv";
        const std::string before = lateFree();
        writeFile(file, before);
        const auto trace = readMemScope(file);
        const auto model = buildModel(trace);
        const auto report = findInefficientBlocks(trace, model);
        QCOMPARE(report.blocks.size(), std::size_t(1));
        const auto& malloc = trace.events[model.blocks[report.blocks[0].block].mallocEvent];
        QCOMPARE(malloc.line, std::uint32_t(3));
        const auto& other = trace.events[model.blocks[1].mallocEvent];
        writeBackAttrs(file, { { malloc.line, malloc.id, malloc.pid, "inefficient_type", inefficientTypeNames(report.blocks[0].types), true },
                                 { other.line, other.id, other.pid, "category", "unknown", false } });
        std::string expected = before;
        const std::string oldZ = "size:64,inefficient_type:early_allocation}", oldW = "size:32}";
        expected.replace(expected.find(oldZ), oldZ.size(), "size:64,inefficient_type:early_allocation,late_deallocation}");
        expected.replace(expected.find(oldW), oldW.size(), "size:32,category:unknown}");
        QCOMPARE(readAll(file), expected);
        QCOMPARE(filesIn(file.parent_path()), std::size_t(1));
        const auto again = readMemScope(file);
        QCOMPARE(std::string(again.text(again.events[1].inefficient)), std::string("early_allocation,late_deallocation"));
        // Written twice: nothing appended the second time.
        writeBackAttrs(file, { { malloc.line, malloc.id, malloc.pid, "inefficient_type", "late_deallocation", true } });
        QCOMPARE(readAll(file), expected);
    }

    void quotedMultiLineCellsAndCrLf()
    {
        // A row whose stack cell spans three lines and CRLF line ends: the next row starts on line 5.
        QTemporaryDir dir;
        const fs::path file = fs::path(dir.path().toStdString()) / "stacks.csv";
        std::string text = "ID,Event,Event Type,Name,Timestamp(ns),Process Id,Thread Id,Device Id,Ptr,Attr,Call Stack(Python),Call Stack(C)\r\n";
        text += "1,MALLOC,PTA,N/A,10,7,7,0,0x10,\"{allocation_id:1,addr:0x10,size:8}\",\"a.py(1): f\r\nb.py(2): g\r\n\",\r\n";
        text += "2,MALLOC,PTA,N/A,20,7,7,0,0x20,\"{allocation_id:2,addr:0x20,size:16}\",,\r\n";
        writeFile(file, text);
        const auto trace = readMemScope(file);
        QCOMPARE(trace.events[1].line, std::uint32_t(5));
        writeBackAttrs(file, { { 5, 2, 7, "category", "input", false } });
        std::string expected = text;
        expected.replace(expected.find("size:16}"), 8, "size:16,category:input}");
        QCOMPARE(readAll(file), expected);
    }

    void misplacedUpdateLeavesTheDumpAlone()
    {
        QTemporaryDir dir;
        const fs::path file = fs::path(dir.path().toStdString()) / "late.csv";
        const std::string before = lateFree();
        writeFile(file, before);
        // Line 3 is ID 2 (line 2 is op0's START), and no row starts on line 99.
        auto message = errorOf(file, { { 3, 7, 100, "category", "x", false } });
        QVERIFY2(message.find("late.csv: line 3: the row's ID is 2, not 7") != std::string::npos, message.c_str());
        message = errorOf(file, { { 3, 2, 100, "category", "x", false }, { 99, 50, 100, "category", "x", false } });
        QVERIFY2(message.find("late.csv: line 99: no row starts on this line") != std::string::npos, message.c_str());
        QCOMPARE(readAll(file), before);
        QCOMPARE(filesIn(file.parent_path()), std::size_t(1));
    }

    void databaseRowsByIdAndProcess()
    {
        QTemporaryDir dir;
        const fs::path db = fs::path(dir.path().toStdString()) / "late.db";
        {
            const std::string csv = lateFree();
            DumpDatabaseWriter writer(db);
            writer.append(std::string_view(csv).substr(csv.find('\n') + 1));
        }
        const auto failure = errorOf(db, { { 0, 2, 100, "inefficient_type", "late_deallocation", true }, { 0, 8, 100, "category", "temporary", false } });
        QVERIFY2(failure.empty(), failure.c_str());
        const auto trace = readMemScope(db);
        QCOMPARE(std::string(trace.text(trace.events[1].inefficient)), std::string("early_allocation,late_deallocation"));
        QCOMPARE(temporariesIn(db.parent_path()), std::size_t(0));
        const auto before = readAll(db);
        const auto message = errorOf(db, { { 0, 2, 100, "category", "x", false }, { 0, 99, 100, "category", "x", false } });
        QVERIFY2(message.find("late.db: row ID 99 of process 100: no such row") != std::string::npos, message.c_str());
        QCOMPARE(readAll(db), before);
        QCOMPARE(temporariesIn(db.parent_path()), std::size_t(0));
    }
};

QTEST_GUILESS_MAIN(TestCoreMemoryWriteBack)
#include "tst_core_memory_writeback.moc"
