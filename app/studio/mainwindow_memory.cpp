// SPDX-License-Identifier: Apache-2.0
// The memory dock: File > Open memory dump loads a msMemScope dump through MemorySession (worker thread,
// progress dialog with cancel, core's error message on failure) and shows it in the memory panel; File >
// Compare with memory dump loads a second one for the compare tab. The timeline follows the studio's one
// selection: a range selected in it selects every graph node calling its operators (the first is focused), and a
// focused node or step shows its time span in it.
#include "mainwindow.h"

#include "memory/memorypanel.h"
#include "memory/memorytimelineview.h"
#include "memorylinks.h"
#include "memorysession.h"
#include "optionalviews.h"
#if MSPROBE_HAVE_GRAPH_VIEW
#include "graph/graphsideview.h"
#endif
#include "studiofocus.h"

#include <QDockWidget>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMenu>
#include <QMessageBox>
#include <QProgressDialog>
#include <QRegularExpression>
#include <QSettings>

void MainWindow::chooseMemoryDump()
{
    const QString file = QFileDialog::getOpenFileName(this, tr("Open memory dump"), QString(),
        tr("Memory traces: msMemScope dumps, PyTorch snapshots (*.csv *.db *.pickle *.pkl);;All files (*)"));
    if (!file.isEmpty())
        openMemoryDump(file);
}

void MainWindow::chooseComparedMemoryDump()
{
    const QString file = QFileDialog::getOpenFileName(this, tr("Compare with memory dump"), QString(),
        tr("Memory traces: msMemScope dumps, PyTorch snapshots (*.csv *.db *.pickle *.pkl);;All files (*)"));
    if (!file.isEmpty())
        openComparedMemoryDump(file);
}

void MainWindow::openMemoryDump(const QString& file) { loadMemoryDump(file, false); }

void MainWindow::openComparedMemoryDump(const QString& file) { loadMemoryDump(file, true); }

void MainWindow::buildMemoryDock()
{
    m_memorySession = new MemorySession(this);
    m_memoryPanel = new MemoryPanel;
    m_memoryDock = new QDockWidget(tr("Memory timeline"), this);
    m_memoryDock->setObjectName(QStringLiteral("memoryDock"));
    m_memoryDock->setWidget(m_memoryPanel);
    addDockWidget(Qt::BottomDockWidgetArea, m_memoryDock);
    if (m_compareDock)
        tabifyDockWidget(m_compareDock, m_memoryDock);
    if (m_viewMenu)
        m_viewMenu->addAction(m_memoryDock->toggleViewAction());
    connect(m_memorySession, &MemorySession::documentChanged, this, [this] {
        m_memoryPanel->setDocuments(m_memorySession->document(), m_memorySession->document(MemorySession::Slot::Compared));
    });
    connect(m_memoryPanel->timeline(), &MemoryTimelineView::rangeSelected, this, &MainWindow::linkMemoryRangeToGraph);
    // The stacking chosen last (blocks in place, or sliding down as memory_viz draws them) is kept.
    if (QSettings().value(QStringLiteral("memoryStacking")).toString() == QLatin1String("sliding"))
        m_memoryPanel->timeline()->setLayout(MemoryTimelineView::Layout::Sliding);
    connect(m_memoryPanel->timeline(), &MemoryTimelineView::layoutChanged, this, [](MemoryTimelineView::Layout layout) {
        QSettings().setValue(QStringLiteral("memoryStacking"),
            layout == MemoryTimelineView::Layout::Sliding ? QStringLiteral("sliding") : QStringLiteral("packed"));
    });
    connect(m_focus, &StudioFocus::nodeChanged, this, [this] {
        if (!m_memoryLinking)
            showFocusInMemory();
    });
    connect(m_focus, &StudioFocus::graphChanged, this, &MainWindow::showFocusInMemory);
}

void MainWindow::loadMemoryDump(const QString& file, bool compared)
{
    if (!m_memorySession)
        buildMemoryDock();
    auto* progress = new QProgressDialog(tr("Opening %1…").arg(QFileInfo(file).fileName()), tr("Cancel"), 0, 100, this);
    progress->setWindowModality(Qt::WindowModal);
    progress->setMinimumDuration(300);
    progress->setAttribute(Qt::WA_DeleteOnClose);
    const auto slot = compared ? MemorySession::Slot::Compared : MemorySession::Slot::Primary;
    connect(progress, &QProgressDialog::canceled, m_memorySession, [this, slot] { m_memorySession->cancel(slot); });
    connect(m_memorySession, &MemorySession::progress, progress, [progress](int percent, const QString& stage) {
        progress->setValue(percent);
        progress->setLabelText(stage);
    });
    connect(m_memorySession, &MemorySession::loadFinished, progress, [this, progress, file, compared](bool ok, const QString& message, MemorySession::Slot finished) {
        if ((finished == MemorySession::Slot::Compared) != compared)
            return;
        // Closing a progress dialog emits canceled: it must not cancel the other slot's load, nor this one's.
        QObject::disconnect(progress, &QProgressDialog::canceled, nullptr, nullptr);
        progress->close();
        if (ok) {
            m_memoryDock->show();
            m_memoryDock->raise();
            if (compared)
                m_memoryPanel->showComparison();
            // The timeline needs height to read: give the dock most of the window the first time it shows.
            if (!m_memoryDockSized) {
                resizeDocks({ m_memoryDock }, { height() * 3 / 5 }, Qt::Vertical);
                m_memoryDockSized = true;
            }
        } else if (!message.isEmpty()) {
            // Also in the status line: the error box is a window of its own (and not in a --screenshot picture).
            m_status->setText(tr("Cannot open %1").arg(QFileInfo(file).fileName()) + QStringLiteral(": ") + message);
            showError(tr("Cannot open %1").arg(QFileInfo(file).fileName()), message);
        }
    });
    m_memorySession->open(file, slot);
}

void MainWindow::linkMemoryRangeToGraph(qint64 beginTs, qint64 endTs)
{
    const auto document = m_memorySession->document();
    if (!document)
        return;
    const auto operators = msprobe::studio::operatorsInRange(document->timeline, beginTs, endTs);
#if MSPROBE_HAVE_GRAPH_VIEW
    GraphSideView* side = m_graphView ? m_graphView->sideView(StudioFocus::Side::Problem) : nullptr;
    const msprobe::graph::VisGraph* graph = side ? side->graph() : nullptr;
#else
    const msprobe::graph::VisGraph* graph = nullptr;
#endif
    if (!graph) {
        m_status->setText(tr("%n operator(s) in the selected range", nullptr, static_cast<int>(operators.size())));
        return;
    }
    std::vector<std::string> names;
    names.reserve(graph->nodes.size());
    for (const auto& node : graph->nodes)
        names.push_back(node.name);
    const auto nodes = msprobe::studio::nodesOfOperators(document->timeline, operators, names);
    m_status->setText(tr("%n operator(s) in the selected range; %1 graph node(s) call them", nullptr, static_cast<int>(operators.size()))
                          .arg(nodes.size()));
    if (nodes.empty())
        return;
    QStringList selected;
    for (const auto& node : nodes)
        selected << QString::fromStdString(node);
    m_memoryLinking = true;
    m_focus->setNodes(selected, StudioFocus::Side::Problem);
    m_memoryLinking = false;
#if MSPROBE_HAVE_GRAPH_VIEW
    // The graph shows the selected nodes the way it shows search hits (the focused one is also centred).
    QStringList exact;
    for (const auto& name : selected)
        exact << QRegularExpression::escape(name);
    m_graphView->setSearchHighlight(QStringLiteral("^(%1)$").arg(exact.join(QLatin1Char('|'))), true);
#endif
}

void MainWindow::showFocusInMemory()
{
    if (!m_memorySession || !m_memorySession->document())
        return;
    const auto& timeline = m_memorySession->document()->timeline;
    const msprobe::studio::TimelineSpan* step = msprobe::studio::spanOfGraphStep(timeline, m_focus->step());
    if (!m_focus->node().isEmpty()) {
        if (const auto span = msprobe::studio::spanOfNode(timeline, m_focus->node().toStdString(), step)) {
            m_memoryPanel->timeline()->showSpan(span->startNs, span->endNs);
            return;
        }
    }
    if (step)
        m_memoryPanel->timeline()->showSpan(step->startNs, step->endNs);
}

QString MainWindow::exportMemoryCsv(const QString& file)
{
    if (!m_memoryPanel)
        return tr("No memory dump is open");
    const QString text = m_memoryPanel->csv();
    if (text.isEmpty())
        return tr("The memory panel has nothing to export");
    QFile out(file);
    if (!out.open(QIODevice::WriteOnly | QIODevice::Truncate) || out.write(text.toUtf8()) < 0)
        return tr("Cannot write %1: %2").arg(file, out.errorString());
    return {};
}

void MainWindow::exportMemoryCsvDialog()
{
    const QString file = saveFileName(tr("Export memory panel as CSV"), QStringLiteral("memory.csv"), tr("CSV files (*.csv)"));
    if (file.isEmpty())
        return;
    if (const QString error = exportMemoryCsv(file); !error.isEmpty())
        showError(tr("Export failed"), error);
}
