// SPDX-License-Identifier: Apache-2.0
// A studio pair load reads every dump.json once: the graphs borrow the parse and the compare takes it over
// (SharedDumps), and what the load shows is the same as reading the files for each part separately.
#include "test_util.h"

#include "sessionloader.h"
#include "shareddumps.h"
#include "studiosession.h"

#include "compare/compare_engine.h"
#include "dump/dump_json_reader.h"
#include "support/error.h"

#include <QSignalSpy>
#include <QTemporaryDir>

using namespace msprobe;
using namespace msprobe::test;
namespace fs = std::filesystem;

namespace {

fs::path twoRankProblem() { return refDumps() / "problem_2rank_mix_statistics"; }
fs::path twoRankBench() { return refDumps() / "bench_2rank_mix_statistics"; }

bool openAndWait(StudioSession& session, const fs::path& problem, const fs::path& bench, const QString& output)
{
    LoadRequest request;
    request.kind = LoadRequest::Kind::Pair;
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
    void borrowParsesOnceAndTakeMovesTheParseOut()
    {
        const fs::path file = twoRankProblem() / "step0" / "rank0" / "dump.json";
        const std::size_t entries = readDumpJson(file).entries.size();
        QVERIFY(entries > 10);
        SharedDumps dumps;
        auto first = dumps.borrow(file);
        // Another spelling of the same file is the same parse.
        auto second = dumps.borrow(file.parent_path() / "." / "dump.json");
        QCOMPARE(first.get(), second.get());
        QCOMPARE(dumps.parses(), std::size_t(1));
        // Still borrowed: the compare gets a read of its own and the borrowers keep theirs.
        QCOMPARE(dumps.take(file).entries.size(), entries);
        QCOMPARE(dumps.parses(), std::size_t(2));
        QCOMPARE(first->entries.size(), entries);
        first.reset();
        second.reset();
        // Borrowed again and let go: the parse moves out, intact (its entry names view into its own pool).
        const auto* parsed = dumps.borrow(file)->entries.data();
        QVERIFY(parsed);
        QCOMPARE(dumps.parses(), std::size_t(2)); // the earlier parse is still cached
        const DumpFile taken = dumps.take(file);
        QCOMPARE(dumps.parses(), std::size_t(2));
        QCOMPARE(taken.entries.size(), entries);
        QCOMPARE(taken.entryName(0), readDumpJson(file).entryName(0));
        QCOMPARE(std::string(taken.entries.front().parsed.api), std::string(readDumpJson(file).entries.front().parsed.api));
        // Gone from the cache once taken: a later borrow reads the file again.
        dumps.borrow(file);
        QCOMPARE(dumps.parses(), std::size_t(3));
    }

    void aMissingFileIsAnErrorNamingIt()
    {
        SharedDumps dumps;
        try {
            dumps.borrow(twoRankProblem() / "no_such_rank" / "dump.json");
            QFAIL("a missing dump.json was read");
        } catch (const Error& error) {
            QVERIFY(std::string(error.what()).find("no_such_rank") != std::string::npos);
        }
    }

    // The loader's two stages on one SharedDumps: 2 steps x 2 ranks x 2 sides = 8 files, each parsed once.
    void graphsAndCompareShareOneParsePerFile()
    {
        QTemporaryDir out;
        SharedDumps dumps;
        LoadRequest request;
        const auto stage = sessionloader::buildGraphs(twoRankProblem(), twoRankBench(), fs::path(out.path().toStdString()), request,
            nullptr, {}, {}, &dumps);
        QCOMPARE(stage.graphs.size(), std::size_t(4));
        QCOMPARE(dumps.parses(), std::size_t(8));
        const auto shared = sessionloader::compareDumps(twoRankProblem(), twoRankBench(), request, nullptr, {}, &dumps);
        QCOMPARE(dumps.parses(), std::size_t(8));
        QCOMPARE(shared.size(), std::size_t(4));
        // The same rows as a compare that reads the files itself.
        const auto separate = sessionloader::compareDumps(twoRankProblem(), twoRankBench(), request, nullptr, {});
        QCOMPARE(separate.size(), shared.size());
        for (const auto& [key, rows] : separate) {
            const auto& other = shared.at(key);
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

    // A parallel-merge load (rank_size 2, tp = pp = 1: two data-parallel replicas per step) builds its ranks from
    // the same SharedDumps, so its compare tables take the parses over too: still one parse per dump.json.
    void aParallelMergeLoadParsesEachDumpOnce()
    {
        QTemporaryDir out;
        SharedDumps dumps;
        LoadRequest request;
        msprobe::graph::ParallelParams params;
        params.rankSize = 2;
        request.parallelMerge = { params };
        const auto stage = sessionloader::buildGraphs(twoRankProblem(), twoRankBench(), fs::path(out.path().toStdString()), request,
            nullptr, {}, {}, &dumps);
        QCOMPARE(stage.graphs.size(), std::size_t(4));
        QCOMPARE(dumps.parses(), std::size_t(8));
        const auto shared = sessionloader::compareDumps(twoRankProblem(), twoRankBench(), request, nullptr, {}, &dumps);
        QCOMPARE(dumps.parses(), std::size_t(8));
        QCOMPARE(shared.size(), std::size_t(4));
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
            QVERIFY(rows->table() && !rows->table()->npu.dump.entries.empty() && !rows->table()->bench.dump.entries.empty());
        // The bundled sample: 2 steps x 1 rank x 2 sides.
        const fs::path samples = MSPROBE_SAMPLES;
        QVERIFY(openAndWait(session, samples / "problem", samples / "bench", out.path()));
        QCOMPARE(session.dumpParses(), std::size_t(4));
        QVERIFY(session.compareRows(1, 0) && session.graphs(1, 0).problem);
    }
};

QTEST_MAIN(TestSessionLoad)
#include "tst_views_sessionload.moc"
