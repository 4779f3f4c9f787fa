// SPDX-License-Identifier: Apache-2.0
#include "parallel/parallel_layout.h"

#include <nlohmann/json.hpp>

namespace msprobe::parallel {

std::string layoutJson(const ParallelLayout& layout)
{
    const ParallelSizes& s = layout.sizes;
    nlohmann::ordered_json root;
    root["file_name"] = layout.fileName;
    root["title"] = layout.title;
    root["world_size"] = s.worldSize;
    root["num_layers"] = s.numLayers;
    root["tensor_parallel_size"] = s.tensorParallel;
    root["pipeline_parallel_size"] = s.pipelineParallel;
    root["transformer_pipeline_parallel_size"] = s.transformerPipelineParallel;
    root["virtual_pipeline_parallel_size"] = s.virtualPipelineParallel;
    root["data_parallel_size"] = s.dataParallel;
    root["standalone_embedding_stage"] = s.standaloneEmbeddingStage;
    root["order"] = layout.order;
    root["figure_inches"] = { layout.widthInches, layout.heightInches };
    root["tp_groups"] = layout.tpGroups;
    root["pp_groups"] = layout.ppGroups;
    root["dp_groups"] = layout.dpGroups;
    root["model_copies"] = layout.copies;
    auto& stages = root["pipeline_stages"] = nlohmann::ordered_json::array();
    for (const auto& chunks : layout.stageChunks) {
        auto& cells = stages.emplace_back(nlohmann::ordered_json::array());
        for (const ModelChunk& chunk : chunks)
            cells.push_back(chunk.text());
    }
    auto& rows = root["rows"] = nlohmann::ordered_json::array();
    for (std::size_t r = 0; r < layout.rows.size(); ++r) {
        const LayoutRow& row = layout.rows[r];
        nlohmann::ordered_json item;
        item["row"] = r;
        item["label"] = row.label;
        item["ranks"] = layout.tpGroups[r];
        item["copy"] = row.copy + 1;
        item["representative"] = row.representative;
        item["pipeline_stage"] = row.pipelineStage;
        item["cells"] = stages[static_cast<std::size_t>(row.pipelineStage)];
        rows.push_back(std::move(item));
    }
    return root.dump(1) + "\n";
}

} // namespace msprobe::parallel
