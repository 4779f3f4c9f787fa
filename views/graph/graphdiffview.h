// SPDX-License-Identifier: Apache-2.0
// The side-by-side graph diff: the debug graph left, its bench right (hidden for single graphs), synchronised
// through the shared StudioFocus. Selecting a node selects and centres its match; double-click expands (also
// on the other side with "sync expand"); dragging a node onto a node of the other side proposes a match.
#pragma once

#include "graphstyle.h"
#include "studiofocus.h"

#include "graph/visdb/vis_db_reader.h"

#include <QWidget>

#include <functional>
#include <memory>
#include <vector>

class GraphLegend;
class GraphSideView;
class GraphViewSync;
class QAction;
class QCheckBox;
class QComboBox;
class QLabel;
class QMenu;

class GraphDiffView : public QWidget {
    Q_OBJECT
public:
    // The stored input/output JSON of a node (for the "why this colour" hover); see VisDb::nodeData.
    using NodeDataProvider = std::function<std::pair<std::string, std::string>(StudioFocus::Side side, const std::string& name)>;

    explicit GraphDiffView(QWidget* parent = nullptr);
    ~GraphDiffView() override;

    // bench: null for build dbs (single graph). The graphs stay shared: refreshNodes() repaints after they change.
    void setGraphs(std::shared_ptr<msprobe::graph::VisGraph> problem, std::shared_ptr<msprobe::graph::VisGraph> bench,
        const msprobe::graph::VisDbConfig& config);
    void setStudioFocus(StudioFocus* focus);
    void setNodeDataProvider(NodeDataProvider provider);
    // The error magnitude of every node of the debug graph given to setGraphs, by node index (NaN: none); asked
    // when the "Error magnitude" colouring is first chosen for a pair.
    using MagnitudeProvider = std::function<std::vector<float>()>;
    void setMagnitudeProvider(MagnitudeProvider provider);

    // Links or precision of these nodes changed (a manual match): repaint, recount badges, re-sync the selection.
    void refreshNodes(const QStringList& names);
    // Focuses the first error-level leaf of the debug graph in node_order; false when there is none.
    bool goToFirstDivergence();
    // The composed graphs of both sides as they are expanded now; PNG or SVG by the suffix. False + errorString().
    bool exportImage(const QString& file);
    QString errorString() const { return m_error; }

    void setSyncExpand(bool on);
    // The "Sync pan and zoom" toggle (checkable, on by default), for the studio's View menu as well.
    QAction* syncPanZoomAction() const;
    // Outlines the nodes of both graphs whose names match the search text (empty: none); see NodeListPanel.
    void setSearchHighlight(const QString& text, bool regex);
    // Both sides: every module less than depth levels below the root open, the rest closed (0: collapse all).
    void expandToDepth(int depth);
    void setColourMode(msprobe::views::graphstyle::ColourMode mode);
    msprobe::views::graphstyle::ColourMode colourMode() const;
    // True once both sides have placed their nodes after the last change.
    bool isSettled() const;
    GraphSideView* sideView(StudioFocus::Side side) const;

signals:
    // A node dragged from one side and dropped on a node of the other (either direction).
    void nodeDropped(const QString& problemNode, const QString& benchNode);
    void unmatchRequested(const QString& problemNode);
    // Double-click on a node without children (or "Show details" in its menu).
    void nodeActivated(const QString& name, StudioFocus::Side side);
    // Both sides are laid out and drawn after an expand, collapse or new graph.
    void settled();
    // The header's "First divergence" button: the studio answers with the session's verdict.
    void firstDivergenceRequested();

private:
    void buildUi();
    void wireSide(GraphSideView* view, StudioFocus::Side side);
    void focusNode(const QString& name, StudioFocus::Side side);
    void pick(StudioFocus::Side side, std::uint32_t node);
    void toggle(StudioFocus::Side side, std::uint32_t node);
    void dragMoved(StudioFocus::Side from, const QPoint& globalPos, std::uint32_t* target);
    void dropped(StudioFocus::Side from, std::uint32_t node, const QPoint& globalPos);
    void showMenu(StudioFocus::Side side, std::uint32_t node, const QPoint& globalPos);
    QColor peerColour(const std::string& index) const;

public:
    // "Data send / receive / send-receive" with one rank{N} per peer of a communication node (spec §2.3): part of
    // the node's context menu.
    void addPeerMenu(QMenu& menu, const msprobe::graph::VisNode& node);
    // Switches the shared focus to the peer's rank and selects the peer there (what a peer menu entry does).
    void goToPeer(int rank, const QString& node);

private:
    // The node on the other side matched to node, or to its nearest matched ancestor when ancestors is set.
    std::uint32_t partnerOf(StudioFocus::Side side, std::uint32_t node, bool ancestors) const;
    const msprobe::graph::VisGraph* graphOf(StudioFocus::Side side) const;
    void composedOne();

    std::shared_ptr<msprobe::graph::VisGraph> m_problem, m_bench;
    msprobe::graph::VisDbConfig m_config;
    StudioFocus* m_focus = nullptr;
    StudioFocus m_ownFocus; // used until a shared one is set
    bool m_pickedHere = false;
    GraphSideView* m_problemView;
    GraphSideView* m_benchView;
    QWidget* m_benchPane;
    GraphLegend* m_legend;
    QComboBox* m_mode;
    QCheckBox* m_syncExpand;
    GraphViewSync* m_viewSync;
    QCheckBox* m_problemMinimap;
    QCheckBox* m_benchMinimap;
    QLabel* m_status;
    QString m_error;
    NodeDataProvider m_nodeData;
    MagnitudeProvider m_magnitudeProvider;
    std::shared_ptr<const std::vector<float>> m_magnitudes; // Magnitude mode, once asked for

};
