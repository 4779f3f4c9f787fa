// SPDX-License-Identifier: Apache-2.0
// MatchController and NodeMatchPanel on compare vis.db files built from the reference's real dumps: every
// operation is one undo command whose undo/redo gives the db rows back exactly, tensor-mode plans run on a worker,
// failures leave the db and the history alone, the panel lists what the db holds.
#include "tst_graph_inputs.h"

#include "graph/graph_run.h"
#include "match/matchcontroller.h"
#include "match/nodematchpanel.h"
#include "match/nodepicklist.h"
#include "studiosession.h"

#include <nlohmann/json.hpp>

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

// Opens db in session as the studio does (File > Open vis.db) and waits for the load.
bool openInSession(StudioSession& session, const fs::path& db)
{
    msprobe::studio::LoadRequest request;
    request.kind = msprobe::studio::LoadRequest::Kind::VisDb;
    request.path = q(db.string());
    QSignalSpy finished(&session, &StudioSession::loadFinished);
    session.open(request);
    return finished.wait(60000) && finished.front().at(0).toBool();
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
        StudioSession session;
        QVERIFY(openInSession(session, db));
        const auto problem = session.graphs(0, 0).problem;
        QVERIFY(problem && session.graphs(0, 0).bench);
        MatchController controller(&session);
        QVERIFY2(controller.open(0, 0), qPrintable(controller.errorString()));
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

    // A C++ capture (Aten.*) against a Python dump of the same block: an operator node re-matched by hand pairs
    // its items as the automatic cross-runtime pairing does (aten argument names: Torch.softmax's dim= keyword
    // meets the aten call's positional dim; layer_norm's cudnn_enable, add's alpha, gelu's approximate left out),
    // so every node's data and precision come back exactly as graph_visualize wrote them. By position they do not
    // (the one-runtime-only arguments would be rows compared with nothing).
    void crossRuntimeRematchPairsItemsByAtenArgumentNames()
    {
        GraphRunOptions options;
        options.target = dataDir() / "crossruntime" / "aten";
        options.golden = dataDir() / "crossruntime" / "python";
        options.output = fs::path(m_tmp.path().toStdString()) / "crossruntime";
        const fs::path db = runGraphVisualize(options).database;
        const std::string operators = "SELECT node_name, matched_node_link, precision_index, input_data, output_data FROM tb_nodes "
                                      "WHERE step = 0 AND rank = 0 AND data_source = 'NPU' AND node_name LIKE 'Aten.%' ORDER BY id";
        const auto automatic = readRows(db, operators);
        QCOMPARE(automatic.size(), std::size_t(11));
        StudioSession session;
        QVERIFY(openInSession(session, db));
        MatchController controller(&session);
        QVERIFY2(controller.open(0, 0), qPrintable(controller.errorString()));
        QSignalSpy failed(&controller, &MatchController::failed);
        for (const auto& row : automatic) {
            const auto link = nlohmann::json::parse(row.at("matched_node_link"));
            QVERIFY2(!link.empty(), row.at("node_name").c_str());
            const QString node = q(row.at("node_name"));
            controller.unmatch(node);
            controller.match(node, q(link.back().get<std::string>()));
        }
        QCOMPARE(failed.count(), 0);
        QCOMPARE(controller.undoStack()->count(), 22);
        const auto byHand = readRows(db, operators);
        QCOMPARE(byHand.size(), automatic.size());
        for (std::size_t i = 0; i < byHand.size(); ++i) {
            const std::string& node = byHand[i].at("node_name");
            QCOMPARE(q(byHand[i].at("matched_node_link")), q(automatic[i].at("matched_node_link")));
            QVERIFY2(byHand[i].at("precision_index") == "0", node.c_str()); // a pass, as automatically
            for (const char* column : { "input_data", "output_data" })
                QVERIFY2(nlohmann::json::parse(byHand[i].at(column)) == nlohmann::json::parse(automatic[i].at(column)),
                    (node + " " + column + ":\n" + byHand[i].at(column) + "\nautomatic:\n" + automatic[i].at(column)).c_str());
        }
        // The rows say which argument met which: softmax's positional dim has its compare results, layer_norm's
        // cudnn_enable (aten only) none.
        const auto softmax = std::find_if(byHand.begin(), byHand.end(), [](const DbRow& r) { return r.at("node_name") == "Aten.softmax.0.forward"; });
        QVERIFY(softmax != byHand.end());
        const auto resultOf = [](const nlohmann::json& item) { return item.value("Result", std::string()); };
        const auto softmaxInputs = nlohmann::json::parse(softmax->at("input_data"));
        QVERIFY2(resultOf(softmaxInputs.at("Aten.softmax.0.forward.input.1")) == "pass", softmax->at("input_data").c_str());
        const auto norm = std::find_if(byHand.begin(), byHand.end(), [](const DbRow& r) { return r.at("node_name") == "Aten.layer_norm.0.forward"; });
        QVERIFY(norm != byHand.end());
        const auto normInputs = nlohmann::json::parse(norm->at("input_data"));
        QVERIFY2(resultOf(normInputs.at("Aten.layer_norm.0.forward.input.4")) == "pass", norm->at("input_data").c_str());
        QVERIFY2(resultOf(normInputs.at("Aten.layer_norm.0.forward.input.5")) == "null", norm->at("input_data").c_str()); // not compared
    }

    void tensorPlansRunOnAWorker()
    {
        const fs::path db = copyOf("tensor");
        const auto original = allRows(db);
        StudioSession session;
        QVERIFY(openInSession(session, db));
        MatchController controller(&session);
        QVERIFY2(controller.open(0, 0), qPrintable(controller.errorString()));
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
        StudioSession session;
        QVERIFY(openInSession(session, db));
        MatchController controller(&session);
        QVERIFY(controller.open(0, 0));
        QSignalSpy failed(&controller, &MatchController::failed);
        controller.match(QStringLiteral("Module.head.Linear.forward.0"), QStringLiteral("Functional.linear.0.forward"));
        QCOMPARE(failed.count(), 1);
        QVERIFY(failed.at(0).at(0).toString().contains(QStringLiteral("node types differ")));
        QCOMPARE(controller.undoStack()->count(), 0);
        QVERIFY(allRows(db) == original);

        // A pair the db does not hold, and a session with nothing open, cannot be matched.
        QVERIFY(!controller.open(7, 7));
        QVERIFY2(controller.errorString().contains(q(db.string())), qPrintable(controller.errorString()));
        QVERIFY(!controller.isOpen());
        StudioSession empty;
        MatchController idle(&empty);
        QVERIFY(!idle.open(0, 0));
        QVERIFY(!idle.errorString().isEmpty());
    }

    // One owner: the controller matches through the session's handle (it opens nothing itself), and what it writes
    // is what the session's node data and graphs give the other panels at once.
    void matchingGoesThroughTheSessionsHandle()
    {
        const fs::path db = copyOf("statistics");
        StudioSession session;
        QVERIFY(openInSession(session, db));
        MatchController controller(&session);
        QVERIFY(controller.open(0, 0));
        const auto handle = session.manualMatcher(0, 0);
        QVERIFY(handle);
        QCOMPARE(controller.matcher(), handle.get());
        QCOMPARE(handle.use_count(), 3L); // the session's, the controller's and this test's

        const std::string node = "Functional.linear.0.forward";
        const auto before = session.nodeData(0, 0, StudioFocus::Side::Problem, node);
        controller.match(q(node), QStringLiteral("Functional.linear.1.forward"));
        QCOMPARE(controller.undoStack()->count(), 1);
        const auto stored = readRows(db, "SELECT input_data, output_data FROM tb_nodes WHERE data_source = 'NPU' AND node_name = '" + node + "'");
        const auto after = session.nodeData(0, 0, StudioFocus::Side::Problem, node);
        QCOMPARE(after.first, stored.at(0).at("input_data"));
        QCOMPARE(after.second, stored.at(0).at("output_data"));
        QVERIFY(after != before); // now compared with the new partner
        const auto problem = session.graphs(0, 0).problem;
        QCOMPARE(problem->nodes[problem->find(node)].link.back(), std::string("Functional.linear.1.forward"));

        // Another pair (or a new session) replaces the handle; the controller lets go of the old one on close.
        controller.close();
        QCOMPARE(handle.use_count(), 2L);
    }

    void panelListsAndMatches()
    {
        const fs::path db = copyOf("statistics");
        StudioSession session;
        QVERIFY(openInSession(session, db));
        MatchController controller(&session);
        NodeMatchPanel panel(&controller);
        StudioFocus focus;
        panel.setStudioFocus(&focus);
        QVERIFY(controller.open(0, 0));
        panel.refresh();
        QCOMPARE(std::size_t(panel.problemUnmatched()->count()), countRows(db, "data_source = 'NPU' AND matched_node_link = '[]'"));
        QCOMPARE(std::size_t(panel.benchUnmatched()->count()), countRows(db, "data_source = 'Bench' AND matched_node_link = '[]'"));
        QCOMPARE(std::size_t(panel.problemMatched()->count()), countRows(db, "data_source = 'NPU' AND matched_node_link != '[]'"));
        // The lists follow the micro-step filter ((? = -1 OR micro_step_id = ?), as the plugin queries).
        {
            // The reference dumps have one micro step: give every third row micro step 1 to see the filter work.
            msprobe::support::SqliteDb writable(db, false);
            msprobe::support::SqliteStatement(writable, "UPDATE tb_nodes SET micro_step_id = 1 WHERE node_order % 3 = 0").step();
        }
        QVERIFY(openInSession(session, db)); // read the db again, as reopening it in the studio does
        QVERIFY(controller.open(0, 0));
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
