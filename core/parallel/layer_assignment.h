// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "parallel/parallel_config.h"

#include <string>
#include <vector>

namespace msprobe::parallel {

// What one model chunk (one virtual pipeline stage) of a rank holds: the embedding, transformer layers
// firstLayer..lastLayer (1-based; none when firstLayer is 0) and the output layer.
struct ModelChunk {
    bool embedding = false;
    int firstLayer = 0;
    int lastLayer = 0;
    bool outputLayer = false;

    // "Embed+L1-3+Out" style (spec 4.3); a single layer prints "L5-5", an empty chunk "".
    std::string text() const;
    bool operator==(const ModelChunk&) const = default;
};

// The chunks of every rank at pipeline stage `pipelineRank` (0-based); a rank's layers depend only on its stage.
// One chunk per virtual pipeline stage.
std::vector<ModelChunk> chunksOfPipelineStage(const ParallelSizes& sizes, int pipelineRank);

} // namespace msprobe::parallel
