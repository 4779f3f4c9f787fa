// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "dump/dump_summary.h"

#include <QFutureWatcher>
#include <QMainWindow>

#include <atomic>
#include <memory>

class DumpSummaryModel;
class QLabel;
class QProgressBar;
class QToolButton;
class QTreeView;

// The studio's shell: opens dump folders (menu, drag and drop, command line) and shows what they hold.
// Loading runs on a worker thread; the window stays responsive and the load can be cancelled.
class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    void openPath(const QString& path);

signals:
    // Emitted when a load has finished (or failed) and the window shows the result.
    void idle();

protected:
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void chooseFolder();
    void loadFinished();
    void cancelLoad();

    DumpSummaryModel* m_model;
    QTreeView* m_tree;
    QLabel* m_status;
    QProgressBar* m_progress;
    QToolButton* m_cancel;
    QFutureWatcher<std::shared_ptr<const msprobe::TreeSummary>> m_watcher;
    std::shared_ptr<std::atomic<bool>> m_cancelFlag;
    QString m_loadingPath;
};
