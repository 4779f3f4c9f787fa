// SPDX-License-Identifier: Apache-2.0
#include "mainwindow.h"

#include "appearance.h"
#include "comparetableview.h"
#include "dumpsummarymodel.h"
#include "graphswitcher.h"
#include "optionalviews.h"
#include "pairdialog.h"
#include "recentfiles.h"

#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QScreen>
#include <QScrollArea>
#include <QSettings>
#include <QStatusBar>
#include <QToolBar>
#include <QToolButton>
#include <QTreeView>
#include <QUndoStack>

#include <algorithm>

namespace {

constexpr int kLayoutVersion = 1;

[[maybe_unused]] QLabel* placeholder(const QString& text, QWidget* parent)
{
    auto* label = new QLabel(text, parent);
    label->setAlignment(Qt::AlignCenter);
    label->setWordWrap(true);
    label->setEnabled(false);
    return label;
}

} // namespace

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent)
    , m_session(new StudioSession(this))
    , m_focus(new StudioFocus(this))
    , m_status(new QLabel(this))
    , m_progress(new QProgressBar(this))
    , m_cancel(new QToolButton(this))
{
    setWindowTitle(tr("msprobe studio"));
    setAcceptDrops(true);
    setDockOptions(AnimatedDocks | AllowTabbedDocks | AllowNestedDocks);
    buildViews();
    buildMenus();
    wireSession();

    m_progress->setRange(0, 100);
    m_progress->setMaximumWidth(240);
    m_progress->setTextVisible(true);
    m_progress->hide();
    m_cancel->setText(tr("Cancel"));
    m_cancel->setToolTip(tr("Stop loading (Esc)"));
    m_cancel->hide();
    connect(m_cancel, &QToolButton::clicked, m_session, &StudioSession::cancel);
    statusBar()->addWidget(m_status, 1);
    statusBar()->addPermanentWidget(m_progress);
    statusBar()->addPermanentWidget(m_cancel);
    m_status->setText(tr("Open a dump folder, a problem/bench pair, a vis.db or a compare CSV (File menu, or drop it here)."));

    resize(initialSize());
    // The compare table takes about a third of the height, the graphs the rest.
    resizeDocks({ m_compareDock }, { std::max(160, height() / 3) }, Qt::Vertical);
    m_defaultState = saveState(kLayoutVersion);
    QSettings settings;
    restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray());
    restoreState(settings.value(QStringLiteral("window/state")).toByteArray(), kLayoutVersion);
    updateActions();
}

// 1400x900 where the screen has room, otherwise what it has less a margin for the panel and the title bar.
QSize MainWindow::initialSize() const
{
    const QScreen* screen = this->screen() ? this->screen() : QGuiApplication::primaryScreen();
    if (!screen)
        return { 1400, 900 };
    const QRect available = screen->availableGeometry();
    return QSize(1400, 900).boundedTo(QSize(available.width() - 16, available.height() - 48));
}

MainWindow::~MainWindow()
{
    m_session->cancel();
    m_session->waitForIdle();
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("window/state"), saveState(kLayoutVersion));
    QMainWindow::closeEvent(event);
}

QDockWidget* MainWindow::addDock(QWidget* widget, const QString& title, const QString& objectName, Qt::DockWidgetArea area)
{
    auto* dock = new QDockWidget(title, this);
    dock->setObjectName(objectName);
    // A panel smaller than its contents scrolls instead of pushing the window past the screen.
    auto* scroll = new QScrollArea(dock);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidgetResizable(true);
    scroll->setWidget(widget);
    dock->setWidget(scroll);
    addDockWidget(area, dock);
    return dock;
}

void MainWindow::buildViews()
{
#if MSPROBE_HAVE_GRAPH_VIEW
    m_graphView = new GraphDiffView(this);
    m_graphView->setStudioFocus(m_focus);
    setCentralWidget(m_graphView);
    m_nodeList = new NodeListPanel(this);
    m_nodeList->setStudioFocus(m_focus);
    QDockWidget* left = addDock(m_nodeList, tr("Search and filter"), QStringLiteral("nodeListDock"), Qt::LeftDockWidgetArea);
#else
    setCentralWidget(placeholder(tr("Graph diff view: not part of this build."), this));
    QDockWidget* left = addDock(placeholder(tr("Node search and filters: not part of this build."), this), tr("Search and filter"),
        QStringLiteral("nodeListDock"), Qt::LeftDockWidgetArea);
#endif

#if MSPROBE_HAVE_MATCHING
    m_matcher = new MatchController(this);
    m_matchPanel = new NodeMatchPanel(m_matcher, this);
    m_matchPanel->setStudioFocus(m_focus);
    QDockWidget* matchDock = addDock(m_matchPanel, tr("Node matching"), QStringLiteral("matchDock"), Qt::LeftDockWidgetArea);
#else
    QDockWidget* matchDock = addDock(placeholder(tr("Node matching: not part of this build."), this), tr("Node matching"),
        QStringLiteral("matchDock"), Qt::LeftDockWidgetArea);
#endif
    tabifyDockWidget(left, matchDock);

    m_summaryModel = new DumpSummaryModel(this);
    m_summaryTree = new QTreeView(this);
    m_summaryTree->setModel(m_summaryModel);
    m_summaryTree->setUniformRowHeights(true);
    m_summaryTree->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_summaryDock = addDock(m_summaryTree, tr("Dump summary"), QStringLiteral("summaryDock"), Qt::LeftDockWidgetArea);
    tabifyDockWidget(left, m_summaryDock);
    left->raise();

    m_compareView = new CompareTableView(this);
    m_compareView->setStudioFocus(m_focus);
    m_compareDock = addDock(m_compareView, tr("Compare table"), QStringLiteral("compareDock"), Qt::BottomDockWidgetArea);
#if MSPROBE_HAVE_DETAILS
    m_details = new NodeDetailsPanel(this);
    m_details->setStudioFocus(m_focus);
    QDockWidget* detailsDock = addDock(m_details, tr("Node details"), QStringLiteral("detailsDock"), Qt::BottomDockWidgetArea);
#else
    QDockWidget* detailsDock = addDock(placeholder(tr("Node details: not part of this build."), this), tr("Node details"),
        QStringLiteral("detailsDock"), Qt::BottomDockWidgetArea);
#endif
    tabifyDockWidget(m_compareDock, detailsDock);
    m_compareDock->raise();
    resizeDocks({ left }, { 330 }, Qt::Horizontal);
    resizeDocks({ m_compareDock }, { 300 }, Qt::Vertical);

#if MSPROBE_HAVE_MATCHING
    connect(m_matcher, &MatchController::failed, this, [this](const QString& message) { showError(tr("Matching failed"), message); });
    connect(m_matcher, &MatchController::nodesChanged, this, [this](const QStringList& names) {
#if MSPROBE_HAVE_GRAPH_VIEW
        m_graphView->refreshNodes(names);
        m_nodeList->refresh();
#endif
#if MSPROBE_HAVE_DETAILS
        m_details->refreshNodes(names);
#endif
        m_matchPanel->refresh();
        Q_UNUSED(names);
    });
#if MSPROBE_HAVE_GRAPH_VIEW
    connect(m_graphView, &GraphDiffView::nodeDropped, m_matcher, [this](const QString& problem, const QString& bench) { m_matcher->match(problem, bench); });
    connect(m_graphView, &GraphDiffView::unmatchRequested, m_matcher, [this](const QString& problem) { m_matcher->unmatch(problem); });
#endif
#endif
}

void MainWindow::buildMenus()
{
    QMenu* file = menuBar()->addMenu(tr("&File"));
    QAction* openFolder = file->addAction(tr("Open &dump folder…"), QKeySequence::Open, this, &MainWindow::chooseFolder);
    QAction* openPair = file->addAction(tr("Open problem/bench &pair…"), QKeySequence(tr("Ctrl+Shift+O")), this, &MainWindow::choosePair);
    QAction* openDb = file->addAction(tr("Open &vis.db…"), QKeySequence(tr("Ctrl+Shift+D")), this,
        [this] { chooseFile(tr("Open vis.db"), tr("Graph databases (*.vis.db *.db);;All files (*)")); });
    QAction* openCsv = file->addAction(tr("Open compare &CSV…"), QKeySequence(tr("Ctrl+Shift+C")), this,
        [this] { chooseFile(tr("Open compare result"), tr("Compare results (*.csv);;All files (*)")); });
    m_recent = new RecentFiles(file->addMenu(tr("Open &recent")), this);
    connect(m_recent, &RecentFiles::chosen, this, &MainWindow::openPaths);
    file->addSeparator();
    QMenu* exportMenu = file->addMenu(tr("&Export"));
    m_exportActions << exportMenu->addAction(tr("Comparison as &CSV…"), QKeySequence(tr("Ctrl+E")), this,
        [this] { exportDialog(reportexport::Format::Csv); });
    m_exportActions << exportMenu->addAction(tr("Comparison as &XLSX…"), this, [this] { exportDialog(reportexport::Format::Xlsx); });
    m_exportActions << exportMenu->addAction(tr("&HTML report…"), this, [this] { exportDialog(reportexport::Format::Html); });
    exportMenu->addSeparator();
    m_imageActions << exportMenu->addAction(tr("Graph as &PNG or SVG…"), QKeySequence(tr("Ctrl+Shift+E")), this, &MainWindow::exportImageDialog);
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);

    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
#if MSPROBE_HAVE_MATCHING
    QAction* undo = m_matcher->undoStack()->createUndoAction(this, tr("&Undo"));
    undo->setShortcut(QKeySequence::Undo);
    QAction* redo = m_matcher->undoStack()->createRedoAction(this, tr("&Redo"));
    redo->setShortcut(QKeySequence::Redo);
    edit->addAction(undo);
    edit->addAction(redo);
    edit->addSeparator();
#endif
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
#if MSPROBE_HAVE_GRAPH_VIEW
    navigate->addSeparator();
    QAction* divergence = navigate->addAction(tr("Go to first &divergence"), QKeySequence(tr("F3")), this, &MainWindow::goToFirstDivergence);
    connect(m_graphView, &GraphDiffView::firstDivergenceRequested, this, &MainWindow::goToFirstDivergence);
    divergence->setIconText(tr("First divergence"));
    m_graphActions << divergence;
    tools->addSeparator();
    tools->addAction(divergence);
#endif
    QAction* cancel = new QAction(tr("Cancel loading"), this);
    cancel->setShortcut(QKeySequence(Qt::Key_Escape));
    connect(cancel, &QAction::triggered, m_session, &StudioSession::cancel);
    addAction(cancel);

    m_viewMenu = menuBar()->addMenu(tr("&View"));
    for (QDockWidget* dock : findChildren<QDockWidget*>())
        m_viewMenu->addAction(dock->toggleViewAction());
    m_viewMenu->addAction(tools->toggleViewAction());
    m_viewMenu->addSeparator();
    QAction* dark = m_viewMenu->addAction(tr("&Dark theme"));
    dark->setCheckable(true);
    dark->setChecked(appearance::darkTheme());
    dark->setShortcut(QKeySequence(tr("Ctrl+Shift+T")));
    connect(dark, &QAction::toggled, this, [](bool on) { appearance::setDarkTheme(on); });
    QMenu* language = m_viewMenu->addMenu(tr("&Language"));
    auto* languages = new QActionGroup(this);
    const QString current = appearance::language();
    for (const auto& [code, name] : { std::pair { QString(), tr("System default") }, std::pair { QStringLiteral("en"), QStringLiteral("English") },
             std::pair { QStringLiteral("zh_CN"), QStringLiteral("中文 (简体)") } }) {
        QAction* action = language->addAction(name);
        action->setCheckable(true);
        action->setChecked(code == current);
        languages->addAction(action);
        connect(action, &QAction::triggered, this, [this, code] {
            appearance::setLanguage(code);
            statusBar()->showMessage(tr("The language changes the next time msprobe studio starts."), 8000);
        });
    }
    m_viewMenu->addSeparator();
    m_viewMenu->addAction(tr("&Reset layout"), this, [this] { restoreState(m_defaultState, kLayoutVersion); });

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&Keyboard shortcuts"), QKeySequence::HelpContents, this, &MainWindow::showShortcuts);
    help->addAction(tr("&About msprobe studio"), this, [this] {
        QMessageBox::about(this, tr("About msprobe studio"),
            tr("<b>msprobe studio %1</b><br>Numerical-accuracy workstation for msprobe dumps: graph diff, compare table, "
               "node matching and reports.")
                .arg(QApplication::applicationVersion()));
    });
}

void MainWindow::wireSession()
{
    connect(m_session, &StudioSession::loadStarted, this, &MainWindow::loadStarted);
    connect(m_session, &StudioSession::progress, this, &MainWindow::loadProgress);
    connect(m_session, &StudioSession::loadFinished, this, &MainWindow::loadFinished);
    connect(m_session, &StudioSession::warning, this, [this](const QString& message) { statusBar()->showMessage(message, 15000); });
    connect(m_session, &StudioSession::summaryChanged, this, [this] {
        m_summaryModel->setSummary(m_session->summary());
        m_summaryTree->expandAll();
        if (m_session->summary()) {
            m_summaryDock->show();
            m_summaryDock->raise();
        }
    });
    auto refreshChoices = [this] {
        const auto steps = m_session->steps(), ranks = m_session->ranks();
        if (!steps.empty() && !ranks.empty()) {
            const bool known = std::find(steps.begin(), steps.end(), m_focus->step()) != steps.end()
                && std::find(ranks.begin(), ranks.end(), m_focus->rank()) != ranks.end();
            if (!known)
                m_focus->setGraph(steps.front(), ranks.front());
        }
        m_switcher->setChoices(steps, ranks, m_session->config().microSteps);
        showFocusedGraph();
        updateActions();
    };
    connect(m_session, &StudioSession::graphsChanged, this, refreshChoices);
    connect(m_session, &StudioSession::compareChanged, this, refreshChoices);
    connect(m_focus, &StudioFocus::graphChanged, this, &MainWindow::showFocusedGraph);
}

void MainWindow::showFocusedGraph()
{
    const int step = m_focus->step(), rank = m_focus->rank();
    const StudioSession::GraphPair pair = m_session->graphs(step, rank);
    m_compareView->setNodeResolver([session = m_session, shown = pair.problem](int rowStep, int rowRank, const QString& item) {
        const auto graph = rowStep < 0 ? shown : session->graphs(rowStep, rowRank).problem;
        return graph ? nodeOwningItem(*graph, item) : QString();
    });
    m_compareView->setAllRows(m_session->allCompareRows());
    m_compareView->setRows(m_session->compareRows(step, rank));
#if MSPROBE_HAVE_MATCHING
    m_matcher->close();
    if (pair.problem && pair.bench && m_session->config().isCompare())
        m_matcher->open(m_session->visDbPath(), step, rank, pair.problem, pair.bench);
    m_matchPanel->refresh();
#endif
    const auto provider = [this, step, rank](StudioFocus::Side side, const std::string& name) -> std::pair<std::string, std::string> {
#if MSPROBE_HAVE_MATCHING
        if (m_matcher->isOpen())
            return m_matcher->nodeData(side, name);
#endif
        const auto db = m_session->visDb();
        if (!db)
            return {};
        try {
            return db->nodeData(step, rank, side == StudioFocus::Side::Bench ? "Bench" : "NPU", name);
        } catch (const std::exception&) {
            return {};
        }
    };
#if MSPROBE_HAVE_GRAPH_VIEW
    m_graphView->setNodeDataProvider(provider);
    m_graphView->setGraphs(pair.problem, pair.bench, m_session->config());
    m_nodeList->setGraphs(pair.problem, pair.bench, m_session->config());
#endif
#if MSPROBE_HAVE_DETAILS
    m_details->setDataProvider(provider);
    m_details->setGraphs(pair.problem, pair.bench, m_session->visDb());
#endif
    Q_UNUSED(provider);
}

void MainWindow::openPaths(const QStringList& paths)
{
    QString error;
    const LoadRequest request = LoadRequest::forPaths(paths, &error);
    if (!error.isEmpty()) {
        showError(tr("Cannot open"), error);
        QMetaObject::invokeMethod(this, &MainWindow::idle, Qt::QueuedConnection);
        return;
    }
    openRequest(request);
}

void MainWindow::openRequest(const LoadRequest& request)
{
    m_loadingPaths = request.kind == LoadRequest::Kind::Pair ? QStringList { request.path, request.bench } : QStringList { request.path };
    m_session->open(request);
}

void MainWindow::loadStarted(const QString& description)
{
    m_loadClock.start();
    m_status->setText(tr("Loading %1…").arg(description));
    m_progress->setValue(0);
    m_progress->setFormat(QStringLiteral("%p%"));
    m_progress->show();
    m_cancel->show();
    updateActions();
}

void MainWindow::loadProgress(int percent, const QString& stage)
{
    m_progress->setValue(percent);
    const qint64 elapsed = m_loadClock.elapsed();
    if (percent >= 5 && percent < 100 && elapsed > 500) {
        const qint64 left = elapsed * (100 - percent) / percent / 1000;
        m_progress->setFormat(tr("%p% — about %1 s left").arg(left));
    }
    m_progress->setToolTip(stage);
    m_status->setText(tr("Loading: %1").arg(stage));
}

void MainWindow::loadFinished(bool ok, const QString& message)
{
    m_progress->hide();
    m_cancel->hide();
    const QString what = m_loadingPaths.join(tr(" vs "));
    if (ok) {
        m_recent->add(m_loadingPaths);
        setWindowTitle(tr("%1 — msprobe studio").arg(what));
        QString text = tr("Opened %1 in %2 s.").arg(what).arg(m_loadClock.elapsed() / 1000.0, 0, 'f', 1);
        if (!m_session->warnings().isEmpty())
            text += QLatin1Char(' ') + m_session->warnings().join(QLatin1Char(' '));
        m_status->setText(text);
        m_status->setToolTip(m_session->warnings().join(QLatin1Char('\n')));
    } else if (message.isEmpty()) {
        m_status->setText(tr("Loading cancelled."));
    } else {
        m_status->setText(tr("Could not open %1").arg(what));
        showError(tr("Could not open %1").arg(what), message);
    }
    updateActions();
    emit idle();
}

void MainWindow::showError(const QString& title, const QString& message)
{
    // Window-modal but not blocking, so a load or a test can go on behind it.
    auto* box = new QMessageBox(QMessageBox::Warning, title, message, QMessageBox::Close, this);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setTextInteractionFlags(Qt::TextSelectableByMouse);
    box->open();
}

void MainWindow::updateActions()
{
    const bool idleNow = !m_session->isLoading();
    const bool exportable = idleNow && reportexport::canExport(*m_session);
    for (QAction* action : m_exportActions)
        action->setEnabled(exportable);
    for (QAction* action : m_imageActions)
        action->setEnabled(idleNow && m_graphView && !m_session->graphs().empty());
    for (QAction* action : m_graphActions)
        action->setEnabled(idleNow && !m_session->graphs().empty());
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

QString MainWindow::exportComparison(reportexport::Format format, const QString& file)
{
    return reportexport::exportComparison(*m_session, m_focus->step(), m_focus->rank(), format, file);
}

QString MainWindow::exportGraphImage(const QString& file)
{
#if MSPROBE_HAVE_GRAPH_VIEW
    return m_graphView->exportImage(file) ? QString() : m_graphView->errorString();
#else
    Q_UNUSED(file);
    return tr("The graph view is not part of this build.");
#endif
}

void MainWindow::exportDialog(reportexport::Format format)
{
    const QString filter = format == reportexport::Format::Csv ? tr("CSV (*.csv)")
        : format == reportexport::Format::Xlsx                 ? tr("Excel workbook (*.xlsx)")
                                                               : tr("HTML report (*.html)");
    const QString suffix = format == reportexport::Format::Csv ? QStringLiteral(".csv")
        : format == reportexport::Format::Xlsx                 ? QStringLiteral(".xlsx")
                                                               : QStringLiteral(".html");
    QString file = QFileDialog::getSaveFileName(this, tr("Export"), QStringLiteral("compare_result") + suffix, filter);
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
    const QString file = QFileDialog::getSaveFileName(this, tr("Export graph"), QStringLiteral("graph.png"),
        tr("PNG image (*.png);;SVG drawing (*.svg)"));
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
    openPaths(paths.mid(0, 2));
}

// One verdict: the core's first-divergence rule on the pair's compare table, as `msprobe compare` prints it.
// Without a compare table (a vis.db or a build graph alone) the graph's first error-level node is shown, and the
// status bar says which rule answered.
void MainWindow::goToFirstDivergence()
{
#if MSPROBE_HAVE_GRAPH_VIEW
    const int step = m_focus->step(), rank = m_focus->rank();
    if (const auto point = m_session->firstDivergence(step, rank)) {
        const auto graph = m_session->graphs(step, rank).problem;
        const QString entry = QString::fromStdString(point->entry);
        const QString node = graph ? nodeOwningItem(*graph, entry) : QString();
        if (!node.isEmpty())
            m_focus->setNode(node, StudioFocus::Side::Problem);
        statusBar()->showMessage(tr("First divergence: %1 — %2").arg(entry, QString::fromStdString(point->reason)), 15000);
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
#endif
}
