// SPDX-License-Identifier: Apache-2.0
// The "Comparison details" table: a node's items beside its partner's (core comparisonTable), one row per item,
// debug and bench rows tinted apart, the Result cell coloured by level.
#pragma once

#include "graph/visdb/node_details.h"

#include <QAbstractTableModel>

class NodeDetailsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Role { IsBenchRole = Qt::UserRole + 1, IsPairedRole, ItemNameRole };

    explicit NodeDetailsModel(QObject* parent = nullptr);

    void setTable(msprobe::graph::DetailsTable table);
    void clear() { setTable({}); }
    const msprobe::graph::DetailsTable& table() const { return m_table; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // The row colours of the legend.
    static QColor debugRowColour();
    static QColor benchRowColour();

private:
    msprobe::graph::DetailsTable m_table;
    int m_resultColumn = -1;
};
