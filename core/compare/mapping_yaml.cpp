// SPDX-License-Identifier: Apache-2.0
#include "compare/mapping_yaml.h"

#include "support/error.h"
#include "support/input_file.h"
#include "support/yaml_file.h"

#include <map>
#include <unordered_map>

namespace msprobe::compare {

namespace {

constexpr const char* kExpected = "a mapping of names, one 'name: name' per line or {name: name}";

NameMapping mappingOf(const YAML::Node& root, const std::string& file)
{
    NameMapping mapping;
    std::unordered_map<std::string, std::size_t> position;
    for (const auto& [keyNode, valueNode] : support::yamlMembers(root, file, "the mapping file")) {
        const std::string key = support::yamlText(keyNode, file, "a key");
        std::string value = support::yamlText(valueNode, file, "the value of '" + key + "'");
        if (key.empty() || value.empty())
            throw support::Error(file, support::yamlPlace(keyNode), "empty key or value");
        auto [it, fresh] = position.try_emplace(key, mapping.size());
        if (fresh)
            mapping.emplace_back(key, std::move(value));
        else
            mapping[it->second].second = std::move(value);
    }
    return mapping;
}

} // namespace

NameMapping parseFlatYamlMapping(const std::string& text, const std::string& displayName)
{
    return mappingOf(support::parseYamlText(text, displayName, kExpected), displayName);
}

NameMapping readFlatYamlMapping(const std::filesystem::path& file)
{
    return mappingOf(support::loadYamlFile(file, kExpected), file.string());
}

std::vector<std::string> sharedMappingTargets(const NameMapping& mapping)
{
    std::map<std::string, std::vector<const std::string*>> keysOf;
    for (const auto& [key, value] : mapping)
        keysOf[value].push_back(&key);
    std::vector<std::string> out;
    for (const auto& [target, keys] : keysOf) {
        if (keys.size() < 2)
            continue;
        std::string names;
        for (std::size_t i = 0; i < keys.size(); ++i)
            names += (i == 0 ? "" : i + 1 == keys.size() ? " and " : ", ") + ("'" + *keys[i] + "'");
        out.push_back(names + (keys.size() == 2 ? " both" : " all") + " map to '" + target + "'");
    }
    return out;
}

} // namespace msprobe::compare
