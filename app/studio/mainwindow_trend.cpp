// SPDX-License-Identifier: Apache-2.0
// The window's trend panel: a dock showing the trend databases of the session's TrendSource, opened from
// File > Open trend database…, by dropping on the panel or the window, or from the command line; its loads use
// the status bar's progress and cancel; exports of its picture and cells.
#include "mainwindow.h"

#include "trend/trendpanel.h"
#include "trendsource.h"

#include "support/atomic_file.h"

#include <QCoreApplication>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QPainter>
#include <QProgressBar>
#include <QStatusBar>
#include <QSvgGenerator>
#include <QToolButton>

void MainWindow::buildTrendPanel()
{
    m_trendSource = new TrendSource(m_session);
    m_trendPanel = new TrendPanel(this);
    m_trendPanel->setSource(m_trendSource);
    m_trendPanel->setStudioFocus(m_focus);
    m_trendDock = addDock(m_trendPanel, tr("Trend"), QStringLiteral("trendDock"), Qt::BottomDockWidgetArea);
    tabifyDockWidget(m_compareDock, m_trendDock);
    m_compareDock->raise();
    connect(m_trendPanel, &TrendPanel::openRequested, this, &MainWindow::openTrend);
    connect(m_trendPanel, &TrendPanel::exportRequested, this, &MainWindow::exportTrendDialog);
    connect(m_cancel, &QToolButton::clicked, m_trendSource, &TrendSource::cancel);
    connect(m_trendSource, &TrendSource::loadStarted, this, [this](const QString& description) {
        m_status->setText(tr("Opening trend data %1…").arg(description));
        m_progress->setValue(0);
        m_progress->setFormat(QStringLiteral("%p%"));
        m_progress->show();
        m_cancel->show();
    });
    connect(m_trendSource, &TrendSource::progress, this, [this](int percent, const QString& stage) {
        m_progress->setValue(percent);
        m_status->setText(tr("Trend data: %1").arg(stage));
    });
    connect(m_trendSource, &TrendSource::loadFinished, this, [this](bool ok, const QString& message) {
        m_progress->hide();
        m_cancel->hide();
        if (ok) {
            const auto problem = m_trendSource->problem();
            const auto bench = m_trendSource->bench();
            m_status->setText(bench ? tr("Trend: %1 vs %2").arg(problem->file(), bench->file()) : tr("Trend: %1").arg(problem->file()));
            m_trendDock->show();
            m_trendDock->raise();
            // With no dump open the trend panel is what there is to see: give it most of the height.
            if (m_session->graphs().empty() && !m_session->summary()) {
                // The welcome page may be squeezed (clipped) for it.
                centralWidget()->setMinimumSize(QSize(120, 40));
                resizeDocks({ m_trendDock }, { height() }, Qt::Vertical);
            }
        } else if (message.isEmpty()) {
            m_status->setText(tr("Opening trend data cancelled."));
        } else {
            m_status->setText(tr("Could not open the trend data"));
            showError(tr("Could not open the trend data"), message);
        }
    });
}

void MainWindow::openTrend(const QStringList& paths)
{
    if (paths.isEmpty())
        return;
    m_trendSource->openPair(paths.front(), paths.size() > 1 ? paths[1] : QString());
}

void MainWindow::chooseTrendDatabase()
{
    const QString file = QFileDialog::getOpenFileName(this, tr("Open trend database"), QString(),
        tr("Trend databases (*.trend.db);;All files (*)"));
    if (!file.isEmpty())
        openTrend({ file });
}

QString MainWindow::exportTrend(const QString& file)
{
    const QString suffix = QFileInfo(file).suffix().toLower();
    if (!m_trendSource->isOpen())
        return tr("%1: no trend database is open").arg(file);
    m_trendPanel->finishHeatmap();
    try {
        if (suffix == QLatin1String("csv")) {
            msprobe::support::AtomicFile out(std::filesystem::path(file.toStdString()));
            out.write(m_trendPanel->cellsCsv().toStdString());
            out.commit();
            return {};
        }
        if (suffix == QLatin1String("svg")) {
            QSvgGenerator generator;
            generator.setFileName(file);
            generator.setSize(m_trendPanel->size());
            generator.setViewBox(QRect(QPoint(0, 0), m_trendPanel->size()));
            generator.setTitle(tr("Trend"));
            QPainter painter;
            if (!painter.begin(&generator))
                return tr("Cannot write %1").arg(file);
            m_trendPanel->render(&painter);
            painter.end();
            return QFileInfo(file).size() > 0 ? QString() : tr("Cannot write %1").arg(file);
        }
        if (suffix == QLatin1String("png"))
            return m_trendPanel->grab().save(file, "PNG") ? QString() : tr("Cannot write %1").arg(file);
    } catch (const std::exception& error) {
        return QString::fromUtf8(error.what());
    }
    return tr("%1: the file name must end in .png, .svg or .csv").arg(file);
}

void MainWindow::exportTrendDialog()
{
    if (!m_trendSource->isOpen()) {
        showError(tr("Export failed"), tr("No trend database is open."));
        return;
    }
    const QString file = saveFileName(tr("Export trend panel"), QStringLiteral("trend.png"),
        tr("PNG image (*.png);;SVG drawing (*.svg);;CSV of the heat-map cells (*.csv)"));
    if (file.isEmpty())
        return;
    const QString error = exportTrend(file);
    if (error.isEmpty())
        statusBar()->showMessage(tr("Written %1").arg(file), 8000);
    else
        showError(tr("Export failed"), error);
}

void MainWindow::showTrendAlone(const QSize& size)
{
    m_trendDock->setFloating(true);
    m_trendDock->show();
    m_trendDock->resize(size);
    QCoreApplication::processEvents();
}
