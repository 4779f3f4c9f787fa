// SPDX-License-Identifier: Apache-2.0
#include "comparetablemodel.h"

#include <QColor>

namespace {

constexpr int kDisplayedChars = 200; // stack and message cells can be kilobytes; the tooltip has all of it

} // namespace

CompareTableModel::CompareTableModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

void CompareTableModel::setRows(std::shared_ptr<const msprobe::studio::CompareRows> rows)
{
    beginResetModel();
    m_rows = std::move(rows);
    m_nameColumn = m_rows ? m_rows->column(QStringLiteral("NPU Name")) : -1;
    m_benchNameColumn = m_rows ? m_rows->column(QStringLiteral("Bench Name")) : -1;
    m_resultColumn = m_rows ? m_rows->column(QStringLiteral("Result")) : -1;
    endResetModel();
}

int CompareTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() || !m_rows ? 0 : m_rows->rowCount();
}

int CompareTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() || !m_rows ? 0 : m_rows->columnCount();
}

QColor CompareTableModel::resultColour(msprobe::studio::RowResult result)
{
    switch (result) {
    case msprobe::studio::RowResult::Pass: return QColor(0xdf, 0xf0, 0xd8);
    case msprobe::studio::RowResult::Warning: return QColor(0xf8, 0xcf, 0x8d);
    case msprobe::studio::RowResult::Error: return QColor(0xf3, 0x73, 0x70);
    case msprobe::studio::RowResult::None: break;
    }
    return QColor();
}

QVariant CompareTableModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid) || !m_rows)
        return {};
    const int row = index.row(), column = index.column();
    switch (role) {
    case Qt::DisplayRole: {
        QString text = m_rows->text(row, column);
        if (text.size() > kDisplayedChars)
            text = text.left(kDisplayedChars) + QChar(0x2026);
        return text.replace(QLatin1Char('\n'), QLatin1Char(' '));
    }
    case Qt::ToolTipRole: {
        const QString text = m_rows->text(row, column);
        return text.size() > 40 ? text : QVariant();
    }
    case SortRole: {
        const QString text = m_rows->text(row, column);
        bool ok = false;
        const double value = text.toDouble(&ok);
        return ok ? QVariant(value) : QVariant(text);
    }
    case ResultRole: return static_cast<int>(m_rows->result(row));
    case NpuNameRole: return m_rows->npuName(row);
    case Qt::BackgroundRole: {
        const msprobe::studio::RowResult result = m_rows->result(row);
        if (result == msprobe::studio::RowResult::Pass && column != m_resultColumn)
            return {};
        const QColor colour = resultColour(result);
        return colour.isValid() ? QVariant(colour) : QVariant();
    }
    case Qt::ForegroundRole: {
        const msprobe::studio::RowResult result = m_rows->result(row);
        const bool tinted = result == msprobe::studio::RowResult::Warning || result == msprobe::studio::RowResult::Error || (result == msprobe::studio::RowResult::Pass && column == m_resultColumn);
        return tinted ? QVariant(QColor(Qt::black)) : QVariant(); // readable on the tint in the dark theme too
    }
    default: return {};
    }
}

QVariant CompareTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (!m_rows)
        return {};
    if (orientation == Qt::Horizontal && section >= 0 && section < m_rows->columnCount()
        && (role == Qt::DisplayRole || role == Qt::ToolTipRole))
        return m_rows->header(section);
    if (orientation == Qt::Vertical && role == Qt::DisplayRole && section >= 0 && section < m_rows->rowCount())
        return section + 1;
    return {};
}
