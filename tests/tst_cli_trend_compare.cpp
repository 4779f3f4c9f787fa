// SPDX-License-Identifier: Apache-2.0
// msprobe trend_compare: hand-made monitor CSV pairs (tolerance edges, NaN, bench zeros, one-sided targets,
// ranking by step and execution order) and a pair modelled on two real monitor runs that differ only in the
// attention scale of block 1 (the reference's monitor run as bench; the problem's norms changed from that
// attention's output on, as the change would propagate).
#include "cli_runner.h"
#include "test_util.h"
#include "trend/trend_compare.h"

#include <QTemporaryDir>

#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>
#include <set>
#include <sstream>

using namespace msprobe;
using namespace msprobe::test;
namespace fs = std::filesystem;

namespace {

const char* kRankDir = "Dec03_21-34-40-rank0-abcd1234";

Run trendCompare(const fs::path& problem, const fs::path& bench, const QStringList& extra = {})
{
    return runCli(QStringList { "trend_compare", "-tp", q(problem.string()), "-gp", q(bench.string()), "--json" } + extra);
}

nlohmann::json parse(const Run& run)
{
    return nlohmann::json::parse(run.out.toStdString());
}

std::vector<std::string> splitLine(const std::string& line)
{
    std::vector<std::string> cells;
    std::stringstream in(line);
    for (std::string cell; std::getline(in, cell, ',');)
        cells.push_back(cell);
    return cells;
}

// The reference monitor run with the norms this change would move multiplied by 1.001: at step 0 the
// activations from block 1's attention output on (not the inputs that precede it), every gradient and the
// optimizer state; from step 1 on, everything.
void writeScaledAttentionRun(const fs::path& bench, const fs::path& problem)
{
    const std::set<std::string> unchangedInputs = { "blocks.1.attn.input", "blocks.1.input", ".input" };
    for (const auto& file : fs::directory_iterator(bench)) {
        std::ifstream in(file.path());
        std::ofstream out(problem / file.path().filename());
        const std::string name = file.path().filename().string();
        const bool activations = name.starts_with("actv_") && !name.starts_with("actv_grad");
        std::string line;
        std::getline(in, line);
        out << line << "\n";
        const auto header = splitLine(line);
        const auto column = [&](const char* key) {
            return static_cast<std::size_t>(std::find(header.begin(), header.end(), key) - header.begin());
        };
        const std::size_t normCol = column("norm"), stepCol = column("step"), nameCol = column("name");
        bool afterAttention = false;
        while (std::getline(in, line)) {
            // The columns up to norm hold no quoted commas (the shape column comes later).
            auto cells = splitLine(line);
            const std::string target = cells[nameCol];
            afterAttention = afterAttention || target == "blocks.1.attn.out_proj.input";
            bool changed = std::stoi(cells[stepCol]) > 0;
            if (!changed && activations)
                changed = afterAttention && !unchangedInputs.contains(target);
            else if (!changed)
                changed = !name.starts_with("param_origin");
            if (changed && cells[normCol] != "nan") {
                char text[40];
                std::snprintf(text, sizeof text, "%.12g", std::stod(cells[normCol]) * 1.001);
                cells[normCol] = text;
            }
            // Keep the rest of the line (quoted shape) as it was: rebuild only up to norm.
            std::size_t cut = 0;
            for (std::size_t k = 0; k <= normCol; ++k)
                cut = line.find(',', cut) + 1;
            std::string head;
            for (std::size_t k = 0; k <= normCol; ++k)
                head += cells[k] + ",";
            out << head << line.substr(cut) << "\n";
        }
    }
}

} // namespace

class TestCliTrendCompare : public QObject {
    Q_OBJECT

private slots:
    // Two monitor runs that differ only in block 1's attention scale: the first divergence is that attention at
    // step 0, ahead of everything it causes downstream and of every gradient.
    void attentionScalePairPointsAtTheAttention()
    {
        QTemporaryDir tmp;
        const fs::path root = tmp.path().toStdString();
        const fs::path bench = onlySubdir(dataDir() / "trend" / "monitor_bench");
        const fs::path problem = root / "problem" / bench.filename();
        fs::create_directories(problem);
        writeScaledAttentionRun(bench, problem);
        const Run run = trendCompare(root / "problem", bench.parent_path());
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        const auto json = parse(run);
        const auto& first = json["first_divergence"];
        QCOMPARE(first["metric"].get<std::string>(), std::string("actv"));
        QCOMPARE(first["target"].get<std::string>(), std::string("blocks.1.attn.out_proj.input"));
        QCOMPARE(first["step"].get<int>(), 0);
        QCOMPARE(first["rank"].get<int>(), 0);
        QVERIFY(std::fabs(first["rel_diff"].get<double>() - 0.001) < 1e-6);
        // Ranked: the rest of step 0's activations, then its gradients, then the optimizer state.
        const auto& list = json["divergences"];
        QCOMPARE(list[1]["target"].get<std::string>(), std::string("blocks.1.attn.out_proj.output"));
        int lastOrder = -1;
        std::vector<std::string> metricsAtStep0;
        for (const auto& item : list) {
            if (item["step"].get<int>() != 0)
                break;
            const int order = trend::metricExecutionOrder(item["metric"].get<std::string>());
            QVERIFY(order >= lastOrder);
            lastOrder = order;
            QVERIFY(item["metric"] != "param_origin");
            // Activations before the changed attention (its own input, block 0) keep their values.
            if (item["metric"] == "actv")
                QVERIFY(item["target"] != "blocks.1.attn.input" && item["target"] != "blocks.0.attn.output");
        }
        QVERIFY(json["only_in_problem"].empty() && json["only_in_bench"].empty());

        // The same run against itself: no divergence.
        const Run same = trendCompare(bench.parent_path(), bench.parent_path());
        QVERIFY2(same.exitCode == 0, qPrintable(same.err));
        QVERIFY(parse(same)["first_divergence"].is_null());
    }

    // Tolerance is a strict bound; NaN on one side is a divergence, on both sides not; a bench 0 against a
    // non-zero problem is infinite; targets on one side only are listed, not compared.
    void handMadeEdges()
    {
        QTemporaryDir tmp;
        const fs::path root = tmp.path().toStdString();
        const std::string header = "vpp_stage,name,step,micro_step,norm\n";
        writeFile(root / "bench" / kRankDir / "actv_0-1.csv",
            header + "0,a.output,0,0,4.0\n0,b.output,0,0,1.0\n0,c.output,0,0,nan\n0,d.output,0,0,0\n0,e.output,0,0,0\n"
                     "0,only_bench.output,0,0,1\n0,a.output,1,0,4.0\n0,b.output,1,0,2.0\n");
        writeFile(root / "problem" / kRankDir / "actv_0-1.csv",
            header + "0,a.output,0,0,4.5\n0,b.output,0,0,nan\n0,c.output,0,0,nan\n0,d.output,0,0,0\n0,e.output,0,0,0.5\n"
                     "0,only_problem.output,0,0,1\n0,a.output,1,0,4.0\n0,b.output,1,0,2.0\n");
        // |4.5 - 4| / 4 = 0.125 exactly: at the tolerance it is not a divergence.
        Run run = trendCompare(root / "problem", root / "bench", { "--tolerance", "0.125" });
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        auto json = parse(run);
        std::vector<std::string> targets;
        for (const auto& item : json["divergences"])
            targets.push_back(item["target"].get<std::string>() + "@" + std::to_string(item["step"].get<int>()) + "="
                + (item["rel_diff"].is_string() ? item["rel_diff"].get<std::string>() : std::to_string(item["rel_diff"].get<double>())));
        QCOMPARE(targets, (std::vector<std::string> { "b.output@0=inf", "e.output@0=inf" }));
        QVERIFY(json["divergences"][0]["problem"].is_null());
        QCOMPARE(json["divergences"][0]["bench"].get<double>(), 1.0);
        QCOMPARE(json["only_in_problem"], nlohmann::json::array({ "actv only_problem.output" }));
        QCOMPARE(json["only_in_bench"], nlohmann::json::array({ "actv only_bench.output" }));
        QCOMPARE(json["compared_series"].get<int>(), 5);
        QCOMPARE(json["compared_points"].get<int>(), 7);

        // Just under: a.output joins, first in execution order.
        run = trendCompare(root / "problem", root / "bench", { "--tolerance", "0.1249" });
        json = parse(run);
        QCOMPARE(json["first_divergence"]["target"].get<std::string>(), std::string("a.output"));
        QCOMPARE(json["first_divergence"]["rel_diff"].get<double>(), 0.125);
        QCOMPARE(json["divergences"].size(), std::size_t(3));

        // The text report names the first divergence and lists the one-sided targets.
        const Run text = runCli({ "trend_compare", "-tp", q((root / "problem").string()), "-gp", q((root / "bench").string()) });
        QVERIFY2(text.exitCode == 0, qPrintable(text.err));
        QVERIFY2(text.out.contains("First divergence: actv a.output, rank 0, step 0"), qPrintable(text.out));
        QVERIFY2(text.out.contains("only in the bench run") && text.out.contains("only_bench.output"), qPrintable(text.out));
    }

    // Ranked by step first, then execution order within the step, whatever the file order.
    void rankingByStepThenExecutionOrder()
    {
        QTemporaryDir tmp;
        const fs::path root = tmp.path().toStdString();
        for (const char* side : { "bench", "problem" }) {
            const bool problem = std::string(side) == "problem";
            writeFile(root / side / kRankDir / "actv_0-1.csv",
                std::string("vpp_stage,name,step,micro_step,norm\n0,x.output,0,0,1\n0,x.output,1,0,") + (problem ? "9" : "1") + "\n");
            writeFile(root / side / kRankDir / "exp_avg_0-1.csv",
                std::string("vpp_stage,name,step,norm\n0,w,0,") + (problem ? "3" : "1") + "\n0,w,1,1\n");
            writeFile(root / side / kRankDir / "actv_grad_0-1.csv",
                std::string("vpp_stage,name,step,micro_step,norm\n0,x.output_grad,0,0,") + (problem ? "3" : "1") + "\n");
        }
        const Run run = trendCompare(root / "problem", root / "bench");
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        const auto json = parse(run);
        std::vector<std::string> order;
        for (const auto& item : json["divergences"])
            order.push_back(item["metric"].get<std::string>() + "@" + std::to_string(item["step"].get<int>()));
        QCOMPARE(order, (std::vector<std::string> { "actv_grad@0", "exp_avg@0", "actv@1" }));
    }

    // A dump folder against its own trend.db: the same data, no divergence; -o writes the report.
    void dumpFolderAgainstTrendDb()
    {
        QTemporaryDir tmp;
        const fs::path root = tmp.path().toStdString();
        const fs::path dump = dataDir() / "trend" / "synthetic_dump";
        const Run import = runCli({ "data2db", "--db", q((root / "db").string()), "--data", q(dump.string()) });
        QVERIFY2(import.exitCode == 0, qPrintable(import.err));
        const Run run = runCli({ "trend_compare", "-tp", q(dump.string()), "-gp", q((root / "db" / "dump_data.trend.db").string()),
            "--json", "-o", q((root / "report.json").string()) });
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        std::ifstream in(root / "report.json");
        const auto json = nlohmann::json::parse(in);
        QVERIFY(json["first_divergence"].is_null());
        QCOMPARE(json["compared_points"].get<int>(), 128);
    }

    void badInputsAreClearErrors()
    {
        QTemporaryDir tmp;
        const fs::path root = tmp.path().toStdString();
        fs::create_directories(root / "empty");
        Run run = trendCompare(root / "empty", root / "empty");
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains("empty") && run.err.contains("neither a dump folder"), qPrintable(run.err));
        run = runCli({ "trend_compare", "-tp", "a" });
        QCOMPARE(run.exitCode, 2);
        run = trendCompare(root, root, { "--tolerance", "-1" });
        QCOMPARE(run.exitCode, 2);
        writeFile(root / "x.trend.db", "not a database");
        run = trendCompare(root / "x.trend.db", root / "x.trend.db");
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains("x.trend.db"), qPrintable(run.err));
    }
};

QTEST_GUILESS_MAIN(TestCliTrendCompare)
#include "tst_cli_trend_compare.moc"
