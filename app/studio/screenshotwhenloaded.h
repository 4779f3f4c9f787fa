// SPDX-License-Identifier: Apache-2.0
// msprobe-studio --screenshot: saves the window once everything it was asked to open has loaded and drawn.
#pragma once

#include <QString>

#include <functional>

class MainWindow;

class ScreenshotWhenLoaded {
public:
    // `saved` runs after the PNG is written (the program quits there). `settleMs`: how long the window is given to
    // paint after the last load.
    ScreenshotWhenLoaded(MainWindow& window, QString file, std::function<void()> saved, int settleMs = 300);
    // Call after opening memory dumps: one more load to wait for per dump. A memory dump loads on a worker thread
    // of its own and may finish long after the window's own load (MainWindow::idle).
    void waitForMemoryLoads(int count);

private:
    void oneDone();
    void saveWhenSettled();

    MainWindow& m_window;
    QString m_file;
    std::function<void()> m_saved;
    int m_settleMs;
    int m_pending = 1; // the window's own load, counted once
    bool m_idleSeen = false;
};
