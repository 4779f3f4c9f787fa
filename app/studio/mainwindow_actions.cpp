// SPDX-License-Identifier: Apache-2.0
// The window's menus, toolbar and dialogs: opening, exports, first divergence, shortcuts, drag and drop.
#include "mainwindow.h"

#include "appearance.h"
#include "comparetableview.h"
#include "graphswitcher.h"
#include "memorysession.h"
#include "optionalviews.h"
#include "pairdialog.h"
#include "recentfiles.h"
#include "trendsource.h"
#include "verdictbar.h"

#include <QActionGroup>
#include <QApplication>
#include <QDir>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QSettings>
#include <QStatusBar>
#include <QToolBar>
#include <QUndoStack>

#include <algorithm>

void MainWindow::buildMenus()
{
    QMenu* file = menuBar()->addMenu(tr("&File"));
    QAction* openFolder = file->addAction(tr("Open &dump folder…"), QKeySequence::Open, this, &MainWindow::chooseFolder);
    QAction* openPair = file->addAction(tr("Open problem/bench &pair…"), QKeySequence(tr("Ctrl+Shift+O")), this, &MainWindow::choosePair);
    QAction* openDb = file->addAction(tr("Open &vis.db…"), QKeySequence(tr("Ctrl+Shift+D")), this,
        [this] { chooseFile(tr("Open vis.db"), tr("Graph databases (*.vis.db *.db);;All files (*)")); });
    QAction* openCsv = file->addAction(tr("Open compare &CSV…"), QKeySequence(tr("Ctrl+Shift+C")), this,
        [this] { chooseFile(tr("Open compare result"), tr("Compare results (*.csv);;All files (*)")); });
    file->addAction(tr("Open &memory dump…"), QKeySequence(tr("Ctrl+Shift+M")), this, &MainWindow::chooseMemoryDump);
    file->addAction(tr("Compare with memory dump…"), this, &MainWindow::chooseComparedMemoryDump);
    file->addAction(tr("Export memory panel as CSV…"), this, &MainWindow::exportMemoryCsvDialog);
    file->addAction(tr("Open &trend database…"), QKeySequence(tr("Ctrl+Alt+T")), this, &MainWindow::chooseTrendDatabase);
    m_recent = new RecentFiles(file->addMenu(tr("Open &recent")), this);
    connect(m_recent, &RecentFiles::chosen, this, &MainWindow::openPaths);
    file->addSeparator();
    QMenu* exportMenu = file->addMenu(tr("&Export"));
    m_exportActions << exportMenu->addAction(tr("Comparison as &CSV…"), QKeySequence(tr("Ctrl+E")), this,
        [this] { exportDialog(msprobe::studio::reportexport::Format::Csv); });
    m_exportActions << exportMenu->addAction(tr("Comparison as &XLSX…"), this, [this] { exportDialog(msprobe::studio::reportexport::Format::Xlsx); });
    m_exportActions << exportMenu->addAction(tr("&HTML report…"), this, [this] { exportDialog(msprobe::studio::reportexport::Format::Html); });
    exportMenu->addSeparator();
    m_imageActions << exportMenu->addAction(tr("Graph as &PNG or SVG…"), QKeySequence(tr("Ctrl+Shift+E")), this, &MainWindow::exportImageDialog);
    exportMenu->addAction(tr("&Trend panel as PNG, SVG or CSV…"), this, &MainWindow::exportTrendDialog);
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);

    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    QAction* undo = m_matcher->undoStack()->createUndoAction(this, tr("&Undo"));
    undo->setShortcut(QKeySequence::Undo);
    QAction* redo = m_matcher->undoStack()->createRedoAction(this, tr("&Redo"));
    redo->setShortcut(QKeySequence::Redo);
    edit->addAction(undo);
    edit->addAction(redo);
    edit->addSeparator();
    edit->addAction(tr("&Filter the compare table"), QKeySequence::Find, this, [this] {
        m_compareDock->show();
        m_compareDock->raise();
        m_compareView->filterEdit()->setFocus();
        m_compareView->filterEdit()->selectAll();
    });

    QToolBar* tools = addToolBar(tr("Main"));
    tools->setObjectName(QStringLiteral("mainToolBar"));
    // Short toolbar texts (the menu keeps the long ones) so the step/rank choosers and "First divergence" stay
    // visible on a 1024 px wide window.
    openFolder->setIconText(tr("Open folder"));
    openPair->setIconText(tr("Open pair"));
    openDb->setIconText(tr("Open vis.db"));
    openCsv->setIconText(tr("Open CSV"));
    tools->addAction(openFolder);
    tools->addAction(openPair);
    tools->addAction(openDb);
    tools->addAction(openCsv);
    tools->addSeparator();
    m_switcher = new GraphSwitcher(m_focus, tools);

    QMenu* navigate = menuBar()->addMenu(tr("&Navigate"));
    navigate->addAction(tr("&Next rank"), QKeySequence(tr("Ctrl+PgDown")), this, [this] { m_switcher->nextRank(1); });
    navigate->addAction(tr("&Previous rank"), QKeySequence(tr("Ctrl+PgUp")), this, [this] { m_switcher->nextRank(-1); });
    navigate->addAction(tr("Next &step"), QKeySequence(tr("Alt+Right")), this, [this] { m_switcher->nextStep(1); });
    navigate->addAction(tr("P&revious step"), QKeySequence(tr("Alt+Left")), this, [this] { m_switcher->nextStep(-1); });
    navigate->addSeparator();
    QAction* divergence = navigate->addAction(tr("Go to first &divergence"), QKeySequence(tr("F3")), this, &MainWindow::goToFirstDivergence);
    connect(m_graphView, &GraphDiffView::firstDivergenceRequested, this, &MainWindow::goToFirstDivergence);
    divergence->setIconText(tr("First divergence"));
    m_graphActions << divergence;
    tools->addSeparator();
    tools->addAction(divergence);
    QAction* cancel = new QAction(tr("Cancel loading"), this);
    cancel->setShortcut(QKeySequence(Qt::Key_Escape));
    connect(cancel, &QAction::triggered, m_session, &StudioSession::cancel);
    addAction(cancel);

    m_viewMenu = menuBar()->addMenu(tr("&View"));
    for (QDockWidget* dock : findChildren<QDockWidget*>())
        m_viewMenu->addAction(dock->toggleViewAction());
    m_viewMenu->addAction(tools->toggleViewAction());
    m_viewMenu->addAction(m_graphView->syncPanZoomAction());
    m_viewMenu->addSeparator();
    QAction* dark = m_viewMenu->addAction(tr("&Dark theme"));
    dark->setCheckable(true);
    dark->setChecked(msprobe::studio::appearance::darkTheme());
    dark->setShortcut(QKeySequence(tr("Ctrl+Shift+T")));
    connect(dark, &QAction::toggled, this, [](bool on) { msprobe::studio::appearance::setDarkTheme(on); });
    QMenu* language = m_viewMenu->addMenu(tr("&Language"));
    auto* languages = new QActionGroup(this);
    const QString current = msprobe::studio::appearance::language();
    for (const auto& [code, name] : { std::pair { QString(), tr("System default") }, std::pair { QStringLiteral("en"), QStringLiteral("English") },
             std::pair { QStringLiteral("zh_CN"), QStringLiteral("中文 (简体)") } }) {
        QAction* action = language->addAction(name);
        action->setCheckable(true);
        action->setChecked(code == current);
        languages->addAction(action);
        connect(action, &QAction::triggered, this, [this, code] {
            msprobe::studio::appearance::setLanguage(code);
            statusBar()->showMessage(tr("The language changes the next time msprobe studio starts."), 8000);
        });
    }
    m_viewMenu->addSeparator();
    m_viewMenu->addAction(tr("&Reset layout"), this, &MainWindow::resetLayout);

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&Keyboard shortcuts"), QKeySequence::HelpContents, this, &MainWindow::showShortcuts);
    help->addAction(tr("&About msprobe studio"), this, [this] {
        QMessageBox::about(this, tr("About msprobe studio"),
            tr("<b>msprobe studio %1</b><br>Numerical-accuracy workstation for msprobe dumps: graph diff, compare table, "
               "node matching and reports.")
                .arg(QApplication::applicationVersion()));
    });
}

void MainWindow::chooseFolder()
{
    const QString dir = QFileDialog::getExistingDirectory(this, tr("Open dump folder"));
    if (!dir.isEmpty())
        openPath(dir);
}

void MainWindow::choosePair()
{
    PairDialog dialog(this);
    if (dialog.exec() == QDialog::Accepted)
        openRequest(dialog.request());
}

void MainWindow::chooseFile(const QString& title, const QString& filter)
{
    const QString file = QFileDialog::getOpenFileName(this, title, QString(), filter);
    if (!file.isEmpty())
        openPath(file);
}

QString MainWindow::exportComparison(msprobe::studio::reportexport::Format format, const QString& file)
{
    return msprobe::studio::reportexport::exportComparison(*m_session, m_focus->step(), m_focus->rank(), format, file);
}

QString MainWindow::exportGraphImage(const QString& file)
{
    return m_graphView->exportImage(file) ? QString() : m_graphView->errorString();
}

void MainWindow::exportDialog(msprobe::studio::reportexport::Format format)
{
    const QString filter = format == msprobe::studio::reportexport::Format::Csv ? tr("CSV (*.csv)")
        : format == msprobe::studio::reportexport::Format::Xlsx                 ? tr("Excel workbook (*.xlsx)")
                                                               : tr("HTML report (*.html)");
    const QString suffix = format == msprobe::studio::reportexport::Format::Csv ? QStringLiteral(".csv")
        : format == msprobe::studio::reportexport::Format::Xlsx                 ? QStringLiteral(".xlsx")
                                                               : QStringLiteral(".html");
    QString file = saveFileName(tr("Export"), QStringLiteral("compare_result") + suffix, filter);
    if (file.isEmpty())
        return;
    if (!file.endsWith(suffix, Qt::CaseInsensitive))
        file += suffix;
    const QString error = exportComparison(format, file);
    if (error.isEmpty())
        statusBar()->showMessage(tr("Written %1").arg(file), 8000);
    else
        showError(tr("Export failed"), error);
}

void MainWindow::exportImageDialog()
{
    const QString file = saveFileName(tr("Export graph"), QStringLiteral("graph.png"), tr("PNG image (*.png);;SVG drawing (*.svg)"));
    if (file.isEmpty())
        return;
    const QString error = exportGraphImage(file);
    if (error.isEmpty())
        statusBar()->showMessage(tr("Written %1").arg(file), 8000);
    else
        showError(tr("Export failed"), error);
}

void MainWindow::showShortcuts()
{
    QString rows;
    for (QAction* action : findChildren<QAction*>()) {
        if (action->shortcut().isEmpty() || action->text().isEmpty())
            continue;
        rows += QStringLiteral("<tr><td><b>%1</b></td><td>%2</td></tr>")
                    .arg(action->shortcut().toString(QKeySequence::NativeText).toHtmlEscaped(), action->text().remove(QLatin1Char('&')).toHtmlEscaped());
    }
    QMessageBox::information(this, tr("Keyboard shortcuts"), QStringLiteral("<table cellspacing=6>%1</table>").arg(rows));
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event)
{
    if (event->mimeData()->hasUrls())
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event)
{
    QStringList paths;
    for (const QUrl& url : event->mimeData()->urls())
        if (url.isLocalFile())
            paths << url.toLocalFile();
    if (paths.isEmpty())
        return;
    event->acceptProposedAction();
    if (std::all_of(paths.begin(), paths.end(), &MemorySession::looksLikeMemoryDump)) {
        openMemoryDump(paths.front());
        if (paths.size() > 1)
            openComparedMemoryDump(paths.at(1));
        return;
    }
    if (std::all_of(paths.begin(), paths.end(), &TrendSource::isTrendOnly)) {
        openTrend(paths.mid(0, 2));
        return;
    }
    openPaths(paths.mid(0, 2));
}

QString MainWindow::saveFileName(const QString& title, const QString& name, const QString& filter)
{
    QSettings settings;
    const QString folder = settings.value(QStringLiteral("export/folder")).toString();
    const QString start = folder.isEmpty() || !QFileInfo(folder).isDir() ? name : QDir(folder).filePath(name);
    const QString file = QFileDialog::getSaveFileName(this, title, start, filter);
    if (!file.isEmpty())
        settings.setValue(QStringLiteral("export/folder"), QFileInfo(file).absolutePath());
    return file;
}

// One verdict: the core's first-divergence rule on the pair's compare table, as `msprobe compare` prints it.
// Without a compare table (a vis.db or a build graph alone) the graph's first error-level node is shown, and the
// status bar says which rule answered.
void MainWindow::goToFirstDivergence()
{
    const int step = m_focus->step(), rank = m_focus->rank();
    if (const auto point = m_session->firstDivergence(step, rank)) {
        selectVerdictEntry(QString::fromStdString(point->entry));
        statusBar()->showMessage(tr("First divergence: %1 — %2").arg(QString::fromStdString(point->entry), QString::fromStdString(point->reason)), 15000);
        return;
    }
    if (m_session->compareRows(step, rank) && m_session->compareRows(step, rank)->table()) {
        statusBar()->showMessage(tr("No divergence: every entry stays within tolerance."), 8000);
        return;
    }
    if (m_graphView->goToFirstDivergence())
        statusBar()->showMessage(tr("No compare table here: showing the graph's first error-level node."), 8000);
    else
        statusBar()->showMessage(tr("No error-level node in this graph."), 5000);
}

// The entry's graph node (the node owning it) is focused, and its first row selected in the compare table.
void MainWindow::selectVerdictEntry(const QString& entry)
{
    const auto graph = m_session->graphs(m_focus->step(), m_focus->rank()).problem;
    const QString node = graph ? msprobe::studio::nodeOwningItem(*graph, entry) : QString();
    if (!node.isEmpty())
        m_focus->setNode(node, StudioFocus::Side::Problem);
    m_compareDock->show();
    m_compareDock->raise();
    m_compareView->selectEntry(entry);
}
