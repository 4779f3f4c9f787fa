// SPDX-License-Identifier: Apache-2.0
// What `msprobe compare`, `msprobe graph_visualize` and `msprobe data2db` leave in their output folder when they are interrupted
// (SIGINT, SIGTERM) at a controlled moment, when one rank of a run is bad, and when two runs write into one folder
// in the same second: every file there is whole, the messages list exactly what was kept, and no run ever
// replaces or mixes with another's files.
#include "cli_interrupt.h"
#include "cli_runner.h"
#include "test_util.h"

#include <QDateTime>
#include <QTemporaryDir>

#include <algorithm>
#include <iterator>
#include <set>

using namespace msprobe::test;
namespace fs = std::filesystem;

namespace {

QString qp(const fs::path& p) { return QString::fromStdString(p.string()); }
fs::path dumps() { return refDumps(); }
fs::path statsJson(const char* side) { return onlySubdir(dumps() / (std::string(side) + "_mix_statistics") / "step0") / "dump.json"; }
fs::path graphData() { return dataDir() / "graph" / "synthetic"; }

// Every file below dir (hidden ones too), relative.
std::vector<std::string> filesIn(const fs::path& dir)
{
    std::vector<std::string> names;
    std::error_code ec;
    for (const auto& item : fs::recursive_directory_iterator(dir, ec))
        if (!item.is_directory())
            names.push_back(fs::relative(item.path(), dir).string());
    std::sort(names.begin(), names.end());
    return names;
}

bool anyHidden(const std::vector<std::string>& files)
{
    return std::any_of(files.begin(), files.end(), [](const std::string& f) {
        return fs::path(f).filename().string().front() == '.' || f.find(".partial") != std::string::npos;
    });
}

std::string readAll(const fs::path& file)
{
    std::ifstream in(file, std::ios::binary);
    return { std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>() };
}

// The time stamps of the next `seconds` seconds, as the tools name their files.
std::vector<std::string> comingTimestamps(int seconds)
{
    std::vector<std::string> stamps;
    const QDateTime now = QDateTime::currentDateTime();
    for (int s = -1; s < seconds; ++s)
        stamps.push_back(now.addSecs(s).toString("yyyyMMddHHmmss").toStdString());
    return stamps;
}

} // namespace

class TestCliOutputs : public QObject {
    Q_OBJECT

private slots:
    // A two-step run interrupted while its second step's CSV waits to be committed: the first step's CSV is kept
    // and listed, the second leaves nothing (no hidden temporary), exit status 130.
    void compareInterruptedKeepsAndListsFinishedSteps()
    {
        QTemporaryDir tmp;
        const fs::path out = fs::path(tmp.path().toStdString()) / "out";
        std::vector<std::string> whileHeld;
        const auto run = runCliInterrupted({ "compare", "-tp", qp(dumps() / "problem_1rank_mix_statistics"), "-gp",
                                               qp(dumps() / "bench_1rank_mix_statistics"), "-o", qp(out), "--no-progress", "-j", "1" },
            2, SIGINT, [&] { whileHeld = filesIn(out); });
        QVERIFY2(run.held, qPrintable(run.err));
        QVERIFY(anyHidden(whileHeld)); // the second CSV was complete under its temporary name
        QVERIFY2(run.exitedNormally && run.exitCode == 130, qPrintable(run.err));
        const auto files = filesIn(out);
        QCOMPARE(files.size(), std::size_t(1));
        QVERIFY(files[0].rfind("step0/compare_result_rank0_", 0) == 0);
        QVERIFY2(run.err.contains("1 finished file was written and kept:\n  " + qp(out / files[0])), qPrintable(run.err));
        QVERIFY(!run.err.contains("no partial output"));
        // The kept CSV is whole: its header and all 573 rows of step0 (the bench-vs-problem fixture).
        QVERIFY(readAll(out / files[0]).starts_with("NPU Name,"));
    }

    // SIGTERM before anything was committed: nothing at all is left and the message says so.
    void compareTerminatedLeavesNothing()
    {
        QTemporaryDir tmp;
        const fs::path out = fs::path(tmp.path().toStdString()) / "out";
        const auto run = runCliInterrupted(
            { "compare", "-tp", qp(statsJson("problem")), "-gp", qp(statsJson("bench")), "-o", qp(out), "--no-progress" }, 1, SIGTERM);
        QVERIFY2(run.held && run.exitedNormally && run.exitCode == 130, qPrintable(run.err));
        QVERIFY(filesIn(out).empty());
        QVERIFY2(run.err.contains("interrupted (SIGTERM)") && run.err.contains("no output file was written"), qPrintable(run.err));
    }

    // --xlsx stops on Ctrl-C too, and its temporaries (libxlsxwriter's file and ours) go.
    void compareXlsxInterrupted()
    {
        QTemporaryDir tmp;
        const fs::path out = fs::path(tmp.path().toStdString()) / "out";
        const auto run = runCliInterrupted({ "compare", "-tp", qp(statsJson("problem")), "-gp", qp(statsJson("bench")), "-o",
                                               qp(out), "--xlsx", "--no-progress" },
            1, SIGINT);
        QVERIFY2(run.held && run.exitedNormally && run.exitCode == 130, qPrintable(run.err));
        QVERIFY(filesIn(out).empty());
    }

    // One rank whose dump.json is broken: exit 1 naming it, and the other rank's finished CSV is listed as kept.
    void compareBadRankSaysWhatWasKept()
    {
        QTemporaryDir tmp;
        const fs::path root = tmp.path().toStdString();
        fs::copy(dumps() / "problem_2rank_mix_statistics" / "step0", root / "tp", fs::copy_options::recursive);
        fs::copy(dumps() / "bench_2rank_mix_statistics" / "step0", root / "gp", fs::copy_options::recursive);
        writeFile(root / "tp" / "rank1" / "dump.json", "{\"task\": \"statistics\", \"data\": {");
        const Run run = runCli({ "compare", "-tp", qp(root / "tp"), "-gp", qp(root / "gp"), "-o", qp(root / "out"), "--no-progress" });
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains("rank1/dump.json"), qPrintable(run.err));
        const auto files = filesIn(root / "out");
        QCOMPARE(files.size(), std::size_t(1));
        QVERIFY(files[0].rfind("compare_result_rank0_", 0) == 0);
        QVERIFY2(run.err.contains("1 finished file was written and kept:\n  " + qp(root / "out" / files[0])), qPrintable(run.err));
    }

    // Files of another run stamped with the same second are never replaced: the new result takes "_1".
    void compareNeverReplacesAnotherRunsFile()
    {
        QTemporaryDir tmp;
        const fs::path out = fs::path(tmp.path().toStdString());
        std::set<std::string> sentinels;
        for (const auto& stamp : comingTimestamps(30)) {
            writeFile(out / ("compare_result_" + stamp + ".csv"), "another run");
            sentinels.insert("compare_result_" + stamp + ".csv");
        }
        const Run run = runCli({ "compare", "-tp", qp(statsJson("problem")), "-gp", qp(statsJson("bench")), "-o", qp(out), "--no-progress" });
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        std::vector<std::string> added;
        for (const auto& file : filesIn(out)) {
            if (sentinels.count(file))
                QCOMPARE(readAll(out / file), std::string("another run"));
            else
                added.push_back(file);
        }
        QCOMPARE(added.size(), std::size_t(1));
        QVERIFY2(added[0].ends_with("_1.csv"), added[0].c_str());
        QVERIFY2(run.out.contains(qp(out / added[0])), qPrintable(run.out)); // the name used is the name printed
    }

    // Two runs started together into one folder: two distinct, whole results.
    void compareConcurrentRunsKeepTheirOwnFiles()
    {
        QTemporaryDir tmp;
        const fs::path out = fs::path(tmp.path().toStdString());
        const QStringList args { "compare", "-tp", qp(statsJson("problem")), "-gp", qp(statsJson("bench")), "-o", qp(out), "--no-progress" };
        QProcess a, b;
        a.start(QStringLiteral(MSPROBE_CLI_PATH), args);
        b.start(QStringLiteral(MSPROBE_CLI_PATH), args);
        QVERIFY(a.waitForFinished(120000) && b.waitForFinished(120000));
        QCOMPARE(a.exitCode() + b.exitCode(), 0);
        const auto files = filesIn(out);
        QCOMPARE(files.size(), std::size_t(2));
        QCOMPARE(readAll(out / files[0]), readAll(out / files[1]));
    }

    // graph_visualize on Ctrl-C or SIGTERM while its database waits to be committed: the hidden temporary goes,
    // exit status 130, and nothing is claimed as written.
    void graphInterruptedLeavesNothing()
    {
        for (int signal : { SIGINT, SIGTERM }) {
            QTemporaryDir tmp;
            const fs::path out = fs::path(tmp.path().toStdString()) / "out";
            std::vector<std::string> whileHeld;
            const auto run = runCliInterrupted(
                { "graph_visualize", "-tp", qp(graphData() / "npu"), "-gp", qp(graphData() / "bench"), "-o", qp(out) }, 1, signal,
                [&] { whileHeld = filesIn(out); });
            QVERIFY2(run.held, qPrintable(run.err));
            QVERIFY(anyHidden(whileHeld));
            QVERIFY2(run.exitedNormally && run.exitCode == 130, qPrintable(run.err));
            QVERIFY(filesIn(out).empty());
            QVERIFY2(run.err.contains("no output file was written"), qPrintable(run.err));
        }
    }

    // An interrupted run into an -o folder it had to create (two levels here) removes the folders again: no empty
    // folder is left behind. A folder that existed before stays.
    void interruptedRunsLeaveNoNewFolder()
    {
        const std::vector<std::pair<std::string, QStringList>> runs = {
            { "compare", { "compare", "-tp", qp(statsJson("problem")), "-gp", qp(statsJson("bench")), "--no-progress", "-o" } },
            { "graph_visualize", { "graph_visualize", "-tp", qp(graphData() / "npu"), "-gp", qp(graphData() / "bench"), "-o" } },
            { "data2db", { "data2db", "--data", qp(dataDir() / "trend" / "monitor_input_example"), "--db" } },
        };
        for (const auto& [name, args] : runs) {
            QTemporaryDir tmp;
            const fs::path root = tmp.path().toStdString();
            for (int signal : { SIGINT, SIGTERM }) {
                bool created = false;
                const auto run = runCliInterrupted(args + QStringList { qp(root / "new" / "out") }, 1, signal,
                    [&] { created = fs::is_directory(root / "new" / "out"); });
                QVERIFY2(run.held && created, (name + ": " + run.err.toStdString()).c_str());
                QVERIFY2(run.exitedNormally && run.exitCode == 130, (name + ": " + run.err.toStdString()).c_str());
                QVERIFY2(!fs::exists(root / "new"), name.c_str());
                QVERIFY(fs::is_directory(root));
            }
            // Into a folder that exists already: it stays, empty as it was.
            fs::create_directories(root / "old");
            const auto run = runCliInterrupted(args + QStringList { qp(root / "old") }, 1, SIGINT);
            QVERIFY2(run.held && run.exitCode == 130, (name + ": " + run.err.toStdString()).c_str());
            QVERIFY2(fs::is_directory(root / "old") && filesIn(root / "old").empty(), name.c_str());
        }
    }

    // A run that fails on its input after it made its -o folder removes the folder again.
    void failedRunLeavesNoNewFolder()
    {
        QTemporaryDir tmp;
        const fs::path root = tmp.path().toStdString();
        writeFile(root / "data" / "Dec03_21-34-40-rank0-abcd1234" / "actv_0-0.csv", "vpp_stage,name\n0,a\n"); // no "step"
        const Run run = runCli({ "data2db", "--db", qp(root / "new" / "db"), "--data", qp(root / "data") });
        QVERIFY2(run.exitCode == 1 && run.err.contains("step"), qPrintable(run.err));
        QVERIFY(!fs::exists(root / "new"));
    }

    // graph_visualize --svg writes its picture all or nothing: held before the picture's commit, only a hidden
    // temporary exists beside the committed database; Ctrl-C removes it and keeps (and lists) the database only.
    void graphSvgIsWrittenWholeOrNotAtAll()
    {
        QTemporaryDir tmp;
        const fs::path out = fs::path(tmp.path().toStdString()) / "out";
        std::vector<std::string> whileHeld;
        const auto run = runCliInterrupted({ "graph_visualize", "-tp", qp(graphData() / "npu"), "-gp", qp(graphData() / "bench"),
                                               "-o", qp(out), "--svg" },
            2, SIGINT, [&] { whileHeld = filesIn(out); });
        const auto svgFiles = [](const std::vector<std::string>& files) {
            std::vector<std::string> svg;
            std::copy_if(files.begin(), files.end(), std::back_inserter(svg), [](const std::string& f) { return f.find(".svg") != std::string::npos; });
            return svg;
        };
        QVERIFY2(run.held, qPrintable(run.err));
        QCOMPARE(svgFiles(whileHeld).size(), std::size_t(1));
        QVERIFY2(svgFiles(whileHeld)[0].front() == '.' && !svgFiles(whileHeld)[0].ends_with(".svg"), svgFiles(whileHeld)[0].c_str());
        QVERIFY2(run.exitedNormally && run.exitCode == 130, qPrintable(run.err));
        // The export reads the committed database without SQLite's -wal/-shm files: none while held, none after.
        const auto sqliteSideFiles = [](const std::vector<std::string>& files) {
            return std::count_if(files.begin(), files.end(), [](const std::string& f) { return f.ends_with("-wal") || f.ends_with("-shm"); });
        };
        QCOMPARE(sqliteSideFiles(whileHeld), 0);
        const auto files = filesIn(out);
        QCOMPARE(files.size(), std::size_t(1));
        QCOMPARE(sqliteSideFiles(files), 0);
        const auto db = std::find_if(files.begin(), files.end(), [](const std::string& f) { return f.ends_with(".vis.db"); });
        QVERIFY(db != files.end());
        QVERIFY2(run.err.contains("1 finished file was written and kept:\n  " + qp(out / *db)), qPrintable(run.err));
    }

    // A vis.db of another run stamped the same second is never replaced; the new one's name is printed.
    void graphNeverReplacesAnotherRunsDatabase()
    {
        QTemporaryDir tmp;
        const fs::path out = fs::path(tmp.path().toStdString());
        std::set<std::string> sentinels;
        for (const auto& stamp : comingTimestamps(30)) {
            writeFile(out / ("build_" + stamp + ".vis.db"), "another run");
            sentinels.insert("build_" + stamp + ".vis.db");
        }
        const Run run = runCli({ "graph_visualize", "-tp", qp(graphData() / "npu"), "-o", qp(out) });
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        std::vector<std::string> added;
        for (const auto& file : filesIn(out)) {
            if (sentinels.count(file))
                QCOMPARE(readAll(out / file), std::string("another run"));
            else
                added.push_back(file);
        }
        QCOMPARE(added.size(), std::size_t(1));
        QVERIFY2(added[0].ends_with("_1.vis.db"), added[0].c_str());
        QVERIFY2(run.out.contains(qp(out / added[0]) + " written"), qPrintable(run.out));
        QVERIFY(readAll(out / added[0]).starts_with("SQLite format 3"));
    }
};

QTEST_GUILESS_MAIN(TestCliOutputs)
#include "tst_cli_outputs.moc"
