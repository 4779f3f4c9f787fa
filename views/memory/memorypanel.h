// SPDX-License-Identifier: Apache-2.0
// The memory panel: the timeline of one open dump, a summary line (blocks, peak, leaks, inefficient blocks) and,
// beside it, the decomposition of the live blocks by owner category and owner at the time under the cursor
// (core's decompose). Shows a document the session loaded; opens nothing itself.
#pragma once

#include "memorydocument.h"

#include <QWidget>

#include <memory>

class MemoryTimelineView;
class QLabel;
class QTimer;
class QTreeWidget;

class MemoryPanel : public QWidget {
    Q_OBJECT
public:
    explicit MemoryPanel(QWidget* parent = nullptr);

    void setDocument(std::shared_ptr<const studio::MemoryDocument> document);
    MemoryTimelineView* timeline() const { return m_timeline; }
    QTreeWidget* decomposition() const { return m_decomposition; }
    // Decomposes the live blocks at trace timestamp tsNs now (the cursor does this after a short pause).
    void showDecompositionAt(std::int64_t tsNs);

private:
    std::shared_ptr<const studio::MemoryDocument> m_document;
    MemoryTimelineView* m_timeline;
    QLabel* m_summary;
    QLabel* m_decompositionTitle;
    QTreeWidget* m_decomposition;
    QTimer* m_cursorTimer;
    std::int64_t m_cursorNs = 0;
};
