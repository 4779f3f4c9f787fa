// SPDX-License-Identifier: Apache-2.0
// Node colours of the graph diff on the synthetic pair, whose errors are known by hand: the "Error magnitude"
// colouring (worst output relative error on the five-step palette), its legend, a bench node in its debug
// partner's colour (never the legend's "No grade" white), and both after a match made by hand.
#include "test_util.h"

#include "graph/graphdiffview.h"
#include "graph/graphlegend.h"
#include "graph/graphsideview.h"

#include "graph/graph_run.h"
#include "graph/visdb/error_magnitude.h"
#include "match/matchcontroller.h"
#include "studiosession.h"

#include <QComboBox>
#include <QSignalSpy>
#include <QStandardItemModel>
#include <QTemporaryDir>
#include <QUndoStack>

using namespace msprobe;
using namespace msprobe::test;
using graph::kNoVisNode;
using Side = StudioFocus::Side;
namespace fs = std::filesystem;

namespace {

bool waitSettled(GraphDiffView& view) { return QTest::qWaitFor([&] { return view.isSettled(); }, 20000); }

QColor hex(const char* text) { return QColor(QString::fromLatin1(text)); }

} // namespace

class TestGraphColours : public QObject {
    Q_OBJECT

    QTemporaryDir m_tmp;
    fs::path m_db;

    // The synthetic pair opened as the studio opens a vis.db, with the view wired as the main window wires it.
    struct Studio {
        StudioSession session;
        std::unique_ptr<MatchController> controller;
        GraphDiffView view;
        StudioSession::GraphPair graphs;
    };

    bool open(Studio& studio)
    {
        msprobe::studio::LoadRequest request;
        request.kind = msprobe::studio::LoadRequest::Kind::VisDb;
        request.path = q(m_db.string());
        QSignalSpy loaded(&studio.session, &StudioSession::loadFinished);
        studio.session.open(request);
        if (!loaded.wait(60000) || !loaded.front().at(0).toBool())
            return false;
        studio.graphs = studio.session.graphs(0, 0);
        studio.controller = std::make_unique<MatchController>(&studio.session);
        if (!studio.controller->open(0, 0))
            return false;
        StudioSession* session = &studio.session;
        studio.view.setNodeDataProvider([session](Side side, const std::string& name) { return session->nodeData(0, 0, side, name); });
        studio.view.setMagnitudeProvider([session] { return session->errorMagnitudes(0, 0); });
        studio.view.resize(1400, 900);
        studio.view.show();
        studio.view.setGraphs(studio.graphs.problem, studio.graphs.bench, studio.session.config());
        connect(studio.controller.get(), &MatchController::nodesChanged, &studio.view, &GraphDiffView::refreshNodes);
        return waitSettled(studio.view);
    }

    static QColor fill(Studio& studio, Side side, const char* name)
    {
        const auto& graph = side == Side::Problem ? studio.graphs.problem : studio.graphs.bench;
        const std::uint32_t node = graph->find(name);
        return node == kNoVisNode ? QColor() : studio.view.sideView(side)->nodeFill(node);
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_tmp.isValid());
        graph::GraphRunOptions options;
        options.target = dataDir() / "graph" / "synthetic" / "npu";
        options.golden = dataDir() / "graph" / "synthetic" / "bench";
        options.output = fs::path(m_tmp.path().toStdString());
        options.timestamp = "20260101000000";
        m_db = graph::runGraphVisualize(options).database;
    }

    // Output statistics (problem vs bench): linear.1 Norm 4.0 vs 9.0 (NormRelativeErr 5/9 = 55.6%: 40-60%),
    // relu.0 forward Norm 4.0 vs 4.4 (9.1%: below 20%), linear.0 identical (0%), relu.0 backward Max inf (100%).
    void magnitudeColoursOfKnownErrors()
    {
        Studio studio;
        QVERIFY(open(studio));
        const auto magnitudes = studio.session.errorMagnitudes(0, 0);
        QCOMPARE(magnitudes.size(), studio.graphs.problem->nodes.size());
        const auto magnitudeOf = [&](const char* name) { return magnitudes[studio.graphs.problem->find(name)]; };
        QCOMPARE(qRound(magnitudeOf("Functional.linear.1.forward") * 1e4), qRound(5.0 / 9 * 1e4));
        QCOMPARE(qRound(magnitudeOf("Torch.relu.0.forward") * 1e4), qRound(0.4 / 4.4 * 1e4));
        QCOMPARE(magnitudeOf("Functional.linear.0.forward"), 0.0f);
        QCOMPARE(magnitudeOf("Torch.relu.0.backward"), 1.0f);
        QVERIFY(std::isnan(magnitudeOf("Tensor.mul.0.forward"))); // unmatched

        auto* mode = studio.view.findChild<QComboBox*>(QStringLiteral("colourMode"));
        QVERIFY(mode && mode->isEnabled());
        QCOMPARE(mode->count(), 3);
        mode->setCurrentIndex(int(msprobe::views::graphstyle::ColourMode::Magnitude));
        QCOMPARE(studio.view.colourMode(), msprobe::views::graphstyle::ColourMode::Magnitude);
        QCOMPARE(fill(studio, Side::Problem, "Functional.linear.1.forward"), hex("#FFDC7F"));
        QCOMPARE(fill(studio, Side::Problem, "Torch.relu.0.forward"), hex("#FFFCF3"));
        QCOMPARE(fill(studio, Side::Problem, "Functional.linear.0.forward"), hex("#FFFCF3"));
        QCOMPARE(fill(studio, Side::Problem, "Torch.relu.0.backward"), hex("#FF704D"));
        QCOMPARE(fill(studio, Side::Problem, "Tensor.mul.0.forward"), hex("#C7C7C7"));
        // The bench side shows its partners' colours.
        QCOMPARE(fill(studio, Side::Bench, "Functional.linear.1.forward"), hex("#FFDC7F"));
        QCOMPARE(fill(studio, Side::Bench, "Torch.relu.0.backward"), hex("#FF704D"));
        // What is drawn: the pixels inside linear.1's ellipse.
        GraphSideView* problem = studio.view.sideView(Side::Problem);
        const std::uint32_t linear = studio.graphs.problem->find("Functional.linear.1.forward");
        problem->selectNode(linear, true, true);
        QVERIFY(waitSettled(studio.view));
        const QRectF box = problem->layoutState().boxOf(linear)->rect;
        const QPoint inside = problem->mapFromScene(box.center() + QPointF(0, box.height() / 3));
        QTRY_COMPARE(problem->viewport()->grab().toImage().pixelColor(inside), hex("#FFDC7F"));

        // The legend names the five steps, then No grade and Unmatched.
        auto* legend = studio.view.findChild<GraphLegend*>(QStringLiteral("legend"));
        QVERIFY(legend);
        const QImage picture = legend->grab().toImage();
        const auto shows = [&](const char* colour) {
            for (int y = 0; y < picture.height(); ++y)
                for (int x = 0; x < picture.width(); ++x)
                    if (picture.pixelColor(x, y) == hex(colour))
                        return true;
            return false;
        };
        for (const char* colour : { "#FFFCF3", "#FFEDBE", "#FFDC7F", "#FFC62E", "#FF704D", "#C7C7C7" })
            QVERIFY2(shows(colour), colour);

        // Precision mode again: the three levels, the bench side still in its partner's colour.
        mode->setCurrentIndex(int(msprobe::views::graphstyle::ColourMode::Precision));
        QCOMPARE(fill(studio, Side::Problem, "Functional.linear.1.forward"), msprobe::views::graphstyle::precisionColour(graph::PrecisionLevel::Error));
        QCOMPARE(fill(studio, Side::Bench, "Functional.linear.1.forward"), msprobe::views::graphstyle::precisionColour(graph::PrecisionLevel::Error));
        QCOMPARE(fill(studio, Side::Bench, "Functional.linear.0.forward"), msprobe::views::graphstyle::precisionColour(graph::PrecisionLevel::Pass));
        QVERIFY(fill(studio, Side::Bench, "Functional.linear.0.forward") != msprobe::views::graphstyle::noGradeColour());
    }

    // A pair made by hand: Tensor.mul.0 (output Max 1.0) onto Tensor.add.0 (2.5) is graded on both sides at
    // once, in either colouring; unmatching puts both back to grey.
    void aManualMatchTakesItsColoursAtOnce()
    {
        Studio studio;
        QVERIFY(open(studio));
        auto* mode = studio.view.findChild<QComboBox*>(QStringLiteral("colourMode"));
        mode->setCurrentIndex(int(msprobe::views::graphstyle::ColourMode::Magnitude));
        QCOMPARE(fill(studio, Side::Problem, "Tensor.mul.0.forward"), hex("#C7C7C7"));
        QCOMPARE(fill(studio, Side::Bench, "Tensor.add.0.forward"), hex("#C7C7C7"));
        studio.controller->match(QStringLiteral("Tensor.mul.0.forward"), QStringLiteral("Tensor.add.0.forward"));
        QTRY_VERIFY(studio.graphs.bench->nodes[studio.graphs.bench->find("Tensor.add.0.forward")].matched());
        const auto [input, output] = studio.session.nodeData(0, 0, Side::Problem, "Tensor.mul.0.forward");
        const double expected = graph::errorMagnitude(output, compare::CompareMode::Statistics);
        QVERIFY(expected > 0.2); // 1.0 against 2.5 and the other statistics: a visible error
        const QColor magnitudeColour = msprobe::views::graphstyle::magnitudeColour(expected);
        QTRY_COMPARE(fill(studio, Side::Problem, "Tensor.mul.0.forward"), magnitudeColour);
        QCOMPARE(fill(studio, Side::Bench, "Tensor.add.0.forward"), magnitudeColour);
        // The session reads the same from the file the match was written to.
        const auto magnitudes = studio.session.errorMagnitudes(0, 0);
        QCOMPARE(double(magnitudes[studio.graphs.problem->find("Tensor.mul.0.forward")]), double(float(expected)));

        mode->setCurrentIndex(int(msprobe::views::graphstyle::ColourMode::Precision));
        const QColor error = msprobe::views::graphstyle::precisionColour(graph::PrecisionLevel::Error);
        QCOMPARE(fill(studio, Side::Problem, "Tensor.mul.0.forward"), error);
        QCOMPARE(fill(studio, Side::Bench, "Tensor.add.0.forward"), error);

        studio.controller->undoStack()->undo();
        QTRY_COMPARE(fill(studio, Side::Bench, "Tensor.add.0.forward"), hex("#C7C7C7"));
        QCOMPARE(fill(studio, Side::Problem, "Tensor.mul.0.forward"), hex("#C7C7C7"));
    }

    // A build db (one dump) has nothing to measure: the magnitude colouring is not offered.
    void aSingleGraphOffersNoMagnitude()
    {
        graph::GraphRunOptions options;
        options.target = dataDir() / "graph" / "synthetic" / "npu";
        options.output = fs::path(m_tmp.path().toStdString()) / "build";
        options.timestamp = "20260101000000";
        graph::VisDb db(graph::runGraphVisualize(options).database);
        auto npu = std::make_shared<graph::VisGraph>(db.load(0, 0, "NPU"));
        GraphDiffView view;
        view.setGraphs(npu, nullptr, db.config());
        auto* mode = view.findChild<QComboBox*>(QStringLiteral("colourMode"));
        auto* items = qobject_cast<QStandardItemModel*>(mode->model());
        QVERIFY(items && !items->item(int(msprobe::views::graphstyle::ColourMode::Magnitude))->isEnabled());
        view.setColourMode(msprobe::views::graphstyle::ColourMode::Magnitude);
        QCOMPARE(view.colourMode(), msprobe::views::graphstyle::ColourMode::Precision);
    }
};

QTEST_MAIN(TestGraphColours)
#include "tst_views_graphcolours.moc"
