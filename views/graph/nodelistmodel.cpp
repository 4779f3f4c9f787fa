// SPDX-License-Identifier: Apache-2.0
#include "nodelistmodel.h"

#include <QPoint>
#include <QRegularExpression>

#include <algorithm>

using namespace msprobe::graph;

NodeListModel::NodeListModel(QObject* parent)
    : QAbstractListModel(parent)
{
}

void NodeListModel::setNodes(std::shared_ptr<const VisGraph> graph, std::vector<std::uint32_t> nodes, bool benchSide, msprobe::views::graphstyle::ColourMode chips)
{
    beginResetModel();
    m_graph = std::move(graph);
    m_nodes = std::move(nodes);
    m_benchSide = benchSide;
    m_chips = chips;
    endResetModel();
}

void NodeListModel::setHighlight(const QString& text, bool regex)
{
    m_highlight = text;
    m_highlightRegex = regex;
    if (!m_nodes.empty())
        emit dataChanged(index(0), index(int(m_nodes.size()) - 1), { MatchSpanRole });
}

int NodeListModel::rowOf(std::uint32_t node) const
{
    auto it = std::find(m_nodes.begin(), m_nodes.end(), node);
    return it == m_nodes.end() ? -1 : int(it - m_nodes.begin());
}

int NodeListModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : int(m_nodes.size()); }

QVariant NodeListModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= int(m_nodes.size()))
        return {};
    const VisNode& node = m_graph->nodes[m_nodes[std::size_t(index.row())]];
    switch (role) {
    case Qt::DisplayRole:
    case Qt::ToolTipRole: return QString::fromStdString(node.name);
    case Qt::DecorationRole:
        if (m_chips == msprobe::views::graphstyle::ColourMode::Overflow)
            return msprobe::views::graphstyle::overflowColour(node.overflow);
        if (m_benchSide)
            return msprobe::views::graphstyle::listChipOf(node.matched() ? PrecisionLevel::Pass : PrecisionLevel::Unmatched);
        return msprobe::views::graphstyle::listChipOf(levelOf(node));
    case NodeIndexRole: return QVariant::fromValue(m_nodes[std::size_t(index.row())]);
    case MatchSpanRole: {
        if (m_highlight.isEmpty())
            return QPoint(0, 0);
        const QString name = QString::fromStdString(node.name);
        if (m_highlightRegex) {
            const auto match = QRegularExpression(m_highlight, QRegularExpression::CaseInsensitiveOption).match(name);
            return match.hasMatch() ? QPoint(int(match.capturedStart()), int(match.capturedLength())) : QPoint(0, 0);
        }
        const qsizetype at = name.indexOf(m_highlight, 0, Qt::CaseInsensitive);
        return at < 0 ? QPoint(0, 0) : QPoint(int(at), int(m_highlight.size()));
    }
    default: return {};
    }
}
