// SPDX-License-Identifier: Apache-2.0
// The memory timeline linked through the studio's one selection, in the window with the bundled problem/bench
// pair open: a focused graph node shows its operator's span (graph step 0 = the dump's step 1), a focused step
// its step's span, a time range selected in the timeline selects every graph node calling its operators (the
// first focused, all highlighted in the graph); a second
// dump dropped beside the first opens the compare tab; the panel exports as CSV.
#include "graph/graphdiffview.h"
#include "graph/graphsideview.h"
#include "mainwindow.h"
#include "memory/memorycomparepanel.h"
#include "memory/memorypanel.h"
#include "memory/memorytimelineview.h"
#include "memorylinks.h"
#include "memorysession.h"
#include "screenshotwhenloaded.h"
#include "studiofocus.h"
#include "tst_core_memory_rows.h"

#include <QDropEvent>
#include <QFile>
#include <QImage>
#include <QLabel>
#include <QMimeData>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QUrl>

#include <algorithm>
#include <fstream>

namespace {

QString samplePath(const char* side) { return QStringLiteral(MSPROBE_SAMPLES "/") + QLatin1String(side); }

// Two steps, each: gelu allocates 64 B, layer_norm 32 B, both freed, then the STEP row (rows 10 ns apart from
// 1000). Step 1: gelu [1000, 1020], layer_norm [1030, 1050], STEP at 1080; step 2: gelu [1090, 1110],
// layer_norm [1120, 1140], STEP at 1170.
std::string twoSteps(std::int64_t secondGeluSize)
{
    const std::string gelu = "torch._ops.aten.gelu.default", norm = "torch._ops.aten.layer_norm.default";
    msprobe::test::MemDumpBuilder b;
    for (std::uint64_t step : { 1, 2 }) {
        const std::int64_t geluSize = step == 1 ? 64 : secondGeluSize;
        b.opStart(gelu);
        b.malloc("PTA", 0x1000 * step, geluSize, 2 * step - 1);
        b.opEnd(gelu);
        b.opStart(norm);
        b.malloc("PTA", 0x1000 * step + 0x100, 32, 2 * step);
        b.opEnd(norm);
        b.free("PTA", 0x1000 * step, geluSize, 2 * step - 1);
        b.free("PTA", 0x1000 * step + 0x100, 32, 2 * step);
        b.step(static_cast<int>(step));
    }
    return b.text;
}

using Span = std::optional<std::pair<std::int64_t, std::int64_t>>;
Span span(std::int64_t begin, std::int64_t end) { return std::make_pair(begin, end); }

} // namespace

class TestMemoryStudio : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QVERIFY(m_scratch.isValid());
        qputenv("HOME", m_scratch.filePath(QStringLiteral("home")).toUtf8());
        qputenv("XDG_CONFIG_HOME", m_scratch.filePath(QStringLiteral("home/.config")).toUtf8());
        m_first = m_scratch.filePath(QStringLiteral("first.csv"));
        m_second = m_scratch.filePath(QStringLiteral("second.csv"));
        std::ofstream(m_first.toStdString()) << twoSteps(64);
        std::ofstream(m_second.toStdString()) << twoSteps(1024);
    }

    // msprobe-studio --memory DUMP --screenshot PNG: the picture waits for the memory dump's load, which runs on a
    // worker thread after the window itself is idle (it used to be taken as soon as the window was idle: the
    // empty window of a large dump). No settling delay here, so a picture taken at idle would beat the load.
    void screenshotWaitsForTheMemoryDump()
    {
        MainWindow window;
        window.setRemembersRecent(false);
        window.resize(1366, 768);
        window.show();
        const QString png = m_scratch.filePath(QStringLiteral("shot.png"));
        int loadsWhenSaved = -1;
        QSignalSpy* loads = nullptr;
        ScreenshotWhenLoaded screenshot(window, png, [&] { loadsWhenSaved = int(loads->count()); }, 0);
        QMetaObject::invokeMethod(&window, &MainWindow::idle, Qt::QueuedConnection); // as main() does with no dump folder
        window.openMemoryDump(m_first);
        window.openComparedMemoryDump(m_second);
        QSignalSpy finished(window.memorySession(), &MemorySession::loadFinished);
        loads = &finished;
        screenshot.waitForMemoryLoads(2);
        QTRY_VERIFY_WITH_TIMEOUT(loadsWhenSaved >= 0, 60000);
        QCOMPARE(loadsWhenSaved, 2);
        QVERIFY(QImage(png).width() > 0);
        QVERIFY(window.memorySession()->document());
    }

    // A memory dump that cannot be read: the reader's message (file and line) in the status line as well as in the
    // error box, so that a --screenshot picture (which holds the main window only) shows it too.
    void unreadableMemoryDumpSaysWhyInTheStatusLine()
    {
        const QString bad = m_scratch.filePath(QStringLiteral("bad.csv"));
        std::ofstream(bad.toStdString()) << msprobe::test::MemDumpBuilder::kHeader
                                         << "1,MALLOC,PTA,N/A,12x4,100,100,0,0x10,\"{allocation_id:1,addr:0x10,size:64}\",,\n";
        MainWindow window;
        window.setRemembersRecent(false);
        window.resize(1366, 768);
        window.show();
        window.openMemoryDump(bad);
        QSignalSpy finished(window.memorySession(), &MemorySession::loadFinished);
        QVERIFY(finished.wait(60000));
        QCOMPARE(finished.front().at(0).toBool(), false);
        const QString message = finished.front().at(1).toString();
        QVERIFY2(message.contains(QLatin1String("bad.csv")) && message.contains(QLatin1String("line 2")), qPrintable(message));
        const auto* status = window.findChild<QLabel*>(QStringLiteral("status"));
        QVERIFY(status);
        QCOMPARE(status->text(), QStringLiteral("Cannot open bad.csv: ") + message);
    }

    void timelineFollowsTheSelection()
    {
        MainWindow window;
        window.setRemembersRecent(false);
        window.resize(1366, 768);
        window.show();
        QSignalSpy idle(&window, &MainWindow::idle);
        window.openPaths({ samplePath("problem"), samplePath("bench") });
        QVERIFY(idle.wait(120000));
        window.openMemoryDump(m_first);
        QSignalSpy loaded(window.memorySession(), &MemorySession::loadFinished);
        QVERIFY(loaded.wait(60000));
        MemoryTimelineView* timeline = window.memoryPanel()->timeline();
        StudioFocus* focus = window.studioFocus();
        QCOMPARE(focus->step(), 0);

        // A graph node: its operator instance in the focused step.
        focus->setNode(QStringLiteral("Functional.layer_norm.0.forward"));
        QCOMPARE(timeline->selection(), span(1030, 1050));
        QVERIFY(timeline->timeBegin() <= 30 && timeline->timeEnd() >= 50);

        // A range over step 1's gelu focuses a graph node that calls gelu.
        const int y = int(timeline->plotRect().center().y());
        const int from = int(timeline->xOfTimestamp(1005)), to = int(timeline->xOfTimestamp(1015));
        QTest::mousePress(timeline, Qt::LeftButton, Qt::ShiftModifier, QPoint(from, y));
        QTest::mouseMove(timeline, QPoint(to, y));
        QTest::mouseRelease(timeline, Qt::LeftButton, Qt::ShiftModifier, QPoint(to, y));
        QVERIFY2(focus->node().startsWith(QLatin1String("Functional.gelu.")), qPrintable(focus->node()));
        // ... and keeps the user's range rather than zooming to the node.
        QCOMPARE(timeline->selectedOperators(), std::vector<std::size_t>({ 0 }));

        // A range over gelu and layer_norm selects the graph nodes of both (gelu's first, graph order), all
        // highlighted in the graph; the first is focused.
        const int past = int(timeline->xOfTimestamp(1045));
        QTest::mousePress(timeline, Qt::LeftButton, Qt::ShiftModifier, QPoint(from, y));
        QTest::mouseMove(timeline, QPoint(past, y));
        QTest::mouseRelease(timeline, Qt::LeftButton, Qt::ShiftModifier, QPoint(past, y));
        QCOMPARE(timeline->selectedOperators(), std::vector<std::size_t>({ 0, 1 }));
        const QStringList nodes = focus->nodes();
        QVERIFY2(nodes.size() >= 2, qPrintable(nodes.join(QLatin1Char(' '))));
        QCOMPARE(focus->node(), nodes.front());
        const auto* side = window.graphView()->sideView(StudioFocus::Side::Problem);
        const auto& graphNodes = side->graph()->nodes;
        int gelu = 0, norm = 0;
        for (const QString& name : nodes) {
            const std::string api = msprobe::studio::nodeApi(name.toStdString()).api;
            gelu += api == "gelu";
            norm += api == "layer_norm";
            const auto it = std::find_if(graphNodes.begin(), graphNodes.end(), [&](const auto& node) { return QString::fromStdString(node.name) == name; });
            QVERIFY(it != graphNodes.end());
            QVERIFY2(side->isSearchHit(static_cast<std::uint32_t>(it - graphNodes.begin())), qPrintable(name));
        }
        QVERIFY(gelu > 0 && norm > 0);
        QCOMPARE(gelu + norm, int(nodes.size()));
        // A node not among them is not highlighted.
        const auto other = std::find_if(graphNodes.begin(), graphNodes.end(),
            [&](const auto& node) { return !node.name.empty() && !nodes.contains(QString::fromStdString(node.name)); });
        QVERIFY(other != graphNodes.end());
        QVERIFY(!side->isSearchHit(static_cast<std::uint32_t>(other - graphNodes.begin())));

        // A step: graph step 1 is the dump's step 2, from the first STEP row to the second.
        focus->setGraph(1, focus->rank());
        QCOMPARE(timeline->selection(), span(1080, 1170));

        // The panel's CSV: the blocks overlapping the selected step (ids 3 and 4).
        const QString csv = m_scratch.filePath(QStringLiteral("panel.csv"));
        QCOMPARE(window.exportMemoryCsv(csv), QString());
        QFile file(csv);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = file.readAll().split('\n');
        QCOMPARE(lines.size(), 4); // header, two blocks, the empty tail
        QVERIFY(lines[1].startsWith("3,") && lines[2].startsWith("4,"));
    }

    void focusHoldsSeveralNodes()
    {
        StudioFocus focus;
        QSignalSpy node(&focus, &StudioFocus::nodeChanged);
        QSignalSpy nodes(&focus, &StudioFocus::nodesChanged);
        focus.setNodes({ QStringLiteral("a"), QStringLiteral("b") });
        QCOMPARE(focus.node(), QStringLiteral("a"));
        QCOMPARE(focus.nodes(), QStringList({ QStringLiteral("a"), QStringLiteral("b") }));
        QCOMPARE(node.size(), 1);
        QCOMPARE(nodes.size(), 1);
        // The same first node with other company: the focus stays, the selection changes.
        focus.setNodes({ QStringLiteral("a"), QStringLiteral("c") });
        QCOMPARE(node.size(), 1);
        QCOMPARE(nodes.size(), 2);
        // Focusing the focused node again keeps the selection (views echo it back).
        focus.setNode(QStringLiteral("a"));
        QCOMPARE(focus.nodes().size(), 2);
        // Picking another node selects only it; switching graphs clears the selection.
        focus.setNode(QStringLiteral("b"));
        QCOMPARE(focus.nodes(), QStringList({ QStringLiteral("b") }));
        QCOMPARE(node.size(), 2);
        focus.setGraph(1, 0);
        QVERIFY(focus.nodes().isEmpty());
        QVERIFY(focus.node().isEmpty());
        QCOMPARE(nodes.last().at(0).toStringList(), QStringList());
    }

    void droppedDumpsOpenSideBySide()
    {
        MainWindow window;
        window.setRemembersRecent(false);
        window.resize(1366, 768);
        window.show();
        QMimeData mime;
        mime.setUrls({ QUrl::fromLocalFile(m_first), QUrl::fromLocalFile(m_second) });
        QDragEnterEvent enter(QPoint(50, 50), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(&window, &enter);
        QVERIFY(enter.isAccepted());
        QDropEvent drop(QPointF(50, 50), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(&window, &drop);
        QVERIFY(window.memorySession());
        QTRY_VERIFY_WITH_TIMEOUT(window.memorySession()->document(MemorySession::Slot::Compared) != nullptr, 60000);
        QTRY_VERIFY_WITH_TIMEOUT(window.memoryPanel()->comparisonShown(), 60000);
        // The two loads race: the compared one may land first, the comparison when both are in.
        QTRY_VERIFY_WITH_TIMEOUT(window.memoryPanel()->comparePanel()->comparison() != nullptr, 60000);
        // Second's step-1 gelu is 64 B as in first, its step-2 gelu 1024 B: the whole captures peak at 96 and 1056.
        const auto* comparison = window.memoryPanel()->comparePanel()->comparison();
        QVERIFY(comparison);
        QCOMPARE(comparison->peakA.liveBytes, std::int64_t(96));
        QCOMPARE(comparison->peakB.liveBytes, std::int64_t(1056));
        QCOMPARE(comparison->onlyB - comparison->onlyA, std::int64_t(960));
    }

private:
    QTemporaryDir m_scratch;
    QString m_first, m_second;
};

QTEST_MAIN(TestMemoryStudio)
#include "tst_views_memory_studio.moc"
