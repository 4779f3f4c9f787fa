// SPDX-License-Identifier: Apache-2.0
// The layer-mapping engine behind -lm: every dump key gets a scope (module path, or the calling module and
// the innermost framework frame for APIs); both sides' keys go into a trie of scopes; an NPU key is carried
// into the bench trie level by level, renaming children as the user's YAML says, and takes the bench item at
// the same position among same-state items there.
#pragma once

#include "graph/model/graph_model.h"

#include <filesystem>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

namespace msprobe::graph {

// ClassName -> {npu child path -> bench child path}, in file order.
using LayerMappingRules = std::vector<std::pair<std::string, std::vector<std::pair<std::string, std::string>>>>;

// Reads the two-level YAML of -lm (a legacy "Cell" root key means "TopLayer"). Throws msprobe::Error
// naming the file and line.
LayerMappingRules readLayerMappingYaml(const std::filesystem::path& file);

// NPU dump key -> bench dump key ("N/A" when none), as generate_api_mapping_by_layer_mapping makes it.
// Throws msprobe::Error for names the engine cannot scope (fewer than four segments, malformed stacks).
std::unordered_map<std::string, std::string> layerMappingFor(const Graph& npu, const Graph& bench,
    const std::filesystem::path& yamlFile);
std::unordered_map<std::string, std::string> layerMappingFor(const Graph& npu, const Graph& bench,
    const LayerMappingRules& rules);

} // namespace msprobe::graph
