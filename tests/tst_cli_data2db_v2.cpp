// SPDX-License-Identifier: Apache-2.0
// msprobe data2db for the monitor v2 layout (rank_{N}/{slug}_step{a}-{b}.csv with a scope column): the worked
// example of spec §3.4 rewritten in v2 form imports to the same rows as the v1 original; scopes map to metrics;
// --process_num reads files in parallel without changing a row.
#include "cli_runner.h"
#include "sqlite_rows.h"
#include "support/sqlite_util.h"
#include "test_util.h"

#include <QTemporaryDir>

#include <algorithm>
#include <fstream>
#include <sstream>

using namespace msprobe;
using namespace msprobe::test;
namespace fs = std::filesystem;

namespace {

std::vector<std::string> trendRows(const fs::path& db, const std::string& where = "1")
{
    return queryRows(db,
        "SELECT t.rank, t.step, m.target_name, m.vpp_stage, m.micro_step, k.metric_name, t.norm, t.max, t.min, t.mean, "
        "t.nans FROM trend_data t JOIN monitoring_targets m ON t.target_id = m.target_id"
        " JOIN monitoring_metrics k ON t.metric_id = k.metric_id WHERE "
            + where);
}

Run data2db(const fs::path& db, const fs::path& data, const QStringList& extra = {})
{
    return runCli(QStringList { "data2db", "--db", q(db.string()), "--data", q(data.string()), "--format", "monitor" } + extra);
}

// A v1 CSV (vpp_stage,name,step[,micro_step],norm,max,min,mean,nans) as v2 rows with the given scope.
std::string asV2Rows(const fs::path& v1, const std::string& scope, bool micro)
{
    std::ifstream in(v1);
    std::string line, out;
    std::getline(in, line);
    while (std::getline(in, line)) {
        std::vector<std::string> c;
        std::stringstream cells(line);
        for (std::string cell; std::getline(cells, cell, ',');)
            c.push_back(cell);
        const std::size_t s = micro ? 4 : 3; // first statistic
        out += c[0] + "," + c[2] + "," + c[1] + "," + scope + (micro ? "," + c[3] : std::string()) + "," + c[s + 2] + ","
            + c[s + 1] + "," + c[s + 3] + "," + c[s] + "," + c[s + 4] + "\n";
    }
    return out;
}

} // namespace

class TestCliData2dbV2 : public QObject {
    Q_OBJECT

private slots:
    void v2LayoutImportsLikeV1()
    {
        QTemporaryDir tmp;
        const fs::path root = tmp.path().toStdString();
        const fs::path example = dataDir() / "trend" / "monitor_input_example";
        for (const auto& rank : { std::string("0"), std::string("1") }) {
            const fs::path v1 = example / ("Dec03_21-34-40-rank" + rank + "-abcd1234");
            const fs::path v2 = root / "v2" / ("rank_" + rank);
            writeFile(v2 / "module_step0-1.csv",
                "vpp_stage,step,module_name,scope,micro_step,min,max,mean,norm,nans\n"
                    + asV2Rows(v1 / "actv_0-1.csv", "forward", true)
                    + "0,0,module.layers.0.mlp.output_grad,backward,0,-1,1,0,7.5,0\n");
            writeFile(v2 / "weight_grad_step0-1.csv",
                "vpp_stage,step,module_name,scope,min,max,mean,norm,nans\n" + asV2Rows(v1 / "grad_reduced_0-1.csv", "reduced", false));
            writeFile(v2 / "notes.txt", "ignored\n");
        }
        Run run = data2db(root / "db1", example);
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        run = data2db(root / "db2", root / "v2", { "--process_num", "3" });
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        const fs::path v1db = root / "db1" / "monitor_data.trend.db", v2db = root / "db2" / "monitor_data.trend.db";
        const std::string sameMetrics = "k.metric_name IN ('actv', 'grad_reduced')";
        const auto expected = trendRows(v1db, sameMetrics);
        QCOMPARE(expected.size(), std::size_t(24));
        QCOMPARE(trendRows(v2db, sameMetrics), expected);
        QCOMPARE(trendRows(v2db, "k.metric_name = 'actv_grad'"),
            (std::vector<std::string> { "0|0|module.layers.0.mlp.output_grad|0|0|actv_grad|7.5|1|-1|0|0",
                "1|0|module.layers.0.mlp.output_grad|0|0|actv_grad|7.5|1|-1|0|0" }));
        QCOMPARE(queryRows(v2db, "SELECT min_step, max_step, max_rank FROM global_stats"),
            queryRows(v1db, "SELECT min_step, max_step, max_rank FROM global_stats"));
    }

    void unknownScopeNamesFileAndLine()
    {
        QTemporaryDir tmp;
        const fs::path root = tmp.path().toStdString();
        writeFile(root / "v2" / "rank_0" / "optimizer_step0-0.csv",
            "vpp_stage,step,module_name,scope,min,max,mean,norm,nans\n0,0,w,exp_avg,0,1,0,1,0\n0,0,w,momentum,0,1,0,1,0\n");
        const Run run = data2db(root / "db", root / "v2");
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains("optimizer_step0-0.csv") && run.err.contains("line 3") && run.err.contains("momentum"),
            qPrintable(run.err));
    }

    // The reference's monitor run read by 4 threads: the same database rows as by one.
    void parallelReadKeepsEveryRow()
    {
        QTemporaryDir tmp;
        const fs::path root = tmp.path().toStdString();
        const fs::path data = dataDir() / "trend" / "monitor_bench";
        Run run = data2db(root / "one", data);
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        run = data2db(root / "four", data, { "--process_num", "4" });
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        const auto rows = trendRows(root / "one" / "monitor_data.trend.db");
        QCOMPARE(rows.size(), std::size_t(1644));
        QCOMPARE(trendRows(root / "four" / "monitor_data.trend.db"), rows);
    }
};

QTEST_GUILESS_MAIN(TestCliData2dbV2)
#include "tst_cli_data2db_v2.moc"
