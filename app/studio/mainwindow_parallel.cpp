// SPDX-License-Identifier: Apache-2.0
// The parallelism panel's place in the window: a dock beside the compare table, fed by the session (available
// ranks, worst compare Result per rank of the focused step) and following the one focus.
#include "mainwindow.h"

#include "parallel/parallelpanel.h"
#include "parallel/parallelview.h"
#include "parallelsetup.h"

#include <QDockWidget>
#include <QStatusBar>

void MainWindow::buildParallelPanel()
{
    m_parallelSetup = new ParallelSetup(m_session, this);
    m_parallelPanel = new ParallelPanel(m_parallelSetup, this);
    m_parallelPanel->setStudioFocus(m_focus);
    // Not through addDock: the grid zooms and pans itself, a scroll area around it would fight the wheel.
    m_parallelDock = new QDockWidget(tr("Parallelism"), this);
    m_parallelDock->setObjectName(QStringLiteral("parallelDock"));
    m_parallelDock->setWidget(m_parallelPanel);
    addDockWidget(Qt::BottomDockWidgetArea, m_parallelDock);
    tabifyDockWidget(m_compareDock, m_parallelDock);
    m_compareDock->raise();
    connect(m_session, &StudioSession::graphsChanged, this, &MainWindow::updateParallelPanel);
    connect(m_session, &StudioSession::compareChanged, this, &MainWindow::updateParallelPanel);
    connect(m_focus, &StudioFocus::graphChanged, this, &MainWindow::updateParallelPanel);
    connect(m_parallelPanel, &ParallelPanel::exportRequested, this, &MainWindow::exportParallelDialog);
}

void MainWindow::updateParallelPanel()
{
    m_parallelPanel->setAvailableRanks(m_session->ranks());
    m_parallelPanel->setResults(msprobe::studio::worstResultPerRank(*m_session, m_focus->step()));
}

QString MainWindow::exportParallelImage(const QString& file)
{
    QString error;
    return m_parallelPanel->view()->exportImage(file, &error) ? QString() : error;
}

void MainWindow::exportParallelDialog()
{
    const QString name = m_parallelSetup->layout() ? QString::fromStdString(m_parallelSetup->layout()->fileName) : QStringLiteral("parallel.png");
    const QString file = saveFileName(tr("Export parallelism"), name, tr("PNG image (*.png);;SVG drawing (*.svg)"));
    if (file.isEmpty())
        return;
    const QString error = exportParallelImage(file);
    if (error.isEmpty())
        statusBar()->showMessage(tr("Written %1").arg(file), 8000);
    else
        showError(tr("Export failed"), error);
}
