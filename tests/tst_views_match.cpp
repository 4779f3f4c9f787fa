// SPDX-License-Identifier: Apache-2.0
// MatchController and NodeMatchPanel on compare vis.db files built from the reference's real dumps: every
// operation is one undo command whose undo/redo gives the db rows back exactly, tensor-mode plans run on a worker,
// failures leave the db and the history alone, the panel lists what the db holds.
#include "tst_graph_inputs.h"

#include "graph/graph_run.h"
#include "match/matchcontroller.h"
#include "match/nodematchpanel.h"
#include "match/nodepicklist.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QUndoStack>

using namespace msprobe;
using namespace msprobe::test;
using namespace msprobe::graph;
namespace fs = std::filesystem;

namespace {

std::vector<DbRow> allRows(const fs::path& db)
{
    return readRows(db, "SELECT id, matched_node_link, precision_index, modified, input_data, output_data FROM tb_nodes ORDER BY id");
}

std::size_t countRows(const fs::path& db, const std::string& where)
{
    return std::stoul(readRows(db, "SELECT COUNT(*) AS n FROM tb_nodes WHERE step = 0 AND rank = 0 AND " + where).at(0).at("n"));
}

} // namespace

class TestViewsMatch : public QObject {
    Q_OBJECT

    QTemporaryDir m_tmp;
    std::map<std::string, fs::path> m_built;
    int m_copies = 0;

    fs::path copyOf(const std::string& mode)
    {
        const fs::path dir = fs::path(m_tmp.path().toStdString()) / ("copy" + std::to_string(++m_copies));
        fs::create_directories(dir);
        const fs::path file = dir / m_built.at(mode).filename();
        fs::copy_file(m_built.at(mode), file);
        return file;
    }

private slots:
    void initTestCase()
    {
        for (const char* mode : { "statistics", "tensor" }) {
            GraphRunOptions options;
            options.target = onlySubdir(refDumps() / (std::string("problem_mix_") + mode) / "step0");
            options.golden = onlySubdir(refDumps() / (std::string("bench_mix_") + mode) / "step0");
            options.output = fs::path(m_tmp.path().toStdString()) / mode;
            m_built[mode] = runGraphVisualize(options).database;
        }
    }

    void undoRedoRestoresTheRowsExactly()
    {
        const fs::path db = copyOf("statistics");
        const auto original = allRows(db);
        VisDb vis(db);
        auto problem = std::make_shared<VisGraph>(vis.load(0, 0, "NPU"));
        auto bench = std::make_shared<VisGraph>(vis.load(0, 0, "Bench"));
        MatchController controller;
        QVERIFY2(controller.open(q(db.string()), 0, 0, problem, bench), qPrintable(controller.errorString()));
        QSignalSpy changed(&controller, &MatchController::nodesChanged);

        controller.match(QStringLiteral("Functional.linear.0.forward"), QStringLiteral("Functional.linear.1.forward"));
        QCOMPARE(controller.undoStack()->count(), 1);
        QCOMPARE(changed.count(), 1);
        const QStringList names = changed.at(0).at(0).toStringList();
        QVERIFY(names.contains(QStringLiteral("Functional.linear.0.forward")));
        QVERIFY(names.contains(QStringLiteral("Functional.linear.1.forward")));
        const auto matched = allRows(db);
        QVERIFY(matched != original);
        // The graphs the views show follow the db.
        QCOMPARE(problem->nodes[problem->find("Functional.linear.0.forward")].link.back(), std::string("Functional.linear.1.forward"));
        QVERIFY(problem->nodes[problem->find("Functional.linear.0.forward")].modified);
        QCOMPARE(readMappingFile(visConfigPath(db, 0, 0)).empty(), false);

        controller.undoStack()->undo();
        QVERIFY(allRows(db) == original);
        QCOMPARE(problem->nodes[problem->find("Functional.linear.0.forward")].link.back(), std::string("Functional.linear.0.forward"));
        QVERIFY(readMappingFile(visConfigPath(db, 0, 0)).empty()); // nothing made by hand any more
        controller.undoStack()->redo();
        QVERIFY(allRows(db) == matched);

        // Unmatching a module with its descendants is one command too.
        controller.unmatch(QStringLiteral("Module.blocks.0.Block.forward.0"), true);
        QCOMPARE(controller.undoStack()->count(), 2);
        QVERIFY(countRows(db, "modified = 1 AND data_source = 'NPU'") > 5);
        controller.undoStack()->undo();
        QVERIFY(allRows(db) == matched);
        controller.undoStack()->undo();
        QVERIFY(allRows(db) == original);
    }

    void tensorPlansRunOnAWorker()
    {
        const fs::path db = copyOf("tensor");
        const auto original = allRows(db);
        MatchController controller;
        QVERIFY2(controller.open(q(db.string()), 0, 0), qPrintable(controller.errorString()));
        QSignalSpy busy(&controller, &MatchController::busyChanged);
        controller.match(QStringLiteral("Functional.linear.0.forward"), QStringLiteral("Functional.linear.1.forward"));
        QTRY_COMPARE_WITH_TIMEOUT(controller.undoStack()->count(), 1, 60000);
        QCOMPARE(busy.count(), 2); // busy, then idle
        QVERIFY(!controller.isBusy());
        const auto row = readRows(db, "SELECT input_data FROM tb_nodes WHERE data_source = 'NPU' AND node_name = 'Functional.linear.0.forward'");
        QVERIFY(q(row.at(0).at("input_data")).contains(QStringLiteral("\"Cosine\"")));
        controller.undoStack()->undo();
        QVERIFY(allRows(db) == original);
    }

    void failuresLeaveTheDbAndTheHistoryAlone()
    {
        const fs::path db = copyOf("statistics");
        const auto original = allRows(db);
        MatchController controller;
        QVERIFY(controller.open(q(db.string()), 0, 0));
        QSignalSpy failed(&controller, &MatchController::failed);
        controller.match(QStringLiteral("Module.head.Linear.forward.0"), QStringLiteral("Functional.linear.0.forward"));
        QCOMPARE(failed.count(), 1);
        QVERIFY(failed.at(0).at(0).toString().contains(QStringLiteral("node types differ")));
        QCOMPARE(controller.undoStack()->count(), 0);
        QVERIFY(allRows(db) == original);

        QVERIFY(!controller.open(QStringLiteral("/no/such.vis.db"), 0, 0));
        QVERIFY(controller.errorString().contains(QStringLiteral("/no/such.vis.db")));
        QVERIFY(!controller.isOpen());
    }

    void panelListsAndMatches()
    {
        const fs::path db = copyOf("statistics");
        MatchController controller;
        NodeMatchPanel panel(&controller);
        StudioFocus focus;
        panel.setStudioFocus(&focus);
        QVERIFY(controller.open(q(db.string()), 0, 0));
        panel.refresh();
        QCOMPARE(std::size_t(panel.problemUnmatched()->count()), countRows(db, "data_source = 'NPU' AND matched_node_link = '[]'"));
        QCOMPARE(std::size_t(panel.benchUnmatched()->count()), countRows(db, "data_source = 'Bench' AND matched_node_link = '[]'"));
        QCOMPARE(std::size_t(panel.problemMatched()->count()), countRows(db, "data_source = 'NPU' AND matched_node_link != '[]'"));
        // The lists follow the micro-step filter ((? = -1 OR micro_step_id = ?), as the plugin queries).
        {
            // The reference dumps have one micro step: give every third row micro step 1 to see the filter work.
            msprobe::SqliteDb writable(db, false);
            msprobe::SqliteStatement(writable, "UPDATE tb_nodes SET micro_step_id = 1 WHERE node_order % 3 = 0").step();
        }
        QVERIFY(controller.open(q(db.string()), 0, 0));
        QVERIFY(countRows(db, "micro_step_id = 1") > 0);
        for (int micro : { 0, 1, 7 }) {
            focus.setMicroStep(micro);
            const std::string where = " AND micro_step_id = " + std::to_string(micro);
            QCOMPARE(std::size_t(panel.problemUnmatched()->count()), countRows(db, "data_source = 'NPU' AND matched_node_link = '[]'" + where));
            QCOMPARE(std::size_t(panel.benchMatched()->count()), countRows(db, "data_source = 'Bench' AND matched_node_link != '[]'" + where));
        }
        focus.setMicroStep(-1);
        QCOMPARE(std::size_t(panel.problemMatched()->count()), countRows(db, "data_source = 'NPU' AND matched_node_link != '[]'"));

        // A node picked in the graph is pre-selected with its partner.
        focus.setNode(QStringLiteral("Functional.linear.0.forward"), StudioFocus::Side::Problem);
        QCOMPARE(panel.problemMatched()->currentName(), QStringLiteral("Functional.linear.0.forward"));
        QCOMPARE(panel.benchMatched()->currentName(), QStringLiteral("Functional.linear.0.forward"));
        const int matchedBefore = panel.problemMatched()->count();
        panel.unmatchSelected();
        QCOMPARE(panel.problemMatched()->count(), matchedBefore - 1);
        QVERIFY(panel.problemUnmatched()->setCurrentName(QStringLiteral("Functional.linear.0.forward")));
        QVERIFY(panel.benchUnmatched()->setCurrentName(QStringLiteral("Functional.linear.0.forward")));
        panel.matchSelected();
        QCOMPARE(panel.problemMatched()->count(), matchedBefore);
        QCOMPARE(controller.undoStack()->count(), 2);

        panel.problemUnmatched()->setFilter(QStringLiteral("NO-SUCH-NAME"));
        QCOMPARE(panel.problemUnmatched()->visibleCount(), 0);

        // Generate, then apply a file with one bad pair: the report counts it.
        panel.generateFile();
        QVERIFY(fs::exists(visConfigPath(db, 0, 0)));
        writeFile(db.parent_path() / "extra.vis.config", "{\"Functional.linear.0.forward\": \"Functional.linear.1.forward\", \"No.such\": null}");
        QSignalSpy applied(&controller, &MatchController::mappingFileApplied);
        controller.applyMappingFile(q((db.parent_path() / "extra.vis.config").string()));
        QCOMPARE(applied.count(), 1);
        QCOMPARE(applied.at(0).at(0).toInt(), 2);
        QCOMPARE(applied.at(0).at(1).toInt(), 1);
        QCOMPARE(applied.at(0).at(2).toInt(), 1);
        QVERIFY(panel.reportText().contains(QStringLiteral("total 2 / success 1 / failed 1")));
    }
};

QTEST_MAIN(TestViewsMatch)
#include "tst_views_match.moc"
