// SPDX-License-Identifier: Apache-2.0
#include "details/nodedetailsmodel.h"

#include "graph/visdb/precision_explain.h"

#include <QColor>
#include <QGuiApplication>
#include <QPalette>

namespace {

QString text(const std::string& s) { return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size())); }

QColor levelColour(const std::string& result)
{
    using msprobe::graph::PrecisionLevel;
    PrecisionLevel level = PrecisionLevel::NoData;
    if (result == "pass")
        level = PrecisionLevel::Pass;
    else if (result == "warning")
        level = PrecisionLevel::Warning;
    else if (result == "error")
        level = PrecisionLevel::Error;
    else
        return {};
    const std::string_view hex = msprobe::graph::colourOf(level);
    return QColor(QLatin1StringView(hex.data(), static_cast<qsizetype>(hex.size())));
}

} // namespace

NodeDetailsModel::NodeDetailsModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

void NodeDetailsModel::setTable(msprobe::graph::DetailsTable table)
{
    beginResetModel();
    m_table = std::move(table);
    m_resultColumn = m_table.column("Result");
    endResetModel();
}

int NodeDetailsModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : int(m_table.rows.size()); }

int NodeDetailsModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : int(m_table.columns.size()); }

// The rows follow the theme: the debug rows on the view's base colour, the bench rows on a blue tint of it, so
// the theme's text colour stays readable on both (light and dark).
QColor NodeDetailsModel::debugRowColour() { return QGuiApplication::palette().color(QPalette::Base); }

QColor NodeDetailsModel::benchRowColour()
{
    const QColor base = debugRowColour();
    const double share = base.lightness() < 128 ? 0.22 : 0.08;
    const QColor blue(66, 133, 244);
    return QColor::fromRgbF(float(base.redF() * (1 - share) + blue.redF() * share), float(base.greenF() * (1 - share) + blue.greenF() * share),
        float(base.blueF() * (1 - share) + blue.blueF() * share));
}

QVariant NodeDetailsModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const auto& row = m_table.rows[static_cast<std::size_t>(index.row())];
    const auto& cell = row.cells[static_cast<std::size_t>(index.column())];
    switch (role) {
    case Qt::DisplayRole: return text(cell);
    case Qt::ToolTipRole: return index.column() == 0 ? text(row.item) : text(cell);
    case Qt::BackgroundRole:
        if (index.column() == m_resultColumn) {
            const QColor colour = levelColour(cell);
            if (colour.isValid())
                return colour;
        }
        return row.bench ? benchRowColour() : debugRowColour();
    case Qt::ForegroundRole:
        // The result cell's level colours are light on either theme: dark text on them.
        if (index.column() == m_resultColumn && levelColour(cell).isValid())
            return QColor(Qt::black);
        // Items without a partner at their position: greyed, as the reference's "unmatched" marker.
        return row.paired ? QVariant() : QVariant(QColor(128, 128, 128));
    case IsBenchRole: return row.bench;
    case IsPairedRole: return row.paired;
    case ItemNameRole: return text(row.item);
    default: return {};
    }
}

QVariant NodeDetailsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (role != Qt::DisplayRole)
        return {};
    if (orientation == Qt::Vertical)
        return section >= 0 && section < rowCount() ? QVariant(m_table.rows[std::size_t(section)].bench ? tr("Bench") : tr("Debug")) : QVariant();
    return section >= 0 && section < columnCount() ? QVariant(text(m_table.columns[std::size_t(section)])) : QVariant();
}
