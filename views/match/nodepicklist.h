// SPDX-License-Identifier: Apache-2.0
// A titled, searchable list of node names with its count: "Debug unmatched (12)" over a filter box.
#pragma once

#include <QWidget>

class QLabel;
class QLineEdit;
class QListView;
class QSortFilterProxyModel;
class QStringListModel;

class NodePickList : public QWidget {
    Q_OBJECT
public:
    NodePickList(const QString& title, QWidget* parent = nullptr);

    void setNames(const QStringList& names); // keeps the current name when it is still listed
    QStringList names() const;
    int count() const;
    QString currentName() const;
    bool setCurrentName(const QString& name); // false when not listed
    void setFilter(const QString& text);
    int visibleCount() const;

signals:
    void currentNameChanged(const QString& name);

private:
    void updateTitle();

    QString m_title;
    QLabel* m_label;
    QLineEdit* m_filter;
    QListView* m_view;
    QStringListModel* m_model;
    QSortFilterProxyModel* m_proxy;
};
