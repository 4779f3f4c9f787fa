// SPDX-License-Identifier: Apache-2.0
// The dump layout (core/dump/dump_layout): the one walker of step/rank/proc folders, on odd layouts, and the verbs
// built on it (discovery, compare pairing, graph_visualize's rank folders, data2db's step check) agreeing.
#include "test_util.h"

#include "compare/compare_inputs.h"
#include "dump/dump_layout.h"
#include "dump/dump_tree.h"
#include "graph/graph_run.h"
#include "support/error.h"
#include "trend/dump_import.h"

#include <QTemporaryDir>

#include <sys/stat.h>

using namespace msprobe;
using namespace msprobe::test;
namespace fs = std::filesystem;

namespace {

QString errorOf(const std::function<void()>& action)
{
    try {
        action();
    } catch (const support::Error& error) {
        return QString::fromUtf8(error.what());
    }
    return {};
}

std::vector<std::string> namesOf(const std::vector<dump::DumpFolder>& folders)
{
    std::vector<std::string> names;
    for (const auto& folder : folders)
        names.push_back(folder.name);
    return names;
}

std::vector<int> numbersOf(const std::vector<dump::DumpFolder>& folders)
{
    std::vector<int> numbers;
    for (const auto& folder : folders)
        numbers.push_back(folder.number);
    return numbers;
}

} // namespace

class TestDumpLayout : public QObject {
    Q_OBJECT

private slots:
    void procFoldersSortNumerically()
    {
        QTemporaryDir tmp;
        const fs::path step = fs::path(tmp.path().toStdString()) / "step0";
        for (const char* proc : { "proc10", "proc2", "proc100", "proc9" })
            writeFile(step / proc / "dump.json", "{}");
        const dump::DumpFolders folders = dump::listDumpFolders(step, dump::DumpFolderNames::Written);
        QCOMPARE(namesOf(folders.procs), (std::vector<std::string> { "proc2", "proc9", "proc10", "proc100" }));
        QCOMPARE(numbersOf(folders.procs), (std::vector<int> { 2, 9, 10, 100 }));
        QVERIFY(folders.ranks.empty() && folders.steps.empty());

        const dump::DumpTree tree = dump::discoverDumpTree(step);
        QCOMPARE(int(tree.kind), int(dump::DumpRootKind::StepDir));
        std::vector<std::string> labels;
        for (const auto& rank : tree.steps[0].ranks) {
            labels.push_back(rank.label);
            QVERIFY(rank.isProc && !rank.rank);
            QCOMPARE(rank.dumpJson, rank.dir / "dump.json");
        }
        QCOMPARE(labels, (std::vector<std::string> { "proc2", "proc9", "proc10", "proc100" }));
        // graph_visualize reads one process of unknown rank: the lowest process id, as rank 0.
        const auto graphRanks = graph::rankDirectories(step);
        QCOMPARE(graphRanks.size(), std::size_t(1));
        QCOMPARE(graphRanks[0], (std::pair<std::string, int>("proc2", 0)));
    }

    void ranksAndStepsAsNumbers()
    {
        QTemporaryDir tmp;
        const fs::path root = tmp.path().toStdString();
        for (const char* step : { "step10", "step2", "step0" })
            for (const char* rank : { "rank10", "rank2", "rank", "notarank" })
                writeFile(root / step / rank / "dump.json", "{}");
        writeFile(root / "step2x" / "rank0" / "dump.json", "{}"); // not a step folder
        writeFile(root / "notes.txt", "x");
        const dump::DumpFolders top = dump::listDumpFolders(root, dump::DumpFolderNames::Written);
        QCOMPARE(numbersOf(top.steps), (std::vector<int> { 0, 2, 10 }));
        QCOMPARE(top.steps[2].path, root / "step10");
        QCOMPARE(top.otherFolders, std::size_t(1));
        QCOMPARE(top.files, std::size_t(1));
        const dump::DumpFolders step = dump::listDumpFolders(root / "step2", dump::DumpFolderNames::Written);
        QCOMPARE(namesOf(step.ranks), (std::vector<std::string> { "rank", "rank2", "rank10" }));
        QCOMPARE(numbersOf(step.ranks), (std::vector<int> { 0, 2, 10 }));
        QVERIFY(step.ranks[0].bare && !step.ranks[1].bare);
        QCOMPARE(step.otherFolders, std::size_t(1));

        // The two name rules differ in leading zeros only.
        QVERIFY(dump::readFolderName("rank01", dump::DumpFolderNames::Written));
        QVERIFY(!dump::readFolderName("rank01", dump::DumpFolderNames::Reference));
        QCOMPARE(dump::readFolderName("rank0", dump::DumpFolderNames::Reference)->number, 0);
        QCOMPARE(dump::readFolderName("step07", dump::DumpFolderNames::Written)->number, 7);
        QVERIFY(!dump::readFolderName("step", dump::DumpFolderNames::Written)); // a step needs its number
        QVERIFY(!dump::readFolderName("proc", dump::DumpFolderNames::Written));
        QVERIFY(!dump::readFolderName("rank1234567890", dump::DumpFolderNames::Written)); // at most 9 digits
        QVERIFY(!dump::readFolderName("procx", dump::DumpFolderNames::Reference));
    }

    void verbsAgreeOnTheOrder()
    {
        QTemporaryDir tmp;
        const fs::path root = tmp.path().toStdString();
        for (const char* side : { "npu", "bench" })
            for (const char* rank : { "rank10", "rank2", "rank1" })
                writeFile(root / side / "step3" / rank / "dump.json", "{}");
        const auto pairs = compare::resolveComparePairs(root / "npu", root / "bench", root / "out", false);
        QCOMPARE(pairs.size(), std::size_t(3));
        std::vector<int> compareRanks;
        for (const auto& pair : pairs) {
            compareRanks.push_back(pair.rankNumber);
            QCOMPARE(pair.stepNumber, 3);
            QCOMPARE(pair.npuJson, root / "npu" / "step3" / pair.label / "dump.json");
        }
        QCOMPARE(compareRanks, (std::vector<int> { 1, 2, 10 }));
        std::vector<int> graphRanks;
        for (const auto& [name, rank] : graph::rankDirectories(root / "npu" / "step3"))
            graphRanks.push_back(rank);
        QCOMPARE(graphRanks, compareRanks);
        QCOMPARE(graph::stepDirectories(root / "npu"), (std::vector<std::pair<std::string, int>> { { "step3", 3 } }));
        QCOMPARE(int(graph::classifyInput(root / "npu")), int(graph::InputLayout::Steps));
        QCOMPARE(int(graph::classifyInput(root / "npu" / "step3")), int(graph::InputLayout::Ranks));
        QCOMPARE(graph::ranksToMerge(root / "npu"), std::size_t(3));
        QVERIFY(trend::hasDumpSteps(root / "npu"));
        QVERIFY(!trend::hasDumpSteps(root / "npu" / "step3"));
        QVERIFY(!trend::hasDumpSteps(root / "npu" / "step3" / "rank1" / "dump.json"));
    }

    void bareRankFolderAndDumpJsonPath()
    {
        const fs::path rank = refDumps() / "problem_2rank_mix_statistics" / "step1" / "rank1";
        const dump::DumpTree bare = dump::discoverDumpTree(rank);
        QCOMPARE(int(bare.kind), int(dump::DumpRootKind::RankDir));
        QCOMPARE(bare.steps.size(), std::size_t(1));
        QCOMPARE(bare.steps[0].ranks[0].rank.value(), 1);
        QCOMPARE(bare.steps[0].ranks[0].dumpJson, rank / "dump.json");

        const dump::DumpTree file = dump::discoverDumpTree(rank / "dump.json");
        QCOMPARE(int(file.kind), int(dump::DumpRootKind::File));
        QCOMPARE(file.steps[0].ranks[0].rank.value(), 1);
        QCOMPARE(file.steps[0].ranks[0].dir, rank);
        QCOMPARE(file.steps[0].ranks[0].constructJson(), rank / "construct.json");

        QTemporaryDir out;
        const fs::path bench = refDumps() / "bench_2rank_mix_statistics" / "step1" / "rank1";
        const auto pairs = compare::resolveComparePairs(rank, bench, out.path().toStdString(), false);
        QCOMPARE(pairs.size(), std::size_t(1));
        QCOMPARE(pairs[0].label, std::string("rank1"));
        QCOMPARE(pairs[0].rankNumber, 1);
        const auto files = compare::resolveComparePairs(rank / "dump.json", bench / "dump.json", out.path().toStdString(), false);
        QCOMPARE(files.size(), std::size_t(1));
        QCOMPARE(files[0].npuJson, rank / "dump.json");
    }

    void stepFolderWithoutRanks()
    {
        QTemporaryDir tmp;
        const fs::path root = tmp.path().toStdString();
        writeFile(root / "step0" / "rank0" / "dump.json", "{}");
        fs::create_directories(root / "step1" / "notes");
        const dump::DumpTree tree = dump::discoverDumpTree(root);
        QCOMPARE(tree.steps.size(), std::size_t(2));
        QCOMPARE(tree.steps[1].step.value(), 1);
        QVERIFY(tree.steps[1].ranks.empty()); // listed, with nothing to read
        QVERIFY(errorOf([&] { dump::discoverDumpTree(root / "step1"); }).contains(QString::fromStdString((root / "step1").string())));
        QVERIFY(errorOf([&] { dump::discoverDumpTree(root / "step1"); }).contains("no msprobe dump found"));
        QVERIFY(errorOf([&] { graph::rankDirectories(root / "step1"); }).isEmpty());
        QVERIFY(graph::rankDirectories(root / "step1").empty());
    }

    void folderWithoutDumpsNamesIt()
    {
        QTemporaryDir tmp;
        const fs::path empty = fs::path(tmp.path().toStdString()) / "empty";
        fs::create_directories(empty / "nothing");
        const QString error = errorOf([&] { dump::discoverDumpTree(empty); });
        QVERIFY2(error.startsWith(QString::fromStdString(empty.string()) + ": no msprobe dump found"), qPrintable(error));
        fs::remove(empty / "nothing");
        QCOMPARE(errorOf([&] { graph::classifyInput(empty); }), QString::fromStdString(empty.string()) + ": the folder is empty");
        QVERIFY(errorOf([&] { dump::listDumpFolders(empty / "missing", dump::DumpFolderNames::Written); })
                    .contains(QString::fromStdString((empty / "missing").string()) + ": cannot list the directory"));
        QVERIFY(!trend::hasDumpSteps(empty / "missing"));
    }

    void loopsAndFifosAreClearErrors()
    {
        QTemporaryDir tmp;
        const fs::path root = tmp.path().toStdString();
        fs::create_directories(root / "loop");
        fs::create_symlink("rank1", root / "loop" / "rank1"); // a link to itself
        const QString loop = errorOf([&] { dump::listDumpFolders(root / "loop", dump::DumpFolderNames::Reference); });
        QVERIFY2(loop.contains(QString::fromStdString((root / "loop" / "rank1").string()) + ": is a symbolic link loop"), qPrintable(loop));
        QVERIFY(errorOf([&] { dump::discoverDumpTree(root / "loop"); }).contains("rank1: is a symbolic link loop"));
        QVERIFY(errorOf([&] { graph::rankDirectories(root / "loop"); }).contains("rank1: is a symbolic link loop"));
        fs::create_symlink("notes", root / "loop" / "notes"); // a loop under another name is not a dump folder
        fs::remove(root / "loop" / "rank1");
        QCOMPARE(dump::listDumpFolders(root / "loop", dump::DumpFolderNames::Written).otherEntries, std::size_t(1));

        const fs::path rank = root / "fifo" / "step0" / "rank0";
        fs::create_directories(rank);
        QCOMPARE(::mkfifo((rank / "dump.json").c_str(), 0600), 0);
        const QString fifo = errorOf([&] { dump::discoverDumpTree(root / "fifo"); });
        QVERIFY2(fifo.contains(QString::fromStdString((rank / "dump.json").string()) + ": is a FIFO"), qPrintable(fifo));
        QVERIFY(errorOf([&] { dump::discoverDumpTree(rank / "dump.json"); }).contains("is a FIFO (named pipe): neither"));
        QVERIFY(dump::dumpFileIn(rank).empty()); // compare pairing skips it, as the reference does
    }
};

QTEST_APPLESS_MAIN(TestDumpLayout)
#include "tst_dump_layout.moc"
