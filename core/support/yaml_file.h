// SPDX-License-Identifier: Apache-2.0
// YAML option files (-dm, -cm, -lm) through yaml-cpp: errors name the file and the line and column.
// Included only by core sources (yaml-cpp is a private dependency of msprobe_core).
#pragma once

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include <yaml-cpp/yaml.h>

namespace msprobe::support {

// The document of a regular file of at most kOptionFileLimit bytes. An empty document (nothing but
// comments) is an error saying what was expected (`expected`, e.g. "a mapping of NPU name: bench name").
YAML::Node loadYamlFile(const std::filesystem::path& file, const std::string& expected);
YAML::Node parseYamlText(const std::string& text, const std::string& displayName, const std::string& expected);

// "line 3, column 5" (1-based) of a node.
std::string yamlPlace(const YAML::Node& node);

// The members of a mapping node in document order, with "<<" merge keys expanded as PyYAML's safe_load
// does (merged members first, the node's own members after them). Throws for a node that is not a mapping.
std::vector<std::pair<YAML::Node, YAML::Node>> yamlMembers(const YAML::Node& map, const std::string& file,
    const std::string& what);

// The text of a scalar node (key or value); throws naming the place for a mapping, a list or null.
std::string yamlText(const YAML::Node& node, const std::string& file, const std::string& what);

} // namespace msprobe::support
