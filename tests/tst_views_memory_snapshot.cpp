// SPDX-License-Identifier: Apache-2.0
// PyTorch memory snapshots in the memory timeline (tests/data/torch_snapshot, written by
// tests/scripts/make_torch_snapshot.py; the answers are worked out in tst_core_memory_snapshot.cpp): loading by
// content, the blocks, peak and hover stacks. And memory_viz's sliding layout on a hand-made dump:
//   A 100 B allocated at +0 ns, B 50 B at +10, C 30 B at +20 (never freed), B freed at +30, D 20 B at +40,
//   A freed at +50, D freed at +60, a mark at +70.
// Sliding (allocation order, no gaps): at +25 A@0 B@100 C@150; at +35 A@0 C@100; at +45 A@0 C@100 D@130; at +55
// C@0 D@30. The packed layout keeps C at 150 all along and puts D in B's old place at 100.
#include "memory/memorypanel.h"
#include "memory/memorytimelineslidingraster.h"
#include "memory/memorytimelineview.h"
#include "memorysession.h"
#include "test_util.h"
#include "tst_core_memory_rows.h"

#include <QComboBox>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <random>

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


using msprobe::views::memorytimeline::SlidingBlock;

// The sliding picture by its definition: in each column, every block overlapping it painted in allocation order at
// the bytes of the ones before it, over rows [row(top), row(bottom)), at least one row, a background line on the
// top row of blocks five rows tall or more.
QImage paintEveryBlock(QSize size, const std::vector<SlidingBlock>& blocks, const std::vector<double>& edges, double bytesPerRow, QRgb background)
{
    QImage image(size, QImage::Format_RGB32);
    image.fill(background);
    const int height = size.height();
    auto rowOf = [&](double bytes) { return std::clamp(static_cast<int>(std::lround(height - bytes / bytesPerRow)), 0, height); };
    for (int c = 0; c < size.width(); ++c) {
        std::int64_t offset = 0;
        for (const SlidingBlock& block : blocks) {
            if (!(block.startNs < edges[c + 1] && block.endNs >= edges[c]))
                continue;
            const int bottom = rowOf(static_cast<double>(offset));
            const int top = std::max(0, std::min(rowOf(static_cast<double>(offset + block.size)), bottom - 1));
            for (int y = top; y < bottom; ++y)
                image.setPixel(c, y, block.colour);
            if (bottom - top >= 5)
                image.setPixel(c, top, background);
            offset += block.size;
        }
    }
    return image;
}

QImage paintSliding(QSize size, const std::vector<SlidingBlock>& blocks, const std::vector<double>& edges, double bytesPerRow, QRgb background)
{
    QImage image(size, QImage::Format_RGB32);
    image.fill(background);
    msprobe::views::memorytimeline::paintSlidingBlocks(image, blocks, edges, bytesPerRow, background);
    return image;
}

std::vector<double> columnEdges(int width, double t0, double t1)
{
    std::vector<double> edges(static_cast<std::size_t>(width) + 1);
    for (int c = 0; c <= width; ++c)
        edges[static_cast<std::size_t>(c)] = t0 + c * (t1 - t0) / width;
    return edges;
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

    void slidingRasterPaintsTheLastBlockToReachARow()
    {
        // Ten bytes a row, four rows: A, B, C of 3 B each at 0, 3 and 6 B land on rows 4, 4 (round(3.7)) and 3
        // (round(3.4)), their tops on 4, 3 and 3. A and B each paint row 3 (a block is at least a row tall), B last;
        // C's top does not rise past row 3 either, so as the last block it paints the row over it, 2.
        const QRgb a = qRgb(255, 0, 0), b = qRgb(0, 255, 0), c = qRgb(0, 0, 255), background = qRgb(255, 255, 255);
        const std::vector<SlidingBlock> blocks { { 0, 10, 3, a }, { 0, 10, 3, b }, { 0, 10, 3, c } };
        const QImage image = paintSliding(QSize(1, 4), blocks, { 0, 10 }, 10, background);
        QCOMPARE(image.pixel(0, 3), b);
        QCOMPARE(image.pixel(0, 2), c);
        QCOMPARE(image.pixel(0, 1), background);
        QCOMPARE(image.pixel(0, 0), background);
        // Six rows, a 45-byte block A under a 3-byte B: A covers rows [round(6 - 4.5) = 2, 6) (halves away from
        // zero), four rows, too few for a background line on its top; B (45..48 B) paints row round(6 - 4.8) = 1.
        const std::vector<SlidingBlock> tall { { 0, 10, 45, a }, { 0, 10, 3, b } };
        const QImage stacked = paintSliding(QSize(1, 6), tall, { 0, 10 }, 10, background);
        QCOMPARE(stacked.pixel(0, 5), a);
        QCOMPARE(stacked.pixel(0, 2), a);
        QCOMPARE(stacked.pixel(0, 1), b);
        QCOMPARE(stacked.pixel(0, 0), background);
    }

    void slidingRasterMatchesPaintingEveryBlock()
    {
        // Thousands of blocks, most under a pixel tall and narrower than a column, a few tall ones and zero-sized
        // ones, freed in random order (those below others too, so the stack slides), some alive to the end: the
        // picture equals every block painted at its offset, whole and zoomed in, at several scales.
        std::mt19937_64 random(22);
        std::vector<SlidingBlock> blocks;
        double now = 0;
        for (int i = 0; i < 3000; ++i) {
            now += static_cast<double>(random() % 50);
            const auto kind = random() % 100;
            const std::int64_t size = kind < 3 ? 0 : kind < 8 ? 20000 + static_cast<std::int64_t>(random() % 80000) : 1 + static_cast<std::int64_t>(random() % 3000);
            const double life = kind % 17 == 0 ? 1e9 : static_cast<double>(random() % (kind < 50 ? 200 : 20000));
            blocks.push_back({ now, now + life, size, qRgb(static_cast<int>(random() % 256), static_cast<int>(random() % 256), 7) });
        }
        const QRgb background = qRgb(255, 255, 255);
        const double end = now + 1000;
        for (const auto& [t0, t1] : { std::pair { 0.0, end }, std::pair { end / 3, end / 3 + end / 10 }, std::pair { end / 2, end / 2 + end / 100 },
                 std::pair { end / 2, end / 2 + 30.0 } }) {
            for (const double bytesPerRow : { 500.0, 4000.0, 33333.3 }) {
                const QSize size(300, 200);
                const auto edges = columnEdges(size.width(), t0, t1);
                const QImage expected = paintEveryBlock(size, blocks, edges, bytesPerRow, background);
                const QImage actual = paintSliding(size, blocks, edges, bytesPerRow, background);
                QVERIFY2(expected.pixel(150, 199) != background, "blocks in the middle column");
                for (int x = 0; x < size.width(); ++x)
                    for (int y = 0; y < size.height(); ++y)
                        if (actual.pixel(x, y) != expected.pixel(x, y))
                            QFAIL(qPrintable(QStringLiteral("[%1, %2) at %3 B a row: pixel (%4, %5) is %6, painting every block gives %7")
                                                 .arg(t0).arg(t1).arg(bytesPerRow).arg(x).arg(y)
                                                 .arg(actual.pixel(x, y), 0, 16).arg(expected.pixel(x, y), 0, 16)));
            }
        }
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
