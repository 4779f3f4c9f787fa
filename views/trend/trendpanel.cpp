// SPDX-License-Identifier: Apache-2.0
#include "trendpanel.h"

#include "studiofocus.h"
#include "trend/trendplotstyle.h"
#include "trendsource.h"

#include <QCheckBox>
#include <QComboBox>
#include <QCompleter>
#include <QDragEnterEvent>
#include <QEvent>
#include <QFormLayout>
#include <QGridLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMimeData>
#include <QScrollArea>
#include <QSplitter>
#include <QToolButton>
#include <QVBoxLayout>

#include <cmath>

using msprobe::studio::Dimension;
using msprobe::views::HeatmapMode;
using msprobe::studio::TrendGrid;
using msprobe::studio::TrendQuery;

namespace {

QStringList droppedPaths(const QMimeData* mime)
{
    QStringList paths;
    if (!mime || !mime->hasUrls())
        return paths;
    for (const QUrl& url : mime->urls())
        if (url.isLocalFile())
            paths << url.toLocalFile();
    return paths;
}

} // namespace

TrendPanel::TrendPanel(QWidget* parent)
    : QWidget(parent)
    , m_metric(new QComboBox(this))
    , m_stat(new QComboBox(this))
    , m_dimension(new QComboBox(this))
    , m_value(new QComboBox(this))
    , m_mode(new QComboBox(this))
    , m_tagFilter(new QLineEdit(this))
    , m_tags(new QListWidget(this))
    , m_difference(new QCheckBox(this))
    , m_empty(new QLabel(this))
    , m_legendNote(new QLabel(this))
    , m_divergence(new QLabel(this))
    , m_metricLabel(new QLabel(this))
    , m_statLabel(new QLabel(this))
    , m_dimensionLabel(new QLabel(this))
    , m_valueLabel(new QLabel(this))
    , m_tagsLabel(new QLabel(this))
    , m_modeLabel(new QLabel(this))
    , m_splitter(new QSplitter(Qt::Horizontal, this))
    , m_heatmap(new TrendHeatmap(this))
    , m_lines(new TrendLineChart(this))
{
    setObjectName(QStringLiteral("trendPanel"));
    setAcceptDrops(true);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* plots = new QSplitter(Qt::Vertical, m_splitter);
    plots->setObjectName(QStringLiteral("trendPlotSplitter"));
    // The heat map with its range sliders (drag to pan a zoomed map; the wheel zooms).
    auto* heatmapBox = new QWidget(plots);
    auto* heatmapLayout = new QGridLayout(heatmapBox);
    heatmapLayout->setContentsMargins(0, 0, 0, 0);
    heatmapLayout->setSpacing(0);
    m_xSlider = new AxisScrollBar(Qt::Horizontal, m_heatmap->xAxis, heatmapBox);
    m_ySlider = new AxisScrollBar(Qt::Vertical, m_heatmap->yAxis, heatmapBox);
    m_xSlider->setObjectName(QStringLiteral("trendXSlider"));
    m_ySlider->setObjectName(QStringLiteral("trendYSlider"));
    heatmapLayout->addWidget(m_heatmap, 0, 0);
    heatmapLayout->addWidget(m_ySlider, 0, 1);
    heatmapLayout->addWidget(m_xSlider, 1, 0);
    plots->addWidget(heatmapBox);
    plots->addWidget(m_lines);
    plots->setStretchFactor(0, 7);
    plots->setStretchFactor(1, 3);
    // The toolbar scrolls where the panel is short.
    auto* toolbarScroll = new QScrollArea(m_splitter);
    toolbarScroll->setFrameShape(QFrame::NoFrame);
    toolbarScroll->setWidgetResizable(true);
    toolbarScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    toolbarScroll->setWidget(buildToolbar());
    m_splitter->addWidget(toolbarScroll);
    m_splitter->addWidget(plots);
    m_splitter->setStretchFactor(0, 2);
    m_splitter->setStretchFactor(1, 8);
    m_splitter->setSizes({ 220, 880 }); // the toolbar a fifth of the width, as the reference
    m_splitter->widget(0)->setMinimumWidth(150);
    m_empty->setAlignment(Qt::AlignCenter);
    m_empty->setWordWrap(true);
    layout->addWidget(m_empty);
    layout->addWidget(m_splitter, 1);
    m_splitter->hide();
    connect(m_heatmap, &TrendHeatmap::cellClicked, this, &TrendPanel::activateCell);
    retranslate();
}

QWidget* TrendPanel::buildToolbar()
{
    auto* bar = new QWidget(this);
    bar->setObjectName(QStringLiteral("trendToolbar"));
    auto* form = new QVBoxLayout(bar);
    form->setContentsMargins(6, 6, 6, 6);
    auto row = [&](QLabel* label, QWidget* widget) {
        form->addWidget(label);
        form->addWidget(widget);
    };
    m_metric->setObjectName(QStringLiteral("trendMetric"));
    m_stat->setObjectName(QStringLiteral("trendStat"));
    m_dimension->setObjectName(QStringLiteral("trendDimension"));
    m_value->setObjectName(QStringLiteral("trendValue"));
    m_mode->setObjectName(QStringLiteral("trendMode"));
    m_tags->setObjectName(QStringLiteral("trendTags"));
    m_difference->setObjectName(QStringLiteral("trendDifference"));
    // The value list can be long (every target): typing filters it.
    m_value->setEditable(true);
    m_value->setInsertPolicy(QComboBox::NoInsert);
    m_value->completer()->setFilterMode(Qt::MatchContains);
    m_value->completer()->setCompletionMode(QCompleter::PopupCompletion);
    m_value->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_value->setMinimumContentsLength(12);
    m_dimension->addItem(QString(), static_cast<int>(Dimension::Step));
    m_dimension->addItem(QString(), static_cast<int>(Dimension::Rank));
    m_dimension->addItem(QString(), static_cast<int>(Dimension::Module));
    m_mode->addItem(QString(), static_cast<int>(HeatmapMode::Continuous));
    m_mode->addItem(QString(), static_cast<int>(HeatmapMode::Piecewise));
    m_tags->setMinimumHeight(80);
    row(m_metricLabel, m_metric);
    row(m_statLabel, m_stat);
    row(m_dimensionLabel, m_dimension);
    row(m_valueLabel, m_value);
    form->addWidget(m_tagsLabel);
    form->addWidget(m_tagFilter);
    form->addWidget(m_tags, 1);
    row(m_modeLabel, m_mode);
    form->addWidget(m_difference);
    m_divergence->setWordWrap(true);
    m_divergence->setTextInteractionFlags(Qt::TextSelectableByMouse);
    form->addWidget(m_divergence);
    m_legendNote->setWordWrap(true);
    form->addWidget(m_legendNote);
    auto* buttons = new QHBoxLayout;
    auto* clear = new QToolButton(bar);
    clear->setObjectName(QStringLiteral("trendClearLines"));
    auto* exportButton = new QToolButton(bar);
    exportButton->setObjectName(QStringLiteral("trendExport"));
    buttons->addWidget(clear);
    buttons->addWidget(exportButton);
    buttons->addStretch(1);
    form->addLayout(buttons);
    connect(clear, &QToolButton::clicked, m_lines, &TrendLineChart::clearSeries);
    connect(exportButton, &QToolButton::clicked, this, &TrendPanel::exportRequested);

    connect(m_metric, &QComboBox::currentIndexChanged, this, &TrendPanel::metricChanged);
    connect(m_stat, &QComboBox::currentIndexChanged, this, &TrendPanel::statChanged);
    connect(m_dimension, &QComboBox::currentIndexChanged, this, [this] {
        reloadValues();
        reloadHeatmap();
    });
    connect(m_value, &QComboBox::currentIndexChanged, this, &TrendPanel::reloadHeatmap);
    connect(m_mode, &QComboBox::currentIndexChanged, this, &TrendPanel::reloadHeatmap);
    connect(m_difference, &QCheckBox::toggled, this, &TrendPanel::reloadHeatmap);
    connect(m_tagFilter, &QLineEdit::textChanged, this, &TrendPanel::filterTags);
    connect(m_tags, &QListWidget::itemChanged, this, [this] {
        if (m_rebuilding)
            return;
        reloadValues();
        reloadHeatmap();
    });
    return bar;
}

void TrendPanel::retranslate()
{
    m_metricLabel->setText(tr("Metric"));
    m_statLabel->setText(tr("Statistic"));
    m_dimensionLabel->setText(tr("Dimension"));
    m_valueLabel->setText(tr("Value"));
    m_tagsLabel->setText(tr("Tags (all must match)"));
    m_modeLabel->setText(tr("Heat-map mode"));
    m_dimension->setItemText(0, tr("Step"));
    m_dimension->setItemText(1, tr("Rank"));
    m_dimension->setItemText(2, tr("Module name"));
    m_mode->setItemText(0, tr("Continuous"));
    m_mode->setItemText(1, tr("Piecewise (3-sigma)"));
    m_tagFilter->setPlaceholderText(tr("Filter tags…"));
    m_difference->setText(tr("Difference (problem vs bench)"));
    m_legendNote->setText(tr("Grey cells: no data (no row, or NULL: NaN in the run). Click a cell for its line; wheel zooms, drag pans."));
    findChild<QToolButton*>(QStringLiteral("trendClearLines"))->setText(tr("Clear lines"));
    findChild<QToolButton*>(QStringLiteral("trendExport"))->setText(tr("Export…"));
    m_empty->setText(tr("No trend database open. Use File > Open trend database…, or drop a *.trend.db, a monitor output "
                        "folder or a dump folder here (two: problem and bench)."));
}

void TrendPanel::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    if (event->type() == QEvent::PaletteChange) { // the dark theme switched on or off
        msprobe::views::styleTrendPlot(m_heatmap);
        msprobe::views::styleTrendPlot(m_lines);
        m_heatmap->replot();
        m_lines->replot();
    }
    QWidget::changeEvent(event);
}

void TrendPanel::setSource(TrendSource* source)
{
    if (m_source)
        disconnect(m_source, nullptr, this, nullptr);
    m_source = source;
    m_pendingGrid = 0;
    if (source) {
        connect(source, &TrendSource::opened, this, &TrendPanel::rebuildChoices);
        connect(source, &TrendSource::gridReady, this, [this](quint64 request, const TrendGrid& grid, const QString& error) {
            if (request == m_pendingGrid)
                showHeatmap(grid, error);
        });
    }
    rebuildChoices();
}

void TrendPanel::setStudioFocus(StudioFocus* focus)
{
    if (m_focus)
        disconnect(m_focus, nullptr, this, nullptr);
    m_focus = focus;
    if (focus) {
        connect(focus, &StudioFocus::nodeChanged, this, [this](const QString& name) { followNode(name); });
        connect(focus, &StudioFocus::graphChanged, this, &TrendPanel::followGraph);
    }
}

// The studio's step and rank (chosen in the graph, the compare table or the parallelism grid) become the shown
// step (Step dimension) or rank (Rank dimension) when the database has it.
void TrendPanel::followGraph(int step, int rank)
{
    if (m_focusing)
        return;
    const Dimension dimension = query().dimension;
    if (dimension == Dimension::Module)
        return;
    const qlonglong wanted = dimension == Dimension::Step ? step : rank;
    const int index = m_value->findData(QVariant::fromValue(wanted));
    if (index >= 0 && index != m_value->currentIndex())
        m_value->setCurrentIndex(index);
}

TrendQuery TrendPanel::query() const
{
    TrendQuery query;
    query.metric = m_metric->currentText();
    query.stat = m_stat->currentText();
    query.dimension = static_cast<Dimension>(m_dimension->currentData().toInt());
    query.value = m_value->currentData().toLongLong();
    for (int i = 0; i < m_tags->count(); ++i)
        if (m_tags->item(i)->checkState() == Qt::Checked)
            query.tags << m_tags->item(i)->data(Qt::UserRole).toString();
    return query;
}

QString TrendPanel::cellsCsv() const { return msprobe::studio::gridCsv(m_heatmap->grid()); }

QString TrendPanel::divergenceText() const { return m_divergence->text(); }

void TrendPanel::rebuildChoices()
{
    const bool open = m_source && m_source->isOpen();
    m_empty->setVisible(!open);
    m_splitter->setVisible(open);
    m_rebuilding = true;
    m_metric->clear();
    if (open)
        m_metric->addItems(m_source->problem()->metrics());
    m_difference->setVisible(open && m_source->isPair());
    m_difference->setChecked(open && m_source->isPair());
    m_rebuilding = false;
    m_lines->clearSeries();
    metricChanged();
}

// Changing the metric resets the statistic and the tags; changing the statistic resets the tags (spec §3.5).
void TrendPanel::metricChanged()
{
    if (m_rebuilding)
        return;
    m_rebuilding = true;
    m_stat->clear();
    if (m_source && m_source->isOpen())
        m_stat->addItems(m_source->problem()->stats(m_metric->currentText()));
    m_rebuilding = false;
    statChanged();
}

void TrendPanel::statChanged()
{
    if (m_rebuilding)
        return;
    reloadTags();
    reloadValues();
    reloadHeatmap();
}

void TrendPanel::reloadTags()
{
    m_rebuilding = true;
    m_tags->clear();
    if (m_source && m_source->isOpen())
        for (const auto& tag : m_source->problem()->tags(m_metric->currentText())) {
            auto* item = new QListWidgetItem(QStringLiteral("%1  [%2]").arg(tag.name, tag.category), m_tags);
            item->setData(Qt::UserRole, tag.name);
            item->setToolTip(tr("%1 (category %2)").arg(tag.name, tag.category));
            item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
            item->setCheckState(Qt::Unchecked);
        }
    filterTags(m_tagFilter->text());
    m_rebuilding = false;
}

void TrendPanel::filterTags(const QString& text)
{
    for (int i = 0; i < m_tags->count(); ++i)
        m_tags->item(i)->setHidden(!text.isEmpty() && !m_tags->item(i)->text().contains(text, Qt::CaseInsensitive));
}

// The dimension's values: every step, every rank, or the targets with data for the metric and the tags.
void TrendPanel::reloadValues()
{
    const bool wasRebuilding = m_rebuilding;
    m_rebuilding = true;
    m_value->clear();
    if (m_source && m_source->isOpen()) {
        const auto& db = *m_source->problem();
        switch (static_cast<Dimension>(m_dimension->currentData().toInt())) {
        case Dimension::Step:
            for (std::int64_t s = db.minStep(); s <= db.maxStep(); ++s)
                m_value->addItem(QStringLiteral("Step%1").arg(s), QVariant::fromValue<qint64>(s));
            break;
        case Dimension::Rank:
            for (std::int64_t r = 0; r <= db.maxRank(); ++r)
                m_value->addItem(QStringLiteral("Rank%1").arg(r), QVariant::fromValue<qint64>(r));
            break;
        case Dimension::Module:
            for (const auto& target : db.targets(m_metric->currentText(), query().tags))
                m_value->addItem(target.label(), QVariant::fromValue<qint64>(target.id));
            break;
        }
    }
    m_value->setCurrentIndex(m_value->count() ? 0 : -1);
    m_rebuilding = wasRebuilding;
}

// The heat map the toolbar asks for: the one read when opening at once, any other on the source's query thread
// (a 256-rank database takes a while), shown by showHeatmap when it is still what the toolbar asks for.
void TrendPanel::reloadHeatmap()
{
    if (m_rebuilding || !m_source || !m_source->isOpen())
        return;
    const TrendQuery q = query();
    const bool difference = m_source->isPair() && m_difference->isChecked();
    if (const auto cached = m_source->cachedGrid(q, difference)) {
        m_pendingGrid = 0;
        showHeatmap(*cached, QString());
        return;
    }
    m_pendingGrid = m_source->requestGrid(q, difference);
}

void TrendPanel::finishHeatmap()
{
    if (m_pendingGrid && m_source)
        m_source->finishQueries();
}

void TrendPanel::showHeatmap(const TrendGrid& grid, const QString& error)
{
    m_pendingGrid = 0;
    const TrendQuery q = query();
    m_heatmap->setGrid(grid, static_cast<HeatmapMode>(m_mode->currentData().toInt()));
    m_xSlider->setExtent(QCPRange(-0.5, std::max(1, m_heatmap->grid().columns()) - 0.5));
    m_ySlider->setExtent(QCPRange(-0.5, std::max(1, m_heatmap->grid().rows()) - 0.5));
    m_lines->clearSeries();
    m_lines->setAxisTitles(q.dimension == Dimension::Step ? tr("Step") : q.dimension == Dimension::Rank ? tr("Rank") : tr("Target id"), q.stat);
    QString text;
    if (!error.isEmpty()) {
        text = tr("Could not read the heat map: %1").arg(error);
    } else if (m_source && m_source->isPair()) {
        const auto& result = m_source->compare(q.stat);
        if (result.divergences.empty()) {
            text = tr("%1: no divergence over %2 series (tolerance %3).").arg(q.stat).arg(result.comparedSeries).arg(m_source->tolerance());
        } else {
            const auto& d = result.divergences.front();
            text = tr("First divergence (%1): %2 %3, rank %4, step %5, relative difference %6. Marked cells: each target's first divergent step.")
                       .arg(q.stat, QString::fromStdString(d.metric), QString::fromStdString(d.target))
                       .arg(d.rank)
                       .arg(d.step)
                       .arg(std::isinf(d.relDiff) ? QStringLiteral("inf") : QString::number(d.relDiff, 'g', 4));
        }
    }
    m_divergence->setText(text);
    m_divergence->setVisible(!text.isEmpty());
    if (m_focus && !m_focus->node().isEmpty())
        followNode(m_focus->node());
    emit heatmapShown();
}

void TrendPanel::activateCell(int column, int row)
{
    const auto& grid = m_heatmap->grid();
    if (!m_source || column < 0 || row < 0 || column >= grid.columns() || row >= grid.rows())
        return;
    const TrendQuery q = query();
    const std::int64_t x = grid.xKeys[static_cast<std::size_t>(column)], y = grid.yKeys[static_cast<std::size_t>(row)];
    for (const auto& series : m_source->series(q, x, y))
        m_lines->addSeries(series);
    if (!m_focus)
        return;
    // The cell's step and rank; its target's graph node when the target is a module's input or output.
    const std::int64_t step = q.dimension == Dimension::Step ? q.value : x;
    const std::int64_t rank = q.dimension == Dimension::Step ? x : q.dimension == Dimension::Rank ? q.value : y;
    const std::int64_t targetId = q.dimension == Dimension::Module ? q.value : y;
    m_focusing = true;
    if (m_focus->step() != step || m_focus->rank() != rank)
        m_focus->setGraph(static_cast<int>(step), static_cast<int>(rank));
    for (const auto& target : m_source->problem()->targets(q.metric))
        if (target.id == targetId) {
            const QString node = msprobe::studio::graphNodeOfTarget(target, q.metric);
            if (!node.isEmpty())
                m_focus->setNode(node);
        }
    m_focusing = false;
    if (q.dimension != Dimension::Module)
        m_heatmap->selectRow(row);
}

// A graph node selects the first heat-map row of its module's tensors (Step and Rank dimensions).
void TrendPanel::followNode(const QString& name)
{
    if (m_focusing)
        return;
    const auto& grid = m_heatmap->grid();
    if (name.isEmpty() || query().dimension == Dimension::Module) {
        m_heatmap->selectRow(-1);
        return;
    }
    const QString module = msprobe::studio::graphNodeModule(name);
    for (int row = 0; row < grid.rows(); ++row) {
        const QString target = grid.yJoinNames[static_cast<std::size_t>(row)].section(QLatin1Char(' '), 0, 0);
        if (msprobe::studio::targetOfModule(target, module)) {
            m_heatmap->selectRow(row);
            return;
        }
    }
    m_heatmap->selectRow(-1);
}

void TrendPanel::dragEnterEvent(QDragEnterEvent* event)
{
    const QStringList paths = droppedPaths(event->mimeData());
    if (!paths.isEmpty() && paths.size() <= 2 && std::all_of(paths.begin(), paths.end(), &TrendSource::canOpen))
        event->acceptProposedAction();
}

void TrendPanel::dropEvent(QDropEvent* event)
{
    const QStringList paths = droppedPaths(event->mimeData());
    if (paths.isEmpty())
        return;
    event->acceptProposedAction();
    emit openRequested(paths);
}
