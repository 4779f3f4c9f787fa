// SPDX-License-Identifier: Apache-2.0
// Matching nodes by hand on compare vis.db files built from the reference's real dumps: unmatch + re-match gives
// the rows back byte for byte, a new pair is graded as computed by hand from its items, the saved mapping file
// replays the same rows headless through `msprobe graph_visualize --mapping-file`, failures leave the db alone.
#include "cli_runner.h"
#include "tst_graph_inputs.h"

#include "graph/graph_run.h"
#include "graph/match/manual_match.h"
#include "support/error.h"

#include <QTemporaryDir>

#include <cmath>

using namespace msprobe;
using namespace msprobe::test;
using namespace msprobe::graph;
namespace fs = std::filesystem;

namespace {

// Every tb_nodes row by "source|name", with the columns matching by hand may touch.
std::map<std::string, DbRow> nodeRows(const fs::path& db, int rank = 0)
{
    std::map<std::string, DbRow> out;
    for (auto& row : readRows(db, "SELECT data_source, node_name, matched_node_link, precision_index, modified, input_data, output_data "
                                  "FROM tb_nodes WHERE step = 0 AND rank = "
                + std::to_string(rank)))
        out[row["data_source"] + "|" + row["node_name"]] = row;
    return out;
}

DbRow withoutModified(DbRow row)
{
    row.erase("modified");
    return row;
}

OJson itemsOf(const std::string& text) { return OJson::parse(text); }

double number(const OJson& item, const char* key) { return std::stod(item.at(key).get<std::string>()); }

} // namespace

class TestGraphManualMatch : public QObject {
    Q_OBJECT

    QTemporaryDir m_tmp;
    std::map<std::string, fs::path> m_built; // mode -> a fresh compare db

    fs::path tmp(const std::string& name) const { return fs::path(m_tmp.path().toStdString()) / name; }

    fs::path build(const std::string& mode)
    {
        GraphRunOptions options;
        options.target = onlySubdir(refDumps() / ("problem_mix_" + mode) / "step0");
        options.golden = onlySubdir(refDumps() / ("bench_mix_" + mode) / "step0");
        options.output = tmp("built_" + mode);
        options.timestamp = "20260101000000";
        return runGraphVisualize(options).database;
    }

    // A private copy of a built db, so every test starts from the CLI's rows.
    fs::path copyOf(const std::string& mode, const std::string& name)
    {
        const fs::path dir = tmp(name);
        fs::create_directories(dir);
        const fs::path file = dir / m_built.at(mode).filename();
        fs::copy_file(m_built.at(mode), file, fs::copy_options::overwrite_existing);
        return file;
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_tmp.isValid());
        for (const char* mode : { "statistics", "md5", "tensor" })
            m_built[mode] = build(mode);
    }

    void unmatchThenRematchGivesTheRowsBack_data()
    {
        QTest::addColumn<QString>("mode");
        QTest::newRow("summary") << QStringLiteral("statistics");
        QTest::newRow("md5") << QStringLiteral("md5");
        QTest::newRow("tensor") << QStringLiteral("tensor");
    }

    void unmatchThenRematchGivesTheRowsBack()
    {
        QFETCH(QString, mode);
        const fs::path db = copyOf(mode.toStdString(), "rematch_" + mode.toStdString());
        const auto original = nodeRows(db);
        ManualMatcher matcher(db, 0, 0);
        std::size_t pairs = 0, graded = 0;
        for (const auto& node : matcher.npu().nodes) {
            if (!node.matched())
                continue;
            const std::string bench = node.link.back();
            const auto benchNode = matcher.bench().find(bench);
            if (benchNode == kNoVisNode || matcher.bench().nodes[benchNode].link.empty()
                || matcher.bench().nodes[benchNode].link.back() != node.name)
                continue; // a bench node keeps only the last NPU node that chose it
            ++pairs;
            graded += node.hasPrecision();
            const MatchEdit gone = matcher.unmatch(node.name, false);
            const DbRow unmatched = nodeRows(db).at("NPU|" + node.name);
            QCOMPARE(q(unmatched.at("matched_node_link")), QStringLiteral("[]"));
            if (node.type != 9) // API collections keep the worst precision of their APIs
                QCOMPARE(q(unmatched.at("precision_index")), QStringLiteral("NULL"));
            QVERIFY2(unmatched.at("input_data").find("\"Result\"") == std::string::npos, node.name.c_str());
            QCOMPARE(nodeRows(db).at("Bench|" + bench).at("matched_node_link"), std::string("[]"));
            QVERIFY(!gone.empty());

            const MatchEdit back = matcher.match(node.name, bench, false);
            // Only the rows of an edit are written; each is back as the CLI wrote it (but marked modified).
            const auto now = nodeRows(db);
            for (const auto* rows : { &gone.after, &back.after })
                for (const auto& written : *rows) {
                    const std::string key = written.dataSource + "|" + written.name;
                    if (withoutModified(now.at(key)) != withoutModified(original.at(key)))
                        QFAIL(qPrintable(q("after unmatch + match of " + node.name + ", row " + key + " differs:\n" + now.at(key).at("input_data")
                            + "\n" + original.at(key).at("input_data") + "\n" + now.at(key).at("output_data") + "\n"
                            + original.at(key).at("output_data") + "\n" + now.at(key).at("precision_index") + " vs "
                            + original.at(key).at("precision_index"))));
                }
            QCOMPARE(now.at("NPU|" + node.name).at("modified"), std::string("1"));
        }
        QVERIFY(pairs > 50);
        QVERIFY(graded > 20);
        const auto now = nodeRows(db);
        for (const auto& [key, row] : original)
            QVERIFY2(withoutModified(now.at(key)) == withoutModified(row), key.c_str());
    }

    // Two nodes the automatic matching did not pair: the grades come from their stored items, computed here.
    void matchingTwoDifferentNodesGradesTheirItems()
    {
        const fs::path db = copyOf("statistics", "different");
        ManualMatcher matcher(db, 0, 0);
        const std::string npuName = "Functional.linear.0.forward", benchName = "Functional.linear.1.forward";
        const OJson npuIn = itemsOf(matcher.npu().nodes[matcher.npu().find(npuName)].inputData);
        const OJson npuOut = itemsOf(matcher.npu().nodes[matcher.npu().find(npuName)].outputData);
        const OJson benchIn = itemsOf(matcher.bench().nodes[matcher.bench().find(benchName)].inputData);
        const OJson benchOut = itemsOf(matcher.bench().nodes[matcher.bench().find(benchName)].outputData);

        matcher.match(npuName, benchName, false);
        const auto rows = nodeRows(db);
        const DbRow& row = rows.at("NPU|" + npuName);
        QCOMPARE(q(row.at("matched_node_link")).contains(q(benchName)), true);
        QCOMPARE(q(rows.at("Bench|" + benchName).at("matched_node_link")).endsWith(q("\"" + npuName + "\"]")), true);
        const OJson gotIn = itemsOf(row.at("input_data")), gotOut = itemsOf(row.at("output_data"));

        // Items pair by position: the k-th input with the k-th input, the k-th output with the k-th output.
        double maxInputRel = 0, maxOutputRel = 0;
        auto check = [&](const OJson& npu, const OJson& bench, const OJson& got, double& maxRel) {
            auto b = bench.begin();
            for (auto n = npu.begin(); n != npu.end(); ++n, ++b) {
                QVERIFY(b != bench.end());
                const OJson& item = got.at(n.key());
                if (!n->contains("Norm"))
                    continue;
                const double norm = number(*n, "Norm") - number(*b, "Norm");
                QCOMPARE(std::stod(item.at("L2norm diff").get<std::string>()), norm);
                QCOMPARE(std::stod(item.at("Max diff").get<std::string>()), number(*n, "Max") - number(*b, "Max"));
                const double rel = std::fabs(norm / number(*b, "Norm") * 100);
                const std::string text = item.at("NormRelativeErr").get<std::string>();
                QVERIFY(text.ends_with('%'));
                QVERIFY(std::fabs(std::stod(text) - rel) < 1e-6);
                maxRel = std::max(maxRel, rel / 100);
            }
        };
        check(npuIn, benchIn, gotIn, maxInputRel);
        check(npuOut, benchOut, gotOut, maxOutputRel);
        // The summary rules by hand: output error > 50% with inputs below 10% is an error; an output error more
        // than ten times the input error (or above 10% over exact inputs) is a warning.
        double expected = 0;
        if (maxInputRel < 0.1 && maxOutputRel > 0.5)
            expected = 1;
        else if (maxInputRel == 0 ? maxOutputRel > 0.1 : maxOutputRel / maxInputRel > 10)
            expected = 0.5;
        QCOMPARE(std::stod(row.at("precision_index")), expected);
        QVERIFY(maxInputRel > 0); // the weights differ: the pair is really graded
    }

    // What the studio saves is what the CLI reads back: the same rows, built headless.
    void mappingFileReplaysHeadless()
    {
        const fs::path db = copyOf("statistics", "replay");
        {
            ManualMatcher matcher(db, 0, 0);
            matcher.match("Functional.linear.0.forward", "Functional.linear.1.forward", false);
            matcher.match("Module.blocks.0.attn.Attention.forward.0", "Module.blocks.1.attn.Attention.forward.0", true);
            matcher.unmatch("Module.head.Linear.forward.0", false);
            QVERIFY(fs::exists(matcher.mappingFile()));
        }
        const fs::path mapping = visConfigPath(db, 0, 0);
        const auto pairs = readMappingFile(mapping);
        QVERIFY(pairs.size() > 6);

        const Run run = runCli({ "graph_visualize", "-tp", q(onlySubdir(refDumps() / "problem_mix_statistics" / "step0").string()), "-gp",
            q(onlySubdir(refDumps() / "bench_mix_statistics" / "step0").string()), "-o", q(tmp("headless").string()), "--mapping-file",
            q(mapping.string()) });
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        const auto headless = nodeRows(onlyVisDb(tmp("headless")));
        const auto edited = nodeRows(db);
        QCOMPARE(headless.size(), edited.size());
        for (const auto& [key, row] : edited)
            QVERIFY2(headless.at(key) == row, key.c_str());
        QCOMPARE(q(edited.at("NPU|Module.head.Linear.forward.0").at("matched_node_link")), QStringLiteral("[]"));
    }

    void failuresAreClearAndLeaveTheDbAlone()
    {
        const fs::path db = copyOf("statistics", "failures");
        const auto before = nodeRows(db);
        ManualMatcher matcher(db, 0, 0);
        try {
            matcher.match("Module.head.Linear.forward.0", "Functional.linear.0.forward", false);
            QFAIL("no error");
        } catch (const support::Error& error) {
            const QString text = q(error.what());
            QVERIFY2(text.contains(QStringLiteral("node types differ")), qPrintable(text));
            QVERIFY(text.contains(QStringLiteral("Module.head.Linear.forward.0")));
            QVERIFY(text.contains(q(db.filename().string())));
        }
        QVERIFY_THROWS_EXCEPTION(support::Error, matcher.match("No.such.node", "Functional.linear.0.forward", false));
        matcher.unmatch("Functional.linear.0.forward", false);
        const auto afterOne = nodeRows(db);
        QVERIFY_THROWS_EXCEPTION(support::Error, matcher.unmatch("Functional.linear.0.forward", false)); // not matched any more
        QVERIFY(nodeRows(db) == afterOne);
        QVERIFY(before != afterOne);

        // A write that cannot complete (a row vanished under us) rolls back everything.
        MatchEdit edit = matcher.planMatch("Functional.linear.0.forward", "Functional.linear.0.forward", false);
        edit.after.push_back(edit.after.front());
        edit.after.back().name = "Gone.node";
        QVERIFY_THROWS_EXCEPTION(support::Error, matcher.apply(edit.after));
        QVERIFY(nodeRows(db) == afterOne);

        const fs::path build = tmp("build_only");
        GraphRunOptions options;
        options.target = onlySubdir(refDumps() / "problem_mix_statistics" / "step0");
        options.output = build;
        QVERIFY_THROWS_EXCEPTION(support::Error, ManualMatcher(runGraphVisualize(options).database, 0, 0));
    }

    void appliesAMappingFileWithAReport()
    {
        const fs::path db = copyOf("statistics", "config");
        ManualMatcher matcher(db, 0, 0);
        const fs::path file = tmp("config/pairs.vis.config");
        writeFile(file, "{\"Functional.linear.0.forward\": \"Functional.linear.1.forward\", \"No.such\": \"X\", "
                        "\"Module.head.Linear.forward.0\": null}");
        const MappingFileReport report = matcher.planMappingFile(file);
        QCOMPARE(report.total, std::size_t(3));
        QCOMPARE(report.success, std::size_t(2));
        QCOMPARE(report.failed, std::size_t(1));
        QVERIFY(q(report.problems.at(0)).contains(QStringLiteral("No.such")));
        matcher.apply(report.edit.after);
        const auto rows = nodeRows(db);
        QVERIFY(q(rows.at("NPU|Functional.linear.0.forward").at("matched_node_link")).contains(QStringLiteral("Functional.linear.1.forward")));
        QCOMPARE(q(rows.at("NPU|Module.head.Linear.forward.0").at("matched_node_link")), QStringLiteral("[]"));
        // Undo is the same write with the rows as they were.
        matcher.apply(report.edit.before);
        const auto back = nodeRows(db);
        for (const auto& row : report.edit.before)
            QCOMPARE(q(back.at(row.dataSource + "|" + row.name).at("matched_node_link")).isEmpty(), false);
        QVERIFY(nodeRows(copyOf("statistics", "pristine")) == back);
    }
};

QTEST_GUILESS_MAIN(TestGraphManualMatch)
#include "tst_graph_manual_match.moc"
