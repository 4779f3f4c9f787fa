// SPDX-License-Identifier: Apache-2.0
// What the studio has open: the dump summary, the vis.db with its graphs per (step, rank), and the compare
// results per (step, rank). Loads run on a worker thread in stages (graphs first, then the compare table);
// each stage is published on the GUI thread as soon as it is ready, progress comes as signals, and a load can
// be cancelled. A newer load makes the results of an older one be dropped. What is open stays until the new
// load's first part arrives, so a failed or cancelled open keeps the old session.
#pragma once

#include "pairverdict.h"
#include "sessiontypes.h"
#include "studiofocus.h"

#include "compare/divergence.h"
#include "dump/dump_summary.h"
#include "graph/match/manual_match.h"
#include "graph/visdb/vis_db_reader.h"

#include <QFuture>
#include <QObject>
#include <QStringList>

#include <atomic>
#include <map>
#include <memory>

class StudioSession : public QObject {
    Q_OBJECT
public:
    using GraphPair = msprobe::studio::GraphPair;
    using Key = msprobe::studio::Key;
    using GraphStage = msprobe::studio::GraphStage;

    explicit StudioSession(QObject* parent = nullptr);
    ~StudioSession() override;

    void open(const msprobe::studio::LoadRequest& request);
    void cancel();
    bool isLoading() const { return m_loading; }
    // Blocks until the worker has stopped (shutdown, tests).
    void waitForIdle();

    const msprobe::studio::LoadRequest& request() const { return m_request; }
    std::shared_ptr<const msprobe::dump::TreeSummary> summary() const { return m_summary; }
    QString visDbPath() const { return m_visDbPath; }
    const msprobe::graph::VisDbConfig& config() const { return m_config; }
    std::shared_ptr<msprobe::graph::VisDb> visDb() const { return m_db; }
    const std::map<Key, GraphPair>& graphs() const { return m_graphs; }
    GraphPair graphs(int step, int rank) const;
    std::shared_ptr<const msprobe::studio::CompareRows> compareRows(int step, int rank) const;
    // Every step's and rank's compare rows in one table (Step and Rank columns first); null unless there are two
    // or more compared pairs.
    std::shared_ptr<const msprobe::studio::CompareRows> allCompareRows() const;
    const std::map<Key, std::shared_ptr<const msprobe::studio::CompareRows>>& compareResults() const { return m_compare; }
    // Steps and ranks present in the graphs or the compare results, sorted.
    std::vector<int> steps() const;
    std::vector<int> ranks() const;
    QStringList warnings() const { return m_warnings; }
    // The core's first-divergence verdict (the rule `msprobe compare` prints) for a pair compared in this
    // session; nullopt when none diverges or the pair has no compare table here (a CSV or a vis.db alone).
    std::optional<msprobe::compare::DivergencePoint> firstDivergence(int step, int rank) const;
    // The pair's summary as `msprobe compare` prints it (counts, first divergence, first NaN/Inf); null when the
    // pair was not compared here.
    const msprobe::compare::PairOutcome* verdict(int step, int rank) const;
    const msprobe::studio::Verdicts& verdicts() const { return m_verdicts; }
    // Why the dumps opened have no graph (an L1 dump: no construct.json); empty when graphs loaded or none was asked.
    QString graphUnavailable() const { return m_graphUnavailable; }
    // How many dump.json parses the last pair load made: one per file, the graphs and the compare sharing it.
    std::size_t dumpParses() const { return m_dumpParses; }
    // How many tensor files (.pt/.npy) the last pair load read, and how many tensor-mode rows of its compare
    // tables took the metrics its graph compare had computed instead of reading the files again.
    std::size_t tensorFileReads() const { return m_tensorReads; }
    std::size_t tensorMetricReuses() const { return m_tensorReuses; }

    // The one manual-matching handle on the vis.db, for (step, rank) of a compare db: opened on first use and
    // kept until another pair is asked for or the session changes. Null (and *error) for a build db, a missing
    // graph or an unreadable file. Matching edits go through it, so nodeData() below sees them at once.
    std::shared_ptr<msprobe::graph::ManualMatcher> manualMatcher(int step, int rank, QString* error = nullptr);
    // The stored input/output JSON of a node as it is now: from the matching handle when it holds that pair,
    // else from the vis.db. Empty when unknown.
    std::pair<std::string, std::string> nodeData(int step, int rank, StudioFocus::Side side, const std::string& name) const;
    // The error magnitude (graph/visdb/error_magnitude.h) of every debug node of (step, rank) as it is now
    // (manual matches included), by node index of graphs(step, rank).problem; NaN where there is none. Empty
    // when the pair has no compare graph. Reads every node's stored data: call it when the colouring asks.
    std::vector<float> errorMagnitudes(int step, int rank) const;

signals:
    void loadStarted(const QString& description);
    void progress(int percent, const QString& stage);
    void summaryChanged();
    void graphsChanged();
    void compareChanged();
    // A part failed but the rest loaded (e.g. the dumps have no construct.json for a graph).
    void warning(const QString& message);
    // ok false: nothing could be opened (message names the file) or the load was cancelled (message empty).
    void loadFinished(bool ok, const QString& message);

private:
    void clear();
    void runLoad(msprobe::studio::LoadRequest request, std::uint64_t generation, std::shared_ptr<std::atomic<bool>> cancel);
    // Runs f on the GUI thread if generation is still the current one.
    template <typename F>
    void publish(std::uint64_t generation, F&& f);
    // As publish, for a part of the new session: the first such part replaces what was open.
    template <typename F>
    void publishPart(std::uint64_t generation, F&& f);
    void replaceWithPending();
    void applyGraphs(GraphStage stage);

    msprobe::studio::LoadRequest m_request;
    msprobe::studio::LoadRequest m_pendingRequest; // the load under way; becomes m_request when its first part arrives
    bool m_replacePending = false;
    std::shared_ptr<const msprobe::dump::TreeSummary> m_summary;
    QString m_visDbPath;
    msprobe::graph::VisDbConfig m_config;
    std::shared_ptr<msprobe::graph::VisDb> m_db;
    std::map<Key, GraphPair> m_graphs;
    std::map<Key, std::shared_ptr<const msprobe::studio::CompareRows>> m_compare;
    mutable std::shared_ptr<const msprobe::studio::CompareRows> m_allCompare; // built on first use
    QStringList m_warnings;
    msprobe::studio::Verdicts m_verdicts;
    QString m_graphUnavailable;
    std::size_t m_dumpParses = 0;
    std::size_t m_tensorReads = 0;
    std::size_t m_tensorReuses = 0;
    std::shared_ptr<msprobe::graph::ManualMatcher> m_matcher;
    Key m_matcherKey { -1, -1 };

    std::atomic<std::uint64_t> m_generation { 0 };
    std::shared_ptr<std::atomic<bool>> m_cancel;
    bool m_loading = false;
    QFuture<void> m_future;
};
