// SPDX-License-Identifier: Apache-2.0
// core/memory reader and model: msMemScope's own example dumps (spec §6 check 1), Attr values with commas, both
// header spellings, the SQLite variant, and malformed input reported with file, line and column.
#include "memory/attr_parse.h"
#include "memory/mem_model.h"
#include "memory/memscope_reader.h"
#include "memory/owners.h"
#include "memory/watch.h"
#include "support/error.h"
#include "support/sqlite_util.h"
#include "test_util.h"
#include "tst_core_memory_rows.h"

#include <QTemporaryDir>

#include <sys/stat.h>

#include <limits>
#include <map>

using namespace msprobe;
using namespace msprobe::memory;
using namespace msprobe::test;
namespace fs = std::filesystem;

namespace {

fs::path memoryData() { return dataDir() / "memory"; }

// The message of the msprobe::Error reading `text` as a dump throws ("" if none).
std::string readError(const fs::path& dir, const std::string& text)
{
    const fs::path file = dir / "bad.csv";
    writeFile(file, text);
    try {
        readMemScope(file);
    } catch (const support::Error& error) {
        return error.what();
    }
    return {};
}

} // namespace

class TestCoreMemory : public QObject {
    Q_OBJECT

private slots:
    void baselineRowsAndBlocks()
    {
        const auto trace = readMemScope(memoryData() / "baseline.csv");
        QCOMPARE(trace.rowsRead, std::size_t(121));
        std::map<std::string, int> counts;
        for (const auto& e : trace.events)
            ++counts[std::string(eventKindName(e.kind)) + " " + std::string(trace.text(e.subType))];
        QCOMPARE(counts["OP_LAUNCH ATEN_START"], 40);
        QCOMPARE(counts["OP_LAUNCH ATEN_END"], 40);
        QCOMPARE(counts["MALLOC PTA"], 18);
        QCOMPARE(counts["FREE PTA"], 14);
        QCOMPARE(counts["MALLOC HAL"], 5);
        QCOMPARE(counts["FREE HAL"], 2);
        QCOMPARE(counts["SYSTEM START_TRACE"], 1);
        QCOMPARE(counts["SYSTEM STOP_TRACE"], 1);
        // The file is not in ID order (blocks are written when freed); the trace is.
        for (std::size_t i = 1; i < trace.events.size(); ++i)
            QVERIFY(trace.events[i - 1].id < trace.events[i].id);
        QCOMPARE(trace.events.front().id, std::uint64_t(1));
        QCOMPARE(trace.events.front().line, std::uint32_t(121)); // START_TRACE sits near the end of the file

        const auto model = buildModel(trace);
        QCOMPARE(model.blocks.size(), std::size_t(23));
        QCOMPARE(model.ops.size(), std::size_t(40));
        QVERIFY(model.unmatchedFrees.empty());
        std::size_t alive = 0;
        for (const auto& b : model.blocks)
            alive += b.aliveAtEnd();
        QCOMPARE(alive, std::size_t(7)); // 18 - 14 PTA, 5 - 2 HAL
        // allocation_id 4: the 16 MiB PTA block of mse_loss, freed by row ID 12.
        const auto it = std::find_if(model.blocks.begin(), model.blocks.end(), [](const Block& b) { return b.allocationId == 4; });
        QVERIFY(it != model.blocks.end());
        QCOMPARE(it->size, std::int64_t(16778240));
        QCOMPARE(trace.events[it->freeEvent].id, std::uint64_t(12));
        QCOMPARE(opName(trace, model, it->allocOp), std::string("torch._ops.aten.mse_loss.default"));
        QCOMPARE(trace.events[it->mallocEvent].used, std::int64_t(16780288));
        QCOMPARE(trace.events[it->mallocEvent].total, std::int64_t(20971520));
    }

    void leaksFixtureHasMoreBlocks()
    {
        const auto trace = readMemScope(memoryData() / "leaks.csv");
        QCOMPARE(trace.rowsRead, std::size_t(130));
        const auto model = buildModel(trace);
        QCOMPARE(model.blocks.size(), std::size_t(25));
    }

    void attrValuesWithCommas()
    {
        AttrPairs pairs;
        std::string why;
        QVERIFY(splitAttr("{allocation_id:3,addr:0x10,size:24,type:PTA,dtype:torch.float32,shape:torch.Size([2, 3])}", pairs, why));
        QCOMPARE(pairs.size(), std::size_t(6));
        QCOMPARE(std::string(pairs[5].first), std::string("shape"));
        QCOMPARE(std::string(pairs[5].second), std::string("torch.Size([2, 3])"));
        QVERIFY(splitAttr("\"{size:8,inefficient_type:early_allocation,late_deallocation,owner:PTA@weight}\"", pairs, why));
        QCOMPARE(pairs.size(), std::size_t(3));
        QCOMPARE(std::string(pairs[1].second), std::string("early_allocation,late_deallocation"));
        QCOMPARE(std::string(pairs[2].second), std::string("PTA@weight"));
        // An unknown key after a comma is part of the value; an unknown first key is kept.
        QVERIFY(splitAttr("{future_key:1,size:2,other:3}", pairs, why));
        QCOMPARE(pairs.size(), std::size_t(2));
        QCOMPARE(std::string(pairs[0].first), std::string("future_key"));
        QCOMPARE(std::string(pairs[1].second), std::string("2,other:3"));
        QVERIFY(!splitAttr("size:2", pairs, why));
        QVERIFY(why.find("{key:value") != std::string::npos);
    }

    void numbersDecimalAndHex()
    {
        // The 8-digits-at-a-time decimal path and the hex table, at their edges.
        unsigned long long u = 0;
        QVERIFY(parseUnsigned("1764753084425691000", u));
        QCOMPARE(u, 1764753084425691000ull);
        QVERIFY(parseUnsigned("18446744073709551615", u));
        QCOMPARE(u, 18446744073709551615ull);
        QVERIFY(!parseUnsigned("18446744073709551616", u));
        QVERIFY(parseUnsigned("12345678", u));
        QCOMPARE(u, 12345678ull);
        QVERIFY(!parseUnsigned("1234567/", u)); // '/' is '0' - 1
        QVERIFY(!parseUnsigned("123456:8", u)); // ':' is '9' + 1
        QVERIFY(!parseUnsigned("12345678901234567x", u));
        QVERIFY(parseUnsigned("0x000012c041400000", u));
        QCOMPARE(u, 0x12c041400000ull);
        QVERIFY(parseUnsigned("0xFFffFFffFFffFFff", u));
        QCOMPARE(u, ~0ull);
        QVERIFY(!parseUnsigned("0x12g4", u));
        // Every length from 1 to 19 digits with distinct digits, and a bad byte at each place of each length (the
        // digits after the last eight are read as one word that overlaps the ones before).
        for (std::size_t length = 1; length <= 19; ++length) {
            std::string text;
            unsigned long long expected = 0;
            for (std::size_t i = 0; i < length; ++i) {
                const char digit = static_cast<char>('0' + (i * 7 + 3) % 10);
                text += digit;
                expected = expected * 10 + static_cast<unsigned>(digit - '0');
            }
            QVERIFY2(parseUnsigned(text, u) && u == expected, text.c_str());
            long long s = 0;
            QVERIFY2(parseSigned("-" + text, s) && s == -static_cast<long long>(expected), text.c_str());
            for (std::size_t at = 0; at < length; ++at)
                for (const char bad : { '/', ':', ' ', '\0' }) {
                    std::string wrong = text;
                    wrong[at] = bad;
                    QVERIFY2(!parseUnsigned(wrong, u), (text + " at " + std::to_string(at)).c_str());
                }
        }
        // Eight hex digits at a time: every digit and letter in both cases, and one bad byte in each position of a
        // chunk (the characters just outside the ranges, and a byte with its high bit set).
        QVERIFY(parseUnsigned("0x0123456789abcdef", u));
        QCOMPARE(u, 0x0123456789abcdefull);
        QVERIFY(parseUnsigned("0xFEDCBA9876543210", u));
        QCOMPARE(u, 0xfedcba9876543210ull);
        QVERIFY(parseUnsigned("0xaBcDeF01", u));
        QCOMPARE(u, 0xabcdef01ull);
        QVERIFY(parseUnsigned("0x00000000000000000000123456789", u)); // leading zeros beyond 16 digits
        QCOMPARE(u, 0x123456789ull);
        for (const char bad : { '/', ':', '@', 'G', '`', 'g', '\x80', ' ' })
            for (int at = 0; at < 16; ++at) {
                std::string text = "0x0123456789abcdef";
                text[static_cast<std::size_t>(2 + at)] = bad;
                QVERIFY2(!parseUnsigned(text, u), text.c_str());
            }
        QVERIFY(!parseUnsigned("0x1ffffffffffffffff", u));
        long long s = 0;
        QVERIFY(parseSigned("-9223372036854775808", s));
        QCOMPARE(s, std::numeric_limits<long long>::min());
        QVERIFY(!parseSigned("9223372036854775808", s));
        QVERIFY(parseSigned("-16778240", s));
        QCOMPARE(s, -16778240ll);
    }

    void docsHeaderSpellingAndShadowFree()
    {
        QTemporaryDir dir;
        MemDumpBuilder dump;
        dump.text = "ID,Event,Event Type,Name,Timestamp(ns),Process Id,Thread ID,Device ID,Ptr,Attr,Call Stack(Python),Call Stack(C)\n";
        dump.malloc("PTA", 0x1000, 4096, 1);
        dump.malloc("PTA", 0x2000, 512, 2);
        dump.free("PTA", 0x2000, 512, 2, -1, ",shadow:true");
        const fs::path file = fs::path(dir.path().toStdString()) / "docs.csv";
        writeFile(file, dump.text);
        const auto trace = readMemScope(file);
        const auto model = buildModel(trace);
        QCOMPARE(model.blocks.size(), std::size_t(2));
        QVERIFY(model.blocks[0].aliveAtEnd());
        QVERIFY(model.blocks[1].shadowFree);
        QVERIFY(model.blocks[1].aliveAtEnd()); // a synthetic free is no free
    }

    void accessMatchesByContainmentWithoutAllocationId()
    {
        QTemporaryDir dir;
        MemDumpBuilder dump;
        dump.row("MALLOC", "PTA", "N/A", "0x1000", "{addr:0x1000,size:4096}");
        dump.row("ACCESS", "WRITE", "aten.add", "0x1100", "{addr:0x1100,size:256}");
        dump.row("ACCESS", "READ", "aten.add", "0x9000", "{addr:0x9000,size:16}");
        dump.row("FREE", "PTA", "N/A", "0x1000", "{addr:0x1000,size:4096}");
        dump.row("FREE", "PTA", "N/A", "0x5000", "{addr:0x5000,size:16}");
        const fs::path file = fs::path(dir.path().toStdString()) / "noid.csv";
        writeFile(file, dump.text);
        const auto trace = readMemScope(file);
        const auto model = buildModel(trace);
        QCOMPARE(model.blocks.size(), std::size_t(1));
        QCOMPARE(model.blocks[0].accesses.size(), std::size_t(1));
        QVERIFY(!model.blocks[0].aliveAtEnd());
        QCOMPARE(model.unmatchedAccesses.size(), std::size_t(1));
        QCOMPARE(model.unmatchedFrees.size(), std::size_t(1));
    }

    void stepsFromSystemRowsAndMstxRanges()
    {
        QTemporaryDir dir;
        const fs::path root(dir.path().toStdString());
        MemDumpBuilder system;
        system.malloc("PTA", 0x10, 8, 1); // before the first step() call: step 1
        system.step(1);
        system.malloc("PTA", 0x20, 8, 2);
        system.step(2);
        writeFile(root / "system.csv", system.text);
        const auto a = readMemScope(root / "system.csv");
        const auto ma = buildModel(a);
        QVERIFY(ma.stepSource == StepSource::SystemStep);
        QCOMPARE(ma.blocks[0].allocStep, 1u);
        QCOMPARE(ma.blocks[1].allocStep, 2u);
        QCOMPARE(ma.stepCount, 2u);

        MemDumpBuilder mstx;
        mstx.malloc("PTA", 0x10, 8, 1); // outside every step
        mstx.row("MSTX", "Range_start", "step start", "N/A", "");
        mstx.malloc("PTA", 0x20, 8, 2);
        mstx.row("MSTX", "Range_end", "Range end from id 1", "N/A", "");
        mstx.malloc("PTA", 0x30, 8, 3);
        writeFile(root / "mstx.csv", mstx.text);
        const auto b = readMemScope(root / "mstx.csv");
        const auto mb = buildModel(b);
        QVERIFY(mb.stepSource == StepSource::Mstx);
        QCOMPARE(mb.blocks[0].allocStep, 0u);
        QCOMPARE(mb.blocks[1].allocStep, 1u);
        QCOMPARE(mb.blocks[2].allocStep, 0u);

        MemDumpBuilder both = mstx;
        both.step(1);
        writeFile(root / "both.csv", both.text);
        const auto c = readMemScope(root / "both.csv");
        QVERIFY_THROWS_EXCEPTION(support::Error, buildModel(c));
    }

    void databaseVariant()
    {
        QTemporaryDir dir;
        const fs::path file = fs::path(dir.path().toStdString()) / "memscope_dump_20250101000000.db";
        {
            support::SqliteDb db(file, false);
            db.exec("CREATE TABLE memscope_dump (\"ID\" INTEGER, \"Event\" TEXT, \"Event Type\" TEXT, \"Name\" TEXT, "
                    "\"Timestamp(ns)\" INTEGER, \"Process Id\" INTEGER, \"Thread Id\" INTEGER, \"Device Id\" TEXT, \"Ptr\" TEXT, "
                    "\"Attr\" TEXT, \"Call Stack(Python)\" TEXT, \"Call Stack(C)\" TEXT)");
            db.exec("INSERT INTO memscope_dump VALUES (2, 'FREE', 'PTA', 'N/A', 20, 7, 7, '0', '0x0000000000001000', "
                    "'{\"allocation_id\":\"1\",\"addr\":\"0x0000000000001000\",\"size\":\"4096\",\"total\":\"8192\",\"used\":\"0\"}', '', '')");
            db.exec("INSERT INTO memscope_dump VALUES (1, 'MALLOC', 'PTA', 'N/A', 10, 7, 7, '0', '0x0000000000001000', "
                    "'{\"allocation_id\":\"1\",\"addr\":\"0x0000000000001000\",\"size\":\"4096\",\"total\":\"8192\",\"used\":\"4096\",\"owner\":\"PTA@weight\"}', '', '')");
        }
        const auto trace = readMemScope(file);
        QCOMPARE(trace.events.size(), std::size_t(2));
        QCOMPARE(trace.events[0].kind, EventKind::Malloc);
        QCOMPARE(trace.events[0].used, std::int64_t(4096));
        QCOMPARE(std::string(trace.text(trace.events[0].owner)), std::string("PTA@weight"));
        const auto model = buildModel(trace);
        QCOMPARE(model.blocks.size(), std::size_t(1));
        QVERIFY(!model.blocks[0].aliveAtEnd());

        {
            support::SqliteDb db(file, false);
            db.exec("INSERT INTO memscope_dump VALUES (3, 'MALLOC', 'PTA', 'N/A', 30, 7, 7, '0', '0x10', '{\"size\":\"big\"}', '', '')");
        }
        try {
            readMemScope(file);
            QFAIL("a bad size in the database was accepted");
        } catch (const support::Error& error) {
            const std::string what = error.what();
            QVERIFY2(what.find("row 3, column 10 (Attr)") != std::string::npos, what.c_str());
            QVERIFY2(what.find("\"big\"") != std::string::npos, what.c_str());
        }
    }

    void malformedInputNamesFileLineAndColumn()
    {
        QTemporaryDir dir;
        const fs::path root(dir.path().toStdString());
        const std::string header = MemDumpBuilder::kHeader;
        const std::string good = "1,MALLOC,PTA,N/A,100,7,7,0,0x10,\"{allocation_id:1,addr:0x10,size:8}\",,\n";
        auto expect = [&](const std::string& text, std::initializer_list<const char*> parts) {
            const auto message = readError(root, text);
            QVERIFY2(!message.empty(), text.c_str());
            QVERIFY2(message.find((root / "bad.csv").string()) != std::string::npos, message.c_str());
            for (const char* part : parts)
                QVERIFY2(message.find(part) != std::string::npos, (message + " | wanted: " + part).c_str());
        };
        expect(header + good + "2,FREE,PTA,N/A,12x,7,7,0,0x10,\"{allocation_id:1,addr:0x10,size:8}\",,\n",
            { "line 3, column 5 (Timestamp(ns))", "\"12x\"" });
        expect(header + good + "2,FREE,PTA,N/A,120,7,7,0,0x10,\"{allocation_id:1,addr:0x10,size:-x}\",,\n",
            { "line 3, column 10 (Attr)", "size" });
        expect(header + "x1,MALLOC,PTA,N/A,100,7,7,0,0x10,\"{size:8}\",,\n", { "line 2, column 1 (ID)" });
        expect(header + "1,ALLOC,PTA,N/A,100,7,7,0,0x10,\"{size:8}\",,\n", { "line 2, column 2 (Event)", "ALLOC" });
        expect(header + "1,MALLOC,PTA,N/A,100,7,7,0,0xZZ,\"{size:8}\",,\n", { "line 2, column 9 (Ptr)" });
        expect(header + "1,MALLOC,PTA,N/A,100,7,7,npu,0x10,\"{size:8}\",,\n", { "line 2, column 8 (Device Id)" });
        expect(header + "1,MALLOC,PTA,N/A,100,7,7,0,0x10,\"{addr:0x10}\",,\n", { "line 2", "no size" });
        // A missing column, a truncated last row, an open quote, a repeated ID, an empty file.
        expect("ID,Event,Event Type,Name,Timestamp(ns),Process Id,Thread Id,Device Id,Ptr\n" + good, { "line 1", "no \"Attr\" column" });
        expect(header + good + "2,FREE,PTA,N/A,120,7,7", { "line 3", "row has 7 cells" });
        expect(header + good + "2,FREE,PTA,N/A,120,7,7,0,0x10,\"{allocation_id:1,size:8}", { "line 3", "not closed" });
        expect(header + good + good, { "line 3", "repeats the row on line 2" });
        expect("", { "is empty" });
    }

    void fifoAndMissingFileAreRefused()
    {
        QTemporaryDir dir;
        const fs::path fifo = fs::path(dir.path().toStdString()) / "pipe.csv";
        QCOMPARE(::mkfifo(fifo.c_str(), 0600), 0);
        try {
            readMemScope(fifo);
            QFAIL("a FIFO was read");
        } catch (const support::Error& error) {
            const std::string what = error.what();
            QVERIFY2(what.find("FIFO") != std::string::npos && what.find(fifo.string()) != std::string::npos, what.c_str());
        }
        const fs::path missing = fs::path(dir.path().toStdString()) / "missing.csv";
        try {
            readMemScope(missing);
            QFAIL("a missing file was read");
        } catch (const support::Error& error) {
            QVERIFY(std::string(error.what()).find(missing.string()) != std::string::npos);
        }
    }

    void readsAcrossBlockBoundaries()
    {
        // Rows longer than the reader's 1 MiB block, with quoted multi-line stacks, still come back whole.
        QTemporaryDir dir;
        MemDumpBuilder dump;
        std::string stack(1500000, 'x');
        for (int k = 1; k <= 3; ++k) {
            dump.text += std::to_string(k) + ",MALLOC,PTA,N/A," + std::to_string(100 + k) + ",7,7,0,0x" + std::to_string(k)
                + "0,\"{allocation_id:" + std::to_string(k) + ",size:8}\",\"a.py(1): f\nb.py(2): g\",\"" + stack + "\"\r\n";
        }
        const fs::path file = fs::path(dir.path().toStdString()) / "long.csv";
        writeFile(file, dump.text);
        const auto trace = readMemScope(file);
        QCOMPARE(trace.events.size(), std::size_t(3));
        QCOMPARE(trace.events[2].line, std::uint32_t(6)); // each row spans two lines
        QCOMPARE(trace.events[2].ptr, std::uint64_t(0x30));
    }

    void checksumVectors()
    {
        // Spec §6 check 7.
        QCOMPARE(watchChecksumText(watchChecksum("", 0)), std::string("0000000000000000"));
        QCOMPARE(watchChecksumText(watchChecksum("123456789", 9)), std::string("b86883e6fa710a9f"));
        unsigned char bytes[256];
        for (int k = 0; k < 256; ++k)
            bytes[k] = static_cast<unsigned char>(k);
        QCOMPARE(watchChecksumText(watchChecksum(bytes, 256)), std::string("c48455633bde63a5"));
        const unsigned char zeros[16] = {};
        QCOMPARE(watchChecksumText(watchChecksum(zeros, 16)), std::string("f1a9d99093e793c0"));
    }

    void ownerStringOfLabels()
    {
        // Spec §6 check 6: framework PTA, user scopes a ⊃ b, then an address label weight at DETAIL_1.
        OwnerLabels labels;
        labels.pushUser("a");
        labels.pushUser("b");
        auto levels = labels.levelsAt("PTA");
        levels[static_cast<std::size_t>(OwnerLevel::Detail1)] = "weight";
        QCOMPARE(OwnerLabels::join(levels), std::string("PTA@weight@a@b"));
        // A 4th user label is dropped; popping it leaves the three.
        labels.pushUser("c");
        labels.pushUser("d");
        QCOMPARE(OwnerLabels::join(labels.levelsAt("PTA")), std::string("PTA@a@b@c"));
        labels.popUser();
        QCOMPARE(OwnerLabels::join(labels.levelsAt("PTA")), std::string("PTA@a@b@c"));
        labels.pushRange(OwnerLevel::Process, "backward");
        QCOMPARE(OwnerLabels::join(labels.levelsAt("PTA")), std::string("PTA@backward@a@b@c"));
        QCOMPARE(ownerCategory("PTA@fsdp2@activation@ops@test1"), std::string("activation"));
        QCOMPARE(ownerCategory("PTA@optimizer_state"), std::string("optimizer_state"));
        QCOMPARE(ownerCategory("PTA@weights"), std::string("weight"));
        QCOMPARE(ownerCategory(""), std::string("other"));
    }
};

QTEST_GUILESS_MAIN(TestCoreMemory)
#include "tst_core_memory.moc"
