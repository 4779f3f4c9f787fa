// SPDX-License-Identifier: Apache-2.0
// The trend databases the studio has open: one run, or a problem and a bench run shown as their difference.
// A *.trend.db opens at once; a monitor or dump folder is imported first (core/trend, as `msprobe data2db`) on a
// worker thread, with progress and cancel, into the cache. What is open stays until the new databases are ready,
// so a failed or cancelled open keeps the old ones. Queries go to the databases and return only what is drawn.
#pragma once

#include "trenddatabase.h"

#include "trend/trend_compare.h"

#include <QFuture>
#include <QObject>
#include <QThreadPool>

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <tuple>

class TrendSource : public QObject {
    Q_OBJECT
public:
    explicit TrendSource(QObject* parent = nullptr);
    ~TrendSource() override;

    // A *.trend.db, a monitor output folder, a dump folder or a folder holding one *.trend.db.
    void open(const QString& path) { openPair(path, QString()); }
    // Problem and bench (bench empty: one run).
    void openPair(const QString& problem, const QString& bench);
    void cancel();
    bool isLoading() const { return m_loading; }
    void waitForIdle();

    // Whether path is something open() takes (a *.trend.db file, a monitor or dump folder).
    static bool canOpen(const QString& path);
    // Whether path is only for the trend panel (a *.trend.db, a monitor folder), not for the studio's dump views.
    static bool isTrendOnly(const QString& path);

    std::shared_ptr<const msprobe::studio::TrendDatabase> problem() const { return m_problem; }
    std::shared_ptr<const msprobe::studio::TrendDatabase> bench() const { return m_bench; }
    bool isOpen() const { return m_problem != nullptr; }
    bool isPair() const { return m_bench != nullptr; }

    // Relative difference a run must exceed to diverge (as trend_compare --tolerance).
    double tolerance() const { return m_tolerance; }
    void setTolerance(double tolerance);

    // One run: its cells. A pair with difference: |problem - bench| / |bench| per cell, rows and columns joined
    // by target name and key, each target's first divergent step (trend_compare's rule) marked; without
    // difference: the problem run's cells.
    msprobe::studio::TrendGrid grid(const msprobe::studio::TrendQuery& query, bool difference = true) const;
    // The line of a heat-map cell (keys of that cell in the problem run); for a pair, the bench's line too.
    std::vector<msprobe::studio::TrendSeries> series(const msprobe::studio::TrendQuery& query, std::int64_t xKey, std::int64_t yKey) const;
    // trend_compare on the open pair for a statistic (computed once per statistic and tolerance); empty for one run.
    const msprobe::trend::TrendCompareResult& compare(const QString& stat) const;

    // grid() on the query thread (its own connections to the databases), delivered by gridReady with the
    // returned number. A later request makes the earlier ones stale: one not started is skipped, one running
    // is dropped when it ends. The heat map the panel opens on is delivered at once (it was read on opening).
    quint64 requestGrid(const msprobe::studio::TrendQuery& query, bool difference);
    // The grid grid() gives without a query (the heat map read when opening), else null.
    std::shared_ptr<const msprobe::studio::TrendGrid> cachedGrid(const msprobe::studio::TrendQuery& query, bool difference) const;
    // Blocks until the query thread is idle and delivers what it finished (an export waits for the shown map).
    void finishQueries();
    // The thread that ran the last heat-map query of requestGrid (tests check it is not the GUI's).
    Qt::HANDLE lastQueryThread() const { return m_lastQueryThread.load(); }

signals:
    void loadStarted(const QString& description);
    void progress(int percent, const QString& stage);
    // New databases are open (the panel rebuilds its choices).
    void opened();
    // ok false: nothing new could be opened (message names the file) or the load was cancelled (message empty).
    void loadFinished(bool ok, const QString& message);
    // The answer to requestGrid(request) when it is still the latest (empty grid and a message when it failed).
    void gridReady(quint64 request, const msprobe::studio::TrendGrid& grid, const QString& error);

private:
    struct Resolved {
        QString problem, bench, error;
        // Opened on the worker, with the heat map the panel shows first (one run): its query reads a good part
        // of trend_data, so the GUI thread does not wait for it.
        std::shared_ptr<const msprobe::studio::TrendDatabase> problemDb, benchDb;
        std::optional<msprobe::studio::TrendQuery> firstQuery;
        std::shared_ptr<const msprobe::studio::TrendGrid> firstGrid;
    };
    // The query thread's connections to the open databases, opened there on first use, used by it alone.
    struct QueryConnections {
        QString problemFile, benchFile;
        std::unique_ptr<msprobe::studio::TrendDatabase> problem, bench;
    };
    void openDatabases(Resolved& resolved) const;
    const msprobe::trend::TrendCompareResult& compareFiles(const QString& problemFile, const QString& benchFile, const QString& stat, double tolerance) const;
    static msprobe::studio::TrendGrid gridOf(const msprobe::studio::TrendDatabase& problem, const msprobe::studio::TrendDatabase* bench,
        const msprobe::studio::TrendQuery& query, bool difference, const msprobe::trend::TrendCompareResult* compare);
    Resolved resolve(QString problem, QString bench, std::shared_ptr<std::atomic<bool>> cancel, std::uint64_t generation);

    std::shared_ptr<const msprobe::studio::TrendDatabase> m_problem, m_bench;
    std::optional<msprobe::studio::TrendQuery> m_firstQuery;
    std::shared_ptr<const msprobe::studio::TrendGrid> m_firstGrid;
    double m_tolerance = 1e-6;
    // By (problem file, bench file, statistic, tolerance), each file with what identifies its content (a
    // trend.db written again under the same name is compared again); filled by the GUI and the query thread.
    mutable std::map<std::tuple<QString, QString, QString, double>, msprobe::trend::TrendCompareResult> m_compare;
    mutable std::mutex m_compareMutex;
    std::shared_ptr<QueryConnections> m_queryConnections;
    std::shared_ptr<std::atomic<quint64>> m_gridRequest = std::make_shared<std::atomic<quint64>>(0);
    std::atomic<Qt::HANDLE> m_lastQueryThread { nullptr };
    QThreadPool m_queryThread; // one thread: requests run in order on the same connections
    std::atomic<std::uint64_t> m_generation { 0 };
    std::shared_ptr<std::atomic<bool>> m_cancel;
    bool m_loading = false;
    QFuture<void> m_future;
};
