// SPDX-License-Identifier: Apache-2.0
#include "comparefilterproxy.h"

#include "comparetablemodel.h"

CompareFilterProxy::CompareFilterProxy(QObject* parent)
    : QSortFilterProxyModel(parent)
{
    setSortRole(CompareTableModel::SortRole);
}

void CompareFilterProxy::setText(const QString& text)
{
    if (text == m_text)
        return;
    m_text = text;
    invalidateRowsFilter();
}

void CompareFilterProxy::setResultFilter(ResultFilter filter)
{
    if (filter == m_result)
        return;
    m_result = filter;
    invalidateRowsFilter();
}

bool CompareFilterProxy::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const
{
    const auto* model = qobject_cast<const CompareTableModel*>(sourceModel());
    if (!model)
        return true;
    const auto result = static_cast<msprobe::studio::RowResult>(model->index(sourceRow, 0, sourceParent).data(CompareTableModel::ResultRole).toInt());
    switch (m_result) {
    case AllResults: break;
    case NotPass:
        if (result != msprobe::studio::RowResult::Warning && result != msprobe::studio::RowResult::Error)
            return false;
        break;
    case ErrorOnly:
        if (result != msprobe::studio::RowResult::Error)
            return false;
        break;
    case WarningOnly:
        if (result != msprobe::studio::RowResult::Warning)
            return false;
        break;
    case PassOnly:
        if (result != msprobe::studio::RowResult::Pass)
            return false;
        break;
    }
    if (m_text.isEmpty())
        return true;
    for (int column : { model->nameColumn(), model->benchNameColumn() })
        if (column >= 0 && model->rows()->text(sourceRow, column).contains(m_text, Qt::CaseInsensitive))
            return true;
    return false;
}

bool CompareFilterProxy::lessThan(const QModelIndex& left, const QModelIndex& right) const
{
    const QVariant a = left.data(sortRole()), b = right.data(sortRole());
    const bool aNumber = a.typeId() == QMetaType::Double, bNumber = b.typeId() == QMetaType::Double;
    if (aNumber && bNumber)
        return a.toDouble() < b.toDouble();
    if (aNumber != bNumber)
        return aNumber; // numbers before text ("N/A", "None")
    return QString::compare(a.toString(), b.toString(), Qt::CaseInsensitive) < 0;
}
