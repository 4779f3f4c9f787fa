// SPDX-License-Identifier: Apache-2.0
// Draws a list item with the part of its text that matched the search marked (NodeListModel::MatchSpanRole).
#pragma once

#include <QStyledItemDelegate>

class MatchHighlightDelegate : public QStyledItemDelegate {
    Q_OBJECT
public:
    explicit MatchHighlightDelegate(int spanRole, QObject* parent = nullptr);
    void paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const override;

private:
    int m_spanRole;
};
