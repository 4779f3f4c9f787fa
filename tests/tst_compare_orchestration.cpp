// SPDX-License-Identifier: Apache-2.0
// The one dump-folder grammar and the one compare orchestration: the CLI's job, the studio's pair load and the
// studio's HTML export give the same pairs, tables and totals.
#include "test_util.h"

#include "compare/compare_job.h"
#include "compare/csv_writer.h"
#include "compare/html_report.h"
#include "compare/tensor_metric_cache.h"
#include "dump/dump_json_reader.h"
#include "dump/dump_tree.h"
#include "dump/tensor_file.h"
#include "support/error.h"

#include <QTemporaryDir>

using namespace msprobe;
using namespace msprobe::test;
namespace fs = std::filesystem;

class TestCompareOrchestration : public QObject {
    Q_OBJECT

private slots:
    void folderNameGrammar()
    {
        using Kind = dump::DumpDirName::Kind;
        const dump::DumpDirName rank12 = dump::parseDumpDirName("rank12");
        QVERIFY(rank12.is(Kind::Rank) && rank12.canonical());
        QCOMPARE(rank12.number.value(), 12LL);
        const dump::DumpDirName bare = dump::parseDumpDirName("rank");
        QVERIFY(bare.is(Kind::Rank) && bare.canonical() && bare.suffix.empty() && !bare.number);
        const dump::DumpDirName padded = dump::parseDumpDirName("rank012"); // numeric, but not the reference's rank name
        QVERIFY(padded.numeric() && !padded.canonical());
        QCOMPARE(padded.number.value(), 12LL);
        const dump::DumpDirName proc = dump::parseDumpDirName("proc4711");
        QVERIFY(proc.is(Kind::Proc));
        QCOMPARE(proc.number.value(), 4711LL);
        const dump::DumpDirName oddStep = dump::parseDumpDirName("step2x");
        QVERIFY(oddStep.is(Kind::Step) && !oddStep.numeric() && !oddStep.number);
        QVERIFY(dump::parseDumpDirName("notarank").is(Kind::Other));
        QVERIFY(!dump::parseDumpDirName("rank1234567890123456789").number); // too long to be a number
    }

    void pairsCarryStepAndRankNumbers()
    {
        QTemporaryDir out;
        const fs::path problem = refDumps() / "problem_2rank_mix_statistics", bench = refDumps() / "bench_2rank_mix_statistics";
        const auto pairs = compare::resolveComparePairs(problem, bench, out.path().toStdString(), false);
        QCOMPARE(pairs.size(), std::size_t(4));
        QCOMPARE(pairs[3].step, std::string("step1"));
        QCOMPARE(pairs[3].label, std::string("rank1"));
        QCOMPARE(pairs[3].stepNumber, 1);
        QCOMPARE(pairs[3].rankNumber, 1);
        QVERIFY(pairs[3].rankFolder);

        const auto bareRank = compare::resolveComparePairs(problem / "step1" / "rank1", bench / "step1" / "rank1", out.path().toStdString(), false);
        QCOMPARE(bareRank.size(), std::size_t(1));
        QCOMPARE(bareRank[0].rankNumber, 1);
        QCOMPARE(bareRank[0].stepNumber, 0);

        const auto procs = compare::resolveComparePairs(refDumps() / "problem_mix_statistics", refDumps() / "bench_mix_statistics",
            out.path().toStdString(), false);
        QVERIFY(!procs.empty());
        QVERIFY(!procs[0].rankFolder); // a proc{PID} folder is not analysed by -da
        QCOMPARE(procs[0].rankNumber, 0);
    }

    void legacyCompareJson()
    {
        QTemporaryDir tmp;
        const fs::path file = fs::path(tmp.path().toStdString()) / "compare.json";
        writeFile(file, R"({"npu_path": "a/dump.json", "bench_path": "b/dump.json", "is_print_compare_log": true})");
        const compare::LegacyCompareInput input = compare::readLegacyCompareJson(file);
        QCOMPARE(input.target, std::string("a/dump.json"));
        QCOMPARE(input.golden, std::string("b/dump.json"));
        QVERIFY(input.printCompareLog);

        writeFile(file, "[1, 2]");
        try {
            compare::readLegacyCompareJson(file);
            QFAIL("a JSON array was accepted as compare.json");
        } catch (const support::Error& error) {
            QVERIFY(std::string(error.what()).find(file.string()) != std::string::npos);
            QVERIFY(std::string(error.what()).find("npu_path") != std::string::npos);
        }
    }

    // The studio compares pair by pair and reports from its tables; the CLI runs the job. Same pairs, same totals.
    void studioTablesGiveTheJobsTotals()
    {
        QTemporaryDir out;
        const fs::path problem = refDumps() / "problem_2rank_mix_statistics", bench = refDumps() / "bench_2rank_mix_statistics";
        const auto pairs = compare::resolveComparePairs(problem, bench, out.path().toStdString(), false);
        compare::JobOptions options;
        options.progress = false;
        options.outputRoot = out.path().toStdString();
        const compare::JobOutcome cli = compare::runCompareJob(pairs, options, nullptr);

        std::vector<std::unique_ptr<compare::CompareTable>> kept;
        std::vector<compare::ComparedTable> tables;
        std::vector<std::size_t> startedOrder;
        compare::compareEachPair(pairs, options.compare, nullptr,
            [&](std::size_t index, const compare::ComparePair&) { startedOrder.push_back(index); },
            [&](const compare::ComparePair& pair, std::unique_ptr<compare::CompareTable> table) {
                tables.push_back({ pair, table.get() });
                kept.push_back(std::move(table));
            });
        QCOMPARE(startedOrder, (std::vector<std::size_t> { 0, 1, 2, 3 }));
        compare::JobOptions htmlOptions = options;
        htmlOptions.html = true;
        const compare::JobOutcome studio = compare::outcomeOfTables(tables, htmlOptions);

        QCOMPARE(studio.pairs.size(), cli.pairs.size());
        QVERIFY(cli.rows > 0);
        QCOMPARE(studio.rows, cli.rows);
        QCOMPARE(studio.unpaired, cli.unpaired);
        QCOMPARE(int(studio.worst), int(cli.worst));
        for (std::size_t i = 0; i < cli.pairs.size(); ++i) {
            QCOMPARE(studio.pairs[i].error, cli.pairs[i].error);
            QCOMPARE(studio.pairs[i].warning, cli.pairs[i].warning);
            QVERIFY(!studio.pairs[i].htmlSection.empty());
        }
        const std::string html = compare::renderHtmlReport(studio);
        QVERIFY(html.find(std::string("Verdict: <b class=") + std::string(toString(cli.worst))) != std::string::npos);

        std::atomic<bool> cancel { true };
        QVERIFY_THROWS_EXCEPTION(support::Error, compare::compareEachPair(pairs, options.compare, &cancel, {}, [](const compare::ComparePair&, std::unique_ptr<compare::CompareTable>) {}));
    }

    // A self-compare (one dump as both sides, however the path is spelled) reads the dump.json once and both sides
    // share the parse; its CSV is byte for byte that of two separate parses (statistics, md5 and tensor mode).
    void selfCompareParsesEachDumpOnce_data()
    {
        QTest::addColumn<QString>("folder");
        QTest::newRow("statistics") << "problem_mix_statistics";
        QTest::newRow("md5") << "problem_mix_md5";
        QTest::newRow("tensor") << "problem_mix_tensor";
    }
    void selfCompareParsesEachDumpOnce()
    {
        QFETCH(QString, folder);
        const fs::path rankDir = onlySubdir(refDumps() / folder.toStdString() / "step0");
        const fs::path file = rankDir / "dump.json", otherSpelling = rankDir / "." / "dump.json";
        std::atomic<std::size_t> parses { 0 };
        compare::CompareHooks hooks;
        hooks.readDump = [&](const fs::path& path) {
            ++parses;
            return std::make_shared<const dump::DumpFile>(dump::readDumpJson(path));
        };
        compare::ComparePair pair;
        pair.npuJson = file;
        pair.benchJson = otherSpelling;
        const auto shared = compare::comparePair(pair, {}, hooks);
        QCOMPARE(parses.load(), std::size_t(1));
        QCOMPARE(shared->npu.dump.get(), shared->bench.dump.get());
        QVERIFY(shared->rows.size() > 10);
        QCOMPARE(shared->countLevel(compare::ResultLevel::Pass), shared->rows.size());

        // Two parses, as before the sharing: the same bytes.
        dump::StackInfo stack = dump::readStackJson(rankDir / "stack.json");
        stack.buildLookup();
        const auto separate = compare::compareDumps(dump::readDumpJson(file), dump::readDumpJson(otherSpelling), std::move(stack), true, {});
        QVERIFY(separate->npu.dump.get() != separate->bench.dump.get());
        QCOMPARE(compare::csvText(*shared), compare::csvText(*separate));

        // Two different files are still read once each.
        pair.benchJson = onlySubdir(refDumps() / folder.replace("problem_", "bench_").toStdString() / "step0") / "dump.json";
        parses = 0;
        const auto two = compare::comparePair(pair, {}, hooks);
        QCOMPARE(parses.load(), std::size_t(2));
        QVERIFY(two->npu.dump.get() != two->bench.dump.get());
    }

    // Tensor files: one file named as both sides of a row is read once; a TensorMetricCache computes a pair once
    // however its folders are spelled, with the metrics compareTensorFilePair gives, and an unreadable pair names
    // its files as each caller spells them.
    void aTensorPairIsReadOnce()
    {
        const fs::path dir = onlySubdir(refDumps() / "problem_mix_tensor" / "step0") / "dump_tensor_data";
        const fs::path benchDir = onlySubdir(refDumps() / "bench_mix_tensor" / "step0") / "dump_tensor_data";
        const std::string gelu = "Functional.gelu.1.forward.output.0.pt"; // approximate='tanh' in the problem run
        std::atomic<std::size_t> reads { 0 };
        const compare::TensorFileReader counting = [&](const fs::path& file) {
            ++reads;
            return dump::readTensorFile(file);
        };
        const compare::TensorMetrics self = compare::compareTensorFilePair(dir, gelu, dir, gelu, counting);
        QCOMPARE(reads.load(), std::size_t(1));
        QCOMPARE(compare::pyText(self.cells[2]), std::string("0.0")); // MaxAbsErr of a tensor against itself
        const compare::TensorMetrics missingSelf = compare::compareTensorFilePair(dir, "absent.pt", dir, "absent.pt", counting);
        QCOMPARE(missingSelf.fileProblems.size(), std::size_t(2)); // listed for both sides, as two reads list it
        QCOMPARE(missingSelf.fileProblems[1].file, missingSelf.fileProblems[0].file);

        reads = 0;
        compare::TensorMetricCache cache(counting);
        const compare::TensorMetrics first = cache.metrics(dir, gelu, benchDir, gelu);
        const fs::path benchRank = benchDir.parent_path();
        const fs::path benchSpelledAgain = benchRank / ".." / benchRank.filename() / "dump_tensor_data";
        const compare::TensorMetrics again = cache.metrics(dir / ".", gelu, benchSpelledAgain, gelu);
        QCOMPARE(reads.load(), std::size_t(2));
        QCOMPARE(cache.reads(), std::size_t(2));
        QCOMPARE(cache.reuses(), std::size_t(1));
        const compare::TensorMetrics plain = compare::compareTensorFilePair(dir, gelu, benchDir, gelu);
        QVERIFY(compare::pyText(plain.cells[2]) != "0.0"); // the GELU outputs differ
        for (std::size_t k = 0; k < plain.cells.size(); ++k) {
            QCOMPARE(compare::pyText(first.cells[k]), compare::pyText(plain.cells[k]));
            QCOMPARE(compare::pyText(again.cells[k]), compare::pyText(plain.cells[k]));
        }
        QCOMPARE(first.message, plain.message);

        const fs::path otherSpelling = dir / ".";
        const compare::TensorMetrics absent = cache.metrics(dir, "absent.pt", benchDir, gelu);
        const compare::TensorMetrics absentAgain = cache.metrics(otherSpelling, "absent.pt", benchDir, gelu);
        QCOMPARE(absent.fileProblems.front().file, compare::compareTensorFilePair(dir, "absent.pt", benchDir, gelu).fileProblems.front().file);
        QCOMPARE(absentAgain.fileProblems.front().file,
            compare::compareTensorFilePair(otherSpelling, "absent.pt", benchDir, gelu).fileProblems.front().file);
        QVERIFY(absent.fileProblems.front().file != absentAgain.fileProblems.front().file);
        QCOMPARE(absentAgain.message, compare::compareTensorFilePair(otherSpelling, "absent.pt", benchDir, gelu).message);
    }
};

QTEST_GUILESS_MAIN(TestCompareOrchestration)
#include "tst_compare_orchestration.moc"
