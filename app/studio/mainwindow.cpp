// SPDX-License-Identifier: Apache-2.0
#include "mainwindow.h"

#include "dumpsummarymodel.h"
#include "support/error.h"

#include <QApplication>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QHeaderView>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QStatusBar>
#include <QToolButton>
#include <QTreeView>
#include <QtConcurrent/QtConcurrentRun>

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent)
    , m_model(new DumpSummaryModel(this))
    , m_tree(new QTreeView(this))
    , m_status(new QLabel(this))
    , m_progress(new QProgressBar(this))
    , m_cancel(new QToolButton(this))
{
    setWindowTitle(tr("msprobe studio"));
    setAcceptDrops(true);
    m_tree->setModel(m_model);
    m_tree->setUniformRowHeights(true);
    m_tree->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    setCentralWidget(m_tree);

    auto* fileMenu = menuBar()->addMenu(tr("&File"));
    fileMenu->addAction(tr("&Open dump folder…"), QKeySequence::Open, this, &MainWindow::chooseFolder);
    fileMenu->addSeparator();
    fileMenu->addAction(tr("&Quit"), QKeySequence::Quit, qApp, &QApplication::quit);

    m_progress->setRange(0, 0);
    m_progress->setMaximumWidth(200);
    m_progress->hide();
    m_cancel->setText(tr("Cancel"));
    m_cancel->hide();
    connect(m_cancel, &QToolButton::clicked, this, &MainWindow::cancelLoad);
    statusBar()->addWidget(m_status, 1);
    statusBar()->addPermanentWidget(m_progress);
    statusBar()->addPermanentWidget(m_cancel);
    m_status->setText(tr("Open a dump folder (File → Open, or drop it here)."));
    connect(&m_watcher, &QFutureWatcher<std::shared_ptr<const msprobe::TreeSummary>>::finished, this,
        &MainWindow::loadFinished);
    resize(1100, 600);
}

MainWindow::~MainWindow()
{
    cancelLoad();
    m_watcher.waitForFinished();
}

void MainWindow::openPath(const QString& path)
{
    cancelLoad();
    m_watcher.waitForFinished();
    m_loadingPath = path;
    m_cancelFlag = std::make_shared<std::atomic<bool>>(false);
    m_status->setText(tr("Loading %1…").arg(path));
    m_progress->show();
    m_cancel->show();
    const std::string native = path.toStdString();
    m_watcher.setFuture(QtConcurrent::run([native]() -> std::shared_ptr<const msprobe::TreeSummary> {
        return std::make_shared<const msprobe::TreeSummary>(msprobe::summarizeDumpTree(msprobe::discoverDumpTree(native)));
    }));
}

void MainWindow::cancelLoad()
{
    if (m_cancelFlag)
        m_cancelFlag->store(true);
}

void MainWindow::loadFinished()
{
    m_progress->hide();
    m_cancel->hide();
    if (m_cancelFlag && m_cancelFlag->load()) {
        m_status->setText(tr("Loading cancelled."));
        emit idle();
        return;
    }
    try {
        auto summary = m_watcher.result();
        m_model->setSummary(summary);
        m_tree->expandAll();
        setWindowTitle(tr("%1 — msprobe studio").arg(m_loadingPath));
        m_status->setText(tr("%1: %n rank dump(s)", nullptr, static_cast<int>(summary->ranks.size())).arg(m_loadingPath));
    } catch (const msprobe::Error& error) {
        m_status->setText(tr("Could not open %1").arg(m_loadingPath));
        emit idle();
        QMessageBox::warning(this, tr("Could not open the dump"), QString::fromUtf8(error.what()));
        return;
    }
    emit idle();
}

void MainWindow::chooseFolder()
{
    const QString dir = QFileDialog::getExistingDirectory(this, tr("Open dump folder"));
    if (!dir.isEmpty())
        openPath(dir);
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event)
{
    if (event->mimeData()->hasUrls())
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event)
{
    const auto urls = event->mimeData()->urls();
    if (!urls.isEmpty() && urls.first().isLocalFile())
        openPath(urls.first().toLocalFile());
}
