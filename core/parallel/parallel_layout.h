// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "parallel/layer_assignment.h"
#include "parallel/parallel_config.h"
#include "parallel/rank_groups.h"

#include <string>
#include <vector>

namespace msprobe::parallel {

// One row of the plot: a tensor-parallel group (spec 4.4). Row 0 is drawn at the bottom.
struct LayoutRow {
    std::string label; // "Group{i}: Ranks{min}-{max}", or "Rank{r}" for a one-rank group
    int copy = 0; // model copy (0-based) the group belongs to: the data-parallel index of its ranks
    int representative = 0; // the first rank of that copy in the group, whose chunks are drawn
    int pipelineStage = 0; // the pipeline stage of the group's ranks; its chunks are stageChunks[pipelineStage]
};

// Everything the parallelism plot shows, derived from a configuration without drawing anything.
struct ParallelLayout {
    ParallelSizes sizes;
    std::string order; // normalized: lower case, missing dimensions appended
    RankGroups tpGroups, ppGroups, dpGroups;
    RankGroups copies; // copy k = the k-th member of every data-parallel group
    std::vector<std::vector<ModelChunk>> stageChunks; // per pipeline stage, one chunk per virtual stage
    std::vector<LayoutRow> rows; // one per TP group, in group order
    std::string title;
    std::string fileName;
    // The reference's figure size in inches (legend column included): clamp(2 vpp, 6, 60) + 5 by clamp(0.5 rows, 4, 100).
    double widthInches = 0;
    double heightInches = 0;

    int columnCount() const { return sizes.virtualPipelineParallel; }
    int copyCount() const { return static_cast<int>(copies.size()); }
    // The text of the block at (row, column), e.g. "Embed+L1-3".
    std::string cellText(int row, int column) const;
};

// Validates (throws msprobe::Error with the reference's message) and derives the layout.
ParallelLayout deriveLayout(const ParallelConfig& config);

// The reference's figure size in inches for a grid of `rows` by `columns` blocks.
void figureInches(int rows, int columns, double& width, double& height);

// The layout as JSON for scripts: sizes, file name, title, groups, copies, the stage chunks and every row.
std::string layoutJson(const ParallelLayout& layout);

} // namespace msprobe::parallel
