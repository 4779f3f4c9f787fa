// SPDX-License-Identifier: Apache-2.0
// Matching nodes by hand in the studio: every match, unmatch or mapping file applied is one QUndoCommand whose
// redo/undo writes the rows after/before the operation (core ManualMatcher: one SQLite transaction, then the
// mapping file, so what returns is on disk). Tensor-mode pairs re-read tensor files: they are planned on a
// worker thread and the command is pushed when the plan is ready. The matcher is the session's (the one handle
// on the vis.db); the controller never opens a file itself.
#pragma once

#include "studiofocus.h"

#include "graph/match/manual_match.h"

#include <QObject>
#include <QString>
#include <QStringList>
#include <QThreadPool>

#include <functional>
#include <memory>

class QUndoStack;
class StudioSession;

class MatchController : public QObject {
    Q_OBJECT
public:
    explicit MatchController(StudioSession* session, QObject* parent = nullptr);
    ~MatchController() override;

    // Matches (step, rank) of the session's compare vis.db through the session's matcher; the session's graphs of
    // that pair (what the views show) are kept in step with every write. Clears the undo history. False +
    // errorString() when the pair cannot be matched (a build graph, a missing graph, an unreadable file).
    bool open(int step, int rank);
    void close();
    bool isOpen() const { return m_matcher != nullptr; }
    QString errorString() const { return m_error; }

    QUndoStack* undoStack() const { return m_stack; }
    // The graphs as the db holds them now (null when closed); read-only.
    const msprobe::graph::ManualMatcher* matcher() const { return m_matcher.get(); }
    // The stored input/output JSON of a node as it is now (for the details panel and the graph hover).
    std::pair<std::string, std::string> nodeData(StudioFocus::Side side, const std::string& name) const;
    bool isBusy() const { return m_busy; }
    // The file "Generate" writes: {db name}_{step}_{rank}.vis.config beside the db.
    QString mappingFilePath() const;

public slots:
    void match(const QString& problemNode, const QString& benchNode, bool descendants = false);
    void unmatch(const QString& problemNode, bool descendants = false);
    // Applies every pair of a mapping / .vis.config file as one command; reports through mappingFileApplied.
    void applyMappingFile(const QString& file);
    // Writes the pairs made by hand to mappingFilePath(); returns false (and emits failed) on error.
    bool writeMappingFile();
    // Blocks until a planning worker is done (tests, shutdown).
    void waitForIdle();

signals:
    // Rows of these nodes (either side) changed: refresh them (GraphDiffView::refreshNodes).
    void nodesChanged(const QStringList& names);
    void failed(const QString& message);
    void busyChanged(bool busy);
    void mappingFileApplied(int total, int success, int failed, const QStringList& problems);

private:
    friend class MatchCommand;
    using Plan = std::function<msprobe::graph::MappingFileReport(const msprobe::graph::ManualMatcher&)>;
    void run(const QString& text, Plan plan, bool report);
    void push(const QString& text, msprobe::graph::MappingFileReport result, bool report);
    // Writes rows and mirrors them into the shown graphs; false (and failed()) when the write fails.
    bool write(const std::vector<msprobe::graph::MatchRow>& rows);
    void setBusy(bool busy);

    QUndoStack* m_stack;
    StudioSession* m_session;
    std::shared_ptr<msprobe::graph::ManualMatcher> m_matcher; // the session's, while open
    std::shared_ptr<msprobe::graph::VisGraph> m_problem, m_bench;
    QString m_error;
    bool m_busy = false;
    int m_generation = 0; // a worker's plan for a matcher closed since is dropped
    QThreadPool m_worker; // one planning thread
};
