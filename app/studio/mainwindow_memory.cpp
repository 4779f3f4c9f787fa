// SPDX-License-Identifier: Apache-2.0
// The memory dock: File > Open memory dump loads a msMemScope dump through MemorySession (worker thread,
// progress dialog with cancel, core's error message on failure) and shows it in the memory panel.
#include "mainwindow.h"

#include "memory/memorypanel.h"
#include "memorysession.h"

#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QMessageBox>
#include <QProgressDialog>

void MainWindow::chooseMemoryDump()
{
    const QString file = QFileDialog::getOpenFileName(this, tr("Open memory dump"), QString(),
        tr("msMemScope dumps (*.csv *.db);;All files (*)"));
    if (!file.isEmpty())
        openMemoryDump(file);
}

void MainWindow::openMemoryDump(const QString& file)
{
    if (!m_memorySession) {
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
        connect(m_memorySession, &MemorySession::documentChanged, this, [this] { m_memoryPanel->setDocument(m_memorySession->document()); });
    }
    auto* progress = new QProgressDialog(tr("Opening %1…").arg(QFileInfo(file).fileName()), tr("Cancel"), 0, 100, this);
    progress->setWindowModality(Qt::WindowModal);
    progress->setMinimumDuration(300);
    progress->setAttribute(Qt::WA_DeleteOnClose);
    connect(progress, &QProgressDialog::canceled, m_memorySession, &MemorySession::cancel);
    connect(m_memorySession, &MemorySession::progress, progress, [progress](int percent, const QString& stage) {
        progress->setValue(percent);
        progress->setLabelText(stage);
    });
    connect(m_memorySession, &MemorySession::loadFinished, progress, [this, progress, file](bool ok, const QString& message) {
        progress->close();
        if (ok) {
            m_memoryDock->show();
            m_memoryDock->raise();
            // The timeline needs height to read: give the dock most of the window the first time it shows.
            if (!m_memoryDockSized) {
                resizeDocks({ m_memoryDock }, { height() * 3 / 5 }, Qt::Vertical);
                m_memoryDockSized = true;
            }
        } else if (!message.isEmpty()) {
            showError(tr("Cannot open %1").arg(QFileInfo(file).fileName()), message);
        }
    });
    m_memorySession->open(file);
}
