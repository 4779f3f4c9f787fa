// SPDX-License-Identifier: Apache-2.0
// The memory timeline on tests/data/memory/leaks.csv (a copy of /work/shared/fixtures/memscope/leaks.csv): the
// session's background load, the layout (live bytes and its peak from the pool's own `used` column), block
// geometry mapped by hand, level of detail keeping the peak (and, on a hand-made trace, the level-of-detail
// columns matching the exact ones), hover text with module and stacks (from a CSV and from a .db), and leak
// highlighting.
#include "memory/dump_database.h"
#include "memory/memoryminimap.h"
#include "memory/memorypanel.h"
#include "memory/memorytimelineview.h"
#include "memorysession.h"
#include "memorystacking.h"
#include "test_util.h"
#include "tst_core_memory_rows.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>
#include <QWheelEvent>

#include <algorithm>
#include <fstream>
#include <limits>
#include <numeric>

namespace {

// leaks.csv: START_TRACE and STOP_TRACE timestamps, the capture's first and last event.
constexpr std::int64_t kBegin = 1764753365727896900, kEnd = 1764753366323513710;
// Allocation 4: 16778240 bytes, MALLOC ID 10 and FREE ID 12 inside aten.mse_loss.
constexpr std::int64_t kBlock4Alloc = 1764753366165640170, kBlock4Free = 1764753366167061200;
// The peak: allocation 18's MALLOC (ID 74); its `used` cell says 20782080 bytes.
constexpr std::int64_t kPeakTs = 1764753366292488570, kPeakBytes = 20782080;
const QColor kAliveRed(240, 150, 150); // alive at the end, no step to call it a step leak

std::shared_ptr<const msprobe::studio::MemoryDocument> leaksDocument()
{
    return msprobe::studio::loadMemoryDocument(msprobe::test::dataDir() / "memory" / "leaks.csv");
}

std::shared_ptr<const msprobe::studio::MemoryDocument> writeAndLoad(const QTemporaryDir& dir, const char* name, const std::string& text)
{
    const std::string file = dir.filePath(QString::fromLatin1(name)).toStdString();
    std::ofstream(file) << text;
    return msprobe::studio::loadMemoryDocument(file);
}

std::size_t indexOfAllocation(const msprobe::studio::MemoryDocument& document, std::uint64_t allocationId)
{
    const auto& blocks = document.timeline.blocks;
    for (std::size_t i = 0; i < blocks.size(); ++i)
        if (document.model.blocks[blocks[i].block].allocationId == allocationId)
            return i;
    return blocks.size();
}

} // namespace

class TestMemoryTimeline : public QObject {
    Q_OBJECT
private slots:
    void sessionLoadsInTheBackground()
    {
        MemorySession session;
        QSignalSpy finished(&session, &MemorySession::loadFinished);
        QSignalSpy progress(&session, &MemorySession::progress);
        session.open(QString::fromStdString((msprobe::test::dataDir() / "memory" / "leaks.csv").string()));
        QVERIFY(finished.wait(60000));
        QCOMPARE(finished.first().at(0).toBool(), true);
        QVERIFY(session.document());
        QVERIFY(!progress.isEmpty());
        QCOMPARE(progress.last().at(0).toInt(), 100);
    }

    void sessionReportsCoreErrorAndCancel()
    {
        QTemporaryDir dir;
        const std::string bad = dir.filePath(QStringLiteral("bad.csv")).toStdString();
        std::ofstream(bad) << "ID,Event,Event Type,Name,Timestamp(ns),Process Id,Thread Id,Device Id,Ptr,Attr,Call Stack(Python),Call Stack(C)\n"
                              "1,MALLOC,PTA,N/A,notanumber,1,1,0,0x10,\"{allocation_id:1,size:4}\",,\n";
        MemorySession session;
        QSignalSpy finished(&session, &MemorySession::loadFinished);
        session.open(QString::fromStdString(bad));
        QVERIFY(finished.wait(60000));
        QCOMPARE(finished.first().at(0).toBool(), false);
        const QString message = finished.first().at(1).toString();
        QVERIFY2(message.contains(QStringLiteral("bad.csv")) && message.contains(QStringLiteral("line 2")), qPrintable(message));
        QVERIFY(!session.document());

        // A cancel before the worker's result is taken always wins: no document, an empty message.
        session.open(QString::fromStdString((msprobe::test::dataDir() / "memory" / "leaks.csv").string()));
        session.cancel();
        QVERIFY(finished.wait(60000));
        QCOMPARE(finished.last().at(0).toBool(), false);
        QVERIFY(finished.last().at(1).toString().isEmpty());
        QVERIFY(!session.document());
    }

    void stackingReusesTheLowestFittingGap()
    {
        // Hand-computed: a freed block's bytes are reused from the bottom, a run freed at the top lowers the top,
        // and a block freed beside a gap merges with it.
        msprobe::studio::StackPacker packer;
        QCOMPARE(packer.place(100), std::int64_t(0));
        QCOMPARE(packer.place(50), std::int64_t(100));
        QCOMPARE(packer.place(30), std::int64_t(150));
        packer.release(0, 100); // gap [0, 100)
        packer.release(150, 30); // at the top: the top falls back to 150
        QCOMPARE(packer.place(40), std::int64_t(0)); // first fit: gap [40, 100) left
        QCOMPARE(packer.place(70), std::int64_t(150)); // no gap holds 70: on top, which reaches 220
        packer.release(100, 50); // merges with [40, 100) into [40, 150)
        QCOMPARE(packer.place(110), std::int64_t(40));
        QCOMPARE(packer.highest(), std::int64_t(220));
        // Past the 64 lowest gaps, the smallest one holding the block (the lowest of equal ones).
        msprobe::studio::StackPacker many;
        std::vector<std::int64_t> offsets;
        for (int i = 0; i < 180; ++i)
            offsets.push_back(many.place(i < 140 ? 10 : i % 2 ? 30 : 20));
        for (int i = 0; i < 179; i += 2) // every even block freed: 70 gaps of 10 bytes, then 20 of 20
            many.release(offsets[static_cast<std::size_t>(i)], i < 140 ? 10 : 20);
        QCOMPARE(many.place(15), offsets[140]); // the lowest 64 gaps hold none of 15 bytes: the lowest 20-byte gap
        QCOMPARE(many.place(10), offsets[0]);
    }

    void layoutFollowsTheModel()
    {
        const auto document = leaksDocument();
        const auto& timeline = document->timeline;
        QCOMPARE(timeline.beginNs, kBegin);
        QCOMPARE(timeline.endNs, kEnd);
        QVERIFY(!timeline.halShown);
        QCOMPARE(timeline.blocks.size(), std::size_t(20)); // the 20 PTA blocks; the 5 HAL blocks back the pool
        QCOMPARE(timeline.peak.tsNs, kPeakTs);
        QCOMPARE(timeline.peak.liveBytes, kPeakBytes);
        QCOMPARE(timeline.ops.size(), std::size_t(44));
        // Stacking: two blocks alive at the same time never share a byte.
        for (std::size_t i = 0; i < timeline.blocks.size(); ++i)
            for (std::size_t j = i + 1; j < timeline.blocks.size(); ++j) {
                const auto &a = timeline.blocks[i], &b = timeline.blocks[j];
                const bool overlapInTime = a.startNs < b.endNs && b.startNs < a.endNs;
                const bool overlapInBytes = a.offset < b.offset + b.size && b.offset < a.offset + a.size;
                QVERIFY2(!(overlapInTime && overlapInBytes), qPrintable(QStringLiteral("blocks %1 and %2").arg(i).arg(j)));
            }
        // The six PTA blocks never freed are the leaks.
        std::vector<std::uint64_t> leaked;
        for (const auto& block : timeline.blocks)
            if (block.marks & msprobe::studio::kMarkAliveAtEnd)
                leaked.push_back(document->model.blocks[block.block].allocationId);
        std::sort(leaked.begin(), leaked.end());
        QCOMPARE(leaked, (std::vector<std::uint64_t> { 14, 15, 16, 21, 22, 25 }));
    }

    void blockGeometryMatchesTheTimes()
    {
        const auto document = leaksDocument();
        MemoryTimelineView view;
        view.resize(1000, 500);
        view.setDocument(document);
        // Plot: x from 72 over 1000 - 72 - 10 = 918 px, the whole capture; y from 26 over 500 - 26 - 3*18 - 22 = 398 px
        // (three lanes: steps, operators, marks).
        QCOMPARE(view.plotRect(), QRectF(72, 26, 918, 398));
        const auto& item = document->timeline.blocks[indexOfAllocation(*document, 4)];
        QCOMPARE(item.startNs, kBlock4Alloc);
        QCOMPARE(item.endNs, kBlock4Free);
        const QRectF rect = view.blockRect(item);
        const double span = static_cast<double>(kEnd - kBegin);
        QVERIFY(qFuzzyCompare(rect.left(), 72 + static_cast<double>(kBlock4Alloc - kBegin) / span * 918));
        QVERIFY(qFuzzyCompare(rect.right(), 72 + static_cast<double>(kBlock4Free - kBegin) / span * 918));
        const double bytesTop = static_cast<double>(std::max(document->timeline.stackTop, kPeakBytes)) * 1.05;
        QVERIFY(qFuzzyCompare(rect.height(), 16778240.0 / bytesTop * 398));
        QVERIFY(qFuzzyCompare(rect.bottom(), 424 - static_cast<double>(item.offset) / bytesTop * 398));

        // Zoomed to 1 ms around it the block is exact and 1.42103 ms / 3 ms of the plot wide.
        view.setTimeRange(437000000, 440000000);
        const QRectF zoomed = view.blockRect(item);
        QVERIFY(qFuzzyCompare(zoomed.width(), static_cast<double>(kBlock4Free - kBlock4Alloc) / 3e6 * 918));
        QVERIFY(view.columns().exactBlocks >= 1);
    }

    void levelOfDetailKeepsThePeak()
    {
        const auto document = leaksDocument();
        MemoryTimelineView view;
        view.resize(400, 300);
        view.setDocument(document);
        const auto columns = view.columns();
        QVERIFY(columns.aggregatedBlocks > 0); // 0.6 s over 318 px: most blocks are thinner than a pixel
        QCOMPARE(columns.exactBlocks + columns.aggregatedBlocks, std::size_t(20));
        QCOMPARE(*std::max_element(columns.liveMax.begin(), columns.liveMax.end()), static_cast<double>(kPeakBytes));
        const int peakColumn = static_cast<int>(std::floor(view.xOfTimestamp(kPeakTs) - view.plotRect().left()));
        QCOMPARE(columns.liveMax[peakColumn], static_cast<double>(kPeakBytes));
        // Allocation 18 (16778240 bytes, 171 µs) lives inside the peak's column: the column reaches its top.
        const auto& big = document->timeline.blocks[indexOfAllocation(*document, 18)];
        QVERIFY(columns.top[peakColumn] >= static_cast<double>(big.offset + big.size));
        // The picture shows it: the peak column is painted up to the block's top.
        const QImage image = view.grab().toImage();
        const int x = static_cast<int>(view.plotRect().left()) + peakColumn;
        const int y = static_cast<int>(view.yOfBytes(static_cast<double>(big.offset + big.size / 2)));
        QVERIFY(image.pixelColor(x, y) != view.palette().color(QPalette::Base));
    }

    void levelOfDetailMatchesExactDrawing()
    {
        // Blocks 0..599 of 100 + i bytes, each freed two allocations later (rows 10 ns apart: MALLOC i, FREE i-2);
        // a 100000-byte block allocated after iteration 300 and freed in iteration 301. Hand-computed: 601
        // allocations of 60000 + 179700 + 100000 = 339700 bytes; the peak is MALLOC 301 with blocks 299, 300, 301
        // and the big one live: 399 + 400 + 401 + 100000 = 101200 bytes.
        msprobe::test::MemDumpBuilder b;
        std::int64_t peakTs = 0;
        for (std::uint64_t i = 0; i < 600; ++i) {
            if (i == 301)
                peakTs = b.nextTs;
            b.malloc("PTA", 0x10000 * (i + 1), 100 + static_cast<std::int64_t>(i), i + 1);
            if (i >= 2)
                b.free("PTA", 0x10000 * (i - 1), 100 + static_cast<std::int64_t>(i) - 2, i - 1);
            if (i == 300)
                b.malloc("PTA", 0x9000000, 100000, 1000);
            if (i == 301)
                b.free("PTA", 0x9000000, 100000, 1000);
        }
        QTemporaryDir dir;
        const auto document = writeAndLoad(dir, "lod.csv", b.text);
        QCOMPARE(document->timeline.blocks.size(), std::size_t(601));
        QCOMPARE(document->timeline.peak.liveBytes, std::int64_t(101200));
        QCOMPARE(document->timeline.peak.tsNs, peakTs);
        QCOMPARE(document->timeline.lod.leafCount(), std::size_t(4096)); // the fewest leaves: 16 per column below

        MemoryTimelineView view;
        view.resize(338, 300); // a 256-pixel plot: with the whole capture shown, one level-4 bucket per column
        view.setDocument(document);
        QCOMPARE(view.plotRect().width(), 256.0);
        const auto lod = view.columns(MemoryTimelineView::Detail::Aggregated);
        const auto exact = view.columns(MemoryTimelineView::Detail::Exact);
        QVERIFY(lod.aggregated);
        QVERIFY(!exact.aggregated);
        QVERIFY(!view.columns().aggregated); // 601 blocks: the automatic choice draws them one by one
        auto sum = [](const auto& values) { return std::accumulate(values.begin(), values.end(), 0.0); };
        QCOMPARE(sum(lod.allocations), 601.0);
        QCOMPARE(sum(exact.allocations), 601.0);
        QCOMPARE(sum(lod.allocatedBytes), 339700.0);
        QCOMPARE(sum(exact.allocatedBytes), 339700.0);
        QCOMPARE(*std::max_element(lod.liveMax.begin(), lod.liveMax.end()), 101200.0);
        QCOMPARE(*std::max_element(exact.liveMax.begin(), exact.liveMax.end()), 101200.0);
        auto columnOf = [&](std::int64_t ts) { return std::clamp(int(std::floor(view.xOfTimestamp(ts) - view.plotRect().left())), 0, 255); };
        QCOMPARE(lod.liveMax[columnOf(peakTs)], 101200.0);
        // Column by column, the same sums and maxima as the exact drawing.
        for (int c = 0; c < 256; ++c) {
            QCOMPARE(lod.allocations[c], exact.allocations[c]);
            QCOMPARE(lod.allocatedBytes[c], exact.allocatedBytes[c]);
            QCOMPARE(lod.liveMax[c], exact.liveMax[c]);
        }
        // The envelope of each column: every block alive in it, found by brute force over the blocks.
        std::vector<double> top(256, -1), bottom(256, std::numeric_limits<double>::max());
        for (const auto& block : document->timeline.blocks)
            for (int c = columnOf(block.startNs); c <= columnOf(block.endNs); ++c) {
                top[c] = std::max(top[c], double(block.offset + block.size));
                bottom[c] = std::min(bottom[c], double(block.offset));
            }
        QCOMPARE(lod.top, top);
        QCOMPARE(lod.bottom, bottom);
        // And of the unmarked ones (blocks 598 and 599, never freed, are drawn apart over the columns).
        std::vector<double> plainTop(256, -1), plainBottom(256, std::numeric_limits<double>::max());
        int marked = 0;
        for (const auto& block : document->timeline.blocks) {
            if (block.marks) {
                ++marked;
                continue;
            }
            for (int c = columnOf(block.startNs); c <= columnOf(block.endNs); ++c) {
                plainTop[c] = std::max(plainTop[c], double(block.offset + block.size));
                plainBottom[c] = std::min(plainBottom[c], double(block.offset));
            }
        }
        QCOMPARE(marked, 2);
        QCOMPARE(lod.plainTop, plainTop);
        QCOMPARE(lod.plainBottom, plainBottom);
        // Zoomed in past the leaves, there is nothing to aggregate: the exact columns come back.
        view.setTimeRange(5000, 5100);
        QVERIFY(!view.columns(MemoryTimelineView::Detail::Aggregated).aggregated);
    }

    void hoverShowsModuleAndStacks()
    {
        // Two blocks with stacks (the second after 300 rows, past the index's 256-line stride and a multi-line
        // row), others without. Python frames innermost first, the first one repeated.
        const std::string header = msprobe::test::MemDumpBuilder::kHeader;
        const std::string python = "\"/work/train.py(12): forward\n/work/train.py(12): forward\n/work/train.py(40): main\"";
        const std::string c = "\"/usr/lib/libtorch_npu.so(_ZN3c1010allocateEm+0x1c) [0x7f0000001000]\n"
                              "/usr/lib/libtorch_cpu.so(_ZN2at5emptyEv+0x20) [0x7f0000002000]\"";
        auto row = [](std::uint64_t id, const char* event, std::uint64_t ptr, std::uint64_t allocation, const std::string& stacks) {
            const std::string hex = msprobe::test::MemDumpBuilder::hex(ptr);
            return std::to_string(id) + "," + event + ",PTA,N/A," + std::to_string(1000 + 10 * id) + ",100,100,0," + hex
                + ",\"{allocation_id:" + std::to_string(allocation) + ",addr:" + hex + ",size:4096}\"," + stacks + "\n";
        };
        std::string text = header + row(1, "MALLOC", 0x100, 1, python + "," + c) + row(2, "FREE", 0x100, 1, ",");
        std::uint64_t id = 3;
        for (std::uint64_t k = 0; k < 150; ++k, id += 2)
            text += row(id, "MALLOC", 0x1000 + k * 0x1000, 10 + k, ",") + row(id + 1, "FREE", 0x1000 + k * 0x1000, 10 + k, ",");
        text += row(id, "MALLOC", 0x900000, 2, "\"/work/train.py(77): step\",\"/opt/lib/libhccl.so(HcclAllReduce+0x10) [0x7f0000003000]\"");
        text += row(id + 1, "FREE", 0x900000, 2, ",");
        QTemporaryDir dir;
        const auto document = writeAndLoad(dir, "stacks.csv", text);
        QVERIFY(document->stacks);
        MemoryTimelineView view;
        view.resize(1000, 500);
        view.setDocument(document);
        const QString first = view.blockToolTip(indexOfAllocation(*document, 1));
        for (const char* part : { "4.0 KiB (4096 B), allocation id 1", "\nmodule: libtorch_npu.so\n",
                 "Python stack (innermost first):\n  /work/train.py(12): forward\n  <repeats 1 times>\n  /work/train.py(40): main\n",
                 "C stack (innermost first):\n  /usr/lib/libtorch_npu.so(_ZN3c1010allocateEm+0x1c) [0x7f0000001000]\n"
                 "  /usr/lib/libtorch_cpu.so(_ZN2at5emptyEv+0x20) [0x7f0000002000]" })
            QVERIFY2(first.contains(QString::fromUtf8(part)), qPrintable(first));
        const QString second = view.blockToolTip(indexOfAllocation(*document, 2));
        QVERIFY2(second.contains(QLatin1String("module: libhccl.so")) && second.contains(QLatin1String("  /work/train.py(77): step")),
            qPrintable(second));
        // A block whose row has no stack: no module, no stack lines.
        const QString plain = view.blockToolTip(indexOfAllocation(*document, 50));
        QVERIFY2(plain.contains(QLatin1String("allocation id 50")) && !plain.contains(QLatin1String("stack")) && !plain.contains(QLatin1String("module")),
            qPrintable(plain));
        // Hovering finds the block and shows the same text.
        const auto hit = view.blockAt(view.blockRect(document->timeline.blocks[indexOfAllocation(*document, 2)]).center());
        QVERIFY(hit);
        QCOMPARE(view.blockToolTip(*hit), second);
        // A dump without stacks keeps no index.
        QVERIFY(!leaksDocument()->stacks);
        QCOMPARE(msprobe::studio::frameModule("/work/model.py(3): forward"), std::string("model.py"));
        QCOMPARE(msprobe::studio::frameModule("[0x7f00]"), std::string());
    }

    void hoverShowsStacksOfADatabaseDump()
    {
        // The same kind of rows written to a msMemScope .db (table memscope_dump): a block's stacks come from its
        // MALLOC row's Call Stack columns, past the 256-row stride too.
        const std::string python = "\"/work/train.py(12): forward\n/work/train.py(40): main\"";
        const std::string c = "\"/usr/lib/libtorch_npu.so(_ZN3c1010allocateEm+0x1c) [0x7f0000001000]\"";
        auto row = [](std::uint64_t id, const char* event, std::uint64_t ptr, std::uint64_t allocation, const std::string& stacks) {
            const std::string hex = msprobe::test::MemDumpBuilder::hex(ptr);
            return std::to_string(id) + "," + event + ",PTA,N/A," + std::to_string(1000 + 10 * id) + ",100,100,0," + hex
                + ",\"{allocation_id:" + std::to_string(allocation) + ",addr:" + hex + ",size:4096}\"," + stacks + "\n";
        };
        std::string rows = row(1, "MALLOC", 0x100, 1, python + "," + c) + row(2, "FREE", 0x100, 1, ",");
        std::uint64_t id = 3;
        for (std::uint64_t k = 0; k < 200; ++k, id += 2)
            rows += row(id, "MALLOC", 0x1000 + k * 0x1000, 10 + k, "NA,NA") + row(id + 1, "FREE", 0x1000 + k * 0x1000, 10 + k, ",");
        rows += row(id, "MALLOC", 0x900000, 2, "\"/work/train.py(77): step\",\"/opt/lib/libhccl.so(HcclAllReduce+0x10) [0x7f0000003000]\"");
        rows += row(id + 1, "FREE", 0x900000, 2, ",");
        QTemporaryDir dir;
        const std::filesystem::path file = dir.filePath(QStringLiteral("memscope_dump_1.db")).toStdString();
        {
            msprobe::memory::DumpDatabaseWriter writer(file);
            writer.append(rows);
        }
        const auto document = msprobe::studio::loadMemoryDocument(file);
        QCOMPARE(document->timeline.blocks.size(), std::size_t(202));
        QVERIFY(document->stacks);
        MemoryTimelineView view;
        view.resize(1000, 500);
        view.setDocument(document);
        const QString first = view.blockToolTip(indexOfAllocation(*document, 1));
        for (const char* part : { "4.0 KiB (4096 B), allocation id 1", "\nmodule: libtorch_npu.so\n",
                 "Python stack (innermost first):\n  /work/train.py(12): forward\n  /work/train.py(40): main\n",
                 "C stack (innermost first):\n  /usr/lib/libtorch_npu.so(_ZN3c1010allocateEm+0x1c) [0x7f0000001000]" })
            QVERIFY2(first.contains(QString::fromUtf8(part)), qPrintable(first));
        // Row 403: 146 rows past the second rowid kept (row 257).
        const QString last = view.blockToolTip(indexOfAllocation(*document, 2));
        QVERIFY2(last.contains(QLatin1String("module: libhccl.so")) && last.contains(QLatin1String("  /work/train.py(77): step")), qPrintable(last));
        const QString plain = view.blockToolTip(indexOfAllocation(*document, 150));
        QVERIFY2(plain.contains(QLatin1String("allocation id 150")) && !plain.contains(QLatin1String("stack")), qPrintable(plain));

        // A .db without stacks keeps no index.
        const std::filesystem::path bare = dir.filePath(QStringLiteral("memscope_dump_2.db")).toStdString();
        {
            msprobe::memory::DumpDatabaseWriter writer(bare);
            writer.append(row(1, "MALLOC", 0x100, 1, ",") + row(2, "FREE", 0x100, 1, "NA,NA"));
        }
        QVERIFY(!msprobe::studio::loadMemoryDocument(bare)->stacks);
    }

    void hoverDescribesTheBlock()
    {
        const auto document = leaksDocument();
        MemoryTimelineView view;
        view.resize(1000, 500);
        view.setDocument(document);
        view.setTimeRange(437000000, 440000000);
        const std::size_t index = indexOfAllocation(*document, 4);
        const auto hit = view.blockAt(view.blockRect(document->timeline.blocks[index]).center());
        QVERIFY(hit.has_value());
        QCOMPARE(*hit, index);
        const QString text = view.blockToolTip(index);
        for (const char* part : { "16.0 MiB (16778240 B), allocation id 4", "address 0x000012c041400000, pool PTA, device 0",
                 "operator: torch._ops.aten.mse_loss.default", "owner: (untagged)", "allocated at +437.743 ms",
                 "freed at +439.164 ms (lived 1.421 ms)" })
            QVERIFY2(text.contains(QLatin1String(part)), qPrintable(text));
        QVERIFY2(!text.contains(QLatin1String("leak")), qPrintable(text));
        QVERIFY(!view.blockAt(QPointF(view.plotRect().left() + 2, view.plotRect().top() + 2)).has_value());
    }

    void leakIsHighlightedWithItsReason()
    {
        const auto document = leaksDocument();
        MemoryTimelineView view;
        view.resize(1000, 500);
        view.setDocument(document);
        // Allocation 25 (4000256 bytes, MALLOC ID 127) is never freed: it runs to the end of the capture.
        const std::size_t index = indexOfAllocation(*document, 25);
        const auto& leak = document->timeline.blocks[index];
        QCOMPARE(leak.endNs, kEnd);
        QVERIFY(leak.marks & msprobe::studio::kMarkAliveAtEnd);
        QVERIFY(view.blockToolTip(index).contains(QLatin1String("leak: never freed")));
        view.setTimeRange(594000000, 595700000);
        const QImage image = view.grab().toImage();
        QCOMPARE(image.pixelColor(view.blockRect(leak).center().toPoint()), kAliveRed);
        // A freed block is not red: allocation 4 zoomed in.
        view.setTimeRange(437000000, 440000000);
        const QImage other = view.grab().toImage();
        QVERIFY(other.pixelColor(view.blockRect(document->timeline.blocks[indexOfAllocation(*document, 4)]).center().toPoint()) != kAliveRed);
    }

    void wheelZoomsAroundTheCursorAndDragPans()
    {
        MemoryTimelineView view;
        view.resize(1000, 500);
        view.setDocument(leaksDocument());
        const double span = static_cast<double>(kEnd - kBegin);
        QCOMPARE(view.timeBegin(), 0.0);
        QCOMPARE(view.timeEnd(), span);
        // One wheel notch (120) at x = 300 zooms in by 1.0015^120, the time under x = 300 staying put.
        const QPointF at(300, 200);
        const double pivot = view.timeOfX(at.x());
        QWheelEvent wheel(at, view.mapToGlobal(at), QPoint(), QPoint(0, 120), Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
        QCoreApplication::sendEvent(&view, &wheel);
        QVERIFY(qFuzzyCompare(view.timeEnd() - view.timeBegin(), span / std::pow(1.0015, 120)));
        QVERIFY(std::abs(view.timeOfX(at.x()) - pivot) < 1);
        // Dragging 100 px to the right shows what was 100 px to the left.
        const double before = view.timeBegin(), nsPerPixel = (view.timeEnd() - view.timeBegin()) / view.plotRect().width();
        QMouseEvent press(QEvent::MouseButtonPress, QPointF(500, 200), view.mapToGlobal(QPointF(500, 200)), Qt::LeftButton, Qt::LeftButton, Qt::NoModifier);
        QCoreApplication::sendEvent(&view, &press);
        QMouseEvent move(QEvent::MouseMove, QPointF(600, 200), view.mapToGlobal(QPointF(600, 200)), Qt::NoButton, Qt::LeftButton, Qt::NoModifier);
        QCoreApplication::sendEvent(&view, &move);
        QMouseEvent release(QEvent::MouseButtonRelease, QPointF(600, 200), view.mapToGlobal(QPointF(600, 200)), Qt::LeftButton, Qt::NoButton, Qt::NoModifier);
        QCoreApplication::sendEvent(&view, &release);
        QVERIFY(std::abs(view.timeBegin() - (before - 100 * nsPerPixel)) < 1);
        // A double click shows the whole capture again.
        view.showWholeCapture();
        QCOMPARE(view.timeEnd(), span);
    }

    void stepLeakAndInefficientBlockAreMarked()
    {
        QTemporaryDir dir;
        // The §2.1 case of tst_core_memory_analyses: allocation 2 (1 MiB) made in step 2, alive after step 3.
        msprobe::test::MemDumpBuilder steps;
        steps.malloc("PTA", 0x100, 4096, 1, 4096);
        steps.step(1);
        steps.malloc("PTA", 0x200000, 1048576, 2, 1052672);
        steps.step(2);
        steps.step(3);
        steps.step(4);
        const auto leaky = writeAndLoad(dir, "steps.csv", steps.text);
        const std::size_t leakIndex = indexOfAllocation(*leaky, 2);
        const auto& leak = leaky->timeline.blocks[leakIndex];
        QVERIFY(leak.marks & msprobe::studio::kMarkStepLeak);
        QCOMPARE(leaky->timeline.steps.size(), std::size_t(5));
        MemoryTimelineView view;
        view.resize(1000, 500);
        view.setDocument(leaky);
        const QString text = view.blockToolTip(leakIndex);
        QVERIFY2(text.contains(QLatin1String("step leak: allocated in step 2, still alive at the end of step 3")), qPrintable(text));
        QCOMPARE(view.grab().toImage().pixelColor(view.blockRect(leak).center().toPoint()), QColor(214, 39, 40));

        // The late deallocation of tst_core_memory_analyses: allocation 1 freed two ops after its last use.
        const msprobe::test::MemDumpBuilder late = msprobe::test::lateDeallocationTrace();
        const auto wasteful = writeAndLoad(dir, "late.csv", late.text);
        const std::size_t lateIndex = indexOfAllocation(*wasteful, 1);
        QVERIFY(wasteful->timeline.blocks[lateIndex].marks & msprobe::studio::kMarkInefficient);
        view.setDocument(wasteful);
        QVERIFY(view.blockToolTip(lateIndex).contains(QLatin1String("inefficient: late_deallocation")));
        QCOMPARE(view.grab().toImage().pixelColor(view.blockRect(wasteful->timeline.blocks[lateIndex]).center().toPoint()), QColor(255, 140, 0));
    }

    void minimapShowsTheWholeCaptureAndNavigates()
    {
        MemoryPanel panel;
        panel.resize(1200, 600);
        panel.setDocument(leaksDocument());
        MemoryTimelineView* view = panel.timeline();
        MemoryMinimap* minimap = panel.minimap();
        minimap->resize(1000, 44);
        const double span = static_cast<double>(kEnd - kBegin);
        // The whole capture's live bytes, its peak kept whatever the width.
        const auto columns = minimap->liveColumns();
        QCOMPARE(*std::max_element(columns.begin(), columns.end()), static_cast<double>(kPeakBytes));
        QCOMPARE(minimap->visibleBegin(), 0.0);
        QCOMPARE(minimap->visibleEnd(), span);
        // The timeline's range is marked on it.
        view->setTimeRange(437000000, 440000000);
        QCOMPARE(minimap->visibleBegin(), 437000000.0);
        QCOMPARE(minimap->visibleEnd(), 440000000.0);
        // A click outside the range centres the timeline there, keeping its width.
        const double x = minimap->xOfTime(span / 4);
        auto send = [minimap](QEvent::Type type, double at, Qt::MouseButton button, Qt::MouseButtons buttons) {
            QMouseEvent event(type, QPointF(at, 20), minimap->mapToGlobal(QPointF(at, 20)), button, buttons, Qt::NoModifier);
            QCoreApplication::sendEvent(minimap, &event);
        };
        send(QEvent::MouseButtonPress, int(x), Qt::LeftButton, Qt::LeftButton);
        send(QEvent::MouseButtonRelease, int(x), Qt::LeftButton, Qt::NoButton);
        const double centre = minimap->timeOfX(int(x));
        QVERIFY(std::abs((view->timeBegin() + view->timeEnd()) / 2 - centre) < 1);
        QVERIFY(std::abs(view->timeEnd() - view->timeBegin() - 3000000) < 1);
        // Dragging the range by 100 pixels moves the timeline by 100 pixels of the strip.
        const double before = view->timeBegin();
        send(QEvent::MouseButtonPress, int(x), Qt::LeftButton, Qt::LeftButton);
        send(QEvent::MouseMove, int(x) + 100, Qt::NoButton, Qt::LeftButton);
        send(QEvent::MouseButtonRelease, int(x) + 100, Qt::LeftButton, Qt::NoButton);
        QVERIFY(std::abs(view->timeBegin() - (before + 100 * span / minimap->stripRect().width())) < 1);
    }

    void panelDecomposesAtThePeak()
    {
        MemoryPanel panel;
        panel.resize(1200, 600);
        panel.setDocument(leaksDocument());
        // Just after allocation 18's MALLOC 20782080 PTA bytes are live, none tagged; by the §5.3 categories the
        // 16 MiB block freed inside the op that allocated it is temporary, the rest unknown (no steps, no phases).
        const QTreeWidget* tree = panel.decomposition();
        QCOMPARE(tree->topLevelItemCount(), 2);
        QCOMPARE(tree->topLevelItem(0)->text(0), QStringLiteral("temporary"));
        QCOMPARE(tree->topLevelItem(0)->data(1, Qt::UserRole).toLongLong(), qlonglong(16778240));
        QCOMPARE(tree->topLevelItem(1)->text(0), QStringLiteral("unknown"));
        QCOMPARE(tree->topLevelItem(0)->data(1, Qt::UserRole).toLongLong() + tree->topLevelItem(1)->data(1, Qt::UserRole).toLongLong(),
            qlonglong(kPeakBytes));
    }
};

QTEST_MAIN(TestMemoryTimeline)
#include "tst_views_memory_timeline.moc"
