// SPDX-License-Identifier: Apache-2.0
#include "frozencolumntableview.h"

#include <QHeaderView>
#include <QScrollBar>

FrozenColumnTableView::FrozenColumnTableView(QWidget* parent)
    : QTableView(parent)
    , m_frozen(new QTableView(this))
{
    m_frozen->setFocusPolicy(Qt::NoFocus);
    m_frozen->verticalHeader()->hide();
    m_frozen->horizontalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_frozen->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_frozen->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_frozen->setVerticalScrollMode(ScrollPerPixel);
    // No style sheet: one would pin the palette it was polished with, leaving the column light in the dark theme.
    m_frozen->setFrameShape(QFrame::NoFrame);
    viewport()->stackUnder(m_frozen);
    setHorizontalScrollMode(ScrollPerPixel);
    setVerticalScrollMode(ScrollPerPixel);

    connect(horizontalHeader(), &QHeaderView::sectionResized, this, [this](int column, int, int size) {
        if (column < m_count) {
            m_frozen->setColumnWidth(column, size);
            updateFrozenGeometry();
        }
    });
    connect(verticalHeader(), &QHeaderView::sectionResized, this, [this](int row, int, int size) { m_frozen->setRowHeight(row, size); });
    connect(m_frozen->verticalScrollBar(), &QAbstractSlider::valueChanged, verticalScrollBar(), &QAbstractSlider::setValue);
    connect(verticalScrollBar(), &QAbstractSlider::valueChanged, m_frozen->verticalScrollBar(), &QAbstractSlider::setValue);
    // Clicking the frozen header sorts like the main header.
    connect(m_frozen->horizontalHeader(), &QHeaderView::sectionClicked, this, [this](int column) {
        const bool same = horizontalHeader()->sortIndicatorSection() == column;
        const Qt::SortOrder order = same && horizontalHeader()->sortIndicatorOrder() == Qt::AscendingOrder ? Qt::DescendingOrder : Qt::AscendingOrder;
        sortByColumn(column, order);
    });
    connect(horizontalHeader(), &QHeaderView::sortIndicatorChanged, m_frozen->horizontalHeader(), &QHeaderView::setSortIndicator);
}

void FrozenColumnTableView::setModel(QAbstractItemModel* model)
{
    QTableView::setModel(model);
    m_frozen->setModel(model);
    m_frozen->setSelectionModel(selectionModel());
    m_frozen->horizontalHeader()->setSortIndicatorShown(true);
    connect(model, &QAbstractItemModel::modelReset, this, &FrozenColumnTableView::syncColumns);
    connect(model, &QAbstractItemModel::columnsInserted, this, &FrozenColumnTableView::syncColumns);
    connect(model, &QAbstractItemModel::layoutChanged, this, &FrozenColumnTableView::syncColumns);
    syncColumns();
}

void FrozenColumnTableView::setFrozenColumnCount(int count)
{
    m_count = count;
    syncColumns();
}

void FrozenColumnTableView::syncColumns()
{
    if (!model())
        return;
    m_frozen->verticalHeader()->setMinimumSectionSize(verticalHeader()->minimumSectionSize());
    m_frozen->verticalHeader()->setDefaultSectionSize(verticalHeader()->defaultSectionSize());
    const int columns = model()->columnCount();
    for (int column = 0; column < columns; ++column) {
        m_frozen->setColumnHidden(column, column >= m_count);
        if (column < m_count)
            m_frozen->setColumnWidth(column, columnWidth(column));
    }
    m_frozen->setVisible(columns > m_count);
    updateFrozenGeometry();
}

int FrozenColumnTableView::frozenWidth() const
{
    int width = 0;
    for (int column = 0; column < m_count && model() && column < model()->columnCount(); ++column)
        width += columnWidth(column);
    return width;
}

void FrozenColumnTableView::updateFrozenGeometry()
{
    m_frozen->setGeometry(verticalHeader()->width() + frameWidth(), frameWidth(), frozenWidth(),
        viewport()->height() + horizontalHeader()->height());
}

void FrozenColumnTableView::resizeEvent(QResizeEvent* event)
{
    QTableView::resizeEvent(event);
    updateFrozenGeometry();
}

QModelIndex FrozenColumnTableView::moveCursor(CursorAction cursorAction, Qt::KeyboardModifiers modifiers)
{
    const QModelIndex current = QTableView::moveCursor(cursorAction, modifiers);
    if (cursorAction == MoveLeft && current.column() >= m_count) {
        const int left = visualRect(current).topLeft().x();
        if (left < frozenWidth())
            horizontalScrollBar()->setValue(horizontalScrollBar()->value() + left - frozenWidth());
    }
    return current;
}

void FrozenColumnTableView::scrollTo(const QModelIndex& index, ScrollHint hint)
{
    if (index.column() >= m_count) {
        QTableView::scrollTo(index, hint);
        return;
    }
    // A frozen cell is always in view sideways: scroll only vertically.
    const int horizontal = horizontalScrollBar()->value();
    QTableView::scrollTo(index, hint);
    horizontalScrollBar()->setValue(horizontal);
}
