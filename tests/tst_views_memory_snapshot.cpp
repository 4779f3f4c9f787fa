// SPDX-License-Identifier: Apache-2.0
// PyTorch memory snapshots in the memory timeline (tests/data/torch_snapshot, written by
// tests/scripts/make_torch_snapshot.py; the answers are worked out in tst_core_memory_snapshot.cpp): loading by
// content, the blocks, peak and hover stacks. And memory_viz's sliding layout on a hand-made dump:
//   A 100 B allocated at +0 ns, B 50 B at +10, C 30 B at +20 (never freed), B freed at +30, D 20 B at +40,
//   A freed at +50, D freed at +60, a mark at +70.
// Sliding (allocation order, no gaps): at +25 A@0 B@100 C@150; at +35 A@0 C@100; at +45 A@0 C@100 D@130; at +55
// C@0 D@30. The packed layout keeps C at 150 all along and puts D in B's old place at 100.
#include "memory/memorypanel.h"
#include "memory/memorytimelineview.h"
#include "memorysession.h"
#include "test_util.h"
#include "tst_core_memory_rows.h"

#include <QComboBox>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <fstream>

namespace {

using Layout = MemoryTimelineView::Layout;
using Places = std::vector<std::pair<std::uint64_t, std::int64_t>>; // (allocation id, offset)

std::filesystem::path snapshotFile() { return msprobe::test::dataDir() / "torch_snapshot" / "snapshot_p4.pickle"; }

std::shared_ptr<const msprobe::studio::MemoryDocument> slidingDocument(const QTemporaryDir& dir)
{
    msprobe::test::MemDumpBuilder d;
    d.malloc("PTA", 0x100, 100, 1);
    d.malloc("PTA", 0x200, 50, 2);
    d.malloc("PTA", 0x300, 30, 3);
    d.free("PTA", 0x200, 50, 2);
    d.malloc("PTA", 0x400, 20, 4);
    d.free("PTA", 0x100, 100, 1);
    d.free("PTA", 0x400, 20, 4);
    d.mark("end");
    const std::string file = dir.filePath(QStringLiteral("sliding.csv")).toStdString();
    std::ofstream(file) << d.text;
    return msprobe::studio::loadMemoryDocument(file);
}

Places places(const MemoryTimelineView& view, double t0, double t1)
{
    Places out;
    const auto* document = view.document();
    for (const auto& place : view.slidingStack(t0, t1))
        out.emplace_back(document->model.blocks[document->timeline.blocks[place.block].block].allocationId, place.offset);
    return out;
}

std::uint64_t allocationAt(const MemoryTimelineView& view, double ns, double bytes)
{
    const auto index = view.blockAt(QPointF(view.xOfTime(ns), view.yOfBytes(bytes)));
    return index ? view.document()->model.blocks[view.document()->timeline.blocks[*index].block].allocationId : 0;
}

} // namespace

class TestMemorySnapshot : public QObject {
    Q_OBJECT
private slots:
    void snapshotOpensInTheTimeline()
    {
        QVERIFY(MemorySession::looksLikeMemoryDump(QString::fromStdString(snapshotFile().string())));
        QVERIFY(MemorySession::looksLikeTorchSnapshot(QString::fromStdString(snapshotFile().string())));
        QVERIFY(!MemorySession::looksLikeTorchSnapshot(QString::fromStdString((msprobe::test::dataDir() / "memory" / "leaks.csv").string())));
        const auto document = msprobe::studio::loadMemoryDocument(snapshotFile());
        const auto& timeline = document->timeline;
        QCOMPARE(timeline.blocks.size(), std::size_t(5)); // the two segments (HAL) back the blocks and are left out
        QCOMPARE(timeline.peak.liveBytes, std::int64_t(7 << 19)); // 3.5 MiB
        QCOMPARE(timeline.peak.tsNs, std::int64_t(1030000));
        QCOMPARE(timeline.marks.size(), std::size_t(2)); // the oom and the snapshot
        QVERIFY(timeline.marks.front().label.starts_with("out of memory"));

        MemoryTimelineView view;
        view.resize(1000, 500);
        view.setDocument(document);
        std::size_t forward = timeline.blocks.size(), optimizer = timeline.blocks.size();
        for (std::size_t i = 0; i < timeline.blocks.size(); ++i) {
            const auto& block = document->model.blocks[timeline.blocks[i].block];
            if (block.ptr == 0x7F0000200000)
                forward = i;
            if (block.ptr == 0x7F0000100000)
                optimizer = i;
        }
        QVERIFY(forward < timeline.blocks.size() && optimizer < timeline.blocks.size());
        const QString tip = view.blockToolTip(forward);
        QVERIFY2(tip.contains(QStringLiteral("1.0 MiB (1048576 B)")), qPrintable(tip));
        QVERIFY2(tip.contains(QStringLiteral("/work/model.py(42): forward")), qPrintable(tip));
        QVERIFY2(tip.contains(QStringLiteral("c10::cuda::CUDACachingAllocator::malloc")), qPrintable(tip));
        QVERIFY2(!tip.contains(QStringLiteral("CapturedTraceback")), qPrintable(tip));
        QVERIFY2(tip.contains(QStringLiteral("module: CUDACachingAllocator.cpp")), qPrintable(tip)); // the innermost C++ frame's file
        const QString optimizerTip = view.blockToolTip(optimizer);
        QVERIFY2(optimizerTip.contains(QStringLiteral("stream 7")), qPrintable(optimizerTip));
        QVERIFY2(optimizerTip.contains(QStringLiteral("/work/optim.py(99): step")), qPrintable(optimizerTip));
        // The hover finds the block under the mouse.
        const QRectF rect = view.blockRect(timeline.blocks[forward]);
        QCOMPARE(view.blockAt(rect.center()), std::optional<std::size_t>(forward));
    }

    void badSnapshotReportsTheFile()
    {
        MemorySession session;
        QSignalSpy finished(&session, &MemorySession::loadFinished);
        session.open(QString::fromStdString((msprobe::test::dataDir() / "torch_snapshot" / "truncated.pickle").string()));
        QVERIFY(finished.wait(60000));
        QCOMPARE(finished.first().at(0).toBool(), false);
        const QString error = finished.first().at(1).toString();
        QVERIFY2(error.contains(QStringLiteral("truncated.pickle")) && error.contains(QStringLiteral("truncated pickle")), qPrintable(error));
    }

    void slidingOffsets()
    {
        QTemporaryDir dir;
        const auto document = slidingDocument(dir);
        MemoryTimelineView view;
        view.resize(800, 400);
        view.setDocument(document);
        QCOMPARE(places(view, 25, 26), (Places { { 1, 0 }, { 2, 100 }, { 3, 150 } }));
        QCOMPARE(places(view, 35, 36), (Places { { 1, 0 }, { 3, 100 } }));
        QCOMPARE(places(view, 45, 46), (Places { { 1, 0 }, { 3, 100 }, { 4, 130 } }));
        QCOMPARE(places(view, 55, 56), (Places { { 3, 0 }, { 4, 30 } }));
        // The packed layout of the same blocks: C stays at 150, D takes B's place.
        for (const auto& block : document->timeline.blocks) {
            const auto id = document->model.blocks[block.block].allocationId;
            if (id == 3)
                QCOMPARE(block.offset, std::int64_t(150));
            if (id == 4)
                QCOMPARE(block.offset, std::int64_t(100));
        }
    }

    void slidingPictureAndHover()
    {
        QTemporaryDir dir;
        MemoryPanel panel;
        panel.resize(1200, 600);
        panel.setDocument(slidingDocument(dir));
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        MemoryTimelineView& view = *panel.timeline();
        auto* stacking = panel.findChild<QComboBox*>(QStringLiteral("memoryStacking"));
        QVERIFY(stacking);
        QCOMPARE(view.layout(), Layout::Packed);
        // Packed: at +45 ns, 115 B is D (100..120) and 160 B is C (150..180); nothing at 140 B.
        QCOMPARE(allocationAt(view, 45, 115), std::uint64_t(4));
        QCOMPARE(allocationAt(view, 45, 160), std::uint64_t(3));
        QCOMPARE(allocationAt(view, 45, 140), std::uint64_t(0));
        const QImage packed = view.grab().toImage();

        stacking->setCurrentIndex(stacking->findData(static_cast<int>(Layout::Sliding)));
        QCOMPARE(view.layout(), Layout::Sliding);
        // Sliding: C slid down to 100..130 once B was freed, D sits on it at 130..150, nothing above 150.
        QCOMPARE(allocationAt(view, 45, 115), std::uint64_t(3));
        QCOMPARE(allocationAt(view, 45, 140), std::uint64_t(4));
        QCOMPARE(allocationAt(view, 45, 165), std::uint64_t(0));
        QCOMPARE(allocationAt(view, 25, 165), std::uint64_t(3)); // before B's free, C was at 150..180
        QCOMPARE(allocationAt(view, 55, 15), std::uint64_t(3)); // after A's free, C is at the bottom
        // The picture follows: C is alive at the end (light red); where it was drawn and where it slid to.
        const QColor aliveRed(240, 150, 150);
        const QImage sliding = view.grab().toImage();
        auto pixel = [&view](const QImage& image, double ns, double bytes) {
            return image.pixelColor(QPointF(view.xOfTime(ns), view.yOfBytes(bytes)).toPoint());
        };
        QCOMPARE(pixel(sliding, 45, 115), aliveRed);
        QCOMPARE(pixel(sliding, 55, 15), aliveRed);
        QCOMPARE(pixel(sliding, 45, 165), view.palette().color(QPalette::Base));
        QCOMPARE(pixel(packed, 45, 165), aliveRed);
        QVERIFY(pixel(packed, 45, 115) != aliveRed);
    }

    void slidingLevelOfDetailFillsToTheLiveBytes()
    {
        // 20 000 short blocks, more than the sliding budget: each column is filled up to its live maximum.
        QTemporaryDir dir;
        msprobe::test::MemDumpBuilder d;
        for (std::uint64_t i = 1; i <= 20000; ++i) {
            d.malloc("PTA", 0x1000 * i, 64, i);
            d.free("PTA", 0x1000 * i, 64, i);
        }
        const std::string file = dir.filePath(QStringLiteral("many.csv")).toStdString();
        std::ofstream(file) << d.text;
        MemoryTimelineView view;
        view.resize(800, 400);
        view.setDocument(msprobe::studio::loadMemoryDocument(file));
        view.setLayout(Layout::Sliding);
        const QImage image = view.grab().toImage();
        const QRectF plot = view.plotRect();
        // One block of 64 B is live at any moment: the bottom of every column is filled, just below 64 B.
        const int x = static_cast<int>(plot.center().x());
        QVERIFY(image.pixelColor(x, static_cast<int>(view.yOfBytes(20))) != view.palette().color(QPalette::Base));
        QCOMPARE(image.pixelColor(x, static_cast<int>(view.yOfBytes(50))).rgb(), image.pixelColor(x, static_cast<int>(view.yOfBytes(20))).rgb());
        QCOMPARE(allocationAt(view, view.timeEnd() / 2, 30) != 0, true);
    }
};

QTEST_MAIN(TestMemorySnapshot)
#include "tst_views_memory_snapshot.moc"
