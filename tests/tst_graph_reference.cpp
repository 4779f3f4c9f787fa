// SPDX-License-Identifier: Apache-2.0
// Real dumps of the reference msprobe (tiny transformer, problem = tanh GELU in block 1): our vis.db files
// equal the ones graph_visualize wrote, for build, build -oc, compare (statistics and tensor), two ranks and
// a whole dump root; and the first divergent node is the GELU.
#include "tst_graph_inputs.h"

#include "graph/graph_run.h"

#include <QTemporaryDir>

using namespace msprobe;
using namespace msprobe::test;
namespace fs = std::filesystem;

namespace {

struct Case {
    const char* name; // folder under outputs/graph_visualize
    const char* target;
    const char* golden;
    bool overflow;
};

const Case kCases[] = {
    { "build_bench_statistics_step0", "bench_mix_statistics/step0/proc14851", nullptr, false },
    { "build_bench_statistics_step0_oc", "bench_mix_statistics/step0/proc14851", nullptr, true },
    { "compare_problem_vs_bench_statistics_step0", "problem_mix_statistics/step0/proc14894", "bench_mix_statistics/step0/proc14851", false },
    { "compare_problem_vs_bench_tensor_step0", "problem_mix_tensor/step0/proc14911", "bench_mix_tensor/step0/proc14868", false },
    { "build_2rank_bench_step0", "bench_2rank_mix_statistics/step0", nullptr, false },
    { "compare_2rank_problem_vs_bench_step0", "problem_2rank_mix_statistics/step0", "bench_2rank_mix_statistics/step0", false },
    { "compare_2rank_problem_vs_bench_allsteps", "problem_2rank_mix_statistics", "bench_2rank_mix_statistics", false },
};

// dump_data_dir holds absolute paths of the machine that ran the reference.
const char* kColumns = "id, graph_id, node_order, node_name, node_type, up_node, sub_nodes, precision_index, overflow_level, "
                       "micro_step_id, matched_node_link, stack_id, parallel_merge_info, matched_distributed, modified, input_data, "
                       "output_data, data_source, step, rank, is_distributed";

} // namespace

class TestGraphReference : public QObject {
    Q_OBJECT

    QTemporaryDir m_tmp;

    fs::path run(const char* target, const char* golden, bool overflow, const std::string& out)
    {
        graph::GraphRunOptions options;
        options.target = refDumps() / target;
        if (golden)
            options.golden = refDumps() / golden;
        options.output = fs::path(m_tmp.path().toStdString()) / out;
        options.overflowCheck = overflow;
        return graph::runGraphVisualize(options).database;
    }

private slots:
    void sameRowsAsTheReference_data()
    {
        QTest::addColumn<int>("index");
        for (int i = 0; i < int(std::size(kCases)); ++i)
            QTest::newRow(kCases[i].name) << i;
    }

    void sameRowsAsTheReference()
    {
        QFETCH(int, index);
        const Case& c = kCases[index];
        const fs::path scratch = fs::path(m_tmp.path().toStdString()) / (std::string("ref_") + c.name);
        fs::create_directories(scratch);
        const fs::path reference = gunzipTo(onlyGz(refOutputs() / c.name), scratch);
        QVERIFY2(!reference.empty() && fs::file_size(reference) > 0, "gzip could not restore the reference vis.db");
        const fs::path mine = run(c.target, c.golden, c.overflow, std::string("ours_") + c.name);
        const std::string order = std::string("SELECT ") + kColumns + " FROM tb_nodes ORDER BY step, rank, data_source, node_order";
        const auto expected = readRows(reference, order);
        const auto actual = readRows(mine, order);
        QCOMPARE(actual.size(), expected.size());
        for (std::size_t i = 0; i < actual.size(); ++i)
            for (const auto& [column, value] : expected[i])
                if (actual[i].at(column) != value)
                    QFAIL(qPrintable(QStringLiteral("row %1 (%2) column %3:\n ours %4\n ref  %5")
                                         .arg(i)
                                         .arg(q(expected[i].at("id")), q(column), q(actual[i].at(column)).left(400), q(value).left(400))));
        for (const char* table : { "SELECT * FROM tb_stack ORDER BY id", "SELECT * FROM tb_config" })
            QVERIFY2(readRows(mine, table) == readRows(reference, table), table);
    }

    // The problem run differs only in block 1's GELU; the graph compare points there first.
    void firstDivergentNodeIsTheGelu_data()
    {
        QTest::addColumn<QString>("mode");
        QTest::newRow("statistics") << "statistics";
        QTest::newRow("md5") << "md5";
    }

    void firstDivergentNodeIsTheGelu()
    {
        QFETCH(QString, mode);
        const std::string m = mode.toStdString();
        const fs::path db = run(("problem_1rank_mix_" + m + "/step0").c_str(), ("bench_1rank_mix_" + m + "/step0").c_str(), false, "first_" + m);
        const auto rows = readRows(db, "SELECT node_name, precision_index FROM tb_nodes WHERE data_source = 'NPU' AND precision_index > 0 "
                                       "AND node_type = '1' ORDER BY node_order LIMIT 1");
        QCOMPARE(rows.size(), std::size_t(1));
        QCOMPARE(q(rows[0].at("node_name")), QStringLiteral("Functional.gelu.1.forward"));
        QCOMPARE(q(rows[0].at("precision_index")), QStringLiteral("1"));
    }
};

QTEST_APPLESS_MAIN(TestGraphReference)
#include "tst_graph_reference.moc"
