// SPDX-License-Identifier: Apache-2.0
// The graph diff's two sides kept together and the search shown in the graph: pan and zoom of one side followed
// by the other (toggle off: not), search hits outlined, colours repainted at once after a match; on the vis.db
// of the bundled sample pair (a 2-block transformer).
#include "test_util.h"

#include "graph/graphdiffview.h"
#include "graph/graphnodeitem.h"
#include "graph/graphsideview.h"
#include "graph/nodelistpanel.h"

#include "graph/graph_run.h"
#include "match/matchcontroller.h"
#include "studiosession.h"

#include <QAction>
#include <QLineEdit>
#include <QScreen>
#include <QScrollBar>
#include <QUndoStack>
#include <QTemporaryDir>

using namespace msprobe;
using namespace msprobe::test;
using graph::kNoVisNode;
using Side = StudioFocus::Side;
namespace fs = std::filesystem;

namespace {

struct LoadedDb {
    fs::path path;
    std::unique_ptr<graph::VisDb> db;
    std::shared_ptr<graph::VisGraph> npu, bench;
};

LoadedDb makeDb(const fs::path& npu, const fs::path& bench, const fs::path& out)
{
    graph::GraphRunOptions options;
    options.target = npu;
    options.golden = bench;
    options.output = out;
    options.timestamp = "20260101000000";
    LoadedDb loaded;
    loaded.path = graph::runGraphVisualize(options).database;
    loaded.db = std::make_unique<graph::VisDb>(loaded.path);
    loaded.npu = std::make_shared<graph::VisGraph>(loaded.db->load(0, 0, "NPU"));
    loaded.bench = std::make_shared<graph::VisGraph>(loaded.db->load(0, 0, "Bench"));
    return loaded;
}

// What is on the screen now (the window's backing store), not a fresh render of the widget.
QColor shownColour(QWidget* viewport, const QPoint& at)
{
    const QPoint inWindow = viewport->mapTo(viewport->window(), at);
    const QImage shot = viewport->screen()->grabWindow(viewport->window()->winId()).toImage();
    return shot.isNull() ? QColor() : shot.pixelColor(inWindow);
}

bool waitSettled(GraphDiffView& view) { return QTest::qWaitFor([&] { return view.isSettled(); }, 20000); }

std::vector<const msprobe::views::GraphNodeItem*> nodeItems(GraphSideView* view)
{
    std::vector<const msprobe::views::GraphNodeItem*> out;
    for (QGraphicsItem* item : view->scene()->items())
        if (item->type() == msprobe::views::GraphNodeItem::Type)
            out.push_back(static_cast<const msprobe::views::GraphNodeItem*>(item));
    return out;
}

// Counts the paint events a widget receives.
class PaintCounter : public QObject {
public:
    explicit PaintCounter(QWidget* widget) { widget->installEventFilter(this); }
    int count = 0;

protected:
    bool eventFilter(QObject*, QEvent* event) override
    {
        count += event->type() == QEvent::Paint;
        return false;
    }
};

} // namespace

class TestGraphSync : public QObject {
    Q_OBJECT

    QTemporaryDir m_tmp;
    LoadedDb m_sample;

    std::unique_ptr<GraphDiffView> showView(StudioFocus* focus)
    {
        auto view = std::make_unique<GraphDiffView>();
        view->setStudioFocus(focus);
        view->resize(1400, 900);
        view->show();
        view->setGraphs(m_sample.npu, m_sample.bench, m_sample.db->config());
        return view;
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_tmp.isValid());
        const fs::path samples = MSPROBE_SAMPLES;
        m_sample = makeDb(samples / "problem", samples / "bench", fs::path(m_tmp.path().toStdString()) / "sample");
        QVERIFY(m_sample.npu->nodes.size() > 100);
    }

    void zoomAndScrollFollowTheMatchedPlace()
    {
        StudioFocus focus;
        auto view = showView(&focus);
        QVERIFY(waitSettled(*view));
        GraphSideView* problem = view->sideView(Side::Problem);
        GraphSideView* bench = view->sideView(Side::Bench);
        QVERIFY(view->syncPanZoomAction()->isChecked());

        problem->zoomBy(4);
        QVERIFY(problem->zoom() > 2);
        QCOMPARE(bench->zoom(), problem->zoom());

        // Scroll the debug side so a matched module sits under its centre: the bench side centres on its match,
        // at the same relative place in the box.
        const std::uint32_t block = m_sample.npu->find("Module.blocks.1.Block.forward.0");
        const std::uint32_t benchBlock = m_sample.bench->find(m_sample.npu->nodes[block].link.back());
        QVERIFY(block != kNoVisNode && benchBlock != kNoVisNode);
        const QRectF blockBox = problem->layoutState().boxOf(block)->rect;
        const QRectF benchBox = bench->layoutState().boxOf(benchBlock)->rect;
        problem->centerOn(blockBox.center() + QPointF(0, blockBox.height() / 4));
        QCOMPARE(problem->nodeAt(problem->viewport()->rect().center()), block);
        const QPointF centre = problem->viewCentre();
        const double fy = (centre.y() - blockBox.top()) / blockBox.height();
        QVERIFY2(std::abs(fy - 0.75) < 0.1, qPrintable(QString::number(fy)));
        const double expectedY = benchBox.top() + fy * benchBox.height();
        QVERIFY2(std::abs(bench->viewCentre().y() - expectedY) < 2, qPrintable(QStringLiteral("%1 vs %2").arg(bench->viewCentre().y()).arg(expectedY)));
        QVERIFY(bench->mapToScene(bench->viewport()->rect()).boundingRect().contains(benchBox.center()));

        // The other direction: scrolling the bench side moves the debug side.
        const double problemBefore = problem->viewCentre().y();
        QScrollBar* benchBar = bench->verticalScrollBar();
        benchBar->setValue(benchBar->value() + (benchBar->value() + 200 <= benchBar->maximum() ? 200 : -200));
        QVERIFY(std::abs(problem->viewCentre().y() - problemBefore) > 20);

        // Toggle off: each side moves alone.
        view->syncPanZoomAction()->setChecked(false);
        const double benchZoom = bench->zoom();
        const QPointF benchCentre = bench->viewCentre();
        problem->zoomBy(0.5);
        problem->verticalScrollBar()->setValue(problem->verticalScrollBar()->value() + 150);
        QVERIFY(problem->zoom() < benchZoom);
        QCOMPARE(bench->zoom(), benchZoom);
        QCOMPARE(bench->viewCentre(), benchCentre);
    }

    void selectingANodeDoesNotDragTheOtherSideBack()
    {
        // Clicking a node centres its match on the other side; that programmatic move is not followed back, so the
        // clicked side stays exactly where it is.
        StudioFocus focus;
        auto view = showView(&focus);
        QVERIFY(waitSettled(*view));
        GraphSideView* problem = view->sideView(Side::Problem);
        GraphSideView* bench = view->sideView(Side::Bench);
        const std::uint32_t head = m_sample.npu->find("Module.head.Linear.forward.0");
        const std::uint32_t benchHead = m_sample.bench->find(m_sample.npu->nodes[head].link.back());
        QVERIFY(head != kNoVisNode && benchHead != kNoVisNode);
        problem->zoomBy(3);
        problem->centerOn(problem->layoutState().boxOf(head)->rect.center());
        bench->showAt(bench->zoom(), bench->graphBounds().topLeft()); // the bench side now shows something else
        QVERIFY(!bench->mapToScene(bench->viewport()->rect()).boundingRect().contains(bench->layoutState().boxOf(benchHead)->rect.center()));
        const QPointF before = problem->viewCentre();
        QTest::mouseClick(problem->viewport(), Qt::LeftButton, {}, problem->mapFromScene(problem->layoutState().boxOf(head)->rect.center()));
        QCOMPARE(bench->selectedNode(), benchHead);
        QVERIFY(waitSettled(*view));
        QVERIFY(bench->mapToScene(bench->viewport()->rect()).boundingRect().contains(bench->layoutState().boxOf(benchHead)->rect.center()));
        QCOMPARE(problem->viewCentre(), before);
    }

    void searchHitsAreOutlinedInBothGraphs()
    {
        StudioFocus focus;
        auto view = showView(&focus);
        NodeListPanel panel;
        panel.setStudioFocus(&focus);
        panel.setGraphs(m_sample.npu, m_sample.bench, m_sample.db->config());
        connect(&panel, &NodeListPanel::searchChanged, view.get(), &GraphDiffView::setSearchHighlight);
        QVERIFY(waitSettled(*view));
        auto* search = panel.findChild<QLineEdit*>(QStringLiteral("search"));
        QVERIFY(search);
        search->setText(QStringLiteral("linear"));
        for (Side side : { Side::Problem, Side::Bench }) {
            GraphSideView* sideView = view->sideView(side);
            int hits = 0, others = 0;
            for (const msprobe::views::GraphNodeItem* item : nodeItems(sideView)) {
                const QString name = QString::fromStdString(sideView->graph()->nodes[item->node()].name);
                QCOMPARE(item->highlighted(), name.contains(QStringLiteral("linear"), Qt::CaseInsensitive));
                (item->highlighted() ? hits : others) += 1;
            }
            QVERIFY(hits > 0 && others > 0);
        }
        // The outline is drawn in the palette's highlight colour just outside the box.
        GraphSideView* problem = view->sideView(Side::Problem);
        const std::uint32_t head = m_sample.npu->find("Module.head.Linear.forward.0");
        QVERIFY(problem->isSearchHit(head));
        const QRectF box = problem->layoutState().boxOf(head)->rect;
        problem->centerOn(box.center());
        const QImage shot = problem->viewport()->grab().toImage();
        // A quarter across, clear of the edge that enters the box at the middle of its top.
        const QPoint above = problem->mapFromScene(QPointF(box.center().x() + box.width() / 4, box.top() - 3));
        QCOMPARE(shot.pixelColor(above).rgb(), problem->palette().color(QPalette::Highlight).rgb());

        // Clearing the text clears every outline.
        search->clear();
        for (Side side : { Side::Problem, Side::Bench })
            for (const msprobe::views::GraphNodeItem* item : nodeItems(view->sideView(side)))
                QVERIFY(!item->highlighted());
        const QImage cleared = problem->viewport()->grab().toImage();
        QVERIFY(cleared.pixelColor(above).rgb() != problem->palette().color(QPalette::Highlight).rgb());
    }

    void coloursRepaintAtOnceAfterAMatch()
    {
        StudioFocus focus;
        auto view = showView(&focus);
        QVERIFY(waitSettled(*view));
        GraphSideView* problem = view->sideView(Side::Problem);
        QCoreApplication::processEvents();
        PaintCounter paints(problem->viewport());
        // What a manual match writes into the shared graph, then the studio's refresh.
        const std::uint32_t head = m_sample.npu->find("Module.head.Linear.forward.0");
        const double precision = std::exchange(m_sample.npu->nodes[head].precision, 0.9);
        view->refreshNodes({ QStringLiteral("Module.head.Linear.forward.0") });
        const bool repainted = QTest::qWaitFor([&] { return paints.count > 0; }, 2000);
        m_sample.npu->nodes[head].precision = precision;
        QVERIFY(repainted);
    }

    // A node matched by drag and drop (or unmatched by undo) shows its new colour at once, without a scroll.
    void coloursFollowADropAndAnUndoAtOnce()
    {
        const fs::path tmp = m_tmp.path().toStdString();
        const LoadedDb synthetic = makeDb(dataDir() / "graph" / "synthetic" / "npu", dataDir() / "graph" / "synthetic" / "bench", tmp / "dropped");
        StudioSession session;
        msprobe::studio::LoadRequest request;
        request.kind = msprobe::studio::LoadRequest::Kind::VisDb;
        request.path = q(synthetic.path.string());
        QSignalSpy loaded(&session, &StudioSession::loadFinished);
        session.open(request);
        QVERIFY(loaded.wait(60000) && loaded.front().at(0).toBool());
        const auto graphs = session.graphs(0, 0);
        QVERIFY(graphs.problem && graphs.bench);
        MatchController controller(&session);
        QVERIFY2(controller.open(0, 0), qPrintable(controller.errorString()));

        // Wired as the studio wires them.
        GraphDiffView view;
        view.resize(1400, 900);
        view.show();
        view.setGraphs(graphs.problem, graphs.bench, session.config());
        connect(&view, &GraphDiffView::nodeDropped, &controller, [&](const QString& p, const QString& b) { controller.match(p, b); });
        connect(&controller, &MatchController::nodesChanged, &view, &GraphDiffView::refreshNodes);
        QVERIFY(waitSettled(view));
        GraphSideView* problem = view.sideView(Side::Problem);
        GraphSideView* bench = view.sideView(Side::Bench);
        const std::uint32_t mul = graphs.problem->find("Tensor.mul.0.forward"), add = graphs.bench->find("Tensor.add.0.forward");
        QVERIFY(mul != kNoVisNode && add != kNoVisNode && !graphs.problem->nodes[mul].matched());
        problem->selectNode(mul, true, true);
        bench->selectNode(add, true, true);
        QVERIFY(waitSettled(view));
        const QPoint mulAt = problem->mapFromScene(problem->layoutState().boxOf(mul)->rect.center());
        const QPoint addAt = bench->mapFromScene(bench->layoutState().boxOf(add)->rect.center());
        QVERIFY(problem->viewport()->rect().contains(mulAt) && bench->viewport()->rect().contains(addAt));
        // Off the label text, inside the ellipse.
        const QPoint benchFillAt = addAt + QPoint(0, int(bench->layoutState().boxOf(add)->rect.height() * bench->zoom() / 3));
        QTRY_COMPARE(shownColour(bench->viewport(), benchFillAt), msprobe::views::graphstyle::precisionColour(graph::PrecisionLevel::Unmatched));

        PaintCounter paints(bench->viewport());
        const QPoint endInProblem = problem->viewport()->mapFromGlobal(bench->viewport()->mapToGlobal(addAt));
        QTest::mousePress(problem->viewport(), Qt::LeftButton, {}, mulAt);
        QTest::mouseMove(problem->viewport(), mulAt + QPoint(20, 0));
        QTest::mouseMove(problem->viewport(), endInProblem);
        QTest::mouseRelease(problem->viewport(), Qt::LeftButton, {}, endInProblem);
        QTRY_VERIFY(controller.undoStack()->count() == 1);
        QVERIFY(graphs.bench->nodes[add].matched());
        paints.count = 0;
        // The pair made by hand is graded as an automatic one: output 1.0 vs 2.5 is an error, drawn as one on both
        // sides (the bench node in its partner's colour, not the legend's "No grade" white); no scroll, no resize,
        // only the event loop.
        QVERIFY(graph::levelOf(graphs.problem->nodes[mul]) == graph::PrecisionLevel::Error);
        QTRY_COMPARE(shownColour(bench->viewport(), benchFillAt), msprobe::views::graphstyle::precisionColour(graph::PrecisionLevel::Error));
        QVERIFY(paints.count > 0);
        const QPoint problemFillAt = mulAt + QPoint(0, int(problem->layoutState().boxOf(mul)->rect.height() * problem->zoom() / 3));
        QTRY_COMPARE(shownColour(problem->viewport(), problemFillAt), msprobe::views::graphstyle::precisionColour(graph::PrecisionLevel::Error));

        controller.undoStack()->undo();
        QVERIFY(!graphs.bench->nodes[add].matched());
        QTRY_COMPARE(shownColour(bench->viewport(), benchFillAt), msprobe::views::graphstyle::precisionColour(graph::PrecisionLevel::Unmatched));
    }

    void screenshotForReview()
    {
        const QString dir = qEnvironmentVariable("MSPROBE_SCREENSHOT_DIR");
        if (dir.isEmpty())
            QSKIP("set MSPROBE_SCREENSHOT_DIR to save screenshots");
        StudioFocus focus;
        auto view = showView(&focus);
        QVERIFY(waitSettled(*view));
        view->expandToDepth(2);
        QVERIFY(waitSettled(*view));
        view->setSearchHighlight(QStringLiteral("linear"), false);
        QVERIFY(view->grab().save(dir + QStringLiteral("/graphsync_search.png")));
    }
};

QTEST_MAIN(TestGraphSync)
#include "tst_views_graphsync.moc"
