// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "dump/dump_summary.h"

#include <QAbstractItemModel>

#include <memory>

// Steps and their rank dumps as a two-level tree, one column per count.
class DumpSummaryModel : public QAbstractItemModel {
    Q_OBJECT
public:
    enum Column { NameColumn, EntriesColumn, ApiColumn, ModuleColumn, BackwardColumn, ParamGradColumn, TensorsColumn,
        NanInfColumn, DumpJsonColumn, ColumnCount };

    explicit DumpSummaryModel(QObject* parent = nullptr);

    void setSummary(std::shared_ptr<const msprobe::dump::TreeSummary> summary);
    std::shared_ptr<const msprobe::dump::TreeSummary> summary() const { return m_summary; }

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    // Index of the first RankSummary of a step (ranks are stored flat in step order).
    std::size_t firstRankOf(std::size_t step) const;

    std::shared_ptr<const msprobe::dump::TreeSummary> m_summary;
};
