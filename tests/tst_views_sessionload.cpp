// SPDX-License-Identifier: Apache-2.0
// A studio pair load reads every dump.json once: the graphs and the compare tables share the parse (SharedDumps),
// also when one folder is both sides, and what the load shows is the same as reading the files for each part
// separately.
#include "test_util.h"

#include "sessionloader.h"
#include "dump/shared_dumps.h"
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
        const auto separate = msprobe::studio::sessionloader::compareDumps(twoRankProblem(), twoRankBench(), request, nullptr, {});
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
    }
};

QTEST_MAIN(TestSessionLoad)
#include "tst_views_sessionload.moc"
