// SPDX-License-Identifier: Apache-2.0
#include "memorypanel.h"

#include "memorycomparepanel.h"
#include "memorycsv.h"
#include "memoryminimap.h"
#include "memorytimelineview.h"

#include "memory/owners.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QSplitter>
#include <QTabWidget>
#include <QTimer>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <cmath>

MemoryPanel::MemoryPanel(QWidget* parent)
    : QWidget(parent)
    , m_timeline(new MemoryTimelineView(this))
    , m_minimap(new MemoryMinimap(this))
    , m_summary(new QLabel(this))
    , m_decompositionTitle(new QLabel(this))
    , m_decomposition(new QTreeWidget(this))
    , m_cursorTimer(new QTimer(this))
    , m_tabs(new QTabWidget(this))
    , m_compare(new MemoryComparePanel(this))
{
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_decompositionTitle->setWordWrap(true);
    m_decomposition->setColumnCount(3);
    m_decomposition->setHeaderLabels({ tr("Owner"), tr("Bytes"), tr("Blocks") });
    m_decomposition->header()->setStretchLastSection(false);
    m_decomposition->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_decomposition->header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    m_decomposition->header()->setSectionResizeMode(2, QHeaderView::ResizeToContents);
    m_decomposition->setRootIsDecorated(true);

    auto* side = new QWidget(this);
    auto* sideLayout = new QVBoxLayout(side);
    sideLayout->setContentsMargins(0, 0, 0, 0);
    sideLayout->addWidget(m_decompositionTitle);
    sideLayout->addWidget(m_decomposition, 1);

    auto* timelinePage = new QWidget(this);
    auto* splitter = new QSplitter(Qt::Horizontal, timelinePage);
    // The overview strip under the timeline, sharing its time axis: each follows the other's range.
    auto* plotColumn = new QWidget(timelinePage);
    auto* plotLayout = new QVBoxLayout(plotColumn);
    plotLayout->setContentsMargins(0, 0, 0, 0);
    plotLayout->setSpacing(0);
    plotLayout->addWidget(m_timeline, 1);
    plotLayout->addWidget(m_minimap);
    connect(m_timeline, &MemoryTimelineView::timeRangeChanged, m_minimap, &MemoryMinimap::setVisibleRange);
    connect(m_minimap, &MemoryMinimap::rangeRequested, m_timeline, &MemoryTimelineView::setTimeRange);
    splitter->addWidget(plotColumn);
    splitter->addWidget(side);
    splitter->setStretchFactor(0, 4);
    splitter->setStretchFactor(1, 1);
    splitter->setSizes({ 900, 340 });

    auto* pageLayout = new QVBoxLayout(timelinePage);
    pageLayout->setContentsMargins(0, 0, 0, 0);
    auto* density = new QCheckBox(tr("Density"), timelinePage);
    density->setObjectName(QStringLiteral("memoryDensity"));
    density->setChecked(m_timeline->densityShown());
    density->setToolTip(tr("Where blocks are narrower than a pixel, show how full each byte band of the stack is (pale: a few "
                           "bytes live, dark: all of them) rather than the extent of the blocks, so fragmentation shows "
                           "without zooming."));
    connect(density, &QCheckBox::toggled, m_timeline, &MemoryTimelineView::setDensityShown);
    connect(m_timeline, &MemoryTimelineView::densityShownChanged, density, &QCheckBox::setChecked);
    auto* stacking = new QComboBox(timelinePage);
    stacking->setObjectName(QStringLiteral("memoryStacking"));
    stacking->addItem(tr("Blocks stay in place"), static_cast<int>(MemoryTimelineView::Layout::Packed));
    stacking->addItem(tr("Blocks slide down (memory_viz)"), static_cast<int>(MemoryTimelineView::Layout::Sliding));
    stacking->setToolTip(tr("Stay in place: each block keeps its place for its whole life, so the gaps freed blocks leave "
                            "show fragmentation. Slide down: the live blocks are stacked in allocation order with no gap, "
                            "and when one is freed the blocks above it slide down, as PyTorch's memory_viz draws them."));
    connect(stacking, &QComboBox::currentIndexChanged, this, [this, stacking](int index) {
        m_timeline->setLayout(static_cast<MemoryTimelineView::Layout>(stacking->itemData(index).toInt()));
    });
    connect(m_timeline, &MemoryTimelineView::layoutChanged, stacking, [stacking, density](MemoryTimelineView::Layout layout) {
        stacking->setCurrentIndex(stacking->findData(static_cast<int>(layout)));
        density->setEnabled(layout == MemoryTimelineView::Layout::Packed); // the sliding stack has no gaps
    });
    auto* summaryRow = new QHBoxLayout;
    summaryRow->addWidget(m_summary, 1);
    summaryRow->addWidget(stacking, 0, Qt::AlignTop);
    summaryRow->addWidget(density, 0, Qt::AlignTop);
    pageLayout->addLayout(summaryRow);
    pageLayout->addWidget(splitter, 1);
    m_tabs->setDocumentMode(true);
    m_tabs->addTab(timelinePage, tr("Timeline"));
    m_tabs->addTab(m_compare, tr("Compare runs"));

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_tabs, 1);

    m_cursorTimer->setSingleShot(true);
    m_cursorTimer->setInterval(60);
    connect(m_cursorTimer, &QTimer::timeout, this, [this] { showDecompositionAt(m_cursorNs); });
    connect(m_timeline, &MemoryTimelineView::cursorTimeChanged, this, [this](qint64 ns) {
        m_cursorNs = ns;
        m_cursorTimer->start();
    });
}

void MemoryPanel::showComparison() { m_tabs->setCurrentWidget(m_compare); }

bool MemoryPanel::comparisonShown() const { return m_tabs->currentWidget() == m_compare; }

QString MemoryPanel::csv() const
{
    if (comparisonShown())
        return m_compare->csv();
    if (!m_document)
        return {};
    return QString::fromStdString(msprobe::studio::timelineCsv(*m_document, m_timeline->selection()));
}

void MemoryPanel::setDocuments(std::shared_ptr<const msprobe::studio::MemoryDocument> document, std::shared_ptr<const msprobe::studio::MemoryDocument> compared)
{
    m_compare->setRuns(document, compared);
    if (document == m_document)
        return;
    m_document = std::move(document);
    m_minimap->setDocument(m_document);
    m_timeline->setDocument(m_document);
    m_decomposition->clear();
    if (!m_document) {
        m_summary->clear();
        m_decompositionTitle->clear();
        return;
    }
    const auto& timeline = m_document->timeline;
    std::size_t leaks = 0, alive = 0, inefficient = 0;
    for (const auto& block : timeline.blocks) {
        leaks += (block.marks & msprobe::studio::kMarkStepLeak) != 0;
        alive += (block.marks & msprobe::studio::kMarkAliveAtEnd) != 0;
        inefficient += (block.marks & msprobe::studio::kMarkInefficient) != 0;
    }
    m_summary->setText(tr("%1 — %2 blocks, %3 steps, %4 operators; peak %5 live at %6; %7 step leaks, %8 blocks alive at the end, "
                          "%9 inefficient. Wheel: zoom, drag: pan, double click: whole capture.")
                           .arg(QString::fromStdString(m_document->file.filename().string()))
                           .arg(timeline.blocks.size())
                           .arg(timeline.steps.size())
                           .arg(timeline.ops.size())
                           .arg(QString::fromStdString(msprobe::studio::formatBytes(timeline.peak.liveBytes)),
                               QString::fromStdString(msprobe::studio::formatOffsetNs(timeline.peak.tsNs - timeline.beginNs)))
                           .arg(leaks)
                           .arg(alive)
                           .arg(inefficient));
    showDecompositionAt(timeline.peak.tsNs);
}

void MemoryPanel::showDecompositionAt(std::int64_t tsNs)
{
    m_decomposition->clear();
    if (!m_document)
        return;
    namespace mem = msprobe::memory;
    mem::DecomposeOptions options;
    options.at = mem::DecomposeOptions::At::Time;
    options.timeNs = tsNs;
    options.includeHal = m_document->timeline.halShown;
    mem::Decomposition result;
    try {
        result = mem::decompose(m_document->trace, m_document->model, options);
    } catch (const std::exception& error) {
        m_decompositionTitle->setText(QString::fromUtf8(error.what()));
        return;
    }
    m_decompositionTitle->setText(tr("Live at %1: %2 in %3 blocks, by owner")
                                      .arg(QString::fromStdString(msprobe::studio::formatOffsetNs(result.timeNs - m_document->timeline.beginNs)),
                                          QString::fromStdString(msprobe::studio::formatBytes(result.liveBytes)))
                                      .arg(result.liveBlocks));
    std::map<std::string, QTreeWidgetItem*> categories;
    for (const auto& [category, bytes] : result.categories) {
        auto* item = new QTreeWidgetItem(m_decomposition, { QString::fromStdString(category), QString::fromStdString(msprobe::studio::formatBytes(bytes)) });
        item->setData(1, Qt::UserRole, QVariant::fromValue<qlonglong>(bytes));
        categories[category] = item;
    }
    for (const auto& share : result.owners) {
        QTreeWidgetItem* parent = categories.count(share.category) ? categories[share.category] : nullptr;
        const QStringList cells { share.owner.empty() ? tr("(untagged)") : QString::fromStdString(share.owner),
            QString::fromStdString(msprobe::studio::formatBytes(share.bytes)), QString::number(share.blocks) };
        auto* item = parent ? new QTreeWidgetItem(parent, cells) : new QTreeWidgetItem(m_decomposition, cells);
        item->setData(1, Qt::UserRole, QVariant::fromValue<qlonglong>(share.bytes));
    }
    m_decomposition->expandAll();
}
