// SPDX-License-Identifier: Apache-2.0
#include "studiofocus.h"

StudioFocus::StudioFocus(QObject* parent)
    : QObject(parent)
{
}

void StudioFocus::setGraph(int step, int rank)
{
    if (step == m_step && rank == m_rank)
        return;
    m_step = step;
    m_rank = rank;
    m_node.clear();
    emit graphChanged(step, rank);
    emit nodeChanged(m_node, m_side);
}

void StudioFocus::setMicroStep(int microStep)
{
    if (microStep == m_microStep)
        return;
    m_microStep = microStep;
    emit microStepChanged(microStep);
}

void StudioFocus::setNode(const QString& name, Side side)
{
    if (name == m_node && side == m_side)
        return;
    m_node = name;
    m_side = side;
    emit nodeChanged(name, side);
}
