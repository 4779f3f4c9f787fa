// SPDX-License-Identifier: Apache-2.0
// End to end: the example training program (tiny transformer, Adam) dumped twice, once with a fault in one
// layer; the compare engine finds that layer as the first divergence. The same run's monitor CSVs, and two
// monitored runs that differ in one attention's scale, told apart by the trend compare. The cross-runtime config
// (tensor task, .pt files, rank folders).
#include "compare/compare_engine.h"
#include "compare/divergence.h"
#include "dump/construct_stack.h"
#include "support/sqlite_util.h"
#include "trend/monitor_import.h"
#include "trend/trend_compare.h"
#include "tst_capture_util.h"

#include <QProcess>
#include <QTemporaryDir>

#include <algorithm>
#include <fstream>
#include <regex>

using namespace msprobe;
using namespace msprobe::test;
namespace fs = std::filesystem;

namespace {

bool runExample(const QStringList& args, QString* output = nullptr)
{
    QProcess process;
    process.start(MSPROBE_EXAMPLE_TRAIN, args);
    if (!process.waitForFinished(180000))
        return false;
    if (output)
        *output = QString::fromUtf8(process.readAllStandardOutput()) + QString::fromUtf8(process.readAllStandardError());
    return process.exitStatus() == QProcess::NormalExit && process.exitCode() == 0;
}

std::string readText(const fs::path& file)
{
    std::ifstream in(file);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

// md5 of every tensor under a value node, in order.
void collectMd5(const dump::DumpFile& dump, std::uint32_t node, std::vector<std::string>& out)
{
    if (dump.nodes[node].kind == dump::NodeKind::Tensor) {
        out.emplace_back(dump.text(dump.tensors.md5[dump.nodes[node].payload]));
        return;
    }
    if (dump.nodes[node].kind == dump::NodeKind::List || dump.nodes[node].kind == dump::NodeKind::Dict)
        for (auto child : dump.children(node))
            collectMd5(dump, child, out);
}

std::vector<std::string> outputMd5(const dump::DumpFile& dump, std::size_t entry)
{
    std::vector<std::string> out;
    const auto body = dump.entries[entry].body;
    for (const char* key : { "output" })
        if (auto node = dump.childByKey(body, key); node >= 0)
            collectMd5(dump, static_cast<std::uint32_t>(node), out);
    return out;
}

} // namespace

class TestCaptureExample : public QObject {
    Q_OBJECT

private slots:
    void faultyLayerIsTheFirstDivergence()
    {
        QTemporaryDir tmp;
        const fs::path root = tmp.path().toStdString();
        writeFile(root / "config.json",
            "{\"task\": \"statistics\", \"level\": \"mix\", \"step\": [0], \"statistics\": {\"summary_mode\": \"md5\"}}");
        QString out;
        QVERIFY2(runExample({ "--steps", "2", "--config", q((root / "config.json").string()), "--dump-path",
                                q((root / "bench").string()), "--monitor-dir", q((root / "monitor").string()) },
                     &out),
            qPrintable(out));
        QVERIFY2(runExample({ "--steps", "2", "--config", q((root / "config.json").string()), "--dump-path",
                                q((root / "problem").string()), "--fault" },
                     &out),
            qPrintable(out));
        QVERIFY(!fs::exists(root / "bench" / "step1")); // step filter
        const fs::path benchJson = rankDir(root / "bench") / "dump.json";
        const fs::path problemJson = rankDir(root / "problem") / "dump.json";

        // Our compare engine: the faulty GELU op of block 1 is the first divergence (its "approximate" argument
        // differs), not the MLP module around it.
        const auto table = compare::compareDumpFiles(problemJson, benchJson, compare::CompareOptions {});
        const auto divergence = compare::firstDivergence(*table, {}, problemJson);
        QVERIFY(divergence.has_value());
        QVERIFY2(divergence->entry == "Aten.gelu.1.forward", divergence->entry.c_str());
        QVERIFY2(divergence->rule == compare::DivergencePoint::Rule::Argument, divergence->reason.c_str());
        const auto construct = dump::readConstructJson(rankDir(root / "problem") / "construct.json");
        const auto* node = construct.find("Aten.gelu.1.forward");
        QVERIFY(node && node->parent);
        QCOMPARE(*node->parent, std::string("Module.blocks.1.mlp.MLP.forward.0"));

        // The same, read through core directly: every entry before the GELU has identical output checksums.
        const dump::DumpFile bench = dump::readDumpJson(benchJson), problem = dump::readDumpJson(problemJson);
        QCOMPARE(problem.entries.size(), bench.entries.size());
        std::string first;
        for (std::size_t k = 0; k < bench.entries.size() && first.empty(); ++k) {
            QCOMPARE(problem.entryName(k), bench.entryName(k));
            if (outputMd5(problem, k) != outputMd5(bench, k))
                first = std::string(bench.entryName(k));
        }
        QCOMPARE(first, std::string("Aten.gelu.1.forward"));
    }

    // The combination both tools compare (examples/dump_config_cross_runtime.json, --rank 0): a tensor dump
    // with .pt files (the only tensor files the Python tool reads) in step0/rank0 (what -da analyses); the
    // compare reads those files and still names the faulty GELU first.
    void crossRuntimeConfigWritesPtFilesInRankFolders()
    {
        QTemporaryDir tmp;
        const fs::path root = tmp.path().toStdString();
        const fs::path config = fs::path(MSPROBE_TEST_DATA).parent_path().parent_path() / "examples" / "dump_config_cross_runtime.json";
        QVERIFY(fs::is_regular_file(config));
        QString out;
        for (const char* side : { "bench", "problem" }) {
            QStringList args { "--steps", "1", "--config", q(config.string()), "--dump-path", q((root / side).string()), "--rank", "0" };
            if (std::string(side) == "problem")
                args << "--fault";
            QVERIFY2(runExample(args, &out), qPrintable(out));
            QCOMPARE(onlySubdir(root / side / "step0").filename().string(), std::string("rank0"));
        }
        const fs::path benchRank = root / "bench" / "step0" / "rank0", problemRank = root / "problem" / "step0" / "rank0";
        const dump::DumpFile bench = dump::readDumpJson(benchRank / "dump.json");
        QCOMPARE(bench.task, std::string("tensor"));
        std::size_t pt = 0, other = 0;
        for (const auto& item : fs::directory_iterator(benchRank / "dump_tensor_data"))
            ++(item.path().extension() == ".pt" ? pt : other);
        QVERIFY(pt > 100);
        QCOMPARE(other, std::size_t(0));
        const auto table = compare::compareDumpFiles(problemRank / "dump.json", benchRank / "dump.json", compare::CompareOptions {});
        const auto divergence = compare::firstDivergence(*table, {}, problemRank / "dump.json");
        QVERIFY(divergence.has_value());
        QVERIFY2(divergence->entry == "Aten.gelu.1.forward", divergence->entry.c_str());
    }

    void monitorCsvLayout()
    {
        QTemporaryDir tmp;
        const fs::path root = tmp.path().toStdString();
        QString out;
        QVERIFY2(runExample({ "--steps", "2", "--monitor-dir", q((root / "monitor").string()) }, &out), qPrintable(out));
        fs::path dir;
        for (const auto& item : fs::directory_iterator(root / "monitor"))
            dir = item.path();
        // data2db's rank directory pattern: {MonDD_HH-MM-SS}-rank{R}-{hash}
        QVERIFY2(std::regex_match(dir.filename().string(), std::regex(R"([A-Z][a-z]{2}\d{2}_\d{2}-\d{2}-\d{2}-rank0-[0-9a-f]{8})")),
            dir.filename().c_str());
        for (const char* file : { "actv_0-0.csv", "actv_grad_0-0.csv", "grad_reduced_0-0.csv", "grad_unreduced_1-1.csv",
                 "param_origin_1-1.csv", "param_updated_0-0.csv", "exp_avg_1-1.csv", "exp_avg_sq_1-1.csv" })
            QVERIFY2(fs::exists(dir / file), file);
        QVERIFY(!fs::exists(dir / "exp_avg_0-0.csv")); // Adam has no moments before its first step
        const std::string actv = readText(dir / "actv_0-0.csv");
        QVERIFY(actv.rfind("vpp_stage,name,step,micro_step,min,max,norm,zeros,nans,mean,shape,dtype\n", 0) == 0);
        QVERIFY(actv.find("\n0,blocks.1.attn.q_proj.input,0,0,") != std::string::npos);
        QVERIFY(actv.find("\n0,tok_emb.input,0,0,") != std::string::npos);
        QVERIFY(actv.find("\"[4, 32, 64]\",torch.float32\n") != std::string::npos);
        const std::string grad = readText(dir / "actv_grad_0-0.csv");
        QVERIFY(grad.find("\n0,blocks.0.mlp.output,0,0,") != std::string::npos);
        const std::string param = readText(dir / "param_origin_0-0.csv");
        QVERIFY(param.rfind("vpp_stage,name,step,min,max,norm,zeros,nans,mean,shape,dtype\n0,tok_emb.weight,0,", 0) == 0);
        // LayerNorm weights start at exactly 1.
        QVERIFY(param.find("\n0,blocks.0.ln1.weight,0,1.0,1.0,8.0,0.0,0,1.0,[64],torch.float32\n") != std::string::npos);

        // msprobe data2db reads them: one trend row per CSV row (two steps without micro-step columns beyond 0),
        // the values as written.
        const fs::path db = root / "trend" / "monitor_data.trend.db";
        fs::create_directories(db.parent_path());
        const auto summary = trend::importMonitorData(root / "monitor", db, trend::ImportOptions {});
        QCOMPARE(summary.files, std::size_t(14)); // 8 metrics at step 0 except the moments, all 8 at step 1
        QCOMPARE(summary.maxStep, std::int64_t(1));
        msprobe::support::SqliteDb file(db, true);
        msprobe::support::SqliteStatement metrics(file, "SELECT group_concat(metric_name) FROM monitoring_metrics ORDER BY metric_id");
        QVERIFY(metrics.step());
        QCOMPARE(std::string(metrics.columnText(0)),
            std::string("actv,actv_grad,exp_avg,exp_avg_sq,grad_unreduced,grad_reduced,param_origin,param_updated"));
        msprobe::support::SqliteStatement ln(file,
            "SELECT t.step, t.norm, t.min, t.max, t.zeros, t.nans, t.mean FROM trend_data t"
            " JOIN monitoring_targets m ON t.target_id = m.target_id JOIN monitoring_metrics k ON t.metric_id = k.metric_id"
            " WHERE m.target_name = 'blocks.0.ln1.weight' AND k.metric_name = 'param_origin' ORDER BY t.step");
        QVERIFY(ln.step());
        QCOMPARE(ln.columnInt(0), std::int64_t(0));
        for (int c : { 2, 3, 6 })
            QCOMPARE(ln.columnDouble(c), 1.0);
        QCOMPARE(ln.columnDouble(1), 8.0);
        QCOMPARE(ln.columnDouble(4), 0.0);
        QVERIFY(ln.step());
        QCOMPARE(ln.columnInt(0), std::int64_t(1));
        msprobe::support::SqliteStatement rows(file, "SELECT count(*) FROM trend_data");
        QVERIFY(rows.step());
        std::size_t csvRows = 0;
        for (const auto& item : fs::recursive_directory_iterator(root / "monitor"))
            if (item.path().extension() == ".csv") {
                const std::string text = readText(item.path());
                csvRows += static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n')) - 1;
            }
        QCOMPARE(static_cast<std::size_t>(rows.columnInt(0)), csvRows);
    }
    // Two real monitored runs, the problem with block 1's attention scores scaled by 1.25: the trend compare
    // names that attention at step 0 first, and nothing upstream of it (block 0, block 1's q/k/v projections).
    void attentionScaleIsTheFirstTrendDivergence()
    {
        QTemporaryDir tmp;
        const fs::path root = tmp.path().toStdString();
        QString out;
        QVERIFY2(runExample({ "--steps", "2", "--monitor-dir", q((root / "bench").string()) }, &out), qPrintable(out));
        QVERIFY2(runExample({ "--steps", "2", "--monitor-dir", q((root / "problem").string()), "--fault-attention-scale" },
                     &out),
            qPrintable(out));
        std::vector<trend::TrendPoint> points[2];
        for (int side = 0; side < 2; ++side) {
            const fs::path db = root / (side == 0 ? "problem.trend.db" : "bench.trend.db");
            trend::importMonitorData(root / (side == 0 ? "problem" : "bench"), db, trend::ImportOptions {});
            points[side] = trend::readTrendPoints(db, "norm");
            QVERIFY(!points[side].empty());
        }
        const auto result = trend::compareTrends(points[0], points[1], 1e-6);
        QVERIFY(!result.divergences.empty());
        const auto& first = result.divergences.front();
        QCOMPARE(first.step, std::int64_t(0));
        QCOMPARE(first.metric, std::string("actv"));
        QVERIFY2(first.target.rfind("blocks.1.attn.", 0) == 0, first.target.c_str());
        // By a second route: every step-0 activation that parts is the attention's output path or downstream
        // of it, and the monitored values upstream of it are bit-identical.
        for (const auto& d : result.divergences) {
            if (d.step != 0 || d.metric != "actv")
                continue;
            QVERIFY2(d.target.rfind("blocks.0.", 0) != 0 && d.target.rfind("tok_emb", 0) != 0
                    && d.target.rfind("pos_emb", 0) != 0 && d.target.rfind("blocks.1.ln1", 0) != 0
                    && d.target.find("q_proj") == std::string::npos && d.target.find("k_proj") == std::string::npos
                    && d.target.find("v_proj") == std::string::npos && d.target != "blocks.1.attn.input",
                d.target.c_str());
        }
        QVERIFY(result.onlyInProblem.empty() && result.onlyInBench.empty());
    }
};

QTEST_APPLESS_MAIN(TestCaptureExample)
#include "tst_capture_example.moc"
