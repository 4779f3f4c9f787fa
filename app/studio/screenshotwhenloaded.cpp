// SPDX-License-Identifier: Apache-2.0
#include "screenshotwhenloaded.h"

#include "mainwindow.h"
#include "memorysession.h"
#include "optionalviews.h"

#include <QTimer>

#include <utility>

ScreenshotWhenLoaded::ScreenshotWhenLoaded(MainWindow& window, QString file, std::function<void()> saved, int settleMs)
    : m_window(window)
    , m_file(std::move(file))
    , m_saved(std::move(saved))
    , m_settleMs(settleMs)
{
    QObject::connect(&window, &MainWindow::idle, &window, [this] {
        if (!std::exchange(m_idleSeen, true))
            oneDone();
    });
}

void ScreenshotWhenLoaded::waitForMemoryLoads(int count)
{
    if (count <= 0 || !m_window.memorySession())
        return;
    m_pending += count;
    QObject::connect(m_window.memorySession(), &MemorySession::loadFinished, &m_window,
        [this](bool, const QString&, MemorySession::Slot) { oneDone(); });
}

void ScreenshotWhenLoaded::oneDone()
{
    if (--m_pending == 0)
        saveWhenSettled();
}

void ScreenshotWhenLoaded::saveWhenSettled()
{
    auto save = [this] {
        m_window.grab().save(m_file);
        if (m_saved)
            m_saved();
    };
#if MSPROBE_HAVE_GRAPH_VIEW
    if (m_window.graphView() && !m_window.graphView()->isSettled()) {
        QObject::connect(m_window.graphView(), &GraphDiffView::settled, &m_window, [this, save] { QTimer::singleShot(m_settleMs, &m_window, save); });
        QTimer::singleShot(10000, &m_window, save); // never wait for ever
        return;
    }
#endif
    QTimer::singleShot(m_settleMs, &m_window, save);
}
