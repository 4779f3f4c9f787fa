// SPDX-License-Identifier: Apache-2.0
// What the parallelism panel draws, derived from core/parallel's layout: one row per TP group (row 0 at the
// bottom) and one column per virtual pipeline stage, each cell with its copy, text and ranks. Above
// msprobe::parallel::kMaxDetailedRows TP groups the rows are the pipeline stages, each holding every copy (the
// CLI's picture summarises the same way), so the cells stay large enough to read.
#pragma once

#include "parallel/parallel_layout.h"

#include <QColor>
#include <QString>
#include <QStringList>

#include <memory>
#include <vector>

class ParallelGrid {
public:
    ParallelGrid() = default;
    explicit ParallelGrid(std::shared_ptr<const msprobe::parallel::ParallelLayout> layout, int maxDetailedRows = -1);

    bool isEmpty() const { return !m_layout; }
    const msprobe::parallel::ParallelLayout* layout() const { return m_layout.get(); }
    bool summarised() const { return m_summarised; }
    int rowCount() const { return static_cast<int>(m_rowLabels.size()); }
    int columnCount() const { return m_layout ? m_layout->columnCount() : 0; }
    int copyCount() const { return m_layout ? m_layout->copyCount() : 0; }
    QString title() const;
    QString rowLabel(int row) const { return m_rowLabels[static_cast<std::size_t>(row)]; }
    QString columnLabel(int column) const;
    // Copy of the row's TP group (0-based); -1 when summarised (the row holds every copy).
    int rowCopy(int row) const { return m_rowCopy[static_cast<std::size_t>(row)]; }
    int rowPipelineStage(int row) const { return m_rowStage[static_cast<std::size_t>(row)]; }
    // The ranks a cell of the row stands for: its TP group, or every rank of the stage when summarised.
    const std::vector<int>& rowRanks(int row) const { return m_rowRanks[static_cast<std::size_t>(row)]; }
    QString cellText(int row, int column) const;
    // The row showing `rank`, or -1.
    int rowOfRank(int rank) const;
    // Model copy (0-based) of a rank, or -1.
    int copyOfRank(int rank) const;
    // Ranks, PP stage, DP copy and layers of a cell, as the hover shows them.
    QString tooltip(int row, int column) const;

    // The reference's copy colours (tab20, tab20b + tab20c, viridis), as the CLI's picture uses them.
    static QColor copyColor(int copy, int copyCount);

private:
    std::shared_ptr<const msprobe::parallel::ParallelLayout> m_layout;
    bool m_summarised = false;
    std::vector<QString> m_rowLabels;
    std::vector<int> m_rowCopy, m_rowStage;
    std::vector<std::vector<int>> m_rowRanks;
    std::vector<int> m_rowOfRank, m_copyOfRank;
};
