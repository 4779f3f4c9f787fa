// SPDX-License-Identifier: Apache-2.0
// A studio pair load reads every dump.json once: the graphs and the compare tables share the parse (SharedDumps),
// also when one folder is both sides; in tensor mode it reads every tensor file once: the compare tables take the
// metrics the graph compare computed (TensorMetricCache). What the load shows is the same as reading the files for
// each part separately.
#include "sqlite_rows.h"
#include "test_util.h"

#include "sessionloader.h"
#include "dump/shared_dumps.h"
#include "studiosession.h"

#include "compare/compare_engine.h"
#include "compare/tensor_metric_cache.h"
#include "dump/dump_json_reader.h"
#include "dump/tensor_file.h"
#include "support/error.h"

#include <QSignalSpy>
#include <QTemporaryDir>

#include <map>
#include <mutex>
#include <set>

using namespace msprobe;
using namespace msprobe::test;
namespace fs = std::filesystem;

namespace {

fs::path twoRankProblem() { return refDumps() / "problem_2rank_mix_statistics"; }
fs::path twoRankBench() { return refDumps() / "bench_2rank_mix_statistics"; }
// The genuine tool's tensor-mode dumps (507 .pt files a side); the problem's GELU uses approximate='tanh'.
fs::path tensorProblem() { return onlySubdir(refDumps() / "problem_mix_tensor" / "step0"); }
fs::path tensorBench() { return onlySubdir(refDumps() / "bench_mix_tensor" / "step0"); }

// The tensor files the rows of a compare table read: both sides' files of every row with two data_names.
std::set<std::string> tensorFilesOf(const compare::CompareTable& table, std::size_t* rows = nullptr)
{
    std::set<std::string> files;
    std::size_t pairs = 0;
    for (const compare::CompareRow& row : table.rows) {
        const compare::Item* bench = table.benchItem(row);
        const std::string_view npuName = table.npu.items->dataName(table.npuItem(row));
        if (!bench || npuName == "-1" || table.bench.items->dataName(*bench) == "-1")
            continue;
        ++pairs;
        files.insert((table.npu.dataDir / std::string(npuName)).lexically_normal().string());
        files.insert((table.bench.dataDir / std::string(table.bench.items->dataName(*bench))).lexically_normal().string());
    }
    if (rows)
        *rows = pairs;
    return files;
}

// Every row of two loads' tables, cell by cell.
void compareTables(const std::map<msprobe::studio::Key, std::shared_ptr<const msprobe::studio::CompareRows>>& expected,
    const std::map<msprobe::studio::Key, std::shared_ptr<const msprobe::studio::CompareRows>>& actual)
{
    QCOMPARE(actual.size(), expected.size());
    for (const auto& [key, rows] : expected) {
        const auto& other = actual.at(key);
        QCOMPARE(other->rowCount(), rows->rowCount());
        QVERIFY(rows->rowCount() > 0);
        for (int r = 0; r < rows->rowCount(); ++r) {
            QCOMPARE(other->npuName(r), rows->npuName(r));
            QCOMPARE(other->result(r), rows->result(r));
            for (int c = 0; c < rows->columnCount(); ++c)
                QCOMPARE(other->text(r, c), rows->text(r, c));
        }
    }
}

bool openAndWait(StudioSession& session, const fs::path& problem, const fs::path& bench, const QString& output)
{
    msprobe::studio::LoadRequest request;
    request.kind = msprobe::studio::LoadRequest::Kind::Pair;
    request.path = q(problem.string());
    request.bench = q(bench.string());
    request.outputDir = output;
    QSignalSpy finished(&session, &StudioSession::loadFinished);
    session.open(request);
    return finished.wait(120000) && finished.front().at(0).toBool();
}

} // namespace

class TestSessionLoad : public QObject {
    Q_OBJECT

private slots:
    void borrowParsesOnce()
    {
        const fs::path file = twoRankProblem() / "step0" / "rank0" / "dump.json";
        const dump::DumpFile separate = dump::readDumpJson(file);
        QVERIFY(separate.entries.size() > 10);
        msprobe::dump::SharedDumps dumps;
        auto first = dumps.borrow(file);
        // Another spelling of the same file is the same parse.
        auto second = dumps.borrow(file.parent_path() / "." / "dump.json");
        QCOMPARE(first.get(), second.get());
        QCOMPARE(dumps.parses(), std::size_t(1));
        QCOMPARE(first->entries.size(), separate.entries.size());
        QCOMPARE(first->entryName(0), separate.entryName(0));
        // Let go by every borrower: still cached for the rest of the load.
        const dump::DumpFile* parsed = first.get();
        first.reset();
        second.reset();
        QCOMPARE(dumps.borrow(file).get(), parsed);
        QCOMPARE(dumps.parses(), std::size_t(1));
        dumps.borrow(twoRankProblem() / "step0" / "rank1" / "dump.json");
        QCOMPARE(dumps.parses(), std::size_t(2));
    }

    void aMissingFileIsAnErrorNamingIt()
    {
        msprobe::dump::SharedDumps dumps;
        try {
            dumps.borrow(twoRankProblem() / "no_such_rank" / "dump.json");
            QFAIL("a missing dump.json was read");
        } catch (const support::Error& error) {
            QVERIFY(std::string(error.what()).find("no_such_rank") != std::string::npos);
        }
    }

    // The loader's two stages on one SharedDumps: 2 steps x 2 ranks x 2 sides = 8 files, each parsed once.
    void graphsAndCompareShareOneParsePerFile()
    {
        QTemporaryDir out;
        msprobe::dump::SharedDumps dumps;
        msprobe::studio::LoadRequest request;
        const auto stage = msprobe::studio::sessionloader::buildGraphs(twoRankProblem(), twoRankBench(), fs::path(out.path().toStdString()), request,
            nullptr, {}, {}, &dumps);
        QCOMPARE(stage.graphs.size(), std::size_t(4));
        QCOMPARE(dumps.parses(), std::size_t(8));
        const auto shared = msprobe::studio::sessionloader::compareDumps(twoRankProblem(), twoRankBench(), request, nullptr, {}, &dumps);
        QCOMPARE(dumps.parses(), std::size_t(8));
        QCOMPARE(shared.size(), std::size_t(4));
        // The same rows as a compare that reads the files itself.
        compareTables(msprobe::studio::sessionloader::compareDumps(twoRankProblem(), twoRankBench(), request, nullptr, {}), shared);
    }

    // Tensor mode: the graph compare reads each tensor file once (through a counting reader) and its metrics go
    // to the compare table, which reads none; the graphs and the table are those of a load without the cache.
    void aTensorPairLoadReadsEachTensorFileOnce()
    {
        QTemporaryDir out;
        std::mutex mutex;
        std::map<std::string, int> reads;
        compare::TensorMetricCache tensorMetrics([&](const fs::path& file) {
            {
                const std::lock_guard lock(mutex);
                ++reads[file.lexically_normal().string()];
            }
            return dump::readTensorFile(file);
        });
        msprobe::dump::SharedDumps dumps;
        msprobe::studio::LoadRequest request;
        const auto stage = msprobe::studio::sessionloader::buildGraphs(tensorProblem(), tensorBench(),
            fs::path(out.path().toStdString()) / "shared", request, nullptr, {}, {}, &dumps, &tensorMetrics);
        QCOMPARE(stage.graphs.size(), std::size_t(1));
        const std::size_t graphReads = tensorMetrics.reads();
        const auto shared = msprobe::studio::sessionloader::compareDumps(tensorProblem(), tensorBench(), request, nullptr, {}, &dumps,
            &tensorMetrics);
        QCOMPARE(dumps.parses(), std::size_t(2));
        QCOMPARE(shared.size(), std::size_t(1));
        const compare::CompareTable& table = *shared.begin()->second->table();
        QCOMPARE(int(table.mode), int(compare::CompareMode::Tensor));
        std::size_t tensorRows = 0;
        const std::set<std::string> named = tensorFilesOf(table, &tensorRows);
        QVERIFY(named.size() > 900); // 507 files a side, nearly all of them compared
        // Each file read once, and none but the files the rows name; the table read nothing of its own.
        for (const auto& [file, count] : reads)
            QVERIFY2(count == 1 && named.count(file), (file + " read " + std::to_string(count) + " times").c_str());
        QCOMPARE(reads.size(), named.size());
        QCOMPARE(tensorMetrics.reads(), named.size());
        QCOMPARE(tensorMetrics.reads(), graphReads);
        QCOMPARE(tensorMetrics.reuses(), tensorRows);

        // The table and the graphs are those of a load that reads every file for each part.
        compareTables(msprobe::studio::sessionloader::compareDumps(tensorProblem(), tensorBench(), request, nullptr, {}), shared);
        const auto separate = msprobe::studio::sessionloader::buildGraphs(tensorProblem(), tensorBench(),
            fs::path(out.path().toStdString()) / "separate", request, nullptr, {});
        const std::string nodes = "SELECT node_name, precision_index, input_data, output_data, data_source FROM tb_nodes";
        const auto expectedNodes = test::queryRows(separate.visDbPath.toStdString(), nodes);
        QVERIFY(expectedNodes.size() > 100);
        QVERIFY(expectedNodes == test::queryRows(stage.visDbPath.toStdString(), nodes));
    }

    // A parallel-merge load (rank_size 2, tp = pp = 1: two data-parallel replicas per step) builds its ranks from
    // the same msprobe::SharedDumps, so its compare tables take the parses over too: still one parse per dump.json.
    void aParallelMergeLoadParsesEachDumpOnce()
    {
        QTemporaryDir out;
        msprobe::dump::SharedDumps dumps;
        msprobe::studio::LoadRequest request;
        msprobe::graph::ParallelParams params;
        params.rankSize = 2;
        request.parallelMerge = { params };
        const auto stage = msprobe::studio::sessionloader::buildGraphs(twoRankProblem(), twoRankBench(), fs::path(out.path().toStdString()), request,
            nullptr, {}, {}, &dumps);
        QCOMPARE(stage.graphs.size(), std::size_t(4));
        QCOMPARE(dumps.parses(), std::size_t(8));
        const auto shared = msprobe::studio::sessionloader::compareDumps(twoRankProblem(), twoRankBench(), request, nullptr, {}, &dumps);
        QCOMPARE(dumps.parses(), std::size_t(8));
        QCOMPARE(shared.size(), std::size_t(4));
    }

    // One folder as both sides: 2 steps x 2 ranks = 4 files, each parsed once for the graphs and both sides of
    // every compare table; the rows are those of a compare reading each side itself.
    void aSelfCompareParsesEachDumpOnce()
    {
        QTemporaryDir out;
        msprobe::dump::SharedDumps dumps;
        msprobe::studio::LoadRequest request;
        const auto stage = msprobe::studio::sessionloader::buildGraphs(twoRankProblem(), twoRankProblem(), fs::path(out.path().toStdString()),
            request, nullptr, {}, {}, &dumps);
        QCOMPARE(stage.graphs.size(), std::size_t(4));
        QCOMPARE(dumps.parses(), std::size_t(4));
        const auto shared = msprobe::studio::sessionloader::compareDumps(twoRankProblem(), twoRankProblem(), request, nullptr, {}, &dumps);
        QCOMPARE(dumps.parses(), std::size_t(4));
        QCOMPARE(shared.size(), std::size_t(4));
        for (const auto& [key, rows] : shared) {
            const compare::CompareTable& table = *rows->table();
            QCOMPARE(table.npu.dump.get(), table.bench.dump.get());
            const fs::path file = twoRankProblem() / ("step" + std::to_string(key.first)) / ("rank" + std::to_string(key.second)) / "dump.json";
            const auto separate = compare::compareDumps(dump::readDumpJson(file), dump::readDumpJson(file), {}, false, {});
            QVERIFY(rows->rowCount() > 0);
            QCOMPARE(std::size_t(rows->rowCount()), separate->rows.size());
            for (std::size_t r = 0; r < separate->rows.size(); ++r) {
                QCOMPARE(table.rows[r].npu, separate->rows[r].npu);
                QCOMPARE(table.rows[r].bench, separate->rows[r].bench);
                QCOMPARE(int(table.rows[r].level), int(separate->rows[r].level));
                QCOMPARE(int(table.rows[r].level), int(compare::ResultLevel::Pass));
            }
        }
    }

    // The whole session load: graphs and compare tables of every pair, from one parse per dump.json.
    void aPairLoadParsesEachDumpOnce()
    {
        QTemporaryDir out;
        StudioSession session;
        QVERIFY(openAndWait(session, twoRankProblem(), twoRankBench(), out.path()));
        QCOMPARE(session.graphs().size(), std::size_t(4));
        QCOMPARE(session.compareResults().size(), std::size_t(4));
        QCOMPARE(session.dumpParses(), std::size_t(8));
        for (const auto& [key, rows] : session.compareResults())
            QVERIFY(rows->table() && !rows->table()->npu.dump->entries.empty() && !rows->table()->bench.dump->entries.empty());
        // The bundled sample: 2 steps x 1 rank x 2 sides.
        const fs::path samples = MSPROBE_SAMPLES;
        QVERIFY(openAndWait(session, samples / "problem", samples / "bench", out.path()));
        QCOMPARE(session.dumpParses(), std::size_t(4));
        QVERIFY(session.compareRows(1, 0) && session.graphs(1, 0).problem);
        // The sample against itself: 2 steps x 1 rank, one parse each.
        QVERIFY(openAndWait(session, samples / "problem", samples / "problem", out.path()));
        QCOMPARE(session.dumpParses(), std::size_t(2));
        QVERIFY(session.compareRows(1, 0) && session.graphs(1, 0).problem);
        QCOMPARE(session.tensorFileReads(), std::size_t(0)); // statistics: no tensor file is read
    }

    // The whole session load in tensor mode: each tensor file the table names read once, and every tensor row of
    // the table taking the metrics the graph compare computed.
    void aTensorPairLoadSharesTheTensorMetrics()
    {
        QTemporaryDir out;
        StudioSession session;
        QVERIFY(openAndWait(session, tensorProblem(), tensorBench(), out.path()));
        QCOMPARE(session.dumpParses(), std::size_t(2));
        const auto rows = session.compareRows(0, 0);
        QVERIFY(rows && rows->table() && session.graphs(0, 0).problem);
        std::size_t tensorRows = 0;
        QCOMPARE(session.tensorFileReads(), tensorFilesOf(*rows->table(), &tensorRows).size());
        QVERIFY(tensorRows > 400);
        QCOMPARE(session.tensorMetricReuses(), tensorRows);
    }
};

QTEST_MAIN(TestSessionLoad)
#include "tst_views_sessionload.moc"
