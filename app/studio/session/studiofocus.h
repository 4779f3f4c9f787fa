// SPDX-License-Identifier: Apache-2.0
// The one selection every studio view follows: which graph (step, rank, micro step) and which nodes — one node
// picked in a view, or every node a memory time range covers (the first of them is the focused node).
// Views set it when the user picks something and redraw when it changes; none of them owns it.
#pragma once

#include <QObject>
#include <QString>
#include <QStringList>

class StudioFocus : public QObject {
    Q_OBJECT
public:
    enum class Side { Problem, Bench };
    Q_ENUM(Side)

    explicit StudioFocus(QObject* parent = nullptr);

    int step() const { return m_step; }
    int rank() const { return m_rank; }
    int microStep() const { return m_microStep; } // -1: all
    // The focused node's name and the side it was picked on; empty name: nothing focused.
    const QString& node() const { return m_node; }
    Side side() const { return m_side; }

    // Switching graphs clears the node focus.
    void setGraph(int step, int rank);
    void setMicroStep(int microStep);
    void setNode(const QString& name, Side side = Side::Problem);
    void clearNode() { setNode(QString(), m_side); }
    // Several selected nodes, in graph order; node() is the first. setNode selects just that one (unless it is
    // the focused node already: then the selection stays).
    void setNodes(const QStringList& names, Side side = Side::Problem);
    const QStringList& nodes() const { return m_nodes; }

signals:
    void graphChanged(int step, int rank);
    void microStepChanged(int microStep);
    void nodeChanged(const QString& name, StudioFocus::Side side);
    void nodesChanged(const QStringList& names, StudioFocus::Side side);

private:
    int m_step = 0, m_rank = 0, m_microStep = -1;
    QString m_node;
    QStringList m_nodes;
    Side m_side = Side::Problem;
};
