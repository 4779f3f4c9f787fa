// SPDX-License-Identifier: Apache-2.0
#include "welcomepage.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

namespace {

QPushButton* button(const QString& text, const QString& objectName, QWidget* parent)
{
    auto* b = new QPushButton(text, parent);
    b->setObjectName(objectName);
    b->setMinimumWidth(260);
    return b;
}

} // namespace

WelcomePage::WelcomePage(QWidget* parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("welcomePage"));
    auto* outer = new QVBoxLayout(this);
    outer->addStretch(1);
    // A column at most 560 px wide, centred: the wrapped text gets its height for that width.
    auto* panel = new QWidget(this);
    panel->setMaximumWidth(560);
    auto* row = new QHBoxLayout;
    row->addStretch(1);
    row->addWidget(panel, 4);
    row->addStretch(1);
    auto* column = new QVBoxLayout(panel);
    column->setContentsMargins(0, 0, 0, 0);
    column->setSpacing(8);
    auto* title = new QLabel(QStringLiteral("<h2>%1</h2>").arg(tr("msprobe studio")), this);
    auto* intro = new QLabel(tr("Compare a problem run with a bench run: graphs, the compare table and where they first diverge.\n"
                                "You can also drop a dump folder, two folders, a vis.db or a compare CSV on this window."),
        this);
    intro->setWordWrap(true);
    intro->setAlignment(Qt::AlignCenter);
    title->setAlignment(Qt::AlignCenter);
    column->addWidget(title);
    column->addWidget(intro);
    column->addSpacing(8);
    QPushButton* folder = button(tr("Open a dump folder…"), QStringLiteral("welcomeOpenFolder"), this);
    QPushButton* pair = button(tr("Open a problem/bench pair…"), QStringLiteral("welcomeOpenPair"), this);
    column->addWidget(folder, 0, Qt::AlignHCenter);
    column->addWidget(pair, 0, Qt::AlignHCenter);
    const QStringList sample = samplePair();
    if (!sample.isEmpty()) {
        QPushButton* open = button(tr("Open the bundled sample pair"), QStringLiteral("welcomeOpenSample"), this);
        open->setToolTip(sample.join(QStringLiteral(" vs ")));
        column->addWidget(open, 0, Qt::AlignHCenter);
        connect(open, &QPushButton::clicked, this, [this, sample] { emit openPathsRequested(sample); });
    }
    m_recent = new QVBoxLayout;
    column->addLayout(m_recent);
    outer->addLayout(row);
    outer->addStretch(2);
    connect(folder, &QPushButton::clicked, this, &WelcomePage::openFolderRequested);
    connect(pair, &QPushButton::clicked, this, &WelcomePage::openPairRequested);
}

void WelcomePage::setRecent(const QList<QStringList>& entries)
{
    while (QLayoutItem* item = m_recent->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    if (entries.isEmpty())
        return;
    m_recent->addSpacing(8);
    m_recent->addWidget(new QLabel(QStringLiteral("<b>%1</b>").arg(tr("Open recent")), this), 0, Qt::AlignHCenter);
    for (const QStringList& paths : entries.mid(0, 5)) {
        QStringList names;
        for (const QString& path : paths)
            names << QDir::toNativeSeparators(path);
        auto* open = new QPushButton(names.join(tr(" vs ")), this);
        open->setFlat(true);
        open->setToolTip(names.join(QLatin1Char('\n')));
        m_recent->addWidget(open, 0, Qt::AlignHCenter);
        connect(open, &QPushButton::clicked, this, [this, paths] { emit openPathsRequested(paths); });
    }
}

QStringList WelcomePage::samplePair()
{
    const QString app = QCoreApplication::applicationDirPath();
    // Installed (share/msprobe/samples), then the source tree the build came from.
    for (const QString& root : QStringList { app + QStringLiteral("/../share/msprobe/samples"), QStringLiteral(MSPROBE_SOURCE_SAMPLES) }) {
        const QString problem = QDir::cleanPath(root + QStringLiteral("/problem")), bench = QDir::cleanPath(root + QStringLiteral("/bench"));
        if (QFileInfo(problem).isDir() && QFileInfo(bench).isDir())
            return { problem, bench };
    }
    return {};
}
