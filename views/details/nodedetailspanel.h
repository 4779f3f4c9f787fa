// SPDX-License-Identifier: Apache-2.0
// The bottom details panel (spec 2.5). Follows StudioFocus: "Comparison details" shows the focused node's
// inputs, parameters and outputs beside its partner's with the compare columns; "Node information" shows both
// stacks (with copy buttons), the parallel-merge notes and, for communication nodes, the peer nodes on other
// ranks, each a jump (StudioFocus rank + node).
#pragma once

#include "studiofocus.h"

#include "graph/visdb/vis_db_reader.h"

#include <QPointer>
#include <QWidget>

#include <functional>
#include <memory>

class NodeDetailsModel;
class QLabel;
class QPlainTextEdit;
class QTableView;
class QTabWidget;
class QTreeWidget;
class QTreeWidgetItem;

class NodeDetailsPanel : public QWidget {
    Q_OBJECT
public:
    // The stored input/output JSON of a node (MatchController::nodeData gives the rows as just written).
    using DataProvider = std::function<std::pair<std::string, std::string>(StudioFocus::Side side, const std::string& name)>;

    explicit NodeDetailsPanel(QWidget* parent = nullptr);
    ~NodeDetailsPanel() override;

    // db: the session's handle on the vis.db the graphs come from (stacks and node data are read from it when
    // needed; null: none). bench: null for build dbs.
    void setGraphs(std::shared_ptr<msprobe::graph::VisGraph> problem, std::shared_ptr<msprobe::graph::VisGraph> bench,
        std::shared_ptr<msprobe::graph::VisDb> db);
    void setStudioFocus(StudioFocus* focus);
    void setDataProvider(DataProvider provider);

    NodeDetailsModel* model() const { return m_model; }
    QString problemNode() const { return m_problemNode; }
    QString benchNode() const { return m_benchNode; }
    QString stackText(StudioFocus::Side side) const;
    QString mergeText() const;
    // The communication peers listed: "rank\tnode" lines.
    QStringList peers() const;

public slots:
    // Reloads when the node shown is among names (after a manual match).
    void refreshNodes(const QStringList& names);
    // Shows a node (what a StudioFocus change does).
    void showNode(const QString& name, StudioFocus::Side side);
    // Jumps to a peer: StudioFocus graph (same step, that rank) and node.
    void goToPeer(int rank, const QString& node);

private:
    void reload();
    std::pair<std::string, std::string> nodeData(StudioFocus::Side side, const std::string& name) const;
    const msprobe::graph::VisNode* nodeOf(StudioFocus::Side side, const QString& name) const;

    std::shared_ptr<msprobe::graph::VisGraph> m_problem, m_bench;
    std::shared_ptr<msprobe::graph::VisDb> m_db;
    DataProvider m_provider;
    QPointer<StudioFocus> m_focus;
    QString m_problemNode, m_benchNode;

    NodeDetailsModel* m_model;
    QTabWidget* m_tabs;
    QLabel* m_header;
    QTableView* m_table;
    QPlainTextEdit* m_problemStack;
    QPlainTextEdit* m_benchStack;
    QPlainTextEdit* m_merge;
    QTreeWidget* m_peers;
};
