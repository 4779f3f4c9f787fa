// SPDX-License-Identifier: Apache-2.0
// The search and filter side panel of the graph diff: name search (substring or regex) on the debug or bench
// graph, the precision (pass/warning/error/unmatched) and overflow (medium/high/critical) filters over leaf
// debug nodes, "Node list (n)" with previous/next. Picking a node moves the shared StudioFocus.
#pragma once

#include "nodelistfilter.h"
#include "studiofocus.h"

#include "graph/visdb/vis_db_reader.h"

#include <QWidget>

#include <memory>

class NodeListModel;
class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QListView;
class QToolButton;

class NodeListPanel : public QWidget {
    Q_OBJECT
public:
    explicit NodeListPanel(QWidget* parent = nullptr);

    // bench: null for build dbs. Resets search and filters.
    void setGraphs(std::shared_ptr<msprobe::graph::VisGraph> problem, std::shared_ptr<msprobe::graph::VisGraph> bench,
        const msprobe::graph::VisDbConfig& config);
    void setStudioFocus(StudioFocus* focus);

    int count() const;
    QString nodeAt(int row) const;
    StudioFocus::Side side() const;
    // Re-runs the filter (precision or links changed after a manual match).
    void refresh();

signals:
    void nodeChosen(const QString& name, StudioFocus::Side side);
    // The search text or its regex switch changed (empty text: no search); the graph outlines the hits.
    void searchChanged(const QString& text, bool regex);

private:
    void buildUi();
    void apply();
    void choose(int row);
    void step(int delta);
    void followFocus(const QString& name, StudioFocus::Side side);
    msprobe::views::NodeFilter currentFilter() const;

    std::shared_ptr<msprobe::graph::VisGraph> m_problem, m_bench;
    StudioFocus* m_focus = nullptr;
    NodeListModel* m_model;
    QComboBox* m_side;
    QLineEdit* m_search;
    QCheckBox* m_regex;
    std::vector<std::pair<QCheckBox*, msprobe::graph::PrecisionLevel>> m_levelBoxes;
    std::vector<std::pair<QCheckBox*, std::string>> m_overflowBoxes;
    QLabel* m_header;
    QLabel* m_message;
    std::pair<QString, bool> m_lastSearch { QString(), false };
    QToolButton* m_previous;
    QToolButton* m_next;
    QListView* m_list;
};
