// SPDX-License-Identifier: Apache-2.0
// The memory timeline's density of blocks narrower than a pixel (how full each byte band of the stack is per pixel
// column), on hand-made traces whose fractions are worked out by hand: the level-of-detail pyramid, the grid a frame
// builds from its visible blocks, the picture (a band half empty is paler than a full one, where the envelope drew
// one solid extent), the toggle, the legend's scale and the band tooltip.
#include "memory/memorypanel.h"
#include "memory/memorytimelineview.h"
#include "memorydocument.h"
#include "tst_core_memory_rows.h"

#include <QCheckBox>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <fstream>

namespace {

using msprobe::studio::kDensityBands;

std::shared_ptr<const msprobe::studio::MemoryDocument> writeAndLoad(const QTemporaryDir& dir, const char* name, const std::string& text)
{
    const std::string file = dir.filePath(QString::fromLatin1(name)).toStdString();
    std::ofstream(file) << text;
    return msprobe::studio::loadMemoryDocument(file);
}

// Four blocks over 4096 ns (times relative to the first event), 1280 bytes of stack, so 128 bands of 10 bytes:
//   A 640 B at [0, 640)       from 0 to 2048        B 640 B at [640, 1280)   from 1024 to 3584
//   C 320 B at [0, 320)       from 3072 to 4096     D 325 B at [320, 645)    from 3592 to 4000
// (C takes the bottom of A's gap, D the rest of it and half of band 64 once B is gone.)
std::string fourBlocks()
{
    msprobe::test::MemDumpBuilder b;
    auto when = [&b](std::int64_t rel) { b.nextTs = 1000 + rel; };
    when(0), b.malloc("PTA", 0x1000, 640, 1);
    when(1024), b.malloc("PTA", 0x2000, 640, 2);
    when(2048), b.free("PTA", 0x1000, 640, 1);
    when(3072), b.malloc("PTA", 0x3000, 320, 3);
    when(3584), b.free("PTA", 0x2000, 640, 2);
    when(3592), b.malloc("PTA", 0x4000, 325, 4);
    when(4000), b.free("PTA", 0x4000, 325, 4);
    when(4096), b.free("PTA", 0x3000, 320, 3);
    return b.text;
}

// The hand-computed fraction of band `band` in 16-ns column `c` of fourBlocks().
float fourBlocksFraction(int c, std::size_t band)
{
    const bool low = band < 32, gap = band >= 32 && band < 64, b64 = band == 64, high = band >= 64;
    if (c < 64)
        return band < 64 ? 1.0f : 0.0f; // A
    if (c < 128)
        return 1.0f; // A and B
    if (c < 192)
        return high ? 1.0f : 0.0f; // B
    if (c < 224)
        return (low || high) ? 1.0f : 0.0f; // C and B: the gap between them empty
    if (c == 224) // C; D for the second half of the column
        return low ? 1.0f : gap ? 0.5f : b64 ? 0.25f : 0.0f;
    if (c < 250)
        return low ? 1.0f : gap ? 1.0f : b64 ? 0.5f : 0.0f; // C and D
    return low ? 1.0f : 0.0f; // C
}

// `periods` times, 60 ns each: a (640 B) at 0, b (640 B) at 10, a freed at 20, c (320 B) at 30 in a's place, b freed
// at 40, c at 50; a mark at the end makes the capture exactly periods * 60 ns. Per period, bands 0-31 are live
// 40 ns of 60 (a then c), bands 32-63 20 ns (a), bands 64-127 30 ns (b): 2/3, 1/3 and 1/2.
std::string periodic(int periods)
{
    msprobe::test::MemDumpBuilder b;
    for (int i = 0; i < periods; ++i) {
        const auto id = static_cast<std::uint64_t>(3 * i);
        b.malloc("PTA", 0x100000, 640, id + 1);
        b.malloc("PTA", 0x200000, 640, id + 2);
        b.free("PTA", 0x100000, 640, id + 1);
        b.malloc("PTA", 0x300000, 320, id + 3);
        b.free("PTA", 0x200000, 640, id + 2);
        b.free("PTA", 0x300000, 320, id + 3);
    }
    b.mark("end");
    return b.text;
}

float at(const MemoryTimelineView::Columns& columns, int c, std::size_t band) { return columns.density[static_cast<std::size_t>(c) * kDensityBands + band]; }

} // namespace

class TestMemoryDensity : public QObject {
    Q_OBJECT
private slots:
    void pyramidAndGridMatchTheHandFractions()
    {
        QTemporaryDir dir;
        const auto document = writeAndLoad(dir, "four.csv", fourBlocks());
        const auto& timeline = document->timeline;
        QCOMPARE(timeline.blocks.size(), std::size_t(4));
        QCOMPARE(timeline.stackTop, std::int64_t(1280));
        for (const auto& block : timeline.blocks)
            QCOMPARE(int(block.marks), 0);
        const auto& density = timeline.lod.density;
        QCOMPARE(density.bandBytes, std::int64_t(10));
        QCOMPARE(density.leafCount(), std::size_t(4096));
        QCOMPARE(density.leafNs, 1.0);

        // A 256-pixel plot over the 4096 ns: one level-4 bucket (16 leaves) per column.
        MemoryTimelineView view;
        view.resize(338, 300);
        view.setDocument(document);
        QCOMPARE(view.plotRect().width(), 256.0);
        const auto lod = view.columns(MemoryTimelineView::Detail::Aggregated);
        QVERIFY(lod.densityFromLod);
        QCOMPARE(lod.densityBandBytes, std::int64_t(10));
        QCOMPARE(lod.density.size(), 256 * kDensityBands);
        for (int c = 0; c < 256; ++c)
            for (std::size_t band = 0; band < kDensityBands; ++band)
                if (at(lod, c, band) != fourBlocksFraction(c, band))
                    QFAIL(qPrintable(QStringLiteral("column %1 band %2: %3, by hand %4").arg(c).arg(band).arg(at(lod, c, band)).arg(fourBlocksFraction(c, band))));
        // Where C and B are live, the envelope is one extent from 0 to 1280 bytes; the density shows the gap.
        QCOMPARE(lod.plainBottom[200], 0.0);
        QCOMPARE(lod.plainTop[200], 1280.0);
        QCOMPARE(at(lod, 200, 40), 0.0f);

        // The grid a frame builds from its blocks gives the same fractions.
        msprobe::studio::BandGrid grid(256, 0, 16, 10);
        for (const auto& block : timeline.blocks)
            grid.add(double(block.startNs - timeline.beginNs), double(block.endNs - timeline.beginNs), block.offset, block.size);
        QCOMPARE(grid.fractions(), lod.density);

        // Four blocks, all wider than a pixel: drawn one by one, no density.
        QVERIFY(view.columns().density.empty());
        // Off: no density at all.
        view.setDensityShown(false);
        QVERIFY(view.columns(MemoryTimelineView::Detail::Aggregated).density.empty());
    }

    void zoomedOutPictureShowsHowFullEachBandIs()
    {
        QTemporaryDir dir;
        const int periods = 22 * 256; // 22 periods per pixel column of a 256-pixel plot
        const auto document = writeAndLoad(dir, "periodic.csv", periodic(periods));
        const auto& timeline = document->timeline;
        QCOMPARE(timeline.blocks.size(), std::size_t(3 * periods));
        QCOMPARE(timeline.endNs - timeline.beginNs, std::int64_t(60) * periods);
        QCOMPARE(timeline.stackTop, std::int64_t(1280));
        for (const auto& block : timeline.blocks)
            QCOMPARE(int(block.marks), 0);

        MemoryTimelineView view;
        view.resize(338, 300);
        view.setDocument(document);
        const auto whole = view.columns();
        QVERIFY(whole.aggregated); // 16896 blocks: past the exact drawing's budget
        QVERIFY(whole.densityFromLod);
        for (int c : { 0, 100, 255 }) {
            QVERIFY(std::abs(at(whole, c, 10) - 2.0f / 3) < 1e-4f);
            QVERIFY(std::abs(at(whole, c, 48) - 1.0f / 3) < 1e-4f);
            QVERIFY(std::abs(at(whole, c, 96) - 0.5f) < 1e-4f);
        }
        // The picture: each band in the colour of its fraction, the half-used gap paler than the bottom bands.
        const QImage image = view.grab().toImage();
        const int x = int(view.plotRect().left()) + 128;
        auto pixel = [&](double bytes) { return image.pixelColor(x, int(std::floor(view.yOfBytes(bytes)))); };
        QCOMPARE(pixel(165), view.densityColour(170 / 255.0)); // 2/3
        QCOMPARE(pixel(485), view.densityColour(85 / 255.0)); // 1/3
        QVERIFY(pixel(165).lightness() != pixel(485).lightness());
        QVERIFY(view.densityToolTip(QPointF(x + 0.5, view.yOfBytes(485))).contains(QLatin1String("33.3 %")));
        QVERIFY(view.densityToolTip(QPointF(x + 0.5, view.yOfBytes(1300))).isEmpty()); // above the stack
        // Off: the envelope, one colour from 0 to 1280 bytes.
        view.setDensityShown(false);
        const QImage envelope = view.grab().toImage();
        QCOMPARE(envelope.pixelColor(x, int(std::floor(view.yOfBytes(165)))), QColor(110, 125, 150));
        QCOMPARE(envelope.pixelColor(x, int(std::floor(view.yOfBytes(485)))), QColor(110, 125, 150));
        view.setDensityShown(true);

        // Zoomed to 60 ns a pixel (768 blocks: drawn exactly), every block is narrower than a pixel: the frame's own
        // grid, one period per column, gives the same fractions.
        view.setTimeRange(0, 60.0 * 256);
        const auto zoomed = view.columns();
        QVERIFY(!zoomed.aggregated);
        QVERIFY(!zoomed.densityFromLod);
        QCOMPARE(zoomed.exactBlocks, std::size_t(0));
        for (int c = 0; c < 256; ++c) {
            QVERIFY(std::abs(at(zoomed, c, 10) - 2.0f / 3) < 1e-5f);
            QVERIFY(std::abs(at(zoomed, c, 48) - 1.0f / 3) < 1e-5f);
            QVERIFY(std::abs(at(zoomed, c, 96) - 0.5f) < 1e-5f);
        }
    }

    void panelTogglesTheDensity()
    {
        MemoryPanel panel;
        auto* box = panel.findChild<QCheckBox*>(QStringLiteral("memoryDensity"));
        QVERIFY(box);
        QVERIFY(box->isChecked());
        QVERIFY(panel.timeline()->densityShown());
        box->setChecked(false);
        QVERIFY(!panel.timeline()->densityShown());
        panel.timeline()->setDensityShown(true);
        QVERIFY(box->isChecked());
    }
};

QTEST_MAIN(TestMemoryDensity)
#include "tst_views_memory_density.moc"
