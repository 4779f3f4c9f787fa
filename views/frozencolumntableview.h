// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QTableView>

// A table whose first columns stay in view while the others scroll sideways (an overlay view on the same
// model and selection, as in Qt's "Frozen Column" example).
class FrozenColumnTableView : public QTableView {
    Q_OBJECT
public:
    explicit FrozenColumnTableView(QWidget* parent = nullptr);

    void setModel(QAbstractItemModel* model) override;
    void setFrozenColumnCount(int count);
    QTableView* frozenView() const { return m_frozen; }
    void scrollTo(const QModelIndex& index, ScrollHint hint = EnsureVisible) override;

protected:
    void resizeEvent(QResizeEvent* event) override;
    QModelIndex moveCursor(CursorAction cursorAction, Qt::KeyboardModifiers modifiers) override;

private:
    void syncColumns();
    void updateFrozenGeometry();
    int frozenWidth() const;

    QTableView* m_frozen;
    int m_count = 1;
};
