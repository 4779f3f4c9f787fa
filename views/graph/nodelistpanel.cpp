// SPDX-License-Identifier: Apache-2.0
#include "nodelistpanel.h"

#include "matchhighlightdelegate.h"

#include "nodelistmodel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QGridLayout>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QToolButton>
#include <QVBoxLayout>

using namespace msprobe::graph;

namespace {

constexpr int kMaxSearch = 200;

QCheckBox* addBox(QGroupBox* group, QGridLayout* grid, const QString& text, const QString& objectName, int index)
{
    auto* box = new QCheckBox(text, group);
    box->setObjectName(objectName);
    grid->addWidget(box, index / 2, index % 2);
    return box;
}

} // namespace

NodeListPanel::NodeListPanel(QWidget* parent)
    : QWidget(parent)
    , m_model(new NodeListModel(this))
{
    buildUi();
}

void NodeListPanel::buildUi()
{
    auto* layout = new QVBoxLayout(this);
    auto* searchRow = new QHBoxLayout;
    m_side = new QComboBox(this);
    m_side->setObjectName(QStringLiteral("side"));
    m_side->addItems({ tr("Debug"), tr("Bench") });
    m_search = new QLineEdit(this);
    m_search->setObjectName(QStringLiteral("search"));
    m_search->setMaxLength(kMaxSearch);
    m_search->setPlaceholderText(tr("Search node names"));
    m_search->setClearButtonEnabled(true);
    m_regex = new QCheckBox(tr("Regex"), this);
    m_regex->setObjectName(QStringLiteral("regex"));
    searchRow->addWidget(m_side);
    searchRow->addWidget(m_search, 1);
    searchRow->addWidget(m_regex);
    layout->addLayout(searchRow);

    auto* precision = new QGroupBox(tr("Precision (leaf debug nodes)"), this);
    auto* precisionGrid = new QGridLayout(precision);
    m_levelBoxes = { { addBox(precision, precisionGrid, tr("Pass"), QStringLiteral("pass"), 0), PrecisionLevel::Pass },
        { addBox(precision, precisionGrid, tr("Warning"), QStringLiteral("warning"), 1), PrecisionLevel::Warning },
        { addBox(precision, precisionGrid, tr("Error"), QStringLiteral("error"), 2), PrecisionLevel::Error },
        { addBox(precision, precisionGrid, tr("Unmatched"), QStringLiteral("unmatched"), 3), PrecisionLevel::Unmatched } };
    auto* overflow = new QGroupBox(tr("Overflow"), this);
    overflow->setObjectName(QStringLiteral("overflowGroup"));
    auto* overflowGrid = new QGridLayout(overflow);
    m_overflowBoxes = { { addBox(overflow, overflowGrid, tr("Medium"), QStringLiteral("medium"), 0), "medium" },
        { addBox(overflow, overflowGrid, tr("High"), QStringLiteral("high"), 1), "high" },
        { addBox(overflow, overflowGrid, tr("Critical"), QStringLiteral("critical"), 2), "critical" } };
    layout->addWidget(precision);
    layout->addWidget(overflow);

    auto* headerRow = new QHBoxLayout;
    m_header = new QLabel(this);
    m_header->setObjectName(QStringLiteral("header"));
    m_previous = new QToolButton(this);
    m_previous->setObjectName(QStringLiteral("previous"));
    m_previous->setArrowType(Qt::UpArrow);
    m_previous->setToolTip(tr("Previous node"));
    m_next = new QToolButton(this);
    m_next->setObjectName(QStringLiteral("next"));
    m_next->setArrowType(Qt::DownArrow);
    m_next->setToolTip(tr("Next node"));
    headerRow->addWidget(m_header, 1);
    headerRow->addWidget(m_previous);
    headerRow->addWidget(m_next);
    layout->addLayout(headerRow);
    m_message = new QLabel(this);
    m_message->setObjectName(QStringLiteral("message"));
    layout->addWidget(m_message);

    m_list = new QListView(this);
    m_list->setObjectName(QStringLiteral("nodeList"));
    m_list->setModel(m_model);
    m_list->setItemDelegate(new MatchHighlightDelegate(NodeListModel::MatchSpanRole, m_list));
    m_list->setUniformItemSizes(true);
    m_list->setEditTriggers(QAbstractItemView::NoEditTriggers);
    layout->addWidget(m_list, 1);

    connect(m_side, &QComboBox::currentIndexChanged, this, &NodeListPanel::apply);
    connect(m_search, &QLineEdit::textChanged, this, &NodeListPanel::apply);
    connect(m_regex, &QCheckBox::toggled, this, &NodeListPanel::apply);
    for (auto& [box, level] : m_levelBoxes)
        connect(box, &QCheckBox::toggled, this, &NodeListPanel::apply);
    for (auto& [box, level] : m_overflowBoxes)
        connect(box, &QCheckBox::toggled, this, &NodeListPanel::apply);
    connect(m_list, &QListView::clicked, this, [this](const QModelIndex& index) { choose(index.row()); });
    connect(m_previous, &QToolButton::clicked, this, [this] { step(-1); });
    connect(m_next, &QToolButton::clicked, this, [this] { step(+1); });
    apply();
}

void NodeListPanel::setGraphs(std::shared_ptr<VisGraph> problem, std::shared_ptr<VisGraph> bench, const VisDbConfig& config)
{
    m_problem = std::move(problem);
    m_bench = std::move(bench);
    const QSignalBlocker blockSide(m_side), blockSearch(m_search);
    m_side->setCurrentIndex(0);
    m_side->setEnabled(m_bench != nullptr);
    m_search->clear();
    for (auto& [box, level] : m_levelBoxes) {
        const QSignalBlocker block(box);
        box->setChecked(false);
        // A single graph has no grades: only "unmatched" (every node) means something there.
        box->setEnabled(config.isCompare() || level == PrecisionLevel::Unmatched);
    }
    for (auto& [box, level] : m_overflowBoxes) {
        const QSignalBlocker block(box);
        box->setChecked(false);
        box->setEnabled(config.overflowCheck);
    }
    apply();
}

void NodeListPanel::setStudioFocus(StudioFocus* focus)
{
    if (m_focus)
        disconnect(m_focus, nullptr, this, nullptr);
    m_focus = focus;
    if (!focus)
        return;
    connect(focus, &StudioFocus::nodeChanged, this, &NodeListPanel::followFocus);
    connect(focus, &StudioFocus::microStepChanged, this, &NodeListPanel::apply);
}

msprobe::views::NodeFilter NodeListPanel::currentFilter() const
{
    msprobe::views::NodeFilter filter;
    filter.text = m_search->text();
    filter.regex = m_regex->isChecked();
    for (const auto& [box, level] : m_levelBoxes)
        if (box->isChecked())
            filter.levels.insert(level);
    for (const auto& [box, level] : m_overflowBoxes)
        if (box->isChecked())
            filter.overflow.insert(level);
    filter.microStep = m_focus ? m_focus->microStep() : -1;
    return filter;
}

StudioFocus::Side NodeListPanel::side() const
{
    return m_side->currentIndex() == 1 && m_bench ? StudioFocus::Side::Bench : StudioFocus::Side::Problem;
}

void NodeListPanel::apply()
{
    const msprobe::views::NodeFilter filter = currentFilter();
    // The grade filters list leaf debug nodes, as the reference does.
    if (filter.gradesOnly() && m_side->currentIndex() != 0) {
        const QSignalBlocker block(m_side);
        m_side->setCurrentIndex(0);
    }
    const auto& graph = side() == StudioFocus::Side::Bench ? m_bench : m_problem;
    std::vector<std::uint32_t> nodes = graph ? msprobe::views::filterNodes(*graph, filter) : std::vector<std::uint32_t> {};
    const bool overflowChips = filter.levels.empty() && !filter.overflow.empty();
    m_model->setNodes(graph, std::move(nodes), side() == StudioFocus::Side::Bench,
        overflowChips ? msprobe::views::graphstyle::ColourMode::Overflow : msprobe::views::graphstyle::ColourMode::Precision);
    m_model->setHighlight(filter.text, filter.regex);
    m_header->setText(tr("Node list (%1)").arg(count()));
    m_message->setText(filter.regex && !QRegularExpression(filter.text).isValid() ? tr("Invalid regular expression") : QString());
    if (m_lastSearch != std::pair(filter.text, filter.regex)) {
        m_lastSearch = { filter.text, filter.regex };
        emit searchChanged(filter.text, filter.regex);
    }
}

void NodeListPanel::refresh() { apply(); }

int NodeListPanel::count() const { return m_model->rowCount(); }

QString NodeListPanel::nodeAt(int row) const { return m_model->data(m_model->index(row), Qt::DisplayRole).toString(); }

void NodeListPanel::choose(int row)
{
    if (row < 0 || row >= count())
        return;
    m_list->setCurrentIndex(m_model->index(row));
    const QString name = nodeAt(row);
    if (m_focus)
        m_focus->setNode(name, side());
    emit nodeChosen(name, side());
}

void NodeListPanel::step(int delta)
{
    if (count() == 0)
        return;
    const int current = m_list->currentIndex().isValid() ? m_list->currentIndex().row() : (delta > 0 ? -1 : count());
    const int row = current + delta;
    if (row < 0) {
        m_message->setText(tr("Top of the list"));
        return;
    }
    if (row >= count()) {
        m_message->setText(tr("Bottom of the list"));
        return;
    }
    m_message->clear();
    choose(row);
}

void NodeListPanel::followFocus(const QString& name, StudioFocus::Side side)
{
    if (side != this->side() || name.isEmpty())
        return;
    const auto& graph = side == StudioFocus::Side::Bench ? m_bench : m_problem;
    if (!graph)
        return;
    const int row = m_model->rowOf(graph->find(name.toStdString()));
    if (row >= 0)
        m_list->setCurrentIndex(m_model->index(row));
}
