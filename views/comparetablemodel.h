// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "comparerows.h"

#include <QAbstractTableModel>

#include <memory>

// The rows of one compare result, one column per CSV column, rows tinted by Result.
class CompareTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Role {
        SortRole = Qt::UserRole, // a double for numeric cells, else the text
        ResultRole, // RowResult as int
        NpuNameRole, // the row's NPU item name (any column)
    };

    explicit CompareTableModel(QObject* parent = nullptr);

    void setRows(std::shared_ptr<const msprobe::studio::CompareRows> rows);
    const std::shared_ptr<const msprobe::studio::CompareRows>& rows() const { return m_rows; }
    int nameColumn() const { return m_nameColumn; }
    int benchNameColumn() const { return m_benchNameColumn; }
    int resultColumn() const { return m_resultColumn; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // Background of a row by Result (the HTML report's colours).
    static QColor resultColour(msprobe::studio::RowResult result);

private:
    std::shared_ptr<const msprobe::studio::CompareRows> m_rows;
    int m_nameColumn = -1, m_benchNameColumn = -1, m_resultColumn = -1;
};
