// SPDX-License-Identifier: Apache-2.0
// Two memory runs side by side and the memory timeline's links to the studio's selection, on small hand-made
// dumps whose answers are worked out by hand below: the operator alignment, the peaks, the blocks that make the
// difference (they add up to it), the chart's hover, the time-range selection of operators, graph node and step
// spans, and the panel's CSV.
#include "memory/memorycomparepanel.h"
#include "memory/memorydiffchart.h"
#include "memory/memorypanel.h"
#include "memory/memorytimelineview.h"
#include "memorycsv.h"
#include "memorylinks.h"
#include "memorysession.h"
#include "tst_core_memory_rows.h"

#include <QLabel>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>

#include <fstream>

namespace {

using Document = std::shared_ptr<const msprobe::studio::MemoryDocument>;

Document writeAndLoad(const QTemporaryDir& dir, const char* name, const std::string& text)
{
    const std::string file = dir.filePath(QString::fromLatin1(name)).toStdString();
    std::ofstream(file) << text;
    return msprobe::studio::loadMemoryDocument(file);
}

const std::string kAdd = "torch._ops.aten.add.Tensor", kRelu = "torch._ops.aten.relu.default", kMm = "torch._ops.aten.mm.default";

// Run A (timestamps 1000, 1010, ... one per row): add allocates 100 B (id 1), mm 200 B (id 2), both freed after.
// Live: 100 at 1010, 300 at 1040 (the peak), 200 at 1060, 0 at 1070. Operators: add [1000, 1020], mm [1030, 1050].
std::string runA()
{
    msprobe::test::MemDumpBuilder b;
    b.opStart(kAdd);
    b.malloc("PTA", 0x10, 100, 1);
    b.opEnd(kAdd);
    b.opStart(kMm);
    b.malloc("PTA", 0x100, 200, 2);
    b.opEnd(kMm);
    b.free("PTA", 0x10, 100, 1);
    b.free("PTA", 0x100, 200, 2);
    return b.text;
}

// Run B: add 100 B as in A, then an extra relu (50 B), then mm allocates 500 B instead of 200. Peak 650 at mm.
std::string runB()
{
    msprobe::test::MemDumpBuilder b;
    b.opStart(kAdd);
    b.malloc("PTA", 0x10, 100, 1);
    b.opEnd(kAdd);
    b.opStart(kRelu);
    b.malloc("PTA", 0x80, 50, 2);
    b.opEnd(kRelu);
    b.opStart(kMm);
    b.malloc("PTA", 0x100, 500, 3);
    b.opEnd(kMm);
    b.free("PTA", 0x10, 100, 1);
    b.free("PTA", 0x80, 50, 2);
    b.free("PTA", 0x100, 500, 3);
    return b.text;
}

// Two steps of one run, op x in each: 64 B kept (ids 1 and 3, never freed) and 32 B freed again (ids 2 and 4).
// Step 1 peaks at 96 (64 + 32); step 2 at 160 (id 1 still live + 64 + 32): id 1, leaked from step 1, is the
// difference.
std::string twoSteps()
{
    msprobe::test::MemDumpBuilder b;
    for (std::uint64_t id : { 1, 3 }) {
        b.opStart("x");
        b.malloc("PTA", 0x1000 * id, 64, id);
        b.malloc("PTA", 0x1000 * id + 0x100, 32, id + 1);
        b.free("PTA", 0x1000 * id + 0x100, 32, id + 1);
        b.opEnd("x");
        b.step(static_cast<int>(id / 2 + 1));
    }
    return b.text;
}

std::uint64_t allocationOf(const msprobe::studio::MemoryDocument& document, std::size_t timelineIndex)
{
    return document.model.blocks[document.timeline.blocks[timelineIndex].block].allocationId;
}

} // namespace

class TestMemoryCompare : public QObject {
    Q_OBJECT
private slots:
    void twoDumpsAlignByOperator()
    {
        QTemporaryDir dir;
        const Document a = writeAndLoad(dir, "a.csv", runA()), b = writeAndLoad(dir, "b.csv", runB());
        const auto c = msprobe::studio::compareRuns({ a, 0 }, { b, 0 });
        QCOMPARE(c.peakA.liveBytes, std::int64_t(300));
        QCOMPARE(c.peakA.tsNs, std::int64_t(1040));
        QCOMPARE(c.peakB.liveBytes, std::int64_t(650));
        QCOMPARE(c.peakB.tsNs, std::int64_t(1070));

        // add and mm on both sides, relu only on B, in run order.
        QCOMPARE(c.operators.size(), std::size_t(3));
        QCOMPARE(c.operators[0].name, kAdd);
        QVERIFY(c.operators[0].a && c.operators[0].b);
        QCOMPARE(c.operators[0].peakA, std::int64_t(100));
        QCOMPARE(c.operators[0].peakB, std::int64_t(100));
        QCOMPARE(c.operators[1].name, kRelu);
        QVERIFY(!c.operators[1].a && c.operators[1].b);
        QCOMPARE(c.operators[1].peakB, std::int64_t(150));
        QCOMPARE(c.operators[2].name, kMm);
        QCOMPARE(c.operators[2].peakA, std::int64_t(300));
        QCOMPARE(c.operators[2].peakB, std::int64_t(650));

        // add's 100 B pair up; B's 500 (mm) and 50 (relu) and A's 200 (mm) do not: 550 - 200 = 650 - 300.
        QCOMPARE(c.blocks.size(), std::size_t(3));
        QCOMPARE(c.blocks[0].size, std::int64_t(500));
        QVERIFY(c.blocks[0].inB);
        QCOMPARE(c.blocks[0].op, kMm);
        QCOMPARE(c.blocks[1].size, std::int64_t(200));
        QVERIFY(!c.blocks[1].inB);
        QCOMPARE(c.blocks[2].size, std::int64_t(50));
        QCOMPARE(c.blocks[2].op, kRelu);
        QCOMPARE(c.onlyB, std::int64_t(550));
        QCOMPARE(c.onlyA, std::int64_t(200));
        QCOMPARE(c.onlyB - c.onlyA, c.peakB.liveBytes - c.peakA.liveBytes);

        const std::string csv = msprobe::studio::comparisonCsv(c, *a, *b);
        QVERIFY(csv.rfind("side,size_bytes,operator,owner,allocation_id,alloc_offset_ns,reason\n"
                          "B only,500,torch._ops.aten.mm.default,,3,70,\n",
                    0)
            == 0);
    }

    void twoStepsOfOneDumpNameTheLeakedBlock()
    {
        QTemporaryDir dir;
        const Document run = writeAndLoad(dir, "steps.csv", twoSteps());
        const auto c = msprobe::studio::compareRuns({ run, 1 }, { run, 2 });
        QCOMPARE(c.peakA.liveBytes, std::int64_t(96));
        QCOMPARE(c.peakB.liveBytes, std::int64_t(160));
        QCOMPARE(c.operators.size(), std::size_t(1));
        QCOMPARE(c.operators[0].peakA, std::int64_t(96));
        QCOMPARE(c.operators[0].peakB, std::int64_t(160));
        QCOMPARE(c.blocks.size(), std::size_t(1));
        QVERIFY(c.blocks[0].inB);
        QCOMPARE(allocationOf(*run, c.blocks[0].block), std::uint64_t(1));
        QCOMPARE(c.onlyB, std::int64_t(64));
        QVERIFY_THROWS_EXCEPTION(std::exception, msprobe::studio::compareRuns({ run, 1 }, { run, 9 }));

        // The panel on one dump compares its first two steps and lists the leaked block with its reason.
        MemoryComparePanel panel;
        panel.resize(1000, 600);
        panel.setRuns(run, nullptr);
        QVERIFY(panel.comparison());
        QCOMPARE(panel.comparison()->peakB.liveBytes, std::int64_t(160));
        QCOMPARE(panel.blockList()->topLevelItemCount(), 1);
        QVERIFY2(panel.blockList()->topLevelItem(0)->text(5).contains(QLatin1String("leak: never freed")),
            qPrintable(panel.blockList()->topLevelItem(0)->text(5)));
        QVERIFY2(panel.summary()->text().contains(QLatin1String("+64 B")), qPrintable(panel.summary()->text()));
        panel.setSteps(0, 0); // the whole capture against itself: nothing differs
        QCOMPARE(panel.blockList()->topLevelItemCount(), 0);
    }

    void chartHoverNamesTheOperator()
    {
        QTemporaryDir dir;
        const Document a = writeAndLoad(dir, "a.csv", runA()), b = writeAndLoad(dir, "b.csv", runB());
        MemoryPanel panel;
        panel.resize(1200, 700);
        panel.setDocuments(a, b);
        panel.showComparison();
        MemoryDiffChart* chart = panel.comparePanel()->chart();
        chart->resize(900, 300);
        const QRectF plot = chart->curveRect();
        // Three aligned operators share the width: the middle third is relu, run on B only.
        const double middle = plot.left() + plot.width() / 2;
        QCOMPARE(chart->operatorAt(middle), std::optional<std::size_t>(1));
        const QString tip = chart->operatorToolTip(1);
        QVERIFY2(tip.contains(QLatin1String("A: not run")) && tip.contains(QLatin1String("B: 150 B")), qPrintable(tip));
        QVERIFY(chart->operatorToolTip(2).contains(QLatin1String("B - A: 350 B")));
        QCOMPARE(chart->operatorAt(plot.left() - 1), std::nullopt);
        QSignalSpy clicked(chart, &MemoryDiffChart::operatorClicked);
        QTest::mouseClick(chart, Qt::LeftButton, {}, QPoint(int(plot.right() - 2), int(plot.center().y())));
        QCOMPARE(clicked.size(), 1);
        QCOMPARE(clicked.first().at(0).toInt(), 2);
        // The shown tab exports its differing blocks.
        QVERIFY(panel.csv().startsWith(QLatin1String("side,size_bytes")));
        QCOMPARE(panel.csv().count(QLatin1Char('\n')), 4);
    }

    void timeRangeSelectsOperators()
    {
        QTemporaryDir dir;
        const Document a = writeAndLoad(dir, "a.csv", runA());
        MemoryTimelineView view;
        view.resize(1000, 400);
        view.setDocument(a);
        QSignalSpy selected(&view, &MemoryTimelineView::rangeSelected);
        const int y = int(view.plotRect().center().y());
        auto x = [&](std::int64_t ts) { return int(std::lround(view.xOfTimestamp(ts))); };
        // Shift+drag from 1005 to 1015: inside add only.
        QTest::mousePress(&view, Qt::LeftButton, Qt::ShiftModifier, QPoint(x(1005), y));
        QTest::mouseMove(&view, QPoint(x(1015), y));
        QTest::mouseRelease(&view, Qt::LeftButton, Qt::ShiftModifier, QPoint(x(1015), y));
        QCOMPARE(selected.size(), 1);
        QVERIFY(std::abs(selected.first().at(0).toLongLong() - 1005) <= 1);
        QVERIFY(std::abs(selected.first().at(1).toLongLong() - 1015) <= 1);
        QCOMPARE(view.selectedOperators(), std::vector<std::size_t>({ 0 }));
        // A right-button drag from 1015 to 1035 reaches into mm.
        QTest::mousePress(&view, Qt::RightButton, {}, QPoint(x(1015), y));
        QTest::mouseMove(&view, QPoint(x(1035), y));
        QTest::mouseRelease(&view, Qt::RightButton, {}, QPoint(x(1035), y));
        QCOMPARE(view.selectedOperators(), std::vector<std::size_t>({ 0, 1 }));
        // The selected operators' lane boxes are drawn in the highlight colour (around their labels).
        const int laneY = int(view.plotRect().bottom() + 18 + 9);
        auto highlighted = [&](std::int64_t from, std::int64_t to) {
            const QImage image = view.grab().toImage();
            int count = 0;
            for (int px = x(from); px <= x(to); ++px)
                count += image.pixelColor(px, laneY) == view.palette().color(QPalette::Highlight);
            return count;
        };
        QVERIFY(highlighted(1001, 1019) > 0);
        QVERIFY(highlighted(1031, 1049) > 0);
        view.clearSelection();
        QCOMPARE(highlighted(1001, 1049), 0);
        view.setSelection(1035, 1045);
        // The panel's CSV lists the blocks overlapping the selection 1035-1045: both (1010-1060 and 1040-1070).
        const std::string csv = msprobe::studio::timelineCsv(*a, view.selection());
        QVERIFY2(csv.find("\n1,0x0000000000000010,100,PTA,0,,torch._ops.aten.add.Tensor,10,60,no,") != std::string::npos, csv.c_str());
        QCOMPARE(std::count(csv.begin(), csv.end(), '\n'), 3);
        const std::string before = msprobe::studio::timelineCsv(*a, std::make_pair(std::int64_t(1000), std::int64_t(1005)));
        QCOMPARE(std::count(before.begin(), before.end(), '\n'), 1);
    }

    void graphNodesAndStepsMapToSpans()
    {
        QTemporaryDir dir;
        const Document a = writeAndLoad(dir, "a.csv", runA());
        const auto& timeline = a->timeline;
        QCOMPARE(msprobe::studio::operatorApiName(kMm), std::string("mm"));
        QCOMPARE(msprobe::studio::operatorApiName("aten::addmm"), std::string("addmm"));
        QCOMPARE(msprobe::studio::nodeApi("Torch.add.3.forward").api, std::string("add"));
        QCOMPARE(msprobe::studio::nodeApi("Torch.add.3.forward").callIndex, 3);
        QCOMPARE(msprobe::studio::nodeApi("Aten.mm.default.0.backward").callIndex, 0);
        QVERIFY(msprobe::studio::nodeApi("Module.net.Net.forward.0").api.empty());

        const auto mm = msprobe::studio::spanOfNode(timeline, "Aten.mm.default.0.forward");
        QVERIFY(mm);
        QCOMPARE(mm->startNs, std::int64_t(1030));
        QCOMPARE(mm->endNs, std::int64_t(1050));
        QVERIFY(!msprobe::studio::spanOfNode(timeline, "Torch.relu.0.forward"));
        QCOMPARE(msprobe::studio::nodesOfOperators(timeline, { 0 }, { "Module.net.Net.forward.0", "Torch.add.0.forward", "Aten.mm.default.0.forward" }),
            std::vector<std::string>({ "Torch.add.0.forward" }));

        // A node's span fills the view and is selected.
        MemoryTimelineView view;
        view.resize(1000, 400);
        view.setDocument(a);
        view.showSpan(mm->startNs, mm->endNs);
        QCOMPARE(view.selection(), std::make_optional(std::make_pair(std::int64_t(1030), std::int64_t(1050))));
        QVERIFY(view.timeBegin() <= 30 && view.timeEnd() >= 50);
        QCOMPARE(view.selectedOperators(), std::vector<std::size_t>({ 1 }));

        // Graph step 0 is the dump's step 1: from before the capture to its first STEP row (1050).
        const Document steps = writeAndLoad(dir, "steps.csv", twoSteps());
        const msprobe::studio::TimelineSpan* first = msprobe::studio::spanOfGraphStep(steps->timeline, 0);
        QVERIFY(first);
        QCOMPARE(first->endNs, std::int64_t(1050));
        const msprobe::studio::TimelineSpan* second = msprobe::studio::spanOfGraphStep(steps->timeline, 1);
        QVERIFY(second);
        QCOMPARE(second->startNs, std::int64_t(1050));
        QCOMPARE(second->endNs, std::int64_t(1110));
        QVERIFY(!msprobe::studio::spanOfGraphStep(steps->timeline, 7));
    }

    void marksLaneShowsMarksAndRanges()
    {
        // Rows at 1000, 1010, ...: mark A, a "forward" range (the process's first) from 1010 to 1040, mark B.
        msprobe::test::MemDumpBuilder b;
        b.mark("A");
        b.row("MSTX", "Range_start", "forward", "N/A", "");
        b.malloc("PTA", 0x10, 100, 1);
        b.free("PTA", 0x10, 100, 1);
        b.row("MSTX", "Range_end", "Range end from id 1", "N/A", "");
        b.mark("B");
        QTemporaryDir dir;
        const Document document = writeAndLoad(dir, "marks.csv", b.text);
        const auto& marks = document->timeline.marks;
        QCOMPARE(marks.size(), std::size_t(3));
        QCOMPARE(marks[0].label, std::string("A"));
        QCOMPARE(marks[0].startNs, std::int64_t(1000));
        QCOMPARE(marks[0].endNs, std::int64_t(1000));
        QCOMPARE(marks[1].label, std::string("forward"));
        QCOMPARE(marks[1].startNs, std::int64_t(1010));
        QCOMPARE(marks[1].endNs, std::int64_t(1040));
        QCOMPARE(marks[2].label, std::string("B"));
        QCOMPARE(marks[2].startNs, std::int64_t(1050));

        MemoryTimelineView view;
        view.resize(1000, 400);
        view.setDocument(document);
        const QImage image = view.grab().toImage();
        const int laneY = int(view.plotRect().bottom() + 2 * 18 + 9);
        // Mark B's tick (2 px wide at its time) in the marks colour; the range box half transparent over the base.
        QCOMPARE(image.pixelColor(int(view.xOfTimestamp(1050)), int(view.plotRect().bottom() + 2 * 18 + 2)), QColor(148, 103, 189));
        QVERIFY(image.pixelColor(int(view.xOfTimestamp(1035)), laneY + 3) != view.palette().color(QPalette::Base));
    }

    void droppedFilesAreRecognised()
    {
        QTemporaryDir dir;
        const QString dump = dir.filePath(QStringLiteral("dump.csv")), other = dir.filePath(QStringLiteral("compare.csv"));
        std::ofstream(dump.toStdString()) << runA();
        std::ofstream(other.toStdString()) << "NPU Name,Bench Name\n";
        QVERIFY(MemorySession::looksLikeMemoryDump(dump));
        QVERIFY(!MemorySession::looksLikeMemoryDump(other));
        QVERIFY(!MemorySession::looksLikeMemoryDump(dir.filePath(QStringLiteral("missing.csv"))));
    }

    void sessionLoadsTheComparedDump()
    {
        QTemporaryDir dir;
        const QString a = dir.filePath(QStringLiteral("a.csv")), b = dir.filePath(QStringLiteral("b.csv"));
        std::ofstream(a.toStdString()) << runA();
        std::ofstream(b.toStdString()) << runB();
        MemorySession session;
        QSignalSpy finished(&session, &MemorySession::loadFinished);
        session.open(a);
        session.open(b, MemorySession::Slot::Compared);
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 2, 60000);
        QVERIFY(session.document());
        QCOMPARE(session.document()->timeline.peak.liveBytes, std::int64_t(300));
        QCOMPARE(session.document(MemorySession::Slot::Compared)->timeline.peak.liveBytes, std::int64_t(650));
        session.closeCompared();
        QVERIFY(!session.document(MemorySession::Slot::Compared));
    }
};

QTEST_MAIN(TestMemoryCompare)
#include "tst_views_memory_compare.moc"
