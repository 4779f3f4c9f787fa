// SPDX-License-Identifier: Apache-2.0
// The parallel CSV read of a msMemScope dump: the same trace whatever the number of pieces (strings merged, line
// numbers, out-of-order rows), the one-piece fallback when a cut falls inside a multi-line quoted cell, errors
// in a late piece naming their real line, and the two orderings of finishTrace (dense IDs placed, sparse sorted).
#include "memory/event_chunks.h"
#include "memory/mem_model.h"
#include "memory/memscope_reader.h"
#include "memory/memscope_rows.h"
#include "support/error.h"
#include "test_util.h"
#include "tst_core_memory_rows.h"

#include <QTemporaryDir>

#include <fstream>
#include <iterator>

using namespace msprobe;
using namespace msprobe::memory;
using namespace msprobe::test;
namespace fs = std::filesystem;

namespace {

// A dump of `blocks` blocks written as msMemScope does (MALLOC and ACCESS rows held until the FREE, every 5th
// block freed only at the end), owners from 37 modules, every 11th ACCESS with a two-line quoted call stack.
std::string trainingDump(int blocks, const char* lineEnd = "\n")
{
    MemDumpBuilder dump;
    std::vector<std::string> held;
    std::string late;
    for (int b = 1; b <= blocks; ++b) {
        MemDumpBuilder block;
        block.text.clear();
        block.nextId = dump.nextId;
        block.nextTs = dump.nextTs;
        const std::uint64_t ptr = 0x10000 + static_cast<std::uint64_t>(b % 97) * 0x1000;
        block.malloc("PTA", ptr, 512 + b * 3, static_cast<std::uint64_t>(b), b * 10,
            ",owner:PTA@weight@layer" + std::to_string(b % 37));
        block.access("torch._ops.aten.op" + std::to_string(b % 13) + ".default", ptr, 64, static_cast<std::uint64_t>(b));
        if (b % 11 == 0)
            block.text.replace(block.text.size() - 3, 3, ",\"a.py(1): f\nb.py(" + std::to_string(b) + "): g\",\n");
        dump.nextId = block.nextId;
        dump.nextTs = block.nextTs;
        dump.row("OP_LAUNCH", "ATEN_START", "torch._ops.aten.op" + std::to_string(b % 13) + ".default", "N/A", "");
        if (b % 5 == 0) {
            late += block.text;
            continue;
        }
        dump.text += block.text;
        dump.free("PTA", ptr, 512 + b * 3, static_cast<std::uint64_t>(b), 0);
    }
    dump.text += late;
    std::string out;
    for (const char c : dump.text)
        out += c == '\n' ? std::string(lineEnd) : std::string(1, c);
    return out;
}

// The trace as text, one line per event with every field and the strings resolved (so pools may differ in ids).
std::string describe(const MemTrace& trace)
{
    std::string out;
    for (const auto& e : trace.events)
        out += std::to_string(e.id) + "|" + std::to_string(e.tsNs) + "|" + std::to_string(e.ptr) + "|" + std::to_string(e.size) + "|"
            + std::to_string(e.total) + "|" + std::to_string(e.used) + "|" + std::to_string(e.allocationId) + "|"
            + std::to_string(e.pid) + "|" + std::to_string(e.tid) + "|" + std::to_string(e.device) + "|" + std::to_string(e.line) + "|"
            + std::string(eventKindName(e.kind)) + "|" + std::string(trace.text(e.subType)) + "|" + std::string(trace.text(e.name))
            + "|" + std::string(trace.text(e.owner)) + "|" + std::string(trace.text(e.inefficient)) + "|"
            + std::to_string(e.flags) + "\n";
    return out;
}

std::string readError(const fs::path& file, unsigned pieces)
{
    try {
        readMemScopeCsvInPieces(file, pieces);
    } catch (const support::Error& error) {
        return error.what();
    }
    return {};
}

} // namespace

class TestCoreMemoryPieces : public QObject {
    Q_OBJECT

private slots:
    void sameTraceWhateverThePieces()
    {
        QTemporaryDir dir;
        for (const char* lineEnd : { "\n", "\r\n" }) {
            const fs::path file = fs::path(dir.path().toStdString()) / "memscope_dump_1.csv";
            writeFile(file, trainingDump(3000, lineEnd));
            const auto whole = readMemScopeCsvInPieces(file, 1);
            // 3000 blocks: ATEN_START, MALLOC, ACCESS each, FREE for the 2400 freed in place.
            QCOMPARE(whole.rowsRead, std::size_t(3000 * 3 + 2400));
            for (std::size_t i = 1; i < whole.events.size(); ++i)
                QVERIFY(whole.events[i - 1].id < whole.events[i].id);
            const auto expected = describe(whole);
            for (unsigned pieces : { 2u, 3u, 7u, 64u }) {
                const auto trace = readMemScopeCsvInPieces(file, pieces);
                QCOMPARE(trace.rowsRead, whole.rowsRead);
                QVERIFY2(describe(trace) == expected, (std::to_string(pieces) + " pieces, " + (lineEnd[0] == '\r' ? "CRLF" : "LF")).c_str());
                QCOMPARE(trace.strings.size(), whole.strings.size()); // the pieces' strings merged, none twice
            }
            // The row of block 5's MALLOC is written after every other block: its line is the last rows'.
            const auto& block5 = *std::find_if(whole.events.begin(), whole.events.end(),
                [](const MemEvent& e) { return e.kind == EventKind::Malloc && e.allocationId == 5; });
            QVERIFY(block5.line > 9000);
            QCOMPARE(std::string(whole.text(block5.owner)), std::string("PTA@weight@layer5"));
        }
    }

    void rowsSpanningSeveralChunks()
    {
        // More rows than one chunk of the reader holds (65 536), out of ID order: each piece fills several chunks,
        // and the chunks are given back as their rows move into ID order; the trace is the same whatever the cut.
        QTemporaryDir dir;
        const fs::path file = fs::path(dir.path().toStdString()) / "memscope_dump_6.csv";
        const auto text = trainingDump(40000);
        writeFile(file, text);
        const auto whole = readMemScopeCsvInPieces(file, 1);
        QCOMPARE(whole.rowsRead, std::size_t(40000 * 3 + 32000));
        for (std::size_t i = 1; i < whole.events.size(); ++i)
            QVERIFY(whole.events[i - 1].id < whole.events[i].id);
        const auto expected = describe(whole);
        for (unsigned pieces : { 2u, 3u }) {
            const auto trace = readMemScopeCsvInPieces(file, pieces);
            QVERIFY2(describe(trace) == expected, (std::to_string(pieces) + " pieces").c_str());
        }
        // The last row of the file is the ACCESS of block 40 000 (held to the end): its line is the file's last.
        const auto& last = *std::find_if(whole.events.begin(), whole.events.end(),
            [](const MemEvent& e) { return e.kind == EventKind::Access && e.allocationId == 40000; });
        QCOMPARE(last.line, static_cast<std::uint32_t>(std::count(text.begin(), text.end(), '\n')));
    }

    void largeTracesMoveWithPagesKeptOnASecondThread()
    {
        // From 262 144 rows the move into ID order gives the pages of the chunks it has emptied to the trace
        // (mremap): 70 000 blocks give 266 000 rows, out of ID order across the pieces' boundaries. Every event is
        // the row its line starts with, in ID order, the same whatever the cut and whichever parser read the rows.
        QTemporaryDir dir;
        const fs::path file = fs::path(dir.path().toStdString()) / "memscope_dump_7.csv";
        const auto text = trainingDump(70000);
        writeFile(file, text);
        std::vector<std::string_view> lines { std::string_view() }; // lines[n] is line n (from 1)
        for (std::size_t at = 0; at < text.size();) {
            const auto end = std::min(text.find('\n', at), text.size());
            lines.push_back(std::string_view(text).substr(at, end - at));
            at = end + 1;
        }
        const auto whole = readMemScopeCsvInPieces(file, 1);
        QCOMPARE(whole.rowsRead, std::size_t(70000 * 3 + 56000));
        QVERIFY(whole.rowsRead >= EventChunks::kParallelEvents);
        QCOMPARE(whole.events.size(), whole.rowsRead);
        for (std::size_t i = 0; i < whole.events.size(); ++i) {
            const auto& e = whole.events[i];
            QVERIFY(i == 0 || whole.events[i - 1].id < e.id);
            QVERIFY(e.line > 1 && e.line < lines.size());
            QVERIFY2(lines[e.line].starts_with(std::to_string(e.id) + ","), std::to_string(e.line).c_str());
        }
        const auto expected = describe(whole);
        for (unsigned pieces : { 2u, 3u }) {
            QVERIFY2(describe(readMemScopeCsvInPieces(file, pieces)) == expected, (std::to_string(pieces) + " pieces").c_str());
            QVERIFY2(describe(readMemScopeCsvInPieces(file, pieces, false)) == expected, (std::to_string(pieces) + " pieces, parseRow").c_str());
        }
    }

    void cutInsideAQuotedCellFallsBackToOnePiece()
    {
        // The middle of the file is a call stack of 20 000 lines: every cut lands in it, so the pieces' guesses
        // fail and the file is read whole; nothing of the stack is taken for rows.
        QTemporaryDir dir;
        MemDumpBuilder dump;
        dump.malloc("PTA", 0x1000, 64, 1);
        std::string stack;
        for (int k = 0; k < 20000; ++k)
            stack += "frame.py(" + std::to_string(k) + "): f,2,MALLOC,PTA\n";
        dump.text.replace(dump.text.size() - 3, 3, ",\"" + stack + "\",\n");
        dump.free("PTA", 0x1000, 64, 1);
        const fs::path file = fs::path(dir.path().toStdString()) / "memscope_dump_2.csv";
        writeFile(file, dump.text);
        for (unsigned pieces : { 1u, 2u, 5u }) {
            const auto trace = readMemScopeCsvInPieces(file, pieces);
            QCOMPARE(trace.rowsRead, std::size_t(2));
            QCOMPARE(trace.events[1].kind, EventKind::Free);
            QCOMPARE(trace.events[1].line, std::uint32_t(20003)); // header, MALLOC + 20 000 stack lines
        }
    }

    void errorsInALatePieceNameTheirLine()
    {
        QTemporaryDir dir;
        const fs::path file = fs::path(dir.path().toStdString()) / "memscope_dump_3.csv";
        auto text = trainingDump(2000);
        // Break the timestamp of the last row (a held block's ACCESS near the end of the file).
        const auto lastLine = static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
        const auto rowStart = text.rfind('\n', text.size() - 2) + 1;
        auto cell = rowStart;
        for (int comma = 0; comma < 4; ++comma)
            cell = text.find(',', cell) + 1;
        text.replace(cell, text.find(',', cell) - cell, "12x");
        writeFile(file, text);
        for (unsigned pieces : { 1u, 4u }) {
            const auto message = readError(file, pieces);
            QVERIFY2(message.find("line " + std::to_string(lastLine) + ", column 5 (Timestamp(ns))") != std::string::npos, message.c_str());
        }
        // A row repeated at the start and the end of the file: the two lines are named, across pieces.
        auto repeated = trainingDump(2000);
        const auto firstRowEnd = repeated.find('\n', repeated.find('\n') + 1) + 1;
        const auto firstRow = repeated.substr(repeated.find('\n') + 1, firstRowEnd - repeated.find('\n') - 1);
        repeated += firstRow;
        writeFile(file, repeated);
        const auto total = std::count(repeated.begin(), repeated.end(), '\n');
        for (unsigned pieces : { 1u, 3u }) {
            const auto message = readError(file, pieces);
            QVERIFY2(message.find("line " + std::to_string(total) + ":") != std::string::npos
                    && message.find("repeats the row on line 2 ") != std::string::npos,
                message.c_str());
        }
    }

    void sparseIdsAreSortedToo()
    {
        // IDs far apart (not a dense counter) take the sort rather than the placement; both give ID order.
        QTemporaryDir dir;
        MemDumpBuilder dump;
        for (std::uint64_t id : { 900000000000ull, 7ull, 3000000000ull, 5ull, 12ull }) {
            dump.nextId = id;
            dump.malloc("PTA", 0x1000 + id, 64, id);
        }
        const fs::path file = fs::path(dir.path().toStdString()) / "memscope_dump_4.csv";
        writeFile(file, dump.text);
        const auto trace = readMemScope(file);
        std::vector<std::uint64_t> ids;
        for (const auto& e : trace.events)
            ids.push_back(e.id);
        QCOMPARE(ids, (std::vector<std::uint64_t> { 5, 7, 12, 3000000000ull, 900000000000ull }));
        QCOMPARE(trace.events[0].line, std::uint32_t(5));
        QCOMPARE(trace.events[0].ptr, std::uint64_t(0x1005));
    }

    void escapedQuotesEarlyInTheFirstRow()
    {
        // A doubled quote in a cell stored before the row's cell list has grown to its full width: the cells
        // unescaped so far must stay valid while the rest of the row is read (the fuzzer's first finding).
        QTemporaryDir dir;
        const std::string header = "ID,Event,Event Type,Name,Timestamp(ns),Process Id,Thread Id,Device Id,Ptr,Attr,"
                                   "Call Stack(Python),Call Stack(C)\n";
        const std::string text = header + "1,MSTX,Mark,\"\"\"test\"\"\",10,7,7,0,N/A,,,\n"
            + "2,MSTX,Mark,\"a \"\"quoted\"\" mark with a long name to leave the small-string buffer\",20,7,7,0,N/A,,,\n";
        const fs::path file = fs::path(dir.path().toStdString()) / "memscope_dump_5.csv";
        writeFile(file, text);
        for (unsigned pieces : { 1u, 2u }) {
            const auto trace = readMemScopeCsvInPieces(file, pieces);
            QCOMPARE(trace.events.size(), std::size_t(2));
            QCOMPARE(std::string(trace.text(trace.events[0].name)), std::string("test")); // an MSTX message loses its quotes (§1.2)
            QCOMPARE(std::string(trace.text(trace.events[1].name)),
                std::string("a \"quoted\" mark with a long name to leave the small-string buffer"));
            QCOMPARE(trace.events[1].tsNs, std::int64_t(20));
        }
    }

    void fastRowsReadAsTheGeneralParser()
    {
        // The one-pass row reader and parseRow give the same trace (every field, the string pool in the same
        // order) on rows it reads and on rows it leaves to parseRow, and the same message for a bad row.
        QTemporaryDir dir;
        const std::string header = "ID,Event,Event Type,Name,Timestamp(ns),Process Id,Thread Id,Device Id,Ptr,Attr,"
                                   "Call Stack(Python),Call Stack(C)\n";
        const std::string quirks = header
            + "1,MALLOC,PTA,N/A,10,7,7,0,0x1000,\"{allocation_id:1,addr:0x1000,size:64,total:128,used:64,owner:PTA@model@weight}\",,\n"
            + "2,MALLOC,HAL, N/A ,11, 7 ,7,cpu,N/A,\"{allocation_id:2,addr:0x2000,size:-32,total:0x80,used:96}\",,\n"
            + "3,ACCESS,WRITE,torch._ops.aten.mul.out,12,7,8,host,0x1000,\"{allocation_id:1,addr:0x1000,size:64,type:PTA,dtype:torch.float32,shape:torch.Size([8, 256])}\",\"a.py(1): f\nb.py(2): g\",\n"
            + "4,FREE,PTA,N/A,13,N/A,N/A,N/A,0x1000,\"{allocation_id:1,addr:0x1000,size:64,total:128,used:0,shadow:true}\",,\n"
            + "5,MSTX,Mark,\"step start\",14,7,7,9999,N/A,,,\n"
            + "6,MALLOC,PTA,N/A,15,7,7,10000,0x3000,\"{allocation_id:3,addr:0x3000,size:16,owner:a,inefficient_type:early_allocation,late_deallocation,owner:b}\",,\n"
            + "7,MALLOC,PTA,N/A,16,7,7,3,0x4000,{size:8},x,y\r\n"
            + "8,SYSTEM,STEP,1,17,7,7,0,N/A,\"\",,\n"
            + "9,OOM_DETAIL,OOM_TRIGGER,N/A,18,7,7,0,N/A,\"{req_size:4096,func:malloc}\",,\n"
            + "10,MALLOC,PTA,N/A,19,7,7,0,0x5000,\"{allocation_id:5,addr:0x5000,size:9223372036854775807,inefficient:idle}\",,\n"
            + "\n"
            + "11,KERNEL_LAUNCH,KERNEL_LAUNCH,aclnnMul_1,20,7,7,0,N/A,\"{streamId:2,taskId:1}\"\n"
            + "12,OP_LAUNCH,ATEN_START,\"say \"\"hi\"\"\",21,7,7,0,N/A,,,\n"
            + "13,MALLOC,PTA,N/A,22,7,7,0,0x6000,\"{allocation_id:6,addr:0x6000,size:4}\"";
        std::vector<std::string> dumps { trainingDump(3000), trainingDump(200, "\r\n"), quirks };
        for (const auto* fixture : { "memscope/baseline.csv", "memory/baseline.csv", "memory/leaks.csv" }) {
            std::ifstream in(dataDir() / fixture, std::ios::binary);
            dumps.emplace_back(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
            QVERIFY2(dumps.back().size() > 100, fixture);
        }
        auto pool = [](const MemTrace& trace) {
            std::string out;
            for (std::size_t s = 0; s < trace.strings.size(); ++s)
                out += std::string(trace.strings.view(static_cast<support::StringId>(s))) + "\n";
            return out;
        };
        const fs::path file = fs::path(dir.path().toStdString()) / "memscope_dump_7.csv";
        for (std::size_t d = 0; d < dumps.size(); ++d) {
            writeFile(file, dumps[d]);
            const auto general = readMemScopeCsvInPieces(file, 1, false);
            const auto fast = readMemScopeCsvInPieces(file, 1, true);
            QVERIFY2(describe(fast) == describe(general), ("dump " + std::to_string(d)).c_str());
            QCOMPARE(pool(fast), pool(general));
            for (std::size_t i = 0; i < fast.events.size(); ++i)
                QCOMPARE(fast.events[i].detail, general.events[i].detail);
        }
        writeFile(file, quirks);
        const auto read = readMemScopeCsvInPieces(file, 1, true);
        QCOMPARE(read.rowsRead, std::size_t(13));
        auto row = [&](std::uint64_t id) { return *std::find_if(read.events.begin(), read.events.end(), [&](const MemEvent& e) { return e.id == id; }); };
        QCOMPARE(row(2).size, std::int64_t(32)); // a legacy negative size
        QCOMPARE(row(2).ptr, std::uint64_t(0x2000)); // Ptr N/A: Attr addr
        QCOMPARE(std::string(read.text(row(6).inefficient)), std::string("early_allocation,late_deallocation"));
        QCOMPARE(std::string(read.text(row(6).owner)), std::string("b"));
        QCOMPARE(row(13).line, std::uint32_t(16)); // after the stack's line break, the CRLF and the blank line

        // Bad rows: the same message whichever reader met them first.
        const std::string good = "1,MALLOC,PTA,N/A,10,7,7,0,0x1000,\"{allocation_id:1,addr:0x1000,size:64}\",,\n";
        for (const std::string bad : { "2,MALLOC,PTA,N/A,12x,7,7,0,0x1000,\"{size:64}\",,\n", "2,MALLOC,PTA,N/A,12,7,7,0,0x1000,\"{total:64}\",,\n",
                 "2,MALLOC,PTA,N/A,12,7,7,0,N/A,\"{size:64}\",,\n", "2,MALLOC,PTA,N/A,12,7,7\n", "2,MALLOC,PTA,N/A,12,7,7,0,0x1,\"size:64\",,\n",
                 "2,MALLOC,PTA,N/A,12,7,7,0,0x1,\"{size:64,total:1,2}\",,\n", "2,MALLOC,PTA,N/A,12,7,7,0,0x1,\"{size:6 4}\",,\n",
                 "2,MALLOC,,N/A,12,7,7,0,0x1,\"{size:64}\",,\n", "2,MALLOC,PTA,N/A,12,7,7,-1,0x1,\"{size:64}\",,\n",
                 "2,MALLOC,PTA,N/A,12,7,7,0,0xg,\"{size:64}\",,\n", "1,FREE,PTA,N/A,12,7,7,0,0x1,\"{size:64}\",,\n" }) {
            writeFile(file, header + good + bad);
            const auto message = readError(file, 1);
            QVERIFY2(message.find("line 3") != std::string::npos, message.c_str());
            try {
                readMemScopeCsvInPieces(file, 1, false);
                QFAIL("the general reader took a bad row");
            } catch (const support::Error& error) {
                QCOMPARE(std::string(error.what()), message);
            }
        }
    }

    void fastRowsAtEveryOffsetAndManyNames()
    {
        // The row reader cuts its first cells from 64-byte blocks and interns through a per-column memo and a
        // bounded table of its own: quirky rows shifted to every offset of a block (and to the file's end), long
        // cells that span blocks, names that share their first and last eight bytes and their length, and more
        // distinct names than the table holds, read as parseRow reads them, whatever the pieces.
        QTemporaryDir dir;
        const fs::path file = fs::path(dir.path().toStdString()) / "memscope_dump_8.csv";
        const std::string header = "ID,Event,Event Type,Name,Timestamp(ns),Process Id,Thread Id,Device Id,Ptr,Attr,"
                                   "Call Stack(Python),Call Stack(C)\n";
        const std::vector<std::string> quirky { "MALLOC,PTA,N/A,10,7,7,0,0x1000,\"{allocation_id:1,addr:0x1000,size:64}\",,\n",
            "OP_LAUNCH,ATEN_START,\"quoted, name\",11,7,7,0,N/A,,,\n", "OP_LAUNCH,ATEN_END,\"say \"\"hi\"\"\",12,7,7,0,N/A,,,\n",
            "ACCESS,READ,op\rname,13,7,7,0,0x1000,\"{size:64}\",,\n", "MALLOC,PTA,N/A,14,7,7,0,0x2000,\"{size:8}\",,\r\n",
            "KERNEL_LAUNCH,KERNEL_LAUNCH," + std::string(150, 'k') + ",15,7,7,0,N/A,\"{streamId:1}\",,\n",
            "MALLOC,PTA,N/A,16,7,7,0\n", "SYSTEM,STEP, 2 ,17, 7,7,0,N/A,,,\n", "MSTX,Mark,m,18,7,7,0,N/A,\"{a:1}\",,\n" };
        auto pool = [](const MemTrace& trace) {
            std::string out;
            for (std::size_t s = 0; s < trace.strings.size(); ++s)
                out += std::string(trace.strings.view(static_cast<support::StringId>(s))) + "\n";
            return out;
        };
        auto sameEitherWay = [&](const std::string& text, const std::string& what, std::initializer_list<unsigned> pieceCounts) {
            writeFile(file, text);
            std::string expected, message;
            try {
                const auto general = readMemScopeCsvInPieces(file, 1, false);
                expected = describe(general) + pool(general);
            } catch (const support::Error& error) {
                message = error.what();
            }
            for (unsigned pieces : pieceCounts) {
                try {
                    const auto fast = readMemScopeCsvInPieces(file, pieces, true);
                    QVERIFY2(message.empty() && describe(fast) + (pieces == 1 ? pool(fast) : pool(readMemScopeCsvInPieces(file, 1, false))) == expected, what.c_str());
                } catch (const support::Error& error) {
                    QVERIFY2(!message.empty() && (pieces > 1 || std::string(error.what()) == message), (what + ": " + error.what()).c_str());
                }
            }
        };
        // Leading zeros in the ID move every later cell across the blocks' bounds; the rows after it (or none)
        // put the file's end at different distances.
        for (const auto& row : quirky)
            for (std::size_t shift = 0; shift <= 66; shift += shift < 6 || shift > 58 ? 1 : 7) {
                const std::string id = std::string(shift, '0') + "2,";
                std::string text = header + "1,SYSTEM,STEP,1,1,7,7,0,N/A,,,\n" + id + row;
                for (std::size_t k = 3; k < 3 + shift % 4; ++k)
                    text += std::to_string(k) + ",OP_LAUNCH,ATEN_START,op" + std::to_string(k * shift) + ",20,7,7,0,N/A,,,\n";
                sameEitherWay(text, row + " at " + std::to_string(shift), { 1 });
                sameEitherWay(text + "9," + row.substr(0, row.size() - 1), row + " last, no line break, at " + std::to_string(shift), { 1 });
            }
        // 40 000 distinct names (past the reader's table, which starts afresh when full) of the same length that
        // differ only in the middle, in an order that is not the ID order.
        std::string many = header;
        for (int k = 0; k < 40000; ++k) {
            const int id = (k * 7919) % 40000 + 1;
            char middle[8];
            std::snprintf(middle, sizeof middle, "%05d", k / 2);
            many += std::to_string(id) + ",KERNEL_LAUNCH,KERNEL_LAUNCH,aclnnKernel_" + middle + (k % 2 ? "a" : "b")
                + "_launch,20,7,7,0,N/A,\"{streamId:1}\",,\n";
        }
        sameEitherWay(many, "many names", { 1, 2, 3 });
    }
};

QTEST_GUILESS_MAIN(TestCoreMemoryPieces)
#include "tst_core_memory_pieces.moc"
