// SPDX-License-Identifier: Apache-2.0
#include "memorycomparepanel.h"

#include "memorycsv.h"
#include "memorydiffchart.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QSignalBlocker>
#include <QSplitter>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace {

QString bytesText(std::int64_t bytes) { return QString::fromStdString(msprobe::studio::formatBytes(bytes)); }

QString signedBytes(std::int64_t bytes) { return (bytes > 0 ? QStringLiteral("+") : QString()) + bytesText(bytes); }

} // namespace

MemoryComparePanel::MemoryComparePanel(QWidget* parent)
    : QWidget(parent)
    , m_stepA(new QComboBox(this))
    , m_stepB(new QComboBox(this))
    , m_summary(new QLabel(this))
    , m_chart(new MemoryDiffChart(this))
    , m_blocks(new QTreeWidget(this))
{
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_blocks->setRootIsDecorated(false);
    m_blocks->setColumnCount(6);
    m_blocks->setHeaderLabels({ tr("Only in"), tr("Size"), tr("Operator"), tr("Owner"), tr("Allocated"), tr("Why highlighted") });
    m_blocks->header()->setSectionResizeMode(QHeaderView::ResizeToContents);

    auto* pick = new QHBoxLayout;
    pick->addWidget(new QLabel(tr("Run A:"), this));
    pick->addWidget(m_stepA, 1);
    pick->addWidget(new QLabel(tr("Run B:"), this));
    pick->addWidget(m_stepB, 1);

    auto* splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(m_chart);
    splitter->addWidget(m_blocks);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(pick);
    layout->addWidget(m_summary);
    layout->addWidget(splitter, 1);

    connect(m_stepA, &QComboBox::currentIndexChanged, this, &MemoryComparePanel::compare);
    connect(m_stepB, &QComboBox::currentIndexChanged, this, &MemoryComparePanel::compare);
}

void MemoryComparePanel::fillSteps(QComboBox* box, const msprobe::studio::MemoryDocument* document)
{
    const QSignalBlocker blocker(box);
    box->clear();
    if (!document)
        return;
    const QString name = QString::fromStdString(document->file.filename().string());
    box->addItem(tr("%1 — whole capture").arg(name), 0);
    for (std::uint32_t step = 1; step <= document->timeline.steps.size() + 1; ++step)
        if (msprobe::studio::stepSpan(document->timeline, step))
            box->addItem(tr("%1 — step %2").arg(name).arg(step), step);
}

void MemoryComparePanel::setRuns(std::shared_ptr<const msprobe::studio::MemoryDocument> a, std::shared_ptr<const msprobe::studio::MemoryDocument> b)
{
    m_a = std::move(a);
    m_b = b ? std::move(b) : m_a;
    fillSteps(m_stepA, m_a.get());
    fillSteps(m_stepB, m_b.get());
    // One dump: its first two steps; two dumps: both whole.
    if (m_a && m_a == m_b && m_stepA->count() > 2) {
        const QSignalBlocker blocker(m_stepA), blockerB(m_stepB);
        m_stepA->setCurrentIndex(1);
        m_stepB->setCurrentIndex(2);
    }
    compare();
}

void MemoryComparePanel::setSteps(std::uint32_t stepA, std::uint32_t stepB)
{
    const QSignalBlocker blocker(m_stepA), blockerB(m_stepB);
    m_stepA->setCurrentIndex(std::max(0, m_stepA->findData(stepA)));
    m_stepB->setCurrentIndex(std::max(0, m_stepB->findData(stepB)));
    compare();
}

void MemoryComparePanel::compare()
{
    m_comparison.reset();
    m_blocks->clear();
    m_chart->setOperators({});
    if (!m_a || !m_b) {
        m_summary->setText(tr("Open a memory dump, then compare two of its steps or a second dump (File → Compare with memory dump…)."));
        return;
    }
    const msprobe::studio::MemoryRun a { m_a, m_stepA->currentData().toUInt() }, b { m_b, m_stepB->currentData().toUInt() };
    try {
        m_comparison = msprobe::studio::compareRuns(a, b);
    } catch (const std::exception& error) {
        m_summary->setText(QString::fromUtf8(error.what()));
        return;
    }
    const auto& c = *m_comparison;
    auto at = [](const msprobe::studio::MemoryDocument& document, std::int64_t ts) {
        return QString::fromStdString(msprobe::studio::formatOffsetNs(ts - document.timeline.beginNs));
    };
    std::size_t onlyA = 0, onlyB = 0;
    for (const auto& block : c.blocks)
        (block.inB ? onlyB : onlyA) += 1;
    m_summary->setText(tr("Peak A %1 at %2, peak B %3 at %4: B − A = %5. Live only at B's peak: %6 in %7 blocks; only at A's: "
                          "%8 in %9 blocks (blocks matched by allocating operator, owner and size).")
                           .arg(bytesText(c.peakA.liveBytes), at(*m_a, c.peakA.tsNs), bytesText(c.peakB.liveBytes), at(*m_b, c.peakB.tsNs),
                               signedBytes(c.peakB.liveBytes - c.peakA.liveBytes), bytesText(c.onlyB))
                           .arg(onlyB)
                           .arg(bytesText(c.onlyA))
                           .arg(onlyA));
    m_chart->setOperators(c.operators);
    for (const auto& differing : c.blocks) {
        const msprobe::studio::MemoryDocument& document = differing.inB ? *m_b : *m_a;
        const auto& item = document.timeline.blocks[differing.block];
        auto* row = new QTreeWidgetItem(m_blocks,
            { differing.inB ? tr("B (adds)") : tr("A (removes)"), bytesText(differing.size),
                differing.op.empty() ? tr("(no operator)") : QString::fromStdString(differing.op),
                differing.owner.empty() ? tr("(untagged)") : QString::fromStdString(differing.owner), at(document, item.startNs),
                QString::fromStdString(document.markReason(item)) });
        row->setToolTip(0, QString::fromStdString(document.describe(item)));
        row->setData(1, Qt::UserRole, QVariant::fromValue<qlonglong>(differing.size));
    }
}

QString MemoryComparePanel::csv() const
{
    if (!m_comparison)
        return {};
    return QString::fromStdString(msprobe::studio::comparisonCsv(*m_comparison, *m_a, *m_b));
}
