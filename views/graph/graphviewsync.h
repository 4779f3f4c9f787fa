// SPDX-License-Identifier: Apache-2.0
// Pan and zoom of the two graph sides kept together: when the user scrolls or zooms one side, the other takes
// the same scale and centres on the matched place (the node under the viewport centre, or its nearest matched
// ancestor, at the same relative spot in its box; where nothing is matched, the same fraction of the graph).
#pragma once

#include "graph/visdb/vis_db_reader.h"

#include <QObject>

#include <functional>

class GraphSideView;
class QAction;

class GraphViewSync : public QObject {
    Q_OBJECT
public:
    // The node of the other side matched to node (of the side given by fromBench), or to its nearest matched
    // ancestor; kNoVisNode when none.
    using PartnerFinder = std::function<std::uint32_t(bool fromBench, std::uint32_t node)>;

    GraphViewSync(GraphSideView* problem, GraphSideView* bench, PartnerFinder partner, QObject* parent = nullptr);

    // Checkable, on by default: the "Sync pan and zoom" toggle for a header button or a menu.
    QAction* toggleAction() const { return m_toggle; }
    bool isEnabled() const;
    void setEnabled(bool on);
    // Whether the bench side is shown at all (single graphs have nothing to follow).
    void setActive(bool active) { m_active = active; }

private:
    void follow(GraphSideView* from, GraphSideView* to);

    GraphSideView* m_problem;
    GraphSideView* m_bench;
    PartnerFinder m_partner;
    QAction* m_toggle;
    bool m_active = false;
};
