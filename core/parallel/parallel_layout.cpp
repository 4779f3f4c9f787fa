// SPDX-License-Identifier: Apache-2.0
#include "parallel/parallel_layout.h"

#include "support/error.h"

#include <algorithm>

namespace msprobe::parallel {

namespace {

std::string rowLabel(int index, const std::vector<int>& group)
{
    const auto [low, high] = std::minmax_element(group.begin(), group.end());
    if (*low == *high)
        return "Rank" + std::to_string(*low);
    return "Group" + std::to_string(index) + ": Ranks" + std::to_string(*low) + "-" + std::to_string(*high);
}

RankGroups transpose(const RankGroups& groups)
{
    RankGroups result;
    if (groups.empty())
        return result;
    result.resize(groups.front().size());
    for (auto& column : result)
        column.reserve(groups.size());
    for (const auto& group : groups)
        for (std::size_t k = 0; k < group.size() && k < result.size(); ++k)
            result[k].push_back(group[k]);
    return result;
}

// Index of the group holding each rank.
std::vector<int> groupOfRank(const RankGroups& groups, int worldSize)
{
    std::vector<int> index(static_cast<std::size_t>(worldSize), -1);
    for (std::size_t g = 0; g < groups.size(); ++g)
        for (std::size_t m = 0; m < groups[g].size(); ++m)
            index[static_cast<std::size_t>(groups[g][m])] = static_cast<int>(g);
    return index;
}

} // namespace

void figureInches(int rows, int columns, double& width, double& height)
{
    width = std::clamp(2.0 * columns, 6.0, 60.0) + 5.0;
    height = std::clamp(0.5 * rows, 4.0, 100.0);
}

std::string ParallelLayout::cellText(int row, int column) const
{
    return stageChunks[static_cast<std::size_t>(rows[static_cast<std::size_t>(row)].pipelineStage)]
                      [static_cast<std::size_t>(column)]
                          .text();
}

ParallelLayout deriveLayout(const ParallelConfig& config)
{
    ParallelLayout layout;
    layout.sizes = validateConfig(config);
    const ParallelSizes& s = layout.sizes;
    const RankGenerator generator(s.tensorParallel, 1, s.dataParallel, s.pipelineParallel, 1, config.order);
    layout.order = generator.normalizedOrder();
    layout.tpGroups = generator.groups("tp");
    layout.ppGroups = generator.groups("pp");
    layout.dpGroups = generator.groups("dp");
    layout.copies = transpose(layout.dpGroups);

    // A rank's pipeline stage is its position in its pipeline group.
    std::vector<int> stageOfRank(static_cast<std::size_t>(s.worldSize), 0);
    for (const auto& group : layout.ppGroups)
        for (std::size_t stage = 0; stage < group.size(); ++stage)
            stageOfRank[static_cast<std::size_t>(group[stage])] = static_cast<int>(stage);
    for (int stage = 0; stage < s.pipelineParallel; ++stage)
        layout.stageChunks.push_back(chunksOfPipelineStage(s, stage));

    // Representative of (copy k, TP group t): the first rank of copy k, in copy order, that lies in group t.
    const std::vector<int> tpGroupOf = groupOfRank(layout.tpGroups, s.worldSize);
    layout.rows.resize(layout.tpGroups.size());
    std::vector<bool> placed(layout.tpGroups.size(), false);
    for (std::size_t k = 0; k < layout.copies.size(); ++k)
        for (int rank : layout.copies[k]) {
            const auto t = static_cast<std::size_t>(tpGroupOf[static_cast<std::size_t>(rank)]);
            if (placed[t])
                continue;
            placed[t] = true;
            layout.rows[t].copy = static_cast<int>(k);
            layout.rows[t].representative = rank;
        }
    for (std::size_t t = 0; t < layout.rows.size(); ++t) {
        if (!placed[t])
            throw support::Error("internal: tensor-parallel group " + std::to_string(t) + " belongs to no model copy");
        LayoutRow& row = layout.rows[t];
        row.label = rowLabel(static_cast<int>(t), layout.tpGroups[t]);
        row.pipelineStage = stageOfRank[static_cast<std::size_t>(row.representative)];
    }

    layout.title = "Model Parallelism Configuration | Total Layers: " + std::to_string(s.numLayers)
        + " | DP=" + std::to_string(s.dataParallel) + " | TP=" + std::to_string(s.tensorParallel)
        + " | PP=" + std::to_string(s.pipelineParallel) + " | VPP=" + std::to_string(s.virtualPipelineParallel);
    layout.fileName = plotFileName(s);
    figureInches(static_cast<int>(layout.rows.size()), s.virtualPipelineParallel, layout.widthInches,
        layout.heightInches);
    return layout;
}

} // namespace msprobe::parallel
