// SPDX-License-Identifier: Apache-2.0
#include "parallel/layer_assignment.h"

namespace msprobe::parallel {

std::string ModelChunk::text() const
{
    std::string text;
    auto append = [&text](const std::string& part) { text += (text.empty() ? "" : "+") + part; };
    if (embedding)
        append("Embed");
    if (firstLayer > 0)
        append("L" + std::to_string(firstLayer) + "-" + std::to_string(lastLayer));
    if (outputLayer)
        append("Out");
    return text;
}

std::vector<ModelChunk> chunksOfPipelineStage(const ParallelSizes& sizes, int pipelineRank)
{
    const int vpp = sizes.virtualPipelineParallel;
    const int lastStage = sizes.pipelineParallel - 1;
    const int layersPerStage = sizes.numLayers / sizes.transformerPipelineParallel;
    int layersPerChunk = sizes.numLayers;
    if (sizes.pipelineParallel > 1) {
        if (sizes.standaloneEmbeddingStage && pipelineRank == 0)
            layersPerChunk = 0; // the embedding stage holds no transformer layer
        else
            layersPerChunk = vpp > 1 ? layersPerStage / vpp : layersPerStage;
    }
    const int transformerRank = pipelineRank - (sizes.standaloneEmbeddingStage ? 1 : 0);
    std::vector<ModelChunk> chunks(static_cast<std::size_t>(vpp));
    for (int chunk = 0; chunk < vpp; ++chunk) {
        ModelChunk& c = chunks[static_cast<std::size_t>(chunk)];
        c.embedding = pipelineRank == 0 && chunk == 0;
        c.outputLayer = pipelineRank == lastStage && chunk == vpp - 1;
        if (layersPerChunk == 0)
            continue;
        // Megatron interleaves chunks: chunk j of every stage comes before chunk j+1 of the first one.
        const int offset = vpp > 1 ? chunk * (sizes.numLayers / vpp) + transformerRank * (layersPerStage / vpp)
                                   : transformerRank * layersPerStage;
        c.firstLayer = offset + 1;
        c.lastLayer = offset + layersPerChunk;
    }
    return chunks;
}

} // namespace msprobe::parallel
