// SPDX-License-Identifier: Apache-2.0
// `msprobe compare` end to end: output formats (CSV, XLSX, HTML, verdict JSON), --fail-on, dump_path inputs, and bad
// inputs (a missing side, mismatched modes, file vs directory, -da without rank folders): a clear error naming the file, a non-zero exit
// status and no output file left behind; a corrupt tensor file is an error row naming it, counted in the summary.
#include "test_util.h"
#include "cli_runner.h"
#include "tst_compare_consistent_inputs.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include <QProcess>
#include <QTemporaryDir>

using namespace msprobe::test;
namespace fs = std::filesystem;

namespace {

fs::path dumps() { return dataDir() / "msprobe-ref" / "dumps"; }
QString qp(const fs::path& p) { return QString::fromStdString(p.string()); }
fs::path statsJson(const char* side, const char* step = "step0")
{
    return onlySubdir(dumps() / (std::string(side) + "_mix_statistics") / step) / "dump.json";
}

std::vector<std::string> filesIn(const fs::path& dir)
{
    std::vector<std::string> names;
    std::error_code ec;
    for (const auto& item : fs::recursive_directory_iterator(dir, ec))
        if (item.is_regular_file())
            names.push_back(fs::relative(item.path(), dir).string());
    std::sort(names.begin(), names.end());
    return names;
}

} // namespace

class TestCliCompare : public QObject {
    Q_OBJECT

private slots:
    void csvHtmlJsonAndFailOn()
    {
        QTemporaryDir tmp;
        const fs::path out = fs::path(tmp.path().toStdString()) / "out";
        const Run run = runCli({ "compare", "-tp", qp(statsJson("problem")), "-gp", qp(statsJson("bench")), "-o", qp(out), "--html",
            "--json", "--fail-on", "error", "--no-progress" });
        QVERIFY2(run.exitCode == 3, qPrintable(run.err + run.out)); // one error row -> --fail-on error
        QVERIFY(run.out.contains("statistics mode, 573 rows: 567 pass, 5 warning, 1 error"));
        QVERIFY2(run.out.contains("first divergence: Functional.gelu.1.forward (row 202): kwarg approximate 'tanh' vs 'none'"), qPrintable(run.out));
        const auto files = filesIn(out);
        QCOMPARE(files.size(), std::size_t(3));
        fs::path verdict;
        for (const auto& f : files)
            if (f.rfind("compare_verdict_", 0) == 0)
                verdict = out / f;
        QVERIFY(!verdict.empty());
        std::ifstream in(verdict);
        const auto json = nlohmann::json::parse(in);
        QCOMPARE(json["verdict"].get<std::string>(), std::string("error"));
        QCOMPARE(json["counts"]["error"].get<int>(), 1);
        QCOMPARE(json["pairs"][0]["failed_rows"][0]["npu_name"].get<std::string>(), std::string("Functional.gelu.1.forward.input.approximate"));
        // warning threshold also trips; bench vs bench passes
        const Run same = runCli({ "compare", "-tp", qp(statsJson("bench")), "-gp", qp(statsJson("bench")), "-o", qp(out), "--fail-on",
            "warning", "--no-progress" });
        QCOMPARE(same.exitCode, 0);
        QVERIFY2(same.out.contains("first divergence: none"), qPrintable(same.out));
    }

    // --consistent_check end to end: the backend is required, the CSV has the statistics header and one row per
    // aggregated pair (10 for the FSDP sample worked out in tst_compare_consistent).
    void consistentCheck()
    {
        QTemporaryDir tmp;
        const fs::path root = tmp.path().toStdString();
        auto dumpJson = [](const std::string& entries) {
            return R"({"task": "statistics", "level": "L0", "framework": "pytorch", "dump_data_dir": null, "data": {)" + entries + "}}";
        };
        writeFile(root / "train" / "dump.json", dumpJson(fsdpTraining()));
        writeFile(root / "infer" / "dump.json", dumpJson(fsdpInference()));
        const fs::path out = root / "out";
        const Run noBackend = runCli({ "compare", "-tp", qp(root / "train" / "dump.json"), "-gp", qp(root / "infer" / "dump.json"),
            "-o", qp(out), "--consistent_check" });
        QCOMPARE(noBackend.exitCode, 2);
        QVERIFY(noBackend.err.contains("--backend"));
        const Run run = runCli({ "compare", "-tp", qp(root / "train" / "dump.json"), "-gp", qp(root / "infer" / "dump.json"),
            "-o", qp(out), "--consistent_check", "--backend", "fsdp", "--no-progress" });
        QVERIFY2(run.exitCode == 0, qPrintable(run.err + run.out));
        const auto files = filesIn(out);
        QCOMPARE(files.size(), std::size_t(1));
        std::ifstream in(out / files.front());
        std::string header, line;
        std::getline(in, header);
        QVERIFY(header.rfind("NPU Name,Bench Name,NPU Dtype,Bench Dtype,NPU Tensor Shape,Bench Tensor Shape", 0) == 0);
        std::size_t rows = 0;
        bool downProjChecked = false;
        while (std::getline(in, line)) {
            rows += line.rfind("Module.", 0) == 0 || line.rfind("N/A,", 0) == 0 || line.rfind('"', 0) == 0;
            // down_proj's output: Norm 10 against 5 -> L2norm diff 5.0 and NormRelativeErr 100.0%.
            if (line.find("down_proj.Linear.forward.0.output.0") != std::string::npos) {
                QVERIFY2(line.find(",0,0,0,5.0,0,0,0,100.0%,5.0,-5.0,0.0,10.0,5.0,-5.0,0.0,5.0,True,error,") != std::string::npos, line.c_str());
                downProjChecked = true;
            }
        }
        QCOMPARE(rows, std::size_t(10));
        QVERIFY(downProjChecked);
    }

    void xlsxOutput()
    {
        QTemporaryDir tmp;
        const fs::path out = fs::path(tmp.path().toStdString()) / "out";
        const Run run = runCli({ "compare", "-tp", qp(statsJson("problem")), "-gp", qp(statsJson("bench")), "-o", qp(out), "--xlsx", "--no-progress" });
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        const auto files = filesIn(out);
        QCOMPARE(files.size(), std::size_t(1));
        QVERIFY(files[0].ends_with(".xlsx"));
        std::ifstream in(out / files[0], std::ios::binary);
        char magic[2] = {};
        in.read(magic, 2);
        QVERIFY(magic[0] == 'P' && magic[1] == 'K'); // a zip container
    }

    void dumpPathInputs()
    {
        QTemporaryDir tmp;
        const fs::path out = fs::path(tmp.path().toStdString()) / "out";
        // two dump_paths with step0/rank0 and step1/rank0: one CSV per step folder
        const Run run = runCli({ "compare", "-tp", qp(dumps() / "problem_1rank_mix_statistics"), "-gp", qp(dumps() / "bench_1rank_mix_statistics"),
            "-o", qp(out), "--no-progress" });
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        const auto files = filesIn(out);
        QCOMPARE(files.size(), std::size_t(2));
        const bool step0 = std::any_of(files.begin(), files.end(), [](const std::string& f) { return f.rfind("step0/compare_result_rank0_", 0) == 0; });
        const bool step1 = std::any_of(files.begin(), files.end(), [](const std::string& f) { return f.rfind("step1/compare_result_rank0_", 0) == 0; });
        QVERIFY(step0 && step1);
    }

    // -da analyses rank folders only: given proc{PID} folders it says so, and how a capture writes rank folders,
    // instead of the reference's bare "Cannot find any diff node" (which reads as "no difference").
    void diffAnalyzeNeedsRankFolders()
    {
        QTemporaryDir tmp;
        const fs::path out = fs::path(tmp.path().toStdString()) / "out";
        const fs::path problemProc = onlySubdir(dumps() / "problem_mix_statistics" / "step0");
        const fs::path benchProc = onlySubdir(dumps() / "bench_mix_statistics" / "step0");
        const Run procs = runCli({ "compare", "-tp", qp(problemProc), "-gp", qp(benchProc), "-o", qp(out), "-da", "--no-progress" });
        QVERIFY2(procs.exitCode == 0, qPrintable(procs.err));
        const std::string procName = problemProc.filename().string();
        QVERIFY2(procs.out.contains(QString::fromStdString("-da analyses rank folders (rank, rank{N}) and " + procName + " is not one")),
            qPrintable(procs.out));
        QVERIFY2(procs.out.contains("RANK environment variable is set or PrecisionDebugger::setRank(N)"), qPrintable(procs.out));
        const auto files = filesIn(out);
        QVERIFY(std::none_of(files.begin(), files.end(), [](const std::string& f) { return f.rfind("diff_analyze_", 0) == 0; }));
        // Step folders holding proc{PID} folders: an error naming the folder.
        const Run steps = runCli({ "compare", "-tp", qp(problemProc.parent_path()), "-gp", qp(benchProc.parent_path()), "-o",
            qp(out), "-da", "--no-progress" });
        QCOMPARE(steps.exitCode, 1);
        QVERIFY2(steps.err.contains(qp(problemProc.parent_path())) && steps.err.contains("-da needs rank directories")
                && steps.err.contains("PrecisionDebugger::setRank(N)"),
            qPrintable(steps.err));
        // Rank folders: analysed, no such explanation.
        const fs::path ranksOut = fs::path(tmp.path().toStdString()) / "ranks";
        const Run ranks = runCli({ "compare", "-tp", qp(dumps() / "problem_1rank_mix_statistics" / "step0" / "rank0"), "-gp",
            qp(dumps() / "bench_1rank_mix_statistics" / "step0" / "rank0"), "-o", qp(ranksOut), "-da", "--no-progress" });
        QVERIFY2(ranks.exitCode == 0, qPrintable(ranks.err));
        QVERIFY2(!ranks.out.contains("analyses rank folders"), qPrintable(ranks.out));
        QVERIFY2(ranks.out.contains("diff analysis: ") || ranks.out.contains("Cannot find any diff node, no need"), qPrintable(ranks.out));
    }

    void missingSide()
    {
        QTemporaryDir tmp;
        const fs::path out = fs::path(tmp.path().toStdString()) / "out";
        const Run run = runCli({ "compare", "-tp", qp(statsJson("problem")), "-gp", qp(fs::path(tmp.path().toStdString()) / "nope" / "dump.json"),
            "-o", qp(out), "--no-progress" });
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains("nope/dump.json: no such file or directory"), qPrintable(run.err));
        QVERIFY(filesIn(out).empty());
    }

    void mismatchedModes()
    {
        QTemporaryDir tmp;
        const fs::path out = fs::path(tmp.path().toStdString()) / "out";
        const fs::path md5 = onlySubdir(dumps() / "bench_mix_md5" / "step0") / "dump.json";
        const Run run = runCli({ "compare", "-tp", qp(statsJson("problem")), "-gp", qp(md5), "-o", qp(out), "--no-progress" });
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains("md5 checksums"), qPrintable(run.err));
        QVERIFY(filesIn(out).empty());
    }

    void fileAgainstDirectoryAndUsage()
    {
        QTemporaryDir tmp;
        const Run mixed = runCli({ "compare", "-tp", qp(statsJson("problem")), "-gp", qp(dumps() / "bench_mix_statistics" / "step0"), "-o", tmp.path() });
        QCOMPARE(mixed.exitCode, 1);
        QVERIFY(mixed.err.contains("both be files or both be directories"));
        QCOMPARE(runCli({ "compare", "-tp", "a" }).exitCode, 2);
        QCOMPARE(runCli({ "compare", "-tp", "a", "-gp", "b", "--bogus" }).exitCode, 2);
        const Run am = runCli({ "compare", "-tp", qp(statsJson("problem")), "-gp", qp(statsJson("bench")), "-am", "-o", tmp.path() });
        QCOMPARE(am.exitCode, 1);
        QVERIFY(am.err.contains("-am is not supported in PyTorch"));
    }

    void corruptTensorFile()
    {
        QTemporaryDir tmp;
        const fs::path root = tmp.path().toStdString();
        fs::copy(dumps() / "problem_mix_tensor", root / "problem", fs::copy_options::recursive);
        fs::copy(dumps() / "bench_mix_tensor", root / "bench", fs::copy_options::recursive);
        const fs::path problemDir = onlySubdir(root / "problem" / "step0");
        const fs::path victim = problemDir / "dump_tensor_data" / "Functional.gelu.1.forward.output.0.pt";
        QVERIFY(fs::exists(victim));
        writeFile(victim, "this is not a torch.save archive");
        const fs::path out = root / "out";
        // A corrupt or missing tensor file is reported in its row (an error naming the file) and counted; the run
        // goes on and writes the CSV.
        const Run run = runCli({ "compare", "-tp", qp(problemDir / "dump.json"), "-gp", qp(onlySubdir(root / "bench" / "step0") / "dump.json"),
            "-o", qp(out), "--no-progress" });
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        QVERIFY2(run.err.contains("Functional.gelu.1.forward.output.0.pt"), qPrintable(run.err));
        QVERIFY2(run.out.contains("1 tensor file missing or unreadable"), qPrintable(run.out));
        QCOMPARE(filesIn(out).size(), std::size_t(1));
        fs::remove(victim);
        const Run missing = runCli({ "compare", "-tp", qp(problemDir / "dump.json"), "-gp", qp(onlySubdir(root / "bench" / "step0") / "dump.json"),
            "-o", qp(root / "out2"), "--no-progress", "--fail-on", "error" });
        QCOMPARE(missing.exitCode, 3);
        QVERIFY2(missing.out.contains("1 tensor file missing or unreadable"), qPrintable(missing.out));
        QCOMPARE(filesIn(root / "out2").size(), std::size_t(1));
    }
};

QTEST_APPLESS_MAIN(TestCliCompare)
#include "tst_cli_compare.moc"
