// SPDX-License-Identifier: Apache-2.0
#include "parallel/parallel_config.h"

#include "support/error.h"

#include <algorithm>
#include <utility>

namespace msprobe::parallel {

namespace {

std::string str(long long value)
{
    return std::to_string(value);
}

} // namespace

ParallelSizes validateConfig(const ParallelConfig& config)
{
    const long long perVirtualStage = config.layersPerVirtualStage.value_or(1);
    const std::pair<const char*, long long> positives[] = {
        { "world_size", config.worldSize },
        { "num_layers", config.numLayers },
        { "tensor_parallel_size", config.tensorParallelSize },
        { "pipeline_parallel_size", config.pipelineParallelSize },
        { "num_layers_per_virtual_pipeline_stage", perVirtualStage },
    };
    for (const auto& [name, value] : positives)
        if (value < 1)
            throw support::Error(std::string(name) + " must be a positive integer");
    // The reference forgot the f-string prefix here and prints "({self.world_size})"; we print the value.
    if (config.worldSize > kMaxWorldSize)
        throw support::Error("world_size (" + str(config.worldSize) + ") exceeds the maximum supported value of "
            + str(kMaxWorldSize) + ".");
    if (config.numLayers > kMaxNumLayers)
        throw support::Error("num_layers (" + str(config.numLayers) + ") exceeds the maximum supported value of "
            + str(kMaxNumLayers) + ".");
    const long long tp = config.tensorParallelSize;
    long long pp = config.pipelineParallelSize;
    // tp and pp may each exceed the world size; their product is only compared once both are known to be small.
    if (tp > config.worldSize || pp > config.worldSize || config.worldSize % (tp * pp) != 0)
        throw support::Error("world_size (" + str(config.worldSize) + ") is not divisible by tensor_parallel_size(" + str(tp)
            + ") x pipeline_parallel_size (" + str(pp) + ")");

    pp = std::min(pp, config.worldSize / tp);
    const long long transformerPp = config.standaloneEmbeddingStage ? pp - 1 : pp;
    if (transformerPp == 0 || config.numLayers % transformerPp != 0) {
        if (config.standaloneEmbeddingStage)
            throw support::Error("number of layers (" + str(config.numLayers) + ") must be divisible by "
                + "transformer_pipeline_parallel_size (" + str(transformerPp) + "), "
                + "which is pipeline_parallel_size-1 when standalone_embedding_stage is enabled.");
        throw support::Error("number of layers (" + str(config.numLayers) + ") must be divisible by pipeline_parallel_size ("
            + str(pp) + ").");
    }
    const long long layersPerStage = config.numLayers / transformerPp;
    long long vpp = 1;
    if (config.layersPerVirtualStage) {
        if (layersPerStage % perVirtualStage != 0)
            throw support::Error("number of layers per pipeline stage (" + str(layersPerStage)
                + ") must be divisible by number of layers per virtual pipeline stage (" + str(perVirtualStage)
                + ").");
        vpp = layersPerStage / perVirtualStage;
        if (vpp > 1 && pp <= 1)
            throw support::Error("pipeline-model-parallel size should be greater than 1 with virtual-pipeline");
    }
    ParallelSizes sizes;
    sizes.worldSize = static_cast<int>(config.worldSize);
    sizes.numLayers = static_cast<int>(config.numLayers);
    sizes.tensorParallel = static_cast<int>(tp);
    sizes.pipelineParallel = static_cast<int>(pp);
    sizes.transformerPipelineParallel = static_cast<int>(transformerPp);
    sizes.virtualPipelineParallel = static_cast<int>(vpp);
    sizes.dataParallel = static_cast<int>(config.worldSize / (tp * pp));
    sizes.standaloneEmbeddingStage = config.standaloneEmbeddingStage;
    return sizes;
}

std::string plotFileName(const ParallelSizes& sizes)
{
    return "ws" + str(sizes.worldSize) + "_ln" + str(sizes.numLayers) + "_tp" + str(sizes.tensorParallel) + "_pp"
        + str(sizes.pipelineParallel) + "_vpp" + str(sizes.virtualPipelineParallel) + ".png";
}

} // namespace msprobe::parallel
