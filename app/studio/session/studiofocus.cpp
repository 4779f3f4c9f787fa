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
    const bool hadNodes = !m_nodes.isEmpty();
    m_nodes.clear();
    emit graphChanged(step, rank);
    emit nodeChanged(m_node, m_side);
    if (hadNodes)
        emit nodesChanged(m_nodes, m_side);
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
    // Views echo the focused node back (the graph centring it, say): that keeps a selection of several.
    if (name == m_node && side == m_side)
        return;
    setNodes(name.isEmpty() ? QStringList() : QStringList { name }, side);
}

void StudioFocus::setNodes(const QStringList& names, Side side)
{
    if (names == m_nodes && side == m_side)
        return;
    const QString first = names.isEmpty() ? QString() : names.front();
    const bool focusChanged = first != m_node || side != m_side;
    m_nodes = names;
    m_node = first;
    m_side = side;
    if (focusChanged)
        emit nodeChanged(m_node, side);
    emit nodesChanged(m_nodes, side);
}
