// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "reportexport.h"
#include "studiofocus.h"
#include "studiosession.h"

#include <QElapsedTimer>
#include <QMainWindow>

class CompareTableView;
class DumpSummaryModel;
class GraphDiffView;
class GraphSwitcher;
class MatchController;
class MemoryPanel;
class MemorySession;
class NodeDetailsPanel;
class NodeListPanel;
class NodeMatchPanel;
class ParallelPanel;
class ParallelSetup;
class QDockWidget;
class QLabel;
class QMenu;
class QProgressBar;
class QStackedWidget;
class QToolButton;
class QTreeView;
class RecentFiles;
class TrendPanel;
class TrendSource;
class VerdictBar;
class WelcomePage;

// The studio's shell: opens dumps, pairs, vis.db files and compare CSVs (menus, drag and drop, command line),
// loads them in the background through StudioSession, and docks the views, which all follow one StudioFocus.
class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    // One path (dump folder, dump.json, .vis.db, compare CSV) or two dump folders (problem, bench).
    void openPaths(const QStringList& paths);
    void openPath(const QString& path) { openPaths({ path }); }
    void openRequest(const msprobe::studio::LoadRequest& request);

    StudioSession* session() const { return m_session; }
    StudioFocus* studioFocus() const { return m_focus; }
    CompareTableView* compareView() const { return m_compareView; }
    GraphSwitcher* graphSwitcher() const { return m_switcher; }
    GraphDiffView* graphView() const { return m_graphView; }
    VerdictBar* verdictBar() const { return m_verdict; }
    MatchController* matchController() const { return m_matcher; }
    // What the centre shows: the graphs, why there are none (an L1 dump, a CSV) or, with nothing open, the
    // welcome page.
    enum class CentralPage { Graphs, NoGraph, Welcome };
    CentralPage centralPage() const;
    QString noGraphText() const;
    // Off for a headless export: what it opens does not join File > Open recent.
    void setRemembersRecent(bool on) { m_remembersRecent = on; }
    // Exports the comparison of the focused step and rank (HTML: every pair). Empty string on success.
    QString exportComparison(msprobe::studio::reportexport::Format format, const QString& file);
    // The graph view's picture (PNG or SVG by suffix). Empty string on success.
    QString exportGraphImage(const QString& file);
    // File > Open memory dump: loads a msMemScope CSV/.db in the background (progress, cancel) and shows it in
    // the memory dock. Null until the first memory dump is opened.
    void openMemoryDump(const QString& file);
    // File > Compare with memory dump: a second dump beside the first, shown in the memory panel's compare tab.
    void openComparedMemoryDump(const QString& file);
    // Exports the memory panel's shown tab as CSV. Empty string on success.
    QString exportMemoryCsv(const QString& file);
    MemorySession* memorySession() const { return m_memorySession; }
    MemoryPanel* memoryPanel() const { return m_memoryPanel; }
    // The parallelism panel (mainwindow_parallel.cpp) and the session's parallel configuration it shows.
    ParallelPanel* parallelPanel() const { return m_parallelPanel; }
    ParallelSetup* parallelSetup() const { return m_parallelSetup; }
    QDockWidget* parallelDock() const { return m_parallelDock; }
    // The parallelism grid's picture (PNG or SVG by suffix). Empty string on success.
    QString exportParallelImage(const QString& file);

    // The trend panel (mainwindow_trend.cpp): what it shows comes from trendSource().
    TrendSource* trendSource() const { return m_trendSource; }
    TrendPanel* trendPanel() const { return m_trendPanel; }
    // A *.trend.db, a monitor or a dump folder (two: problem and bench) into the trend panel, in the background.
    void openTrend(const QStringList& paths);
    // The trend panel's picture (.png, .svg) or its heat-map cells (.csv). Empty string on success.
    QString exportTrend(const QString& file);
    // The trend panel alone in its own window of that size (headless export).
    void showTrendAlone(const QSize& size);

public slots:
    // Selects the first divergence of the shown pair (the core's rule, as msprobe compare prints it) and says why.
    void goToFirstDivergence();
    void resetLayout();

signals:
    // A load has finished (or failed, or was cancelled) and the window shows the result.
    void idle();

protected:
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;
    void closeEvent(QCloseEvent* event) override;
    QSize initialSize() const;

private:
    void buildViews();
    void buildCentre();
    void wireMatching();
    void buildMenus();
    QDockWidget* addDock(QWidget* widget, const QString& title, const QString& objectName, Qt::DockWidgetArea area);
    void wireSession();
    void showFocusedGraph();
    // The verdict bar and the centre page for the focused pair.
    void updateCentre();
    void selectVerdictEntry(const QString& entry);
    void loadStarted(const QString& description);
    void loadProgress(int percent, const QString& stage);
    void loadFinished(bool ok, const QString& message);
    void showError(const QString& title, const QString& message);
    void chooseFolder();
    void choosePair();
    void chooseFile(const QString& title, const QString& filter);
    void exportDialog(msprobe::studio::reportexport::Format format);
    void exportImageDialog();
    // A save-file dialog that starts in the folder of the last export.
    QString saveFileName(const QString& title, const QString& name, const QString& filter);
    void showShortcuts();
    void updateActions();
    void chooseMemoryDump();
    void chooseComparedMemoryDump();
    void exportMemoryCsvDialog();
    void buildMemoryDock();
    void loadMemoryDump(const QString& file, bool compared);
    void linkMemoryRangeToGraph(qint64 beginTs, qint64 endTs);
    void showFocusInMemory();
    void buildParallelPanel();
    void updateParallelPanel();
    void exportParallelDialog();
    void buildTrendPanel();
    void chooseTrendDatabase();
    void exportTrendDialog();

    StudioSession* m_session;
    StudioFocus* m_focus;
    CompareTableView* m_compareView = nullptr;
    DumpSummaryModel* m_summaryModel = nullptr;
    QTreeView* m_summaryTree = nullptr;
    GraphDiffView* m_graphView = nullptr;
    VerdictBar* m_verdict = nullptr;
    QStackedWidget* m_pages = nullptr;
    QLabel* m_noGraph = nullptr;
    WelcomePage* m_welcome = nullptr;
    NodeListPanel* m_nodeList = nullptr;
    MatchController* m_matcher = nullptr;
    NodeMatchPanel* m_matchPanel = nullptr;
    NodeDetailsPanel* m_details = nullptr;
    GraphSwitcher* m_switcher = nullptr;
    RecentFiles* m_recent = nullptr;
    QDockWidget* m_compareDock = nullptr;
    QDockWidget* m_summaryDock = nullptr;
    QMenu* m_viewMenu = nullptr;
    QList<QAction*> m_exportActions, m_imageActions, m_graphActions;
    QLabel* m_status;
    QProgressBar* m_progress;
    QToolButton* m_cancel;
    QElapsedTimer m_loadClock;
    MemorySession* m_memorySession = nullptr;
    MemoryPanel* m_memoryPanel = nullptr;
    QDockWidget* m_memoryDock = nullptr;
    bool m_memoryDockSized = false;
    bool m_memoryLinking = false; // the timeline is setting the focus: do not zoom it back to the node
    QStringList m_loadingPaths;
    QByteArray m_defaultState;
    bool m_remembersRecent = true;
    ParallelSetup* m_parallelSetup = nullptr;
    ParallelPanel* m_parallelPanel = nullptr;
    QDockWidget* m_parallelDock = nullptr;
    TrendSource* m_trendSource = nullptr;
    TrendPanel* m_trendPanel = nullptr;
    QDockWidget* m_trendDock = nullptr;
};
