// SPDX-License-Identifier: Apache-2.0
#include "dumpsummarymodel.h"

#include <QLocale>

namespace {
constexpr quintptr kStepLevel = 0; // internalId 0: a step row; n+1: a rank row below step n
}

DumpSummaryModel::DumpSummaryModel(QObject* parent)
    : QAbstractItemModel(parent)
{
}

void DumpSummaryModel::setSummary(std::shared_ptr<const msprobe::dump::TreeSummary> summary)
{
    beginResetModel();
    m_summary = std::move(summary);
    endResetModel();
}

std::size_t DumpSummaryModel::firstRankOf(std::size_t step) const
{
    std::size_t first = 0;
    for (std::size_t s = 0; s < step; ++s)
        first += m_summary->tree.steps[s].ranks.size();
    return first;
}

QModelIndex DumpSummaryModel::index(int row, int column, const QModelIndex& parent) const
{
    if (!hasIndex(row, column, parent))
        return {};
    if (!parent.isValid())
        return createIndex(row, column, kStepLevel);
    return createIndex(row, column, static_cast<quintptr>(parent.row()) + 1);
}

QModelIndex DumpSummaryModel::parent(const QModelIndex& child) const
{
    if (!child.isValid() || child.internalId() == kStepLevel)
        return {};
    return createIndex(static_cast<int>(child.internalId() - 1), 0, kStepLevel);
}

int DumpSummaryModel::rowCount(const QModelIndex& parent) const
{
    if (!m_summary || parent.column() > 0)
        return 0;
    if (!parent.isValid())
        return static_cast<int>(m_summary->tree.steps.size());
    if (parent.internalId() == kStepLevel)
        return static_cast<int>(m_summary->tree.steps[static_cast<std::size_t>(parent.row())].ranks.size());
    return 0;
}

int DumpSummaryModel::columnCount(const QModelIndex&) const { return ColumnCount; }

QVariant DumpSummaryModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || !m_summary || (role != Qt::DisplayRole && role != Qt::ToolTipRole))
        return {};
    if (index.internalId() == kStepLevel) {
        const auto& step = m_summary->tree.steps[static_cast<std::size_t>(index.row())];
        if (index.column() != NameColumn)
            return {};
        return step.label.empty() ? tr("(single step)") : QString::fromStdString(step.label);
    }
    const std::size_t step = index.internalId() - 1;
    const auto& rank = m_summary->ranks[firstRankOf(step) + static_cast<std::size_t>(index.row())];
    if (role == Qt::ToolTipRole)
        return QString::fromStdString(rank.dumpJson);
    const auto& c = rank.counts;
    switch (index.column()) {
    case NameColumn: return QString::fromStdString(rank.rank);
    case EntriesColumn: return qulonglong(c.entries);
    case ApiColumn: return qulonglong(c.api);
    case ModuleColumn: return qulonglong(c.module);
    case BackwardColumn: return qulonglong(c.backward);
    case ParamGradColumn: return qulonglong(c.parametersGrad);
    case TensorsColumn: return qulonglong(c.tensors);
    case NanInfColumn: return qulonglong(c.tensorsWithNanOrInf);
    case DumpJsonColumn: return QLocale().formattedDataSize(static_cast<qint64>(rank.dumpJsonBytes));
    default: return {};
    }
}

QVariant DumpSummaryModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case NameColumn: return tr("Step / rank");
    case EntriesColumn: return tr("Entries");
    case ApiColumn: return tr("API");
    case ModuleColumn: return tr("Module");
    case BackwardColumn: return tr("Backward");
    case ParamGradColumn: return tr("Param grads");
    case TensorsColumn: return tr("Tensors");
    case NanInfColumn: return tr("NaN/Inf");
    case DumpJsonColumn: return tr("dump.json");
    default: return {};
    }
}
