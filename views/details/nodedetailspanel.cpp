// SPDX-License-Identifier: Apache-2.0
#include "details/nodedetailspanel.h"

#include "details/nodedetailsmodel.h"

#include "graph/visdb/node_details.h"

#include <QApplication>
#include <QClipboard>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTabWidget>
#include <QTableView>
#include <QTreeWidget>
#include <QVBoxLayout>

using msprobe::graph::VisGraph;
using msprobe::graph::VisNode;

namespace {

QString text(const std::string& s) { return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size())); }

// A read-only text box with a Copy button under a title.
QGroupBox* copyableText(const QString& title, QPlainTextEdit*& edit, QWidget* parent)
{
    auto* box = new QGroupBox(title, parent);
    auto* layout = new QVBoxLayout(box);
    edit = new QPlainTextEdit(box);
    edit->setReadOnly(true);
    edit->setLineWrapMode(QPlainTextEdit::NoWrap);
    auto* copy = new QPushButton(NodeDetailsPanel::tr("Copy"), box);
    QObject::connect(copy, &QPushButton::clicked, edit, [edit] { QApplication::clipboard()->setText(edit->toPlainText()); });
    layout->addWidget(edit);
    layout->addWidget(copy, 0, Qt::AlignRight);
    return box;
}

QString swatch(const QColor& colour, const QString& label)
{
    return QStringLiteral("<span style=\"background:%1;border:1px solid #999\">&nbsp;&nbsp;&nbsp;</span> %2").arg(colour.name(), label);
}

} // namespace

NodeDetailsPanel::NodeDetailsPanel(QWidget* parent)
    : QWidget(parent)
    , m_model(new NodeDetailsModel(this))
    , m_tabs(new QTabWidget(this))
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_tabs);

    auto* details = new QWidget(m_tabs);
    auto* detailsLayout = new QVBoxLayout(details);
    auto* headerRow = new QHBoxLayout;
    m_header = new QLabel(details);
    m_header->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* legend = new QLabel(swatch(NodeDetailsModel::debugRowColour(), tr("Debug")) + QStringLiteral("&nbsp;&nbsp;")
            + swatch(NodeDetailsModel::benchRowColour(), tr("Bench")) + QStringLiteral("&nbsp;&nbsp;")
            + tr("<span style=\"color:#808080\">grey</span>: no item at the same position on the other side"),
        details);
    headerRow->addWidget(m_header, 1);
    headerRow->addWidget(legend);
    m_table = new QTableView(details);
    m_table->setModel(m_model);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setWordWrap(false);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    m_table->horizontalHeader()->setDefaultSectionSize(110);
    detailsLayout->addLayout(headerRow);
    detailsLayout->addWidget(m_table);
    m_tabs->addTab(details, tr("Comparison details"));

    auto* info = new QWidget(m_tabs);
    auto* infoLayout = new QHBoxLayout(info);
    infoLayout->addWidget(copyableText(tr("Debug stack"), m_problemStack, info));
    infoLayout->addWidget(copyableText(tr("Bench stack"), m_benchStack, info));
    auto* right = new QVBoxLayout;
    right->addWidget(copyableText(tr("Parallel merged info"), m_merge, info));
    auto* peersBox = new QGroupBox(tr("Communication peers (double-click to go)"), info);
    auto* peersLayout = new QVBoxLayout(peersBox);
    m_peers = new QTreeWidget(peersBox);
    m_peers->setHeaderLabels({ tr("Rank"), tr("Node"), tr("Peer index") });
    m_peers->setRootIsDecorated(false);
    peersLayout->addWidget(m_peers);
    right->addWidget(peersBox);
    infoLayout->addLayout(right);
    m_tabs->addTab(info, tr("Node information"));
    connect(m_peers, &QTreeWidget::itemActivated, this,
        [this](QTreeWidgetItem* item) { goToPeer(item->data(0, Qt::UserRole).toInt(), item->text(1)); });
    reload();
}

NodeDetailsPanel::~NodeDetailsPanel() = default;

void NodeDetailsPanel::setGraphs(std::shared_ptr<VisGraph> problem, std::shared_ptr<VisGraph> bench, std::shared_ptr<msprobe::graph::VisDb> db)
{
    m_problem = std::move(problem);
    m_bench = std::move(bench);
    m_db = std::move(db);
    m_tabs->setTabText(0, m_bench ? tr("Comparison details") : tr("Input/Output details"));
    m_problemNode.clear();
    m_benchNode.clear();
    if (m_focus && !m_focus->node().isEmpty())
        showNode(m_focus->node(), m_focus->side());
    else
        reload();
}

void NodeDetailsPanel::setStudioFocus(StudioFocus* focus)
{
    if (m_focus)
        disconnect(m_focus, nullptr, this, nullptr);
    m_focus = focus;
    if (!focus)
        return;
    connect(focus, &StudioFocus::nodeChanged, this, &NodeDetailsPanel::showNode);
    showNode(focus->node(), focus->side());
}

void NodeDetailsPanel::setDataProvider(DataProvider provider)
{
    m_provider = std::move(provider);
    reload();
}

const VisNode* NodeDetailsPanel::nodeOf(StudioFocus::Side side, const QString& name) const
{
    const VisGraph* graph = side == StudioFocus::Side::Problem ? m_problem.get() : m_bench.get();
    if (!graph || name.isEmpty())
        return nullptr;
    const auto index = graph->find(name.toStdString());
    return index == msprobe::graph::kNoVisNode ? nullptr : &graph->nodes[index];
}

void NodeDetailsPanel::showNode(const QString& name, StudioFocus::Side side)
{
    // Either side shows the pair: a bench node brings its debug partner (the last element of its link).
    const VisNode* node = nodeOf(side, name);
    const QString partner = node && node->matched() ? text(node->link.back()) : QString();
    m_problemNode = side == StudioFocus::Side::Problem ? (node ? name : QString()) : partner;
    m_benchNode = side == StudioFocus::Side::Bench ? (node ? name : QString()) : partner;
    reload();
}

void NodeDetailsPanel::refreshNodes(const QStringList& names)
{
    if (names.contains(m_problemNode) || names.contains(m_benchNode)) {
        // The link may have changed: re-derive the pair from the side the user picked.
        if (m_focus && !m_focus->node().isEmpty())
            showNode(m_focus->node(), m_focus->side());
        else
            reload();
    }
}

std::pair<std::string, std::string> NodeDetailsPanel::nodeData(StudioFocus::Side side, const std::string& name) const
{
    if (m_provider) {
        auto data = m_provider(side, name);
        if (!data.first.empty() || !data.second.empty())
            return data;
    }
    const VisNode* node = nodeOf(side, text(name));
    if (node && (!node->inputData.empty() || !node->outputData.empty()))
        return { node->inputData, node->outputData };
    const VisGraph* graph = side == StudioFocus::Side::Problem ? m_problem.get() : m_bench.get();
    if (m_db && graph) {
        try {
            return m_db->nodeData(graph->step, graph->rank, graph->dataSource, name);
        } catch (const std::exception&) {
        }
    }
    return {};
}

void NodeDetailsPanel::reload()
{
    const VisNode* problem = nodeOf(StudioFocus::Side::Problem, m_problemNode);
    const VisNode* bench = nodeOf(StudioFocus::Side::Bench, m_benchNode);
    m_header->setText(tr("Debug node: %1    Bench node: %2")
                          .arg(problem ? m_problemNode : tr("(none)"), bench ? m_benchNode : tr("(none)")));
    msprobe::graph::DetailsTable table;
    try {
        const auto pd = problem ? nodeData(StudioFocus::Side::Problem, problem->name) : std::pair<std::string, std::string> {};
        const auto bd = bench ? nodeData(StudioFocus::Side::Bench, bench->name) : std::pair<std::string, std::string> {};
        const msprobe::graph::StoredItems npuItems(pd.first, pd.second, "debug node " + m_problemNode.toStdString());
        if (bench) {
            const msprobe::graph::StoredItems benchItems(bd.first, bd.second, "bench node " + m_benchNode.toStdString());
            table = msprobe::graph::comparisonTable(problem ? problem->name : std::string(), npuItems, bench->name, &benchItems);
        } else if (problem) {
            table = msprobe::graph::comparisonTable(problem->name, npuItems, {}, nullptr);
        }
    } catch (const std::exception& error) {
        m_header->setText(m_header->text() + QStringLiteral("  —  ") + QString::fromUtf8(error.what()));
    }
    m_model->setTable(std::move(table));

    auto stackOf = [this](const VisNode* node) {
        if (!node || !m_db)
            return QString();
        QStringList frames;
        try {
            for (const auto& frame : m_db->stackFrames(node->stackId))
                frames << text(frame);
        } catch (const std::exception&) {
        }
        return frames.join(QLatin1Char('\n'));
    };
    m_problemStack->setPlainText(stackOf(problem));
    m_benchStack->setPlainText(stackOf(bench));
    QStringList merge;
    for (const VisNode* node : { problem, bench })
        if (node)
            for (const auto& line : msprobe::graph::parallelMergeLines(node->parallelMergeInfo))
                merge << text(line);
    m_merge->setPlainText(merge.join(QLatin1Char('\n')));

    m_peers->clear();
    if (problem) {
        const auto info = msprobe::graph::distributedInfo(problem->matchedDistributed);
        for (const auto& peer : info.peers) {
            auto* item = new QTreeWidgetItem(m_peers, { QString::number(peer.rank), text(peer.node), text(peer.index) });
            item->setData(0, Qt::UserRole, peer.rank);
            item->setToolTip(1, text(info.type));
        }
    }
}

QString NodeDetailsPanel::stackText(StudioFocus::Side side) const
{
    return side == StudioFocus::Side::Problem ? m_problemStack->toPlainText() : m_benchStack->toPlainText();
}

QString NodeDetailsPanel::mergeText() const { return m_merge->toPlainText(); }

QStringList NodeDetailsPanel::peers() const
{
    QStringList out;
    for (int i = 0; i < m_peers->topLevelItemCount(); ++i)
        out << m_peers->topLevelItem(i)->text(0) + QLatin1Char('\t') + m_peers->topLevelItem(i)->text(1);
    return out;
}

void NodeDetailsPanel::goToPeer(int rank, const QString& node)
{
    if (!m_focus)
        return;
    m_focus->setGraph(m_focus->step(), rank);
    m_focus->setNode(node, StudioFocus::Side::Problem);
}
