// SPDX-License-Identifier: Apache-2.0
// The compare table panel: filter box, Result filter, row count and the table (NPU Name frozen). Picking a row
// focuses the graph node that owns the row's item; a focused node selects its first row.
#pragma once

#include "comparefilterproxy.h"
#include "comparetablemodel.h"
#include "studiofocus.h"

#include <QWidget>

#include <functional>

class FrozenColumnTableView;
class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;

class CompareTableView : public QWidget {
    Q_OBJECT
public:
    // NPU item name -> the graph node that owns it ("" when none), in the graph of the given step and rank
    // (-1, -1: the graph shown now).
    using NodeResolver = std::function<QString(int step, int rank, const QString& itemName)>;

    explicit CompareTableView(QWidget* parent = nullptr);

    // The rows of the graph pair shown now.
    void setRows(std::shared_ptr<const msprobe::studio::CompareRows> rows);
    // Every step's and rank's rows (null: one pair only); the "All steps and ranks" box shows them instead.
    void setAllRows(std::shared_ptr<const msprobe::studio::CompareRows> rows);
    bool showingAll() const;
    void setStudioFocus(StudioFocus* focus);
    void setNodeResolver(NodeResolver resolver);

    CompareTableModel* model() const { return m_model; }
    CompareFilterProxy* proxy() const { return m_proxy; }
    FrozenColumnTableView* table() const { return m_table; }
    QLineEdit* filterEdit() const { return m_filter; }
    QComboBox* resultBox() const { return m_result; }
    // The graph node of a source row (resolved once per rows/resolver).
    QString nodeOfRow(int sourceRow) const;
    // Selects and shows the first row of a dump.json entry ("Functional.gelu.1.forward": its
    // ".input.0", ".output.0", ... rows) in the pair shown now; false when no visible row has it.
    bool selectEntry(const QString& entry);

private:
    void currentRowChanged(const QModelIndex& current);
    void followFocus(const QString& node);
    void updateCount();
    void showRows(std::shared_ptr<const msprobe::studio::CompareRows> rows);

    CompareTableModel* m_model;
    CompareFilterProxy* m_proxy;
    FrozenColumnTableView* m_table;
    QLineEdit* m_filter;
    QComboBox* m_result;
    QLabel* m_count;
    QCheckBox* m_all;
    std::shared_ptr<const msprobe::studio::CompareRows> m_current, m_allRows;
    StudioFocus* m_focus = nullptr;
    NodeResolver m_resolver;
    mutable std::vector<QString> m_rowNodes; // lazily resolved
    bool m_pickingHere = false;
};
