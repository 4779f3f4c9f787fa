// SPDX-License-Identifier: Apache-2.0
#include "comparetableview.h"

#include "frozencolumntableview.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFontMetrics>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QVBoxLayout>

CompareTableView::CompareTableView(QWidget* parent)
    : QWidget(parent)
    , m_model(new CompareTableModel(this))
    , m_proxy(new CompareFilterProxy(this))
    , m_table(new FrozenColumnTableView(this))
    , m_filter(new QLineEdit(this))
    , m_result(new QComboBox(this))
    , m_count(new QLabel(this))
    , m_all(new QCheckBox(tr("All steps and ranks"), this))
{
    m_all->setObjectName(QStringLiteral("allRanks"));
    m_all->setToolTip(tr("Show the rows of every compared step and rank, with Step and Rank columns"));
    m_all->setVisible(false);
    m_proxy->setSourceModel(m_model);
    m_table->setModel(m_proxy);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(-1, Qt::AscendingOrder); // file order until a header is clicked
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setWordWrap(false);
    // Elided in the middle, so a narrow column keeps a number's exponent (7.28…e-05) and an entry's last part.
    m_table->setTextElideMode(Qt::ElideMiddle);
    m_table->verticalHeader()->setMinimumSectionSize(m_table->fontMetrics().height() + 4);
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 6);
    m_table->horizontalHeader()->setDefaultSectionSize(110);

    m_filter->setPlaceholderText(tr("Filter by NPU or bench name…"));
    m_filter->setClearButtonEnabled(true);
    m_result->addItem(tr("All results"), CompareFilterProxy::AllResults);
    m_result->addItem(tr("Warning and error"), CompareFilterProxy::NotPass);
    m_result->addItem(tr("Error"), CompareFilterProxy::ErrorOnly);
    m_result->addItem(tr("Warning"), CompareFilterProxy::WarningOnly);
    m_result->addItem(tr("Pass"), CompareFilterProxy::PassOnly);

    auto* bar = new QHBoxLayout;
    bar->addWidget(m_filter, 1);
    bar->addWidget(m_result);
    bar->addWidget(m_all);
    bar->addWidget(m_count);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addLayout(bar);
    layout->addWidget(m_table, 1);

    connect(m_all, &QCheckBox::toggled, this, [this](bool all) { showRows(all ? m_allRows : m_current); });
    connect(m_filter, &QLineEdit::textChanged, m_proxy, &CompareFilterProxy::setText);
    connect(m_result, &QComboBox::currentIndexChanged, this,
        [this] { m_proxy->setResultFilter(static_cast<CompareFilterProxy::ResultFilter>(m_result->currentData().toInt())); });
    connect(m_proxy, &QAbstractItemModel::rowsInserted, this, &CompareTableView::updateCount);
    connect(m_proxy, &QAbstractItemModel::rowsRemoved, this, &CompareTableView::updateCount);
    connect(m_proxy, &QAbstractItemModel::modelReset, this, &CompareTableView::updateCount);
    connect(m_proxy, &QAbstractItemModel::layoutChanged, this, &CompareTableView::updateCount);
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
        [this](const QModelIndex& current) { currentRowChanged(current); });
    updateCount();
}

void CompareTableView::setRows(std::shared_ptr<const msprobe::studio::CompareRows> rows)
{
    m_current = std::move(rows);
    if (showingAll()) {
        if (m_focus)
            followFocus(m_focus->node());
        return;
    }
    showRows(m_current);
}

void CompareTableView::setAllRows(std::shared_ptr<const msprobe::studio::CompareRows> rows)
{
    if (rows == m_allRows)
        return;
    m_allRows = std::move(rows);
    m_all->setVisible(m_allRows != nullptr);
    if (!m_allRows && m_all->isChecked())
        m_all->setChecked(false); // shows the current rows again
    else if (showingAll())
        showRows(m_allRows);
}

bool CompareTableView::showingAll() const { return m_all->isChecked() && m_allRows; }

void CompareTableView::showRows(std::shared_ptr<const msprobe::studio::CompareRows> rows)
{
    m_rowNodes.clear();
    m_model->setRows(std::move(rows));
    // Wide enough for each title (names get more); measuring every cell would cost too much on big tables.
    const QFontMetrics metrics(m_table->horizontalHeader()->font());
    for (int column = 0; column < m_model->columnCount(); ++column) {
        const bool name = column == m_model->nameColumn() || column == m_model->benchNameColumn();
        const int title = metrics.horizontalAdvance(m_model->headerData(column, Qt::Horizontal).toString()) + 24;
        m_table->setColumnWidth(column, name ? std::max(title, 340) : std::max(title, 70));
    }
    if (m_focus)
        followFocus(m_focus->node());
}

void CompareTableView::setStudioFocus(StudioFocus* focus)
{
    if (m_focus)
        disconnect(m_focus, nullptr, this, nullptr);
    m_focus = focus;
    if (m_focus)
        connect(m_focus, &StudioFocus::nodeChanged, this, [this](const QString& name) { followFocus(name); });
}

void CompareTableView::setNodeResolver(NodeResolver resolver)
{
    m_resolver = std::move(resolver);
    m_rowNodes.clear();
}

QString CompareTableView::nodeOfRow(int sourceRow) const
{
    if (!m_resolver || sourceRow < 0 || sourceRow >= m_model->rowCount())
        return QString();
    if (m_rowNodes.empty()) {
        m_rowNodes.resize(static_cast<std::size_t>(m_model->rowCount()));
        for (int row = 0; row < m_model->rowCount(); ++row) {
            const auto [step, rank] = m_model->rows()->origin(row);
            m_rowNodes[static_cast<std::size_t>(row)] = m_resolver(step, rank, m_model->rows()->npuName(row));
        }
    }
    return m_rowNodes[static_cast<std::size_t>(sourceRow)];
}

void CompareTableView::currentRowChanged(const QModelIndex& current)
{
    if (!m_focus || !current.isValid())
        return;
    const int row = m_proxy->mapToSource(current).row();
    const QString node = nodeOfRow(row);
    if (node.isEmpty())
        return;
    m_pickingHere = true;
    // A row of another step or rank switches the graphs first.
    const auto [step, rank] = m_model->rows()->origin(row);
    if (step >= 0 && (step != m_focus->step() || rank != m_focus->rank()))
        m_focus->setGraph(step, rank);
    m_focus->setNode(node, StudioFocus::Side::Problem);
    m_pickingHere = false;
}

void CompareTableView::followFocus(const QString& node)
{
    if (m_pickingHere || node.isEmpty())
        return;
    auto inShownGraph = [this](int row) {
        const auto [step, rank] = m_model->rows()->origin(row);
        return step < 0 || (step == m_focus->step() && rank == m_focus->rank());
    };
    const QModelIndex current = m_proxy->mapToSource(m_table->currentIndex());
    if (current.isValid() && inShownGraph(current.row()) && nodeOfRow(current.row()) == node)
        return;
    for (int row = 0; row < m_model->rowCount(); ++row) {
        if (!inShownGraph(row) || nodeOfRow(row) != node)
            continue;
        const QModelIndex index = m_proxy->mapFromSource(m_model->index(row, 0));
        if (!index.isValid())
            continue; // filtered out: try the next row of the node
        m_pickingHere = true;
        m_table->setCurrentIndex(index);
        m_table->scrollTo(index, QAbstractItemView::PositionAtCenter);
        m_pickingHere = false;
        return;
    }
    m_table->clearSelection();
}

bool CompareTableView::selectEntry(const QString& entry)
{
    if (!m_model->rows() || entry.isEmpty())
        return false;
    const int name = m_model->rows()->column(QStringLiteral("NPU Name"));
    const QString prefix = entry + QLatin1Char('.');
    for (int row = 0; row < m_model->rowCount(); ++row) {
        const auto [step, rank] = m_model->rows()->origin(row);
        if (step >= 0 && m_focus && (step != m_focus->step() || rank != m_focus->rank()))
            continue;
        const QString item = name >= 0 ? m_model->rows()->text(row, name) : m_model->rows()->npuName(row);
        if (item != entry && !item.startsWith(prefix))
            continue;
        const QModelIndex index = m_proxy->mapFromSource(m_model->index(row, 0));
        if (!index.isValid())
            continue;
        m_pickingHere = true;
        m_table->setCurrentIndex(index);
        m_table->scrollTo(index, QAbstractItemView::PositionAtCenter);
        m_pickingHere = false;
        return true;
    }
    return false;
}

void CompareTableView::updateCount()
{
    m_count->setText(tr("%1 of %2 rows").arg(m_proxy->rowCount()).arg(m_model->rowCount()));
}
