// SPDX-License-Identifier: Apache-2.0
#include "recentfiles.h"

#include <QMenu>
#include <QSettings>

namespace {

const QString kKey = QStringLiteral("recentFiles");
constexpr int kMaxEntries = 10;
const QChar kSeparator = QLatin1Char('\n'); // between problem and bench of a pair

} // namespace

RecentFiles::RecentFiles(QMenu* menu, QObject* parent)
    : QObject(parent)
    , m_menu(menu)
{
    rebuild();
}

QList<QStringList> RecentFiles::entries() const
{
    QList<QStringList> result;
    const QStringList stored = QSettings().value(kKey).toStringList();
    for (const QString& entry : stored)
        result << entry.split(kSeparator);
    return result;
}

void RecentFiles::add(const QStringList& paths)
{
    QStringList stored = QSettings().value(kKey).toStringList();
    const QString entry = paths.join(kSeparator);
    stored.removeAll(entry);
    stored.prepend(entry);
    while (stored.size() > kMaxEntries)
        stored.removeLast();
    QSettings().setValue(kKey, stored);
    rebuild();
}

void RecentFiles::rebuild()
{
    m_menu->clear();
    const auto all = entries();
    for (int i = 0; i < all.size(); ++i) {
        const QStringList paths = all[i];
        const QString label = paths.join(tr(" vs "));
        QAction* action = m_menu->addAction(QStringLiteral("&%1 %2").arg(i + 1).arg(label));
        connect(action, &QAction::triggered, this, [this, paths] { emit chosen(paths); });
    }
    m_menu->addSeparator();
    QAction* clear = m_menu->addAction(tr("Clear the list"));
    clear->setEnabled(!all.isEmpty());
    connect(clear, &QAction::triggered, this, [this] {
        QSettings().remove(kKey);
        rebuild();
    });
}
