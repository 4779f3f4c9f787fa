// SPDX-License-Identifier: Apache-2.0
// What the studio has open: the dump summary, the vis.db with its graphs per (step, rank), and the compare
// results per (step, rank). Loads run on a worker thread in stages (graphs first, then the compare table);
// each stage is published on the GUI thread as soon as it is ready, progress comes as signals, and a load can
// be cancelled. A newer load makes the results of an older one be dropped. What is open stays until the new
// load's first part arrives, so a failed or cancelled open keeps the old session.
#pragma once

#include "sessiontypes.h"

#include "compare/divergence.h"
#include "dump/dump_summary.h"
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
    using GraphPair = studio::GraphPair;
    using Key = studio::Key;
    using GraphStage = studio::GraphStage;

    explicit StudioSession(QObject* parent = nullptr);
    ~StudioSession() override;

    void open(const LoadRequest& request);
    void cancel();
    bool isLoading() const { return m_loading; }
    // Blocks until the worker has stopped (shutdown, tests).
    void waitForIdle();

    const LoadRequest& request() const { return m_request; }
    std::shared_ptr<const msprobe::TreeSummary> summary() const { return m_summary; }
    QString visDbPath() const { return m_visDbPath; }
    const msprobe::graph::VisDbConfig& config() const { return m_config; }
    std::shared_ptr<msprobe::graph::VisDb> visDb() const { return m_db; }
    const std::map<Key, GraphPair>& graphs() const { return m_graphs; }
    GraphPair graphs(int step, int rank) const;
    std::shared_ptr<const CompareRows> compareRows(int step, int rank) const;
    // Every step's and rank's compare rows in one table (Step and Rank columns first); null unless there are two
    // or more compared pairs.
    std::shared_ptr<const CompareRows> allCompareRows() const;
    const std::map<Key, std::shared_ptr<const CompareRows>>& compareResults() const { return m_compare; }
    // Steps and ranks present in the graphs or the compare results, sorted.
    std::vector<int> steps() const;
    std::vector<int> ranks() const;
    QStringList warnings() const { return m_warnings; }
    // The core's first-divergence verdict (the rule `msprobe compare` prints) for a pair compared in this
    // session; nullopt when none diverges or the pair has no compare table here (a CSV or a vis.db alone).
    std::optional<msprobe::DivergencePoint> firstDivergence(int step, int rank) const;


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
    void runLoad(LoadRequest request, std::uint64_t generation, std::shared_ptr<std::atomic<bool>> cancel);
    // Runs f on the GUI thread if generation is still the current one.
    template <typename F>
    void publish(std::uint64_t generation, F&& f);
    // As publish, for a part of the new session: the first such part replaces what was open.
    template <typename F>
    void publishPart(std::uint64_t generation, F&& f);
    void replaceWithPending();
    void applyGraphs(GraphStage stage);

    LoadRequest m_request;
    LoadRequest m_pendingRequest; // the load under way; becomes m_request when its first part arrives
    bool m_replacePending = false;
    std::shared_ptr<const msprobe::TreeSummary> m_summary;
    QString m_visDbPath;
    msprobe::graph::VisDbConfig m_config;
    std::shared_ptr<msprobe::graph::VisDb> m_db;
    std::map<Key, GraphPair> m_graphs;
    std::map<Key, std::shared_ptr<const CompareRows>> m_compare;
    mutable std::shared_ptr<const CompareRows> m_allCompare; // built on first use
    QStringList m_warnings;

    std::atomic<std::uint64_t> m_generation { 0 };
    std::shared_ptr<std::atomic<bool>> m_cancel;
    bool m_loading = false;
    QFuture<void> m_future;
};
