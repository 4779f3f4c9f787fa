// SPDX-License-Identifier: Apache-2.0
// The SQLite variant written from CSV rows (what the capture's writer thread does in db mode, spec §1.5): msMemScope's
// example dump and a dump with every quirk, converted in batches, read back by our reader as the same events.
#include "memory/dump_database.h"
#include "memory/mem_model.h"
#include "memory/memscope_reader.h"
#include "support/error.h"
#include "support/sqlite_util.h"
#include "test_util.h"
#include "tst_core_memory_rows.h"

#include <QTemporaryDir>

using namespace msprobe;
using namespace msprobe::memory;
using namespace msprobe::test;
namespace fs = std::filesystem;

namespace {

// Every field but the line (a CSV line, a database row number), strings resolved.
std::string describe(const MemTrace& trace)
{
    std::string out;
    for (const auto& e : trace.events)
        out += std::to_string(e.id) + "|" + std::to_string(e.tsNs) + "|" + std::to_string(e.ptr) + "|" + std::to_string(e.size) + "|"
            + std::to_string(e.total) + "|" + std::to_string(e.used) + "|" + std::to_string(e.allocationId) + "|"
            + std::to_string(e.pid) + "|" + std::to_string(e.tid) + "|" + std::to_string(e.device) + "|"
            + std::string(eventKindName(e.kind)) + "|" + std::string(trace.text(e.subType)) + "|" + std::string(trace.text(e.name))
            + "|" + std::string(trace.text(e.owner)) + "|" + std::string(trace.text(e.inefficient)) + "|"
            + std::to_string(e.flags) + "\n";
    return out;
}

// The CSV's rows (header dropped) written to `db` in two batches, cut at the first row end past the middle (a line
// break outside quotes: the capture's batches hold whole rows).
void convert(const std::string& csv, const fs::path& db)
{
    const auto body = csv.substr(csv.find('\n') + 1);
    std::size_t cut = body.size();
    bool quoted = false;
    for (std::size_t i = 0; i < body.size(); ++i) {
        quoted = quoted != (body[i] == '"');
        if (!quoted && body[i] == '\n' && i >= body.size() / 2) {
            cut = i + 1;
            break;
        }
    }
    DumpDatabaseWriter writer(db);
    writer.append(std::string_view(body).substr(0, cut));
    writer.append(std::string_view(body).substr(cut));
}

} // namespace

class TestCoreMemoryDatabase : public QObject {
    Q_OBJECT

private slots:
    void attrBecomesJsonOfStrings()
    {
        QCOMPARE(attrToJson("{allocation_id:3,addr:0x10,size:24,dtype:torch.float32,shape:torch.Size([2, 3])}"),
            std::string(R"j({"allocation_id":"3","addr":"0x10","size":"24","dtype":"torch.float32","shape":"torch.Size([2, 3])"})j"));
        QCOMPARE(attrToJson("{size:8,inefficient_type:early_allocation,late_deallocation,owner:PTA@weight}"),
            std::string(R"j({"size":"8","inefficient_type":"early_allocation,late_deallocation","owner":"PTA@weight"})j"));
        QCOMPARE(attrToJson(""), std::string());
    }

    void exampleDumpRoundTrips()
    {
        QTemporaryDir dir;
        const fs::path csv = dataDir() / "memory" / "baseline.csv";
        const fs::path db = fs::path(dir.path().toStdString()) / "memscope_dump_1.db";
        std::ifstream in(csv, std::ios::binary);
        const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        convert(text, db);
        const auto fromCsv = readMemScope(csv);
        const auto fromDb = readMemScope(db);
        QCOMPARE(fromDb.rowsRead, std::size_t(121));
        QVERIFY(describe(fromDb) == describe(fromCsv));
        QCOMPARE(buildModel(fromDb).blocks.size(), std::size_t(23));
        // msMemScope's column types: ID and Timestamp stored as integers, Attr as JSON text.
        support::SqliteDb opened(db, true);
        support::SqliteStatement types(opened, "SELECT typeof(\"ID\"), typeof(\"Timestamp(ns)\"), \"Attr\" FROM memscope_dump WHERE \"Event\" = 'MALLOC' LIMIT 1");
        QVERIFY(types.step());
        QCOMPARE(std::string(types.columnText(0)), std::string("integer"));
        QCOMPARE(std::string(types.columnText(1)), std::string("integer"));
        QVERIFY(types.columnText(2).substr(0, 17) == "{\"allocation_id\":");
    }

    void quirksRoundTrip()
    {
        // Shadow frees, owners, commas inside Attr values, a quoted MSTX message, N/A ids, a multi-line stack.
        MemDumpBuilder dump;
        dump.step(1);
        dump.mark("step start");
        dump.opStart("torch._ops.aten.add.Tensor");
        dump.malloc("PTA", 0x1000, 4096, 1, 4096, ",owner:PTA@weight@layer1,inefficient_type:early_allocation,late_deallocation");
        dump.access("torch._ops.aten.add.Tensor", 0x1000, 64, 1);
        dump.text.replace(dump.text.size() - 3, 3, ",\"a.py(1): f\nb.py(2): \"\"g\"\"\",\n");
        dump.opEnd("torch._ops.aten.add.Tensor");
        dump.free("PTA", 0x1000, 4096, 1, 0, ",shadow:true");
        dump.text += std::to_string(dump.nextId++) + ",SYSTEM,START_TRACE,N/A,5,N/A,N/A,N/A,N/A,\"{free:10,total:20}\",,\n";
        QTemporaryDir dir;
        const fs::path csv = fs::path(dir.path().toStdString()) / "memscope_dump_2.csv";
        const fs::path db = fs::path(dir.path().toStdString()) / "memscope_dump_2.db";
        writeFile(csv, dump.text);
        convert(dump.text, db);
        const auto fromCsv = readMemScope(csv);
        const auto fromDb = readMemScope(db);
        QCOMPARE(fromDb.rowsRead, std::size_t(8));
        QVERIFY2(describe(fromDb) == describe(fromCsv), (describe(fromDb) + "\n---\n" + describe(fromCsv)).c_str());
        const auto model = buildModel(fromDb);
        QCOMPARE(model.blocks.size(), std::size_t(1));
        QVERIFY(model.blocks[0].aliveAtEnd()); // freed only by the shadow row
    }

    void badRowsAreRefused()
    {
        QTemporaryDir dir;
        const fs::path db = fs::path(dir.path().toStdString()) / "memscope_dump_3.db";
        DumpDatabaseWriter writer(db);
        try {
            writer.append("1,MALLOC,PTA,N/A,5,7,7,0\n");
            QFAIL("a short row was written");
        } catch (const support::Error& error) {
            const std::string what = error.what();
            QVERIFY2(what.find(db.string()) != std::string::npos && what.find("has 8 cells") != std::string::npos, what.c_str());
        }
    }
};

QTEST_GUILESS_MAIN(TestCoreMemoryDatabase)
#include "tst_core_memory_database.moc"
