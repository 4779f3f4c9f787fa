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
class NodeDetailsPanel;
class NodeListPanel;
class NodeMatchPanel;
class QDockWidget;
class QLabel;
class QMenu;
class QProgressBar;
class QToolButton;
class QTreeView;
class RecentFiles;

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
    void openRequest(const LoadRequest& request);

    StudioSession* session() const { return m_session; }
    StudioFocus* studioFocus() const { return m_focus; }
    CompareTableView* compareView() const { return m_compareView; }
    GraphSwitcher* graphSwitcher() const { return m_switcher; }
    GraphDiffView* graphView() const { return m_graphView; }
    // Exports the comparison of the focused step and rank (HTML: every pair). Empty string on success.
    QString exportComparison(reportexport::Format format, const QString& file);
    // The graph view's picture (PNG or SVG by suffix). Empty string on success.
    QString exportGraphImage(const QString& file);

public slots:
    // Selects the first divergence of the shown pair (the core's rule, as msprobe compare prints it) and says why.
    void goToFirstDivergence();

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
    void buildMenus();
    QDockWidget* addDock(QWidget* widget, const QString& title, const QString& objectName, Qt::DockWidgetArea area);
    void wireSession();
    void showFocusedGraph();
    void loadStarted(const QString& description);
    void loadProgress(int percent, const QString& stage);
    void loadFinished(bool ok, const QString& message);
    void showError(const QString& title, const QString& message);
    void chooseFolder();
    void choosePair();
    void chooseFile(const QString& title, const QString& filter);
    void exportDialog(reportexport::Format format);
    void exportImageDialog();
    void showShortcuts();
    void updateActions();

    StudioSession* m_session;
    StudioFocus* m_focus;
    CompareTableView* m_compareView = nullptr;
    DumpSummaryModel* m_summaryModel = nullptr;
    QTreeView* m_summaryTree = nullptr;
    GraphDiffView* m_graphView = nullptr;
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
    QStringList m_loadingPaths;
    QByteArray m_defaultState;
};
