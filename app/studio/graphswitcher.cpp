// SPDX-License-Identifier: Apache-2.0
#include "graphswitcher.h"

#include <QComboBox>
#include <QLabel>
#include <QToolBar>

namespace {

void fill(QComboBox* box, const std::vector<int>& values)
{
    box->clear();
    for (int value : values)
        box->addItem(QString::number(value), value);
    box->setEnabled(values.size() > 1);
}

void step(QComboBox* box, int delta)
{
    const int next = box->currentIndex() + delta;
    if (next >= 0 && next < box->count())
        box->setCurrentIndex(next);
}

} // namespace

GraphSwitcher::GraphSwitcher(StudioFocus* focus, QToolBar* toolBar)
    : QObject(toolBar)
    , m_focus(focus)
    , m_step(new QComboBox(toolBar))
    , m_rank(new QComboBox(toolBar))
    , m_microStep(new QComboBox(toolBar))
{
    m_step->setToolTip(tr("Training step (Alt+Left / Alt+Right)"));
    m_rank->setToolTip(tr("Rank (Ctrl+PgUp / Ctrl+PgDown)"));
    m_microStep->setToolTip(tr("Micro step: only the nodes of one micro batch"));
    for (QComboBox* box : { m_step, m_rank, m_microStep })
        box->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    toolBar->addWidget(new QLabel(tr(" Step "), toolBar));
    toolBar->addWidget(m_step);
    toolBar->addWidget(new QLabel(tr(" Rank "), toolBar));
    toolBar->addWidget(m_rank);
    m_microStepLabel = toolBar->addWidget(new QLabel(tr(" Micro step "), toolBar));
    m_microStepAction = toolBar->addWidget(m_microStep);
    m_microStepLabel->setVisible(false);
    m_microStepAction->setVisible(false);

    for (QComboBox* box : { m_step, m_rank, m_microStep })
        connect(box, &QComboBox::currentIndexChanged, this, &GraphSwitcher::toFocus);
    connect(m_focus, &StudioFocus::graphChanged, this, &GraphSwitcher::fromFocus);
    connect(m_focus, &StudioFocus::microStepChanged, this, &GraphSwitcher::fromFocus);
}

void GraphSwitcher::setChoices(const std::vector<int>& steps, const std::vector<int>& ranks, int microSteps)
{
    m_updating = true;
    fill(m_step, steps);
    fill(m_rank, ranks);
    m_microStep->clear();
    m_microStep->addItem(tr("All"), -1);
    for (int micro = 0; micro < microSteps; ++micro)
        m_microStep->addItem(QString::number(micro), micro);
    m_microStepLabel->setVisible(microSteps > 0);
    m_microStepAction->setVisible(microSteps > 0);
    m_updating = false;
    fromFocus();
}

void GraphSwitcher::nextRank(int delta) { step(m_rank, delta); }
void GraphSwitcher::nextStep(int delta) { step(m_step, delta); }

void GraphSwitcher::fromFocus()
{
    m_updating = true;
    m_step->setCurrentIndex(m_step->findData(m_focus->step()));
    m_rank->setCurrentIndex(m_rank->findData(m_focus->rank()));
    m_microStep->setCurrentIndex(std::max(0, m_microStep->findData(m_focus->microStep())));
    m_updating = false;
}

void GraphSwitcher::toFocus()
{
    if (m_updating || m_step->currentIndex() < 0 || m_rank->currentIndex() < 0)
        return;
    m_focus->setGraph(m_step->currentData().toInt(), m_rank->currentData().toInt());
    if (m_microStep->currentIndex() >= 0)
        m_focus->setMicroStep(m_microStep->currentData().toInt());
}
