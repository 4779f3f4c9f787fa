// SPDX-License-Identifier: Apache-2.0
// What the studio shows before anything is open: the ways to open something (a dump folder, a problem/bench
// pair, a recent one, the bundled sample pair) instead of empty panels.
#pragma once

#include <QWidget>

class QVBoxLayout;

class WelcomePage : public QWidget {
    Q_OBJECT
public:
    explicit WelcomePage(QWidget* parent = nullptr);

    // The recent entries (one path, or problem + bench), newest first; the page lists the first few.
    void setRecent(const QList<QStringList>& entries);
    // The bundled problem/bench sample pair's folders; empty when it is not installed.
    static QStringList samplePair();

signals:
    void openFolderRequested();
    void openPairRequested();
    void openPathsRequested(const QStringList& paths);

private:
    QVBoxLayout* m_recent;
};
