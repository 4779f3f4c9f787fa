// SPDX-License-Identifier: Apache-2.0
#include "support/yaml_file.h"

#include "support/error.h"
#include "support/input_file.h"

namespace msprobe::support {

namespace {

const char* kindOf(const YAML::Node& node)
{
    switch (node.Type()) {
    case YAML::NodeType::Map: return "a mapping";
    case YAML::NodeType::Sequence: return "a list";
    case YAML::NodeType::Null: return "empty (null)";
    case YAML::NodeType::Scalar: return "a plain value";
    default: return "undefined";
    }
}

bool isMergeKey(const YAML::Node& key)
{
    return key.IsScalar() && key.Tag() == "?" && key.Scalar() == "<<";
}

} // namespace

YAML::Node parseYamlText(const std::string& text, const std::string& displayName, const std::string& expected)
{
    YAML::Node root;
    try {
        root = YAML::Load(text);
    } catch (const YAML::Exception& error) {
        throw Error(displayName,
            "line " + std::to_string(error.mark.line + 1) + ", column " + std::to_string(error.mark.column + 1),
            "invalid YAML: " + error.msg);
    }
    if (!root || root.IsNull())
        throw Error(displayName, {}, "the file holds no YAML document (expected " + expected + ")");
    return root;
}

YAML::Node loadYamlFile(const std::filesystem::path& file, const std::string& expected)
{
    return parseYamlText(readRegularFile(file, kOptionFileLimit), file.string(), expected);
}

std::string yamlPlace(const YAML::Node& node)
{
    const YAML::Mark mark = node.Mark();
    if (mark.is_null())
        return {};
    return "line " + std::to_string(mark.line + 1) + ", column " + std::to_string(mark.column + 1);
}

std::vector<std::pair<YAML::Node, YAML::Node>> yamlMembers(const YAML::Node& map, const std::string& file,
    const std::string& what)
{
    if (!map.IsMap())
        throw Error(file, yamlPlace(map), what + " must be a mapping ('key: value' lines or {key: value}), not "
                + kindOf(map));
    std::vector<std::pair<YAML::Node, YAML::Node>> merged, own;
    for (const auto& member : map) {
        if (!isMergeKey(member.first)) {
            own.emplace_back(member.first, member.second);
            continue;
        }
        // "<<: *anchor" or "<<: [*a, *b]" (earlier mappings win over later ones, as in PyYAML).
        std::vector<YAML::Node> sources;
        if (member.second.IsSequence())
            for (const auto& item : member.second)
                sources.push_back(item);
        else
            sources.push_back(member.second);
        std::vector<std::pair<YAML::Node, YAML::Node>> fromSources;
        for (auto it = sources.rbegin(); it != sources.rend(); ++it)
            for (auto& entry : yamlMembers(*it, file, "a '<<' merge source"))
                fromSources.push_back(std::move(entry));
        merged.insert(merged.end(), fromSources.begin(), fromSources.end());
    }
    merged.insert(merged.end(), own.begin(), own.end());
    return merged;
}

std::string yamlText(const YAML::Node& node, const std::string& file, const std::string& what)
{
    if (!node.IsScalar())
        throw Error(file, yamlPlace(node), what + " must be a name, not " + kindOf(node));
    return node.Scalar();
}

} // namespace msprobe::support
