// SPDX-License-Identifier: Apache-2.0
// NodeDetailsPanel / NodeDetailsModel on compare vis.db files built from the reference's real dumps: the table
// of a known node equals its stored JSON paired by position, a bench node brings its partner, the stacks are the
// db's, communication nodes list their peers and jump to them.
#include "tst_graph_inputs.h"

#include "details/nodedetailsmodel.h"
#include "details/nodedetailspanel.h"
#include "graph/graph_run.h"

#include <QAbstractItemModelTester>
#include <QGuiApplication>
#include <QPalette>
#include <QTemporaryDir>

using namespace msprobe;
using namespace msprobe::test;
using namespace msprobe::graph;
namespace fs = std::filesystem;

namespace {

// The stored items of one side, in order: (name, fields), inputs then outputs.
std::vector<std::pair<std::string, OJson>> storedItems(const std::string& text)
{
    std::vector<std::pair<std::string, OJson>> out;
    const OJson json = OJson::parse(text);
    for (const auto& [key, value] : json.items())
        out.emplace_back(key, value);
    return out;
}

} // namespace

class TestViewsDetails : public QObject {
    Q_OBJECT

    QTemporaryDir m_tmp;
    fs::path m_db, m_ranksDb;

private slots:
    void initTestCase()
    {
        GraphRunOptions options;
        options.target = onlySubdir(refDumps() / "problem_mix_statistics" / "step0");
        options.golden = onlySubdir(refDumps() / "bench_mix_statistics" / "step0");
        options.output = fs::path(m_tmp.path().toStdString()) / "one";
        m_db = runGraphVisualize(options).database;
        // Two ranks with a send/recv pair (the reference's gen_graph_dump.py example).
        options.target = graphData() / "synthetic" / "npu";
        options.golden = graphData() / "synthetic" / "bench";
        options.output = fs::path(m_tmp.path().toStdString()) / "ranks";
        m_ranksDb = runGraphVisualize(options).database;
    }

    void tableOfAKnownNodeEqualsItsStoredItems()
    {
        auto vis = std::make_shared<VisDb>(m_db);
        auto problem = std::make_shared<VisGraph>(vis->load(0, 0, "NPU", true));
        auto bench = std::make_shared<VisGraph>(vis->load(0, 0, "Bench", true));
        NodeDetailsPanel panel;
        QAbstractItemModelTester tester(panel.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        StudioFocus focus;
        panel.setGraphs(problem, bench, vis);
        panel.setStudioFocus(&focus);
        const std::string name = "Functional.linear.0.forward";
        focus.setNode(q(name), StudioFocus::Side::Problem);
        QCOMPARE(panel.problemNode(), q(name));
        QCOMPARE(panel.benchNode(), q(name)); // matched to its namesake

        const VisNode& npu = problem->nodes[problem->find(name)];
        const VisNode& other = bench->nodes[bench->find(name)];
        const auto npuIn = storedItems(npu.inputData), npuOut = storedItems(npu.outputData);
        const auto benchIn = storedItems(other.inputData), benchOut = storedItems(other.outputData);
        QCOMPARE(npuIn.size(), benchIn.size());
        // Expected rows: each input pair (debug, bench), then each output pair.
        std::vector<std::pair<std::string, const OJson*>> expected;
        for (const auto* sides : { &npuIn, &npuOut }) {
            const auto& other = sides == &npuIn ? benchIn : benchOut;
            for (std::size_t k = 0; k < sides->size(); ++k) {
                expected.emplace_back((*sides)[k].first, &(*sides)[k].second);
                expected.emplace_back(other[k].first, &other[k].second);
            }
        }
        const NodeDetailsModel& model = *panel.model();
        QCOMPARE(model.rowCount(), int(expected.size()));
        QCOMPARE(model.headerData(0, Qt::Horizontal).toString(), QStringLiteral("name"));
        QStringList columns;
        for (int c = 0; c < model.columnCount(); ++c)
            columns << model.headerData(c, Qt::Horizontal).toString();
        QVERIFY(!columns.contains(QStringLiteral("data_name")));
        QVERIFY(!columns.contains(QStringLiteral("value")));
        QVERIFY(columns.contains(QStringLiteral("NormRelativeErr")));
        QVERIFY(columns.indexOf(QStringLiteral("dtype")) < columns.indexOf(QStringLiteral("Max diff")));
        for (int r = 0; r < model.rowCount(); ++r) {
            const auto& [item, fields] = expected[std::size_t(r)];
            QCOMPARE(model.index(r, 0).data(NodeDetailsModel::IsBenchRole).toBool(), r % 2 == 1);
            QCOMPARE(model.index(r, 0).data(NodeDetailsModel::ItemNameRole).toString(), q(item));
            QCOMPARE(model.index(r, 0).data().toString(), q(item.substr(name.size() + 1))); // "input.0"
            for (int c = 1; c < model.columnCount(); ++c) {
                const std::string key = columns[c].toStdString();
                const QString want = fields->contains(key) ? q(fields->at(key).get<std::string>()) : QStringLiteral("-");
                QCOMPARE(model.index(r, c).data().toString(), want);
            }
        }
        const int result = int(columns.indexOf(QStringLiteral("Result")));
        QCOMPARE(model.index(0, result).data(Qt::BackgroundRole).value<QColor>(), QColor(QStringLiteral("#FFFCF3")));
        QCOMPARE(model.index(0, result).data(Qt::ForegroundRole).value<QColor>(), QColor(Qt::black)); // dark on the light level colour

        // The rows follow the theme: on a dark palette both sides' rows are dark, so its light text stays readable.
        const QPalette light = QGuiApplication::palette();
        QPalette dark = light;
        dark.setColor(QPalette::Base, QColor(0x1e, 0x1f, 0x22));
        dark.setColor(QPalette::Text, QColor(0xe6, 0xe6, 0xe6));
        QGuiApplication::setPalette(dark);
        for (int r : { 0, 1 }) {
            const QColor background = model.index(r, 1).data(Qt::BackgroundRole).value<QColor>();
            QVERIFY2(background.lightness() < 90, qPrintable(background.name()));
            QVERIFY(!model.index(r, 1).data(Qt::ForegroundRole).isValid()); // the theme's text colour
        }
        QVERIFY(model.index(1, 1).data(Qt::BackgroundRole).value<QColor>() != model.index(0, 1).data(Qt::BackgroundRole).value<QColor>());
        QGuiApplication::setPalette(light);

        // Stacks come from tb_stack.
        QString frames;
        for (const auto& frame : vis->stackFrames(npu.stackId))
            frames += (frames.isEmpty() ? QString() : QStringLiteral("\n")) + q(frame);
        QVERIFY(!frames.isEmpty());
        QCOMPARE(panel.stackText(StudioFocus::Side::Problem), frames);
    }

    void benchNodeBringsItsPartnerAndUnmatchedShowsOneSide()
    {
        auto vis = std::make_shared<VisDb>(m_db);
        auto problem = std::make_shared<VisGraph>(vis->load(0, 0, "NPU")); // without data: read on demand
        auto bench = std::make_shared<VisGraph>(vis->load(0, 0, "Bench"));
        NodeDetailsPanel panel;
        QAbstractItemModelTester tester(panel.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        StudioFocus focus;
        panel.setGraphs(problem, bench, vis);
        panel.setStudioFocus(&focus);
        focus.setNode(QStringLiteral("Module.head.Linear.forward.0"), StudioFocus::Side::Bench);
        QCOMPARE(panel.problemNode(), QStringLiteral("Module.head.Linear.forward.0"));
        QVERIFY(panel.model()->rowCount() > 0);

        // An NPU node without a partner: its own rows only, none paired.
        for (const auto& node : problem->nodes)
            if (!node.matched() && node.type == 1) {
                focus.setNode(q(node.name), StudioFocus::Side::Problem);
                QCOMPARE(panel.benchNode(), QString());
                const auto [in, out] = vis->nodeData(0, 0, "NPU", node.name);
                QCOMPARE(std::size_t(panel.model()->rowCount()), storedItems(in).size() + storedItems(out).size());
                for (int r = 0; r < panel.model()->rowCount(); ++r)
                    QVERIFY(!panel.model()->index(r, 0).data(NodeDetailsModel::IsPairedRole).toBool());
                break;
            }
        focus.clearNode();
        QCOMPARE(panel.model()->rowCount(), 0);
    }

    void communicationNodesListTheirPeersAndJump()
    {
        auto vis = std::make_shared<VisDb>(m_ranksDb);
        auto problem = std::make_shared<VisGraph>(vis->load(0, 0, "NPU"));
        auto bench = std::make_shared<VisGraph>(vis->load(0, 0, "Bench"));
        NodeDetailsPanel panel;
        StudioFocus focus;
        panel.setGraphs(problem, bench, vis);
        panel.setStudioFocus(&focus);
        const VisNode* comm = nullptr;
        for (const auto& node : problem->nodes)
            if (node.name.starts_with("Distributed.") && node.matchedDistributed.size() > 2) {
                comm = &node;
                break;
            }
        QVERIFY(comm);
        focus.setNode(q(comm->name), StudioFocus::Side::Problem);
        const auto info = distributedInfo(comm->matchedDistributed);
        QVERIFY(!info.peers.empty());
        QCOMPARE(panel.peers().size(), qsizetype(info.peers.size()));
        QCOMPARE(panel.peers().at(0), QString::number(info.peers[0].rank) + QLatin1Char('\t') + q(info.peers[0].node));
        panel.goToPeer(info.peers[0].rank, q(info.peers[0].node));
        QCOMPARE(focus.rank(), info.peers[0].rank);
        QCOMPARE(focus.node(), q(info.peers[0].node));
    }
};

QTEST_MAIN(TestViewsDetails)
#include "tst_views_details.moc"
