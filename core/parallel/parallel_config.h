// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <optional>
#include <string>

namespace msprobe::parallel {

// The reference caps a plot at 1,024 ranks and 256 layers (a matplotlib limit); our renderer is not bound by it.
inline constexpr long long kMaxWorldSize = 16384;
inline constexpr long long kMaxNumLayers = 4096;

// A Megatron parallel configuration as the user gives it (reference ParallelConfig, spec 4.1). Values are kept
// wide and unchecked here so that validateConfig() can refuse them in the reference's order with its messages.
struct ParallelConfig {
    long long worldSize = 0;
    long long numLayers = 0;
    long long tensorParallelSize = 1;
    long long pipelineParallelSize = 1;
    std::optional<long long> layersPerVirtualStage {}; // --num_layers_per_virtual_pipeline_stage
    std::string order = "tp-cp-ep-dp-pp";
    bool standaloneEmbeddingStage = false;
};

// The sizes derived from a valid configuration.
struct ParallelSizes {
    int worldSize = 1;
    int numLayers = 1;
    int tensorParallel = 1;
    int pipelineParallel = 1;
    int transformerPipelineParallel = 1; // pipeline stages that hold transformer layers (pp - 1 when standalone)
    int virtualPipelineParallel = 1;
    int dataParallel = 1;
    bool standaloneEmbeddingStage = false;
};

// Checks in the reference's order (spec 4.1) and throws msprobe::Error with its message on the first failure.
// The order string is checked later, by RankGenerator.
ParallelSizes validateConfig(const ParallelConfig& config);

// "ws{ws}_ln{L}_tp{tp}_pp{pp}_vpp{vpp}.png", the name the reference gives the picture.
std::string plotFileName(const ParallelSizes& sizes);

} // namespace msprobe::parallel
