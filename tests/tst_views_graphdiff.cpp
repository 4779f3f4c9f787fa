// SPDX-License-Identifier: Apache-2.0
// The graph diff widgets driven by QTest events on vis.db files made from real dumps: the bundled sample pair
// (a 2-block transformer) and the synthetic pair of the golden graph tests (unmatched nodes, errors, overflow).
#include "test_util.h"

#include "graph/graphdiffview.h"
#include "graph/graphsideview.h"
#include "graph/graphlegend.h"
#include "graph/graphminimap.h"
#include "graph/matchhighlightdelegate.h"
#include "graph/nodelistmodel.h"
#include "graph/nodelistpanel.h"
#include "graph/nodetooltip.h"

#include "graph/graph_run.h"
#include "graph/visdb/node_details.h"

#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QMenu>
#include <QSvgRenderer>
#include <QTemporaryDir>
#include <QToolButton>

using namespace msprobe;
using namespace msprobe::test;
using graph::kNoVisNode;
using Side = StudioFocus::Side;
namespace fs = std::filesystem;

namespace {

struct LoadedDb {
    std::unique_ptr<graph::VisDb> db;
    std::shared_ptr<graph::VisGraph> npu, bench;
};

LoadedDb makeDb(const fs::path& npu, const fs::path& bench, const fs::path& out)
{
    graph::GraphRunOptions options;
    options.target = npu;
    options.golden = bench;
    options.output = out;
    options.overflowCheck = true;
    options.timestamp = "20260101000000";
    LoadedDb loaded;
    loaded.db = std::make_unique<graph::VisDb>(graph::runGraphVisualize(options).database);
    loaded.npu = std::make_shared<graph::VisGraph>(loaded.db->load(0, 0, "NPU"));
    loaded.bench = std::make_shared<graph::VisGraph>(loaded.db->load(0, 0, "Bench"));
    return loaded;
}

// The level filter the reference applies, from the raw fields: leaf NPU nodes, [lo, hi) on precision_index.
std::size_t leavesInRange(const graph::VisGraph& g, double lo, double hi)
{
    std::size_t n = 0;
    for (const auto& node : g.nodes)
        n += node.children.empty() && node.matched() && node.hasPrecision() && node.precision >= lo && node.precision < hi;
    return n;
}

QPoint pointOf(GraphSideView* view, std::uint32_t node)
{
    const auto* box = view->layoutState().boxOf(node);
    if (!box)
        return {};
    const QPointF target = box->expanded ? QPointF(box->rect.center().x(), box->rect.top() + 6) : box->rect.center();
    view->centerOn(target);
    return view->mapFromScene(target);
}

bool waitSettled(GraphDiffView& view) { return QTest::qWaitFor([&] { return view.isSettled(); }, 20000); }

} // namespace

class TestGraphDiff : public QObject {
    Q_OBJECT

    QTemporaryDir m_tmp;
    LoadedDb m_sample, m_synthetic;

    std::unique_ptr<GraphDiffView> showView(const LoadedDb& db, StudioFocus* focus)
    {
        auto view = std::make_unique<GraphDiffView>();
        view->setStudioFocus(focus);
        view->resize(1400, 900);
        view->show();
        view->setGraphs(db.npu, db.bench, db.db->config());
        return view;
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_tmp.isValid());
        const fs::path tmp = m_tmp.path().toStdString();
        const fs::path samples = MSPROBE_SAMPLES;
        m_sample = makeDb(samples / "problem", samples / "bench", tmp / "sample");
        m_synthetic = makeDb(dataDir() / "graph" / "synthetic" / "npu", dataDir() / "graph" / "synthetic" / "bench", tmp / "synthetic");
        QVERIFY(m_sample.npu->nodes.size() > 100);
        QVERIFY(m_synthetic.npu->root() != kNoVisNode);
    }

    void doubleClickExpandsAndCollapsesAModule()
    {
        StudioFocus focus;
        auto view = showView(m_sample, &focus);
        QVERIFY(waitSettled(*view));
        GraphSideView* problem = view->sideView(Side::Problem);
        const std::uint32_t block = m_sample.npu->find("Module.blocks.0.Block.forward.0");
        QVERIFY(block != kNoVisNode);
        const auto& children = m_sample.npu->nodes[block].children;
        QVERIFY(children.size() >= 3);
        QVERIFY(problem->layoutState().isVisible(block));
        for (auto child : children)
            QVERIFY(!problem->layoutState().isVisible(child));
        const int itemsBefore = int(problem->scene()->items().size());

        QTest::mouseDClick(problem->viewport(), Qt::LeftButton, {}, pointOf(problem, block));
        QVERIFY(waitSettled(*view));
        for (auto child : children) {
            QVERIFY(problem->layoutState().isVisible(child));
            QVERIFY(problem->layoutState().boxOf(block)->rect.contains(problem->layoutState().boxOf(child)->rect));
        }
        QVERIFY(int(problem->scene()->items().size()) >= itemsBefore + int(children.size()));
        QCOMPARE(focus.node(), q("Module.blocks.0.Block.forward.0"));

        QTest::mouseDClick(problem->viewport(), Qt::LeftButton, {}, pointOf(problem, block));
        QVERIFY(waitSettled(*view));
        for (auto child : children)
            QVERIFY(!problem->layoutState().isVisible(child));
    }

    void syncExpandOpensTheMatchedBenchModule()
    {
        StudioFocus focus;
        auto view = showView(m_sample, &focus);
        view->setSyncExpand(true);
        QVERIFY(waitSettled(*view));
        GraphSideView* problem = view->sideView(Side::Problem);
        const std::uint32_t block = m_sample.npu->find("Module.blocks.1.Block.forward.0");
        QTest::mouseDClick(problem->viewport(), Qt::LeftButton, {}, pointOf(problem, block));
        QVERIFY(waitSettled(*view));
        const std::uint32_t benchBlock = m_sample.bench->find(m_sample.npu->nodes[block].link.back());
        QVERIFY(benchBlock != kNoVisNode);
        QVERIFY(view->sideView(Side::Bench)->layoutState().isExpanded(benchBlock));
        for (auto child : m_sample.bench->nodes[benchBlock].children)
            QVERIFY(view->sideView(Side::Bench)->layoutState().isVisible(child));
    }

    void selectionSyncsToTheMatchedBenchNode()
    {
        StudioFocus focus;
        auto view = showView(m_sample, &focus);
        QVERIFY(waitSettled(*view));
        GraphSideView* problem = view->sideView(Side::Problem);
        GraphSideView* bench = view->sideView(Side::Bench);
        const std::uint32_t head = m_sample.npu->find("Module.head.Linear.forward.0");
        QTest::mouseClick(problem->viewport(), Qt::LeftButton, {}, pointOf(problem, head));
        QCOMPARE(focus.node(), q("Module.head.Linear.forward.0"));
        QCOMPARE(int(focus.side()), int(Side::Problem));
        QCOMPARE(problem->selectedNode(), head);
        QCOMPARE(bench->selectedNode(), m_sample.bench->find(m_sample.npu->nodes[head].link.back()));

        // A node hidden inside collapsed modules: picking it opens its ancestors on both sides.
        const std::string deep = "Module.blocks.1.attn.q_proj.Linear.forward.0";
        const std::uint32_t node = m_sample.npu->find(deep);
        QVERIFY(node != kNoVisNode && !problem->layoutState().isVisible(node));
        focus.setNode(q(deep), Side::Problem);
        QVERIFY(waitSettled(*view));
        QVERIFY(problem->layoutState().isVisible(node));
        const std::uint32_t partner = m_sample.bench->find(m_sample.npu->nodes[node].link.back());
        QCOMPARE(bench->selectedNode(), partner);
        QVERIFY(bench->layoutState().isVisible(partner));
        // ...and centres it: the partner's box is inside the bench viewport.
        const QRectF visible = bench->mapToScene(bench->viewport()->rect()).boundingRect();
        QVERIFY(visible.contains(bench->layoutState().boxOf(partner)->rect.center()));
    }

    void firstDivergenceIsTheFirstErrorLeaf()
    {
        StudioFocus focus;
        auto view = showView(m_synthetic, &focus);
        QVERIFY(waitSettled(*view));
        std::string expected;
        for (const auto& node : m_synthetic.npu->nodes)
            if (expected.empty() && node.children.empty() && node.matched() && node.precision >= 0.6)
                expected = node.name;
        QCOMPARE(q(expected), q("Functional.linear.1.forward"));
        QVERIFY(view->goToFirstDivergence());
        QCOMPARE(focus.node(), q(expected));
        QVERIFY(waitSettled(*view));
        QVERIFY(view->sideView(Side::Problem)->layoutState().isVisible(m_synthetic.npu->find(expected)));
    }

    void filterCountsEqualTheGraph()
    {
        StudioFocus focus;
        NodeListPanel panel;
        panel.setStudioFocus(&focus);
        panel.show();
        panel.setGraphs(m_synthetic.npu, m_synthetic.bench, m_synthetic.db->config());
        auto box = [&](const char* name) { return panel.findChild<QCheckBox*>(QString::fromLatin1(name)); };
        auto header = panel.findChild<QLabel*>(QStringLiteral("header"));
        QCOMPARE(panel.count(), int(m_synthetic.npu->nodes.size())); // no filter: every debug node

        struct Case {
            const char* box;
            std::size_t expected;
        };
        std::size_t unmatched = 0, critical = 0;
        for (const auto& node : m_synthetic.npu->nodes) {
            unmatched += node.children.empty() && node.link.empty();
            critical += node.children.empty() && node.overflow == "critical";
        }
        const std::size_t errors = leavesInRange(*m_synthetic.npu, 0.6, 1.1);
        QCOMPARE(errors, std::size_t(2));
        QCOMPARE(unmatched, std::size_t(1));
        QCOMPARE(critical, std::size_t(1));
        for (const Case& c : { Case { "pass", leavesInRange(*m_synthetic.npu, 0, 0.3) }, Case { "warning", leavesInRange(*m_synthetic.npu, 0.3, 0.6) },
                 Case { "error", errors }, Case { "unmatched", unmatched }, Case { "critical", critical } }) {
            QTest::mouseClick(box(c.box), Qt::LeftButton, {}, QPoint(5, box(c.box)->height() / 2));
            QVERIFY2(box(c.box)->isChecked(), c.box);
            QCOMPARE(panel.count(), int(c.expected));
            QCOMPARE(header->text(), QStringLiteral("Node list (%1)").arg(c.expected));
            QTest::mouseClick(box(c.box), Qt::LeftButton, {}, QPoint(5, box(c.box)->height() / 2));
        }
        // Two levels together: the union.
        box("error")->setChecked(true);
        box("unmatched")->setChecked(true);
        QCOMPARE(panel.count(), int(errors + unmatched));
        QCOMPARE(panel.nodeAt(0), q("Functional.linear.1.forward"));
        // Next walks the list and moves the shared focus.
        auto next = panel.findChild<QToolButton*>(QStringLiteral("next"));
        QTest::mouseClick(next, Qt::LeftButton);
        QCOMPARE(focus.node(), panel.nodeAt(0));
        QTest::mouseClick(next, Qt::LeftButton);
        QCOMPARE(focus.node(), panel.nodeAt(1));
        box("error")->setChecked(false);
        box("unmatched")->setChecked(false);

        // Substring search (case-insensitive) and regex, on both sides.
        std::size_t linear = 0, backwardModules = 0;
        for (const auto& node : m_synthetic.bench->nodes) {
            linear += QString::fromStdString(node.name).contains(QStringLiteral("LINEAR"), Qt::CaseInsensitive);
            backwardModules += node.name.starts_with("Module.") && node.name.find(".backward.") != std::string::npos;
        }
        panel.findChild<QComboBox*>(QStringLiteral("side"))->setCurrentIndex(1);
        QTest::keyClicks(panel.findChild<QLineEdit*>(QStringLiteral("search")), QStringLiteral("LINEAR"));
        QCOMPARE(panel.count(), int(linear));
        QVERIFY(linear > 0);
        // Each listed name marks where the search text matched (drawn by the list's highlight delegate).
        auto* list = panel.findChild<QListView*>(QStringLiteral("nodeList"));
        QVERIFY(qobject_cast<MatchHighlightDelegate*>(list->itemDelegate()));
        for (int row = 0; row < panel.count(); ++row) {
            const QModelIndex index = list->model()->index(row, 0);
            const QPoint span = index.data(NodeListModel::MatchSpanRole).toPoint();
            QCOMPARE(span.y(), 6);
            QCOMPARE(index.data().toString().mid(span.x(), span.y()).toLower(), QStringLiteral("linear"));
        }
        const QPixmap marked = list->grab(); // paints with the marks
        QVERIFY(!marked.isNull());
        if (qEnvironmentVariableIsSet("MSPROBE_SHOTS")) // for a look by eye
            marked.save(qEnvironmentVariable("MSPROBE_SHOTS") + QStringLiteral("/node_list_highlight.png"));
        panel.findChild<QLineEdit*>(QStringLiteral("search"))->setText(QStringLiteral("^Module\\..*\\.backward\\."));
        box("regex")->setChecked(true);
        QCOMPARE(panel.count(), int(backwardModules));
        QVERIFY(backwardModules > 0);
        const QModelIndex firstRegexRow = list->model()->index(0, 0);
        const QPoint regexSpan = firstRegexRow.data(NodeListModel::MatchSpanRole).toPoint();
        QCOMPARE(regexSpan.x(), 0);
        QVERIFY(firstRegexRow.data().toString().mid(0, regexSpan.y()).endsWith(QStringLiteral(".backward.")));
        QCOMPARE(int(panel.side()), int(Side::Bench));
    }

    void dragBetweenUnmatchedNodesProposesAMatch()
    {
        StudioFocus focus;
        auto view = showView(m_synthetic, &focus);
        QVERIFY(waitSettled(*view));
        GraphSideView* problem = view->sideView(Side::Problem);
        GraphSideView* bench = view->sideView(Side::Bench);
        const std::uint32_t mul = m_synthetic.npu->find("Tensor.mul.0.forward"), add = m_synthetic.bench->find("Tensor.add.0.forward");
        QVERIFY(!m_synthetic.npu->nodes[mul].matched() && !m_synthetic.bench->nodes[add].matched());
        problem->selectNode(mul, true, true);
        bench->selectNode(add, true, true);
        QVERIFY(waitSettled(*view));

        QSignalSpy dropped(view.get(), &GraphDiffView::nodeDropped);
        auto drag = [](GraphSideView* from, QPoint start, GraphSideView* onto, QPoint end) {
            const QPoint endInFrom = from->viewport()->mapFromGlobal(onto->viewport()->mapToGlobal(end));
            QTest::mousePress(from->viewport(), Qt::LeftButton, {}, start);
            QTest::mouseMove(from->viewport(), start + QPoint(20, 0));
            QTest::mouseMove(from->viewport(), endInFrom);
            QTest::mouseRelease(from->viewport(), Qt::LeftButton, {}, endInFrom);
        };
        const QPoint mulAt = pointOf(problem, mul), addAt = pointOf(bench, add);
        drag(problem, mulAt, bench, addAt);
        QCOMPARE(dropped.size(), 1);
        QCOMPARE(dropped.at(0).at(0).toString(), q("Tensor.mul.0.forward"));
        QCOMPARE(dropped.at(0).at(1).toString(), q("Tensor.add.0.forward"));
        // The other direction gives the pair in the same (problem, bench) order.
        drag(bench, addAt, problem, mulAt);
        QCOMPARE(dropped.size(), 2);
        QCOMPARE(dropped.at(1).at(0).toString(), q("Tensor.mul.0.forward"));
        QCOMPARE(dropped.at(1).at(1).toString(), q("Tensor.add.0.forward"));
        // Released over empty space: nothing proposed, and a short press is a click, not a drag.
        drag(problem, mulAt, bench, QPoint(2, 2));
        QCOMPARE(dropped.size(), 2);
    }

    // A communication node's context menu lists its peers per rank; choosing one switches the rank and selects the peer.
    void peerMenuSwitchesRank()
    {
        StudioFocus focus;
        auto view = showView(m_synthetic, &focus);
        const graph::VisNode* comm = nullptr;
        for (const auto& node : m_synthetic.npu->nodes)
            if (!graph::distributedInfo(node.matchedDistributed).peers.empty()) {
                comm = &node;
                break;
            }
        QVERIFY(comm);
        const auto info = graph::distributedInfo(comm->matchedDistributed);
        QMenu menu;
        view->addPeerMenu(menu, *comm);
        QCOMPARE(menu.actions().size(), qsizetype(1));
        QMenu* peers = menu.actions().front()->menu();
        QVERIFY(peers);
        const QString expectedTitle = QString::fromLatin1(info.type == "send" ? "Data send" : info.type == "receive" ? "Data receive" : "Data send-receive");
        QCOMPARE(peers->title(), expectedTitle);
        QCOMPARE(peers->actions().size(), qsizetype(info.peers.size()));
        QAction* first = peers->actions().front();
        QCOMPARE(first->text(), QStringLiteral("rank%1").arg(info.peers.front().rank));
        QVERIFY(!first->icon().isNull());
        first->trigger();
        QCOMPARE(focus.rank(), info.peers.front().rank);
        QCOMPARE(focus.node(), QString::fromStdString(info.peers.front().node));

        QMenu plain;
        view->addPeerMenu(plain, m_synthetic.npu->nodes[m_synthetic.npu->root()]);
        QVERIFY(plain.actions().isEmpty());
    }

    // The legend wraps onto more rows in a narrow window instead of cutting entries off.
    void legendWrapsWhenNarrow()
    {
        StudioFocus focus;
        auto view = showView(m_sample, &focus);
        auto* legend = view->findChild<GraphLegend*>(QStringLiteral("legend"));
        QVERIFY(legend);
        QCOMPARE(legend->heightForWidth(4000), legend->sizeHint().height());
        QVERIFY(legend->heightForWidth(300) > 2 * legend->heightForWidth(4000) - 4);
        view->resize(520, 700); // the legend has a row of its own: narrower than its entries
        QVERIFY(QTest::qWaitFor([&] { return legend->rowCount() >= 2; }, 5000));
        QVERIFY(legend->height() >= legend->heightForWidth(legend->width()));
        view->resize(2600, 900);
        QVERIFY(QTest::qWaitFor([&] { return legend->rowCount() == 1; }, 5000));
    }

    // Shape entries explain themselves (the plugin's header tooltips); colour chips and empty space fall
    // back to the legend's general tooltip.
    void legendEntriesHaveTooltips()
    {
        GraphLegend legend;
        legend.resize(2000, legend.heightForWidth(2000));
        const int y = legend.height() / 2;
        QCOMPARE(legend.toolTipAt(QPoint(10, y)), GraphLegend::tr("A module or operator; double-click a module to expand it"));
        const QString general = legend.toolTip();
        QVERIFY(!general.isEmpty());
        QCOMPARE(legend.toolTipAt(QPoint(1990, y)), general);
        QStringList tips;
        for (int x = 2; x < legend.sizeHint().width(); x += 4)
            if (const QString tip = legend.toolTipAt(QPoint(x, y)); tip != general && !tips.contains(tip))
                tips << tip;
        QCOMPARE(tips, QStringList({ GraphLegend::tr("A module or operator; double-click a module to expand it"),
                           GraphLegend::tr("An unexpanded node: it has no children, so it cannot be expanded"),
                           GraphLegend::tr("A collection of standalone APIs between modules"),
                           GraphLegend::tr("A collection of fused operators"),
                           GraphLegend::tr("A matched node without a compared output (no grade); a matched bench node "
                                           "takes its debug partner's colour"),
                           GraphLegend::tr("No node on the other side") }));
    }

    // Each side has its own mini-map toggle; a single graph has no bench toggle.
    void minimapTogglesPerSide()
    {
        StudioFocus focus;
        auto view = showView(m_sample, &focus);
        auto minimapOf = [&](Side side) { return view->sideView(side)->findChild<GraphMinimap*>(); };
        auto* problemBox = view->findChild<QCheckBox*>(QStringLiteral("problemMinimap"));
        auto* benchBox = view->findChild<QCheckBox*>(QStringLiteral("benchMinimap"));
        QVERIFY(problemBox && benchBox && minimapOf(Side::Problem) && minimapOf(Side::Bench));
        QVERIFY(!minimapOf(Side::Problem)->isHidden() && !minimapOf(Side::Bench)->isHidden());
        benchBox->setChecked(false);
        QVERIFY(minimapOf(Side::Bench)->isHidden());
        QVERIFY(!minimapOf(Side::Problem)->isHidden());
        problemBox->setChecked(false);
        QVERIFY(minimapOf(Side::Problem)->isHidden());
        view->setGraphs(m_sample.npu, nullptr, m_sample.db->config());
        QVERIFY(benchBox->isHidden());
    }

    void hoverExplainsTheColour()
    {
        const std::uint32_t node = m_synthetic.npu->find("Functional.linear.1.forward");
        const auto [in, out] = m_synthetic.db->nodeData(0, 0, "NPU", "Functional.linear.1.forward");
        const auto summaries = graph::summarizeSubtrees(*m_synthetic.npu);
        const QString tip = msprobe::views::nodeToolTip(*m_synthetic.npu, node, false, m_synthetic.db->config().task, in, out, &summaries[node]);
        QVERIFY2(tip.contains(QStringLiteral("level: <b>error</b>")), qPrintable(tip));
        QVERIFY2(tip.contains(QStringLiteral("NormRelativeErr")), qPrintable(tip));
        QVERIFY2(tip.contains(QStringLiteral("55.555556%")), qPrintable(tip)); // the spec's worked example
        const std::uint32_t net = m_synthetic.npu->find("Module.model.Net.backward.0");
        const QString below = msprobe::views::nodeToolTip(*m_synthetic.npu, net, false, "summary", {}, {}, &summaries[net]);
        QVERIFY2(below.contains(QStringLiteral("below: 1 error(s)")), qPrintable(below));
    }

    // Collapse all / expand to depth N, on both sides, counted from the graph itself.
    void expandToDepthOpensExactlyThoseLevels()
    {
        StudioFocus focus;
        auto view = showView(m_sample, &focus);
        QVERIFY(waitSettled(*view));
        for (int depth : { 2, 0, 1 }) {
            view->expandToDepth(depth);
            QVERIFY(waitSettled(*view));
            for (Side side : { Side::Problem, Side::Bench }) {
                const GraphLayoutState& state = view->sideView(side)->layoutState();
                const msprobe::graph::VisGraph& graph = *state.graph();
                int opened = 0;
                for (std::uint32_t node = 0; node < graph.nodes.size(); ++node) {
                    if (!state.isExpandable(node))
                        continue;
                    int below = 0;
                    for (std::uint32_t up = graph.nodes[node].parent; up != graph.root(); up = graph.nodes[up].parent)
                        ++below;
                    QCOMPARE(state.isExpanded(node), below < depth);
                    opened += state.isExpanded(node);
                }
                QCOMPARE(opened > 0, depth > 0);
            }
        }
    }

    void exportWritesPngAndSvg()
    {
        StudioFocus focus;
        auto view = showView(m_sample, &focus);
        QVERIFY(waitSettled(*view));
        const QString png = m_tmp.filePath(QStringLiteral("diff.png")), svg = m_tmp.filePath(QStringLiteral("diff.svg"));
        QVERIFY2(view->exportImage(png), qPrintable(view->errorString()));
        QImage image;
        QVERIFY(image.load(png, "PNG"));
        const QRectF left = view->sideView(Side::Problem)->graphBounds(), right = view->sideView(Side::Bench)->graphBounds();
        // Both sides side by side (40 apart) with a 24 px margin, at least as wide as the legend's 640 px, at twice
        // the scene size (small graphs are exported at 2x).
        QCOMPARE(image.width(), int((std::max(left.width() + 40 + right.width(), 640.0) + 2 * 24) * 2));
        QCOMPARE(image.pixelColor(2, image.height() - 2), QColor(Qt::white));
        QVERIFY2(view->exportImage(svg), qPrintable(view->errorString()));
        QSvgRenderer renderer(svg);
        QVERIFY(renderer.isValid());
        QFile text(svg);
        QVERIFY(text.open(QIODevice::ReadOnly));
        QVERIFY(text.readAll().contains("Module.blocks.0.Block.forward.0"));
        QVERIFY(!view->exportImage(m_tmp.filePath(QStringLiteral("missing/dir/diff.png"))));
        QVERIFY(!view->errorString().isEmpty());
    }

    // For looking at the widget: MSPROBE_SCREENSHOT_DIR=/tmp saves the sample pair with a module open and a node
    // selected, and the synthetic pair in overflow colours.
    void screenshotForReview()
    {
        const QString dir = qEnvironmentVariable("MSPROBE_SCREENSHOT_DIR");
        if (dir.isEmpty())
            QSKIP("set MSPROBE_SCREENSHOT_DIR to save screenshots");
        StudioFocus focus;
        auto view = showView(m_sample, &focus);
        QVERIFY(waitSettled(*view));
        focus.setNode(QStringLiteral("Module.blocks.1.mlp.act.GELU.backward.0"), Side::Problem);
        QVERIFY(waitSettled(*view));
        QVERIFY(view->grab().save(dir + QStringLiteral("/graphdiff_sample.png")));
        auto synthetic = showView(m_synthetic, &focus);
        QVERIFY(waitSettled(*synthetic));
        focus.setNode(QStringLiteral("Torch.relu.0.backward"), Side::Problem);
        QVERIFY(waitSettled(*synthetic));
        QVERIFY(synthetic->grab().save(dir + QStringLiteral("/graphdiff_synthetic.png")));
        synthetic->setColourMode(msprobe::views::graphstyle::ColourMode::Overflow);
        QVERIFY(synthetic->grab().save(dir + QStringLiteral("/graphdiff_overflow.png")));
        NodeListPanel panel;
        panel.setGraphs(m_synthetic.npu, m_synthetic.bench, m_synthetic.db->config());
        panel.findChild<QCheckBox*>(QStringLiteral("error"))->setChecked(true);
        panel.findChild<QCheckBox*>(QStringLiteral("unmatched"))->setChecked(true);
        panel.resize(320, 500);
        panel.show();
        QVERIFY(panel.grab().save(dir + QStringLiteral("/graphdiff_panel.png")));
    }
};

QTEST_MAIN(TestGraphDiff)
#include "tst_views_graphdiff.moc"
