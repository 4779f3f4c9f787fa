// SPDX-License-Identifier: Apache-2.0
#include "match/nodepicklist.h"

#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QSortFilterProxyModel>
#include <QStringListModel>
#include <QVBoxLayout>

NodePickList::NodePickList(const QString& title, QWidget* parent)
    : QWidget(parent)
    , m_title(title)
    , m_label(new QLabel(this))
    , m_filter(new QLineEdit(this))
    , m_view(new QListView(this))
    , m_model(new QStringListModel(this))
    , m_proxy(new QSortFilterProxyModel(this))
{
    m_proxy->setSourceModel(m_model);
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_view->setModel(m_proxy);
    m_view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_view->setUniformItemSizes(true);
    m_filter->setPlaceholderText(tr("Search"));
    m_filter->setClearButtonEnabled(true);
    m_filter->setMaxLength(200);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_label);
    layout->addWidget(m_filter);
    layout->addWidget(m_view);
    connect(m_filter, &QLineEdit::textChanged, this, &NodePickList::setFilter);
    connect(m_view->selectionModel(), &QItemSelectionModel::currentChanged, this,
        [this](const QModelIndex& current) { emit currentNameChanged(current.data().toString()); });
    updateTitle();
}

void NodePickList::setNames(const QStringList& names)
{
    const QString current = currentName();
    m_model->setStringList(names);
    if (!current.isEmpty())
        setCurrentName(current);
    updateTitle();
}

QStringList NodePickList::names() const { return m_model->stringList(); }
int NodePickList::count() const { return m_model->rowCount(); }
int NodePickList::visibleCount() const { return m_proxy->rowCount(); }
QString NodePickList::currentName() const { return m_view->currentIndex().data().toString(); }

bool NodePickList::setCurrentName(const QString& name)
{
    const int row = int(m_model->stringList().indexOf(name));
    if (row < 0)
        return false;
    QModelIndex index = m_proxy->mapFromSource(m_model->index(row));
    if (!index.isValid()) { // hidden by the filter: show everything again
        m_filter->clear();
        index = m_proxy->mapFromSource(m_model->index(row));
    }
    m_view->setCurrentIndex(index);
    m_view->scrollTo(index);
    return true;
}

void NodePickList::setFilter(const QString& text)
{
    if (m_filter->text() != text)
        m_filter->setText(text);
    m_proxy->setFilterFixedString(text);
    updateTitle();
}

void NodePickList::updateTitle()
{
    const QString shown = visibleCount() == count() ? QString::number(count()) : QStringLiteral("%1/%2").arg(visibleCount()).arg(count());
    m_label->setText(QStringLiteral("%1 (%2)").arg(m_title, shown));
}
