// SPDX-License-Identifier: Apache-2.0
// The YAML of -lm: {ClassName: {npu child path: bench child path}} read with yaml-cpp.
#include "graph/match/layer_mapping.h"

#include "support/error.h"
#include "support/yaml_file.h"

namespace msprobe::graph {

namespace {

constexpr const char* kExpected = "a mapping of class names, each to a mapping of 'npu child: bench child'";

// A repeated key keeps its first position and its last value, as a YAML loader's dict does.
template<typename Value>
void assignLast(std::vector<std::pair<std::string, Value>>& list, const std::string& key, Value value)
{
    for (auto& [k, v] : list)
        if (k == key) {
            v = std::move(value);
            return;
        }
    list.emplace_back(key, std::move(value));
}

LayerMappingRules rulesOf(const YAML::Node& root, const std::string& file)
{
    LayerMappingRules rules;
    for (const auto& [classNode, mapNode] : support::yamlMembers(root, file, "a layer-mapping file")) {
        const std::string className = support::yamlText(classNode, file, "a class name");
        std::vector<std::pair<std::string, std::string>> renames;
        if (!mapNode.IsNull()) // "ClassName:" alone: no renames
            for (const auto& [keyNode, valueNode] : support::yamlMembers(mapNode, file, "the mapping of class '" + className + "'")) {
                const std::string key = support::yamlText(keyNode, file, "a child path of class '" + className + "'");
                std::string value = support::yamlText(valueNode, file, "the bench path of '" + key + "'");
                if (key.empty() || value.empty())
                    throw support::Error(file, support::yamlPlace(keyNode), "empty child path");
                assignLast(renames, key, std::move(value));
            }
        assignLast(rules, className, std::move(renames));
    }
    return rules;
}

} // namespace

LayerMappingRules readLayerMappingYaml(const std::filesystem::path& file)
{
    return rulesOf(support::loadYamlFile(file, kExpected), file.string());
}

} // namespace msprobe::graph
