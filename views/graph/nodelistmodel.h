// SPDX-License-Identifier: Apache-2.0
// A flat list of graph nodes (indices into a VisGraph) with a colour chip for the level they were listed for.
#pragma once

#include "graphstyle.h"

#include <QAbstractListModel>

#include <memory>

class NodeListModel : public QAbstractListModel {
    Q_OBJECT
public:
    // MatchSpanRole: QPoint(start, length) of the search text in the name (length 0 when nothing to show).
    enum Roles { NodeIndexRole = Qt::UserRole, MatchSpanRole };

    explicit NodeListModel(QObject* parent = nullptr);

    void setNodes(std::shared_ptr<const msprobe::graph::VisGraph> graph, std::vector<std::uint32_t> nodes, bool benchSide,
        msprobe::views::graphstyle::ColourMode chips);
    // The search text the list was filtered with (a case-insensitive substring or a regular expression).
    void setHighlight(const QString& text, bool regex);
    std::uint32_t nodeAt(int row) const { return m_nodes.at(std::size_t(row)); }
    int rowOf(std::uint32_t node) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;

private:
    std::shared_ptr<const msprobe::graph::VisGraph> m_graph;
    std::vector<std::uint32_t> m_nodes;
    bool m_benchSide = false;
    msprobe::views::graphstyle::ColourMode m_chips = msprobe::views::graphstyle::ColourMode::Precision;
    QString m_highlight;
    bool m_highlightRegex = false;
};
