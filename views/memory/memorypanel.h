// SPDX-License-Identifier: Apache-2.0
// The memory panel: the timeline of one open dump, a summary line (blocks, peak, leaks, inefficient blocks) and,
// beside it, the decomposition of the live blocks by owner category and owner at the time under the cursor
// (core's decompose); a second tab compares two runs (two dumps, or two steps of one). Shows documents the
// session loaded; opens nothing itself.
#pragma once

#include "memorydocument.h"

#include <QWidget>

#include <memory>

class MemoryComparePanel;
class MemoryMinimap;
class MemoryTimelineView;
class QLabel;
class QTabWidget;
class QTimer;
class QTreeWidget;

class MemoryPanel : public QWidget {
    Q_OBJECT
public:
    explicit MemoryPanel(QWidget* parent = nullptr);

    void setDocument(std::shared_ptr<const msprobe::studio::MemoryDocument> document) { setDocuments(std::move(document), nullptr); }
    // compared null: the compare tab compares two steps of document.
    void setDocuments(std::shared_ptr<const msprobe::studio::MemoryDocument> document, std::shared_ptr<const msprobe::studio::MemoryDocument> compared);
    MemoryComparePanel* comparePanel() const { return m_compare; }
    void showComparison();
    bool comparisonShown() const;
    // The shown tab as CSV: the timeline's blocks (those overlapping the selected range, when there is one) or
    // the compared runs' differing blocks.
    QString csv() const;
    MemoryTimelineView* timeline() const { return m_timeline; }
    MemoryMinimap* minimap() const { return m_minimap; }
    QTreeWidget* decomposition() const { return m_decomposition; }
    // Decomposes the live blocks at trace timestamp tsNs now (the cursor does this after a short pause).
    void showDecompositionAt(std::int64_t tsNs);

private:
    std::shared_ptr<const msprobe::studio::MemoryDocument> m_document;
    MemoryTimelineView* m_timeline;
    MemoryMinimap* m_minimap;
    QLabel* m_summary;
    QLabel* m_decompositionTitle;
    QTreeWidget* m_decomposition;
    QTimer* m_cursorTimer;
    QTabWidget* m_tabs;
    MemoryComparePanel* m_compare;
    std::int64_t m_cursorNs = 0;
};
