// SPDX-License-Identifier: Apache-2.0
#include "parallelpanel.h"

#include "parallelconfigdialog.h"
#include "parallelsetup.h"
#include "parallelview.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

ParallelPanel::ParallelPanel(ParallelSetup* setup, QWidget* parent)
    : QWidget(parent)
    , m_setup(setup)
    , m_view(new ParallelView(this))
    , m_source(new QLabel(this))
    , m_colourByResult(new QCheckBox(tr("Colour by compare result"), this))
    , m_export(new QPushButton(tr("Export…"), this))
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    auto* bar = new QHBoxLayout;
    auto* configureButton = new QPushButton(tr("Configure…"), this);
    configureButton->setToolTip(tr("World size, layers, TP, PP, VPP, order and standalone embedding stage, as msprobe parallel_plot takes them"));
    auto* fit = new QPushButton(tr("Fit"), this);
    fit->setToolTip(tr("Fit the grid to the panel (0); the wheel zooms, dragging pans"));
    m_colourByResult->setToolTip(tr("Fill each block with the worst compare Result of its ranks at the focused step; the copy colour stays as a band"));
    m_export->setToolTip(tr("Save the grid as PNG or SVG"));
    bar->addWidget(configureButton);
    bar->addWidget(m_colourByResult);
    bar->addStretch(1);
    bar->addWidget(fit);
    bar->addWidget(m_export);
    layout->addLayout(bar);
    m_source->setObjectName(QStringLiteral("parallelSource"));
    m_source->setWordWrap(true);
    m_source->setTextInteractionFlags(Qt::TextSelectableByMouse);
    QFont small = m_source->font();
    small.setPointSizeF(small.pointSizeF() * 0.9);
    m_source->setFont(small);
    layout->addWidget(m_source);
    layout->addWidget(m_view, 1);
    connect(configureButton, &QPushButton::clicked, this, &ParallelPanel::configure);
    connect(fit, &QPushButton::clicked, m_view, &ParallelView::fitToView);
    connect(m_colourByResult, &QCheckBox::toggled, m_view, &ParallelView::setColourByResult);
    connect(m_export, &QPushButton::clicked, this, &ParallelPanel::exportRequested);
    connect(m_setup, &ParallelSetup::changed, this, &ParallelPanel::refresh);
    refresh();
}

void ParallelPanel::setStudioFocus(StudioFocus* focus) { m_view->setStudioFocus(focus); }

void ParallelPanel::setAvailableRanks(std::vector<int> ranks) { m_view->setAvailableRanks(std::move(ranks)); }

void ParallelPanel::setResults(std::map<int, msprobe::studio::RowResult> results)
{
    m_colourByResult->setEnabled(!results.empty());
    m_view->setResults(std::move(results));
}

void ParallelPanel::refresh()
{
    m_view->setGrid(ParallelGrid(m_setup->layout()));
    QString text = m_setup->sourceText();
    if (!m_setup->hasLayout() && !m_setup->lastHints().sources.isEmpty())
        text = tr("The dumps tell: %1. Give the rest with Configure….").arg(m_setup->lastHints().sources.join(QStringLiteral("; ")));
    m_source->setText(text);
    m_export->setEnabled(m_setup->hasLayout());
}

void ParallelPanel::configure()
{
    ParallelConfigDialog dialog(this);
    dialog.setDumpTpGroup(m_setup->lastHints().tpGroup);
    if (m_setup->hasLayout()) {
        dialog.setConfig(m_setup->config());
    } else {
        msprobe::parallel::ParallelConfig proposed;
        proposed.worldSize = 8;
        proposed.numLayers = 8;
        proposed = msprobe::studio::configFromHints(m_setup->lastHints(), proposed);
        dialog.setConfig(proposed);
        if (!m_setup->lastHints().sources.isEmpty())
            dialog.setNote(tr("From the dumps: %1").arg(m_setup->lastHints().sources.join(QStringLiteral("; "))));
    }
    if (dialog.exec() == QDialog::Accepted)
        m_setup->setConfig(dialog.config(), ParallelSetup::Source::User);
}
