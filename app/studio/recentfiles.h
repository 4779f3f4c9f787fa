// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QObject>
#include <QStringList>

class QMenu;

// The "Open recent" menu: the last opened path sets (one path, or problem + bench), newest first, in QSettings.
class RecentFiles : public QObject {
    Q_OBJECT
public:
    explicit RecentFiles(QMenu* menu, QObject* parent = nullptr);

    void add(const QStringList& paths);
    QList<QStringList> entries() const;

signals:
    void chosen(const QStringList& paths);

private:
    void rebuild();

    QMenu* m_menu;
};
