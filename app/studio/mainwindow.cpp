// SPDX-License-Identifier: Apache-2.0
// The window's parts and how they follow the session: docks, the centre (verdict bar, graphs or why there are
// none, welcome page), loading state. Menus, dialogs and exports: mainwindow_actions.cpp.
#include "mainwindow.h"

#include "comparetableview.h"
#include "dumpsummarymodel.h"
#include "graphswitcher.h"
#include "optionalviews.h"
#include "recentfiles.h"
#include "verdictbar.h"
#include "welcomepage.h"

#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QProgressBar>
#include <QScreen>
#include <QScrollArea>
#include <QSettings>
#include <QStackedWidget>
#include <QStatusBar>
#include <QToolButton>
#include <QTreeView>
#include <QVBoxLayout>

#include <algorithm>

namespace {

constexpr int kLayoutVersion = 1;

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
    wireMatching();

    m_progress->setRange(0, 100);
    m_progress->setMaximumWidth(240);
    m_progress->setTextVisible(true);
    m_progress->hide();
    m_cancel->setText(tr("Cancel"));
    m_cancel->setToolTip(tr("Stop loading (Esc)"));
    m_cancel->hide();
    connect(m_cancel, &QToolButton::clicked, m_session, &StudioSession::cancel);
    m_status->setObjectName(QStringLiteral("status"));
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
    m_welcome->setRecent(m_recent->entries());
    updateCentre();
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
    m_matcher->close(); // before the session's matching handle goes
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("window/state"), saveState(kLayoutVersion));
    QMainWindow::closeEvent(event);
}

void MainWindow::resetLayout() { restoreState(m_defaultState, kLayoutVersion); }

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

void MainWindow::buildCentre()
{
    auto* centre = new QWidget(this);
    auto* layout = new QVBoxLayout(centre);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    m_verdict = new VerdictBar(centre);
    connect(m_verdict, &VerdictBar::entryActivated, this, &MainWindow::selectVerdictEntry);
    m_pages = new QStackedWidget(centre);
    m_graphView = new GraphDiffView(m_pages);
    m_graphView->setStudioFocus(m_focus);
    m_noGraph = new QLabel(m_pages);
    m_noGraph->setObjectName(QStringLiteral("noGraph"));
    m_noGraph->setAlignment(Qt::AlignCenter);
    m_noGraph->setWordWrap(true);
    m_noGraph->setMargin(24);
    m_noGraph->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_noGraph->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Ignored);
    m_welcome = new WelcomePage(m_pages);
    m_pages->addWidget(m_graphView);
    m_pages->addWidget(m_noGraph);
    m_pages->addWidget(m_welcome);
    layout->addWidget(m_verdict);
    layout->addWidget(m_pages, 1);
    setCentralWidget(centre);
    connect(m_welcome, &WelcomePage::openFolderRequested, this, &MainWindow::chooseFolder);
    connect(m_welcome, &WelcomePage::openPairRequested, this, &MainWindow::choosePair);
    connect(m_welcome, &WelcomePage::openPathsRequested, this, &MainWindow::openPaths);
}

void MainWindow::buildViews()
{
    buildCentre();
    m_nodeList = new NodeListPanel(this);
    m_nodeList->setStudioFocus(m_focus);
    connect(m_nodeList, &NodeListPanel::searchChanged, m_graphView, &GraphDiffView::setSearchHighlight);
    QDockWidget* left = addDock(m_nodeList, tr("Search and filter"), QStringLiteral("nodeListDock"), Qt::LeftDockWidgetArea);

    m_matcher = new MatchController(m_session, this);
    m_matchPanel = new NodeMatchPanel(m_matcher, this);
    m_matchPanel->setStudioFocus(m_focus);
    QDockWidget* matchDock = addDock(m_matchPanel, tr("Node matching"), QStringLiteral("matchDock"), Qt::LeftDockWidgetArea);
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
    m_details = new NodeDetailsPanel(this);
    m_details->setStudioFocus(m_focus);
    QDockWidget* detailsDock = addDock(m_details, tr("Node details"), QStringLiteral("detailsDock"), Qt::BottomDockWidgetArea);
    tabifyDockWidget(m_compareDock, detailsDock);
    m_compareDock->raise();
    resizeDocks({ left }, { 330 }, Qt::Horizontal);
    resizeDocks({ m_compareDock }, { 300 }, Qt::Vertical);
    buildParallelPanel();
    buildTrendPanel();
}

void MainWindow::wireMatching()
{
    connect(m_matcher, &MatchController::failed, this, [this](const QString& message) { showError(tr("Matching failed"), message); });
    connect(m_matcher, &MatchController::nodesChanged, this, [this](const QStringList& names) {
        m_graphView->refreshNodes(names);
        m_nodeList->refresh();
        m_details->refreshNodes(names);
        m_matchPanel->refresh();
    });
    connect(m_graphView, &GraphDiffView::nodeDropped, m_matcher, [this](const QString& problem, const QString& bench) { m_matcher->match(problem, bench); });
    connect(m_graphView, &GraphDiffView::unmatchRequested, m_matcher, [this](const QString& problem) { m_matcher->unmatch(problem); });
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
        // A single dump shows its summary first; a pair keeps the search panel in front.
        if (m_session->summary() && m_session->request().kind == msprobe::studio::LoadRequest::Kind::DumpFolder) {
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
        return graph ? msprobe::studio::nodeOwningItem(*graph, item) : QString();
    });
    m_compareView->setAllRows(m_session->allCompareRows());
    m_compareView->setRows(m_session->compareRows(step, rank));
    m_matcher->close();
    if (pair.problem && pair.bench && m_session->config().isCompare())
        m_matcher->open(step, rank);
    m_matchPanel->refresh();
    // Node data comes from the session: its matching handle when it holds this pair (rows as just written),
    // else its vis.db.
    const auto provider = [session = m_session, step, rank](StudioFocus::Side side, const std::string& name) {
        return session->nodeData(step, rank, side, name);
    };
    m_graphView->setNodeDataProvider(provider);
    m_graphView->setMagnitudeProvider([session = m_session, step, rank] { return session->errorMagnitudes(step, rank); });
    m_graphView->setGraphs(pair.problem, pair.bench, m_session->config());
    m_nodeList->setGraphs(pair.problem, pair.bench, m_session->config());
    m_details->setDataProvider(provider);
    m_details->setGraphs(pair.problem, pair.bench, m_session->visDb());
    updateCentre();
}

MainWindow::CentralPage MainWindow::centralPage() const
{
    if (m_pages->currentWidget() == m_graphView)
        return CentralPage::Graphs;
    return m_pages->currentWidget() == m_noGraph ? CentralPage::NoGraph : CentralPage::Welcome;
}

QString MainWindow::noGraphText() const { return m_noGraph->text(); }

void MainWindow::updateCentre()
{
    const int step = m_focus->step(), rank = m_focus->rank();
    if (const msprobe::compare::PairOutcome* verdict = m_session->verdict(step, rank)) {
        const QString entry = verdict->firstDivergence ? QString::fromStdString(verdict->firstDivergence->entry) : QString();
        const QString counts = tr("Step %1, rank %2: %3 rows: %4 pass, %5 warning, %6 error")
                                   .arg(step)
                                   .arg(rank)
                                   .arg(verdict->rows)
                                   .arg(verdict->pass)
                                   .arg(verdict->warning)
                                   .arg(verdict->error);
        m_verdict->setVerdict(msprobe::studio::verdictText(*verdict), entry, entry.isEmpty() ? VerdictBar::Level::Pass : VerdictBar::Level::Diverged, counts);
    } else {
        m_verdict->setVerdict(QString(), QString(), VerdictBar::Level::None);
    }

    const bool nothingOpen = m_session->graphs().empty() && m_session->compareResults().empty() && !m_session->summary();
    if (nothingOpen) {
        m_pages->setCurrentWidget(m_session->isLoading() ? static_cast<QWidget*>(m_noGraph) : m_welcome);
        m_noGraph->setText(m_session->isLoading() ? tr("Loading…") : QString());
        return;
    }
    if (m_session->graphs(step, rank).problem) {
        m_pages->setCurrentWidget(m_graphView);
        return;
    }
    QString text;
    if (!m_session->graphUnavailable().isEmpty())
        text = tr("No graph: the model graph needs an L0 or mix dump (its construct.json holds the module structure); "
                  "an L1 dump has the compare table and the verdict only.\n\n%1")
                   .arg(m_session->graphUnavailable());
    else if (m_session->request().kind == msprobe::studio::LoadRequest::Kind::CompareCsv)
        text = tr("A compare CSV has no graph. Open the dump folders (a problem/bench pair) to see the graphs and the verdict.");
    else if (m_session->isLoading())
        text = tr("Loading…");
    else if (!m_session->graphs().empty())
        text = tr("No graph for step %1, rank %2.").arg(step).arg(rank);
    else
        text = tr("No graph for what is open.");
    m_noGraph->setText(text);
    m_pages->setCurrentWidget(m_noGraph);
}

void MainWindow::openPaths(const QStringList& paths)
{
    QString error;
    const msprobe::studio::LoadRequest request = msprobe::studio::LoadRequest::forPaths(paths, &error);
    if (!error.isEmpty()) {
        showError(tr("Cannot open"), error);
        QMetaObject::invokeMethod(this, &MainWindow::idle, Qt::QueuedConnection);
        return;
    }
    openRequest(request);
}

void MainWindow::openRequest(const msprobe::studio::LoadRequest& request)
{
    m_loadingPaths = request.kind == msprobe::studio::LoadRequest::Kind::Pair ? QStringList { request.path, request.bench } : QStringList { request.path };
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
    updateCentre();
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
        if (m_remembersRecent) {
            m_recent->add(m_loadingPaths);
            m_welcome->setRecent(m_recent->entries());
        }
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
    updateCentre();
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
    const bool exportable = idleNow && msprobe::studio::reportexport::canExport(*m_session);
    for (QAction* action : m_exportActions)
        action->setEnabled(exportable);
    for (QAction* action : m_imageActions)
        action->setEnabled(idleNow && !m_session->graphs().empty());
    for (QAction* action : m_graphActions)
        action->setEnabled(idleNow && (!m_session->graphs().empty() || !m_session->verdicts().empty()));
}
