// SPDX-License-Identifier: Apache-2.0
// Golden: the compare vis.db of the synthetic 2-rank dumps (gen_graph_dump.py, -oc) equals, row for row, what
// the reference msprobe wrote (compare_step0_expected.tsv, compare_io_samples.json).
#include "tst_graph_inputs.h"

#include "dump/dump_json_reader.h"
#include "graph/graph_run.h"

#include <QTemporaryDir>

#include <atomic>
#include <fstream>
#include <sstream>

using namespace msprobe;
using namespace msprobe::test;
namespace fs = std::filesystem;

class TestGraphGolden : public QObject {
    Q_OBJECT

    QTemporaryDir m_tmp;
    fs::path m_db;

    static fs::path run(const fs::path& npu, const fs::path& bench, const fs::path& out, bool overflow)
    {
        graph::GraphRunOptions options;
        options.target = npu;
        options.golden = bench;
        options.output = out;
        options.overflowCheck = overflow;
        options.timestamp = "20260101000000";
        return graph::runGraphVisualize(options).database;
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_tmp.isValid());
        m_db = run(graphData() / "synthetic" / "npu", graphData() / "synthetic" / "bench", fs::path(m_tmp.path().toStdString()) / "out", true);
        QVERIFY(fs::exists(m_db));
        QCOMPARE(m_db.filename().string(), std::string("compare_20260101000000.vis.db"));
    }

    // Every tb_nodes row, structural columns as the TSV lists them.
    void nodeRowsEqualTheExpectedTsv()
    {
        std::ifstream tsv(graphData() / "compare_step0_expected.tsv");
        std::string header;
        std::getline(tsv, header);
        std::vector<std::string> columns;
        std::stringstream split(header);
        for (std::string c; std::getline(split, c, '\t');)
            columns.push_back(c);
        std::string select;
        for (const auto& c : columns)
            select += (select.empty() ? "" : ", ") + c;
        const auto rows = readRows(m_db, "SELECT " + select + " FROM tb_nodes ORDER BY rank, data_source = 'Bench', node_order");
        std::vector<std::string> expected;
        for (std::string line; std::getline(tsv, line);)
            expected.push_back(line);
        QCOMPARE(rows.size(), expected.size());
        for (std::size_t i = 0; i < rows.size(); ++i) {
            std::string line;
            for (const auto& c : columns)
                line += (line.empty() ? "" : "\t") + rows[i].at(c);
            QCOMPARE(q(line), q(expected[i]));
        }
    }

    void ioSamplesConfigAndStacksEqualTheReference()
    {
        std::ifstream in(graphData() / "compare_io_samples.json");
        const auto samples = nlohmann::ordered_json::parse(in);
        int checked = 0;
        for (const auto& [key, value] : samples.items()) {
            const auto colon = key.find(':');
            if (colon == std::string::npos)
                continue;
            const auto rows = readRows(m_db, "SELECT input_data, output_data FROM tb_nodes WHERE rank = 0 AND data_source = '"
                    + key.substr(0, colon) + "' AND node_name = '" + key.substr(colon + 1) + "'");
            QCOMPARE(rows.size(), std::size_t(1));
            QCOMPARE(q(rows[0].at("input_data")), q(pyDump(value["input_data"])));
            QCOMPARE(q(rows[0].at("output_data")), q(pyDump(value["output_data"])));
            ++checked;
        }
        QCOMPARE(checked, 11);
        const auto config = readRows(m_db, "SELECT * FROM tb_config");
        QCOMPARE(config.size(), std::size_t(1));
        for (const auto& [column, value] : samples["tb_config"].items()) {
            const std::string expected = value.is_string() ? value.get<std::string>() : value.dump();
            QCOMPARE(q(config[0].at(column)), q(expected));
        }
        const auto stacks = readRows(m_db, "SELECT id, stack_info FROM tb_stack ORDER BY id");
        QCOMPARE(stacks.size(), samples["tb_stack"].size());
        for (std::size_t i = 0; i < stacks.size(); ++i) {
            QCOMPARE(q(stacks[i].at("id")), q(samples["tb_stack"][i]["id"].get<std::string>()));
            QCOMPARE(q(stacks[i].at("stack_info")), q(samples["tb_stack"][i]["stack_info"].get<std::string>()));
        }
    }

    // The schema text in sqlite_master is the reference's, so its plugin reads our files.
    // graph_visualize of one folder against itself parses each rank's dump.json once for both graphs; two
    // folders still read each file once.
    void selfCompareParsesEachDumpOnce()
    {
        std::atomic<std::size_t> parses { 0 };
        graph::GraphRunOptions options;
        options.target = graphData() / "synthetic" / "npu";
        options.golden = graphData() / "synthetic" / "npu" / ".";
        options.output = fs::path(m_tmp.path().toStdString()) / "self";
        options.timestamp = "20260101000000";
        options.readDump = [&](const fs::path& file) {
            ++parses;
            return std::make_shared<const dump::DumpFile>(dump::readDumpJson(file));
        };
        const auto self = graph::runGraphVisualize(options);
        QCOMPARE(self.ranks.size(), std::size_t(2));
        QCOMPARE(parses.load(), std::size_t(2));
        // Every node of a self-compare finds itself: as many NPU as bench rows, and none unmatched.
        const auto count = [&](const std::string& where) {
            return readRows(self.database, "SELECT COUNT(*) AS n FROM tb_nodes WHERE " + where).at(0).at("n");
        };
        QVERIFY(count("data_source = 'NPU'") != "0");
        QCOMPARE(count("data_source = 'NPU'"), count("data_source = 'Bench'"));
        QCOMPARE(count("data_source = 'NPU' AND matched_node_link = '[]'"), std::string("0"));

        parses = 0;
        options.golden = graphData() / "synthetic" / "bench";
        options.output = fs::path(m_tmp.path().toStdString()) / "two";
        graph::runGraphVisualize(options);
        QCOMPARE(parses.load(), std::size_t(4));
    }

    void schemaIsTheReferenceSchema()
    {
        const auto objects = readRows(m_db, "SELECT type, name, sql FROM sqlite_master ORDER BY rootpage");
        std::vector<std::string> names;
        for (const auto& o : objects)
            names.push_back(o.at("name"));
        QCOMPARE(names, (std::vector<std::string> { "tb_nodes", "sqlite_autoindex_tb_nodes_1", "tb_stack", "sqlite_autoindex_tb_stack_1",
            "tb_config", "sqlite_autoindex_tb_config_1", "index1", "index2", "index3", "index4", "index5", "index6", "index7" }));
        QVERIFY(objects[0].at("sql").starts_with("CREATE TABLE tb_nodes (\n    id TEXT PRIMARY KEY,\n    graph_id TEXT NOT NULL,"));
        QCOMPARE(q(objects[7].at("sql")), QStringLiteral("CREATE INDEX index2 ON tb_nodes (step, rank, data_source, node_name)"));
        const auto mode = readRows(m_db, "PRAGMA journal_mode");
        QCOMPARE(q(mode[0].at("journal_mode")), QStringLiteral("wal"));
    }

    // The md5 variant of the same dumps: md5 fields kept, any md5 difference is an error.
    void md5ModeGradesByChecksum()
    {
        const fs::path out = fs::path(m_tmp.path().toStdString()) / "md5";
        const auto db = run(graphData() / "synthetic_md5" / "npu", graphData() / "synthetic_md5" / "bench", out, false);
        const auto config = readRows(db, "SELECT task, overflow_check FROM tb_config");
        QCOMPARE(q(config[0].at("task")), QStringLiteral("md5"));
        QCOMPARE(q(config[0].at("overflow_check")), QStringLiteral("0"));
        auto precision = [&](const std::string& node) {
            return readRows(db, "SELECT precision_index FROM tb_nodes WHERE rank = 0 AND data_source = 'NPU' AND node_name = '" + node + "'")
                .at(0)
                .at("precision_index");
        };
        QCOMPARE(q(precision("Functional.linear.1.forward")), QStringLiteral("1"));
        QCOMPARE(q(precision("Functional.linear.0.forward")), QStringLiteral("0"));
        QCOMPARE(q(precision("Tensor.mul.0.forward")), QStringLiteral("NULL"));
        const auto data = readRows(db, "SELECT output_data FROM tb_nodes WHERE rank = 0 AND data_source = 'NPU' AND node_name = 'Functional.linear.1.forward'");
        const auto output = nlohmann::ordered_json::parse(data.at(0).at("output_data"));
        const auto& item = output["Functional.linear.1.forward.output.0"];
        QVERIFY(item.contains("md5"));
        QCOMPARE(q(item["Result"].get<std::string>()), QStringLiteral("error"));
        QVERIFY(!item.contains("Max diff"));
    }
};

QTEST_APPLESS_MAIN(TestGraphGolden)
#include "tst_graph_golden.moc"
