// SPDX-License-Identifier: Apache-2.0
// Two memory runs side by side: run A and run B (two dumps, or two steps of one — each side picks the whole
// capture or one step), the per-operator chart of both and their difference, a summary of the two peaks, and
// the list of blocks that make the difference (live at one side's peak with no counterpart at the other's).
// Shows documents the session loaded; opens nothing itself.
#pragma once

#include "memorycomparison.h"

#include <QWidget>

class MemoryDiffChart;
class QComboBox;
class QLabel;
class QTreeWidget;

class MemoryComparePanel : public QWidget {
    Q_OBJECT
public:
    explicit MemoryComparePanel(QWidget* parent = nullptr);

    // b null: compare two steps of a (steps 1 and 2 first, when it has them).
    void setRuns(std::shared_ptr<const msprobe::studio::MemoryDocument> a, std::shared_ptr<const msprobe::studio::MemoryDocument> b);
    // Picks the step of each side (0 = whole capture) and compares again.
    void setSteps(std::uint32_t stepA, std::uint32_t stepB);

    const msprobe::studio::MemoryComparison* comparison() const { return m_comparison ? &*m_comparison : nullptr; }
    MemoryDiffChart* chart() const { return m_chart; }
    QTreeWidget* blockList() const { return m_blocks; }
    QLabel* summary() const { return m_summary; }
    QString csv() const;

private:
    void compare();
    void fillSteps(QComboBox* box, const msprobe::studio::MemoryDocument* document);

    std::shared_ptr<const msprobe::studio::MemoryDocument> m_a, m_b;
    std::optional<msprobe::studio::MemoryComparison> m_comparison;
    QComboBox* m_stepA;
    QComboBox* m_stepB;
    QLabel* m_summary;
    MemoryDiffChart* m_chart;
    QTreeWidget* m_blocks;
};
