// SPDX-License-Identifier: Apache-2.0
#include "dump/construct_stack.h"

#include "support/error.h"
#include "support/json_file.h"

namespace msprobe {

namespace {

std::optional<std::string> parentName(const nlohmann::ordered_json& value, const std::filesystem::path& file,
    const std::string& child)
{
    if (value.is_null())
        return std::nullopt;
    if (!value.is_string())
        throw Error(file.string(), "node '" + child + "'", "the parent must be a string or null");
    return value.get<std::string>();
}

} // namespace

const ConstructInfo::Node* ConstructInfo::find(const std::string& name) const
{
    auto it = indexOf.find(name);
    return it == indexOf.end() ? nullptr : &nodes[it->second];
}

ConstructInfo readConstructJson(const std::filesystem::path& file)
{
    ConstructInfo info;
    std::error_code ec;
    if (!std::filesystem::exists(file, ec))
        return info;
    const auto json = readSmallJsonFile(file);
    if (!json.is_object())
        throw Error(file.string(), {}, "construct.json must be a JSON object of node -> parent");
    static const std::string kMicroStepKey = "megatron_micro_step_number";
    if (auto it = json.find(kMicroStepKey); it != json.end()) {
        if (!it->is_number_integer())
            throw Error(file.string(), kMicroStepKey, "must be an integer");
        info.megatronMicroStepNumber = it->get<int>();
    }
    for (const auto& [name, value] : json.items()) {
        if (name == kMicroStepKey)
            continue;
        ConstructInfo::Node node;
        node.name = name;
        if (info.megatronMicroStepNumber) {
            if (!value.is_array() || value.size() != 2 || !value[1].is_number_integer())
                throw Error(file.string(), "node '" + name + "'",
                    "the Megatron construct.json needs [parent, micro_step] values");
            node.parent = parentName(value[0], file, name);
            node.microStep = value[1].get<int>();
        } else {
            node.parent = parentName(value, file, name);
        }
        info.indexOf[name] = info.nodes.size();
        info.nodes.push_back(std::move(node));
    }
    return info;
}

const std::vector<std::string>* StackInfo::framesOf(const std::string& name) const
{
    auto it = groupOf.find(name);
    return it == groupOf.end() ? nullptr : &frames[it->second];
}

StackInfo readStackJson(const std::filesystem::path& file)
{
    StackInfo info;
    std::error_code ec;
    if (!std::filesystem::exists(file, ec))
        return info;
    const auto json = readSmallJsonFile(file);
    if (!json.is_object())
        throw Error(file.string(), {}, "stack.json must be a JSON object");
    auto stringList = [&](const nlohmann::ordered_json& value, const std::string& where) {
        if (!value.is_array())
            throw Error(file.string(), where, "expected a list of strings");
        std::vector<std::string> out;
        for (const auto& item : value) {
            if (!item.is_string())
                throw Error(file.string(), where, "expected a list of strings");
            out.push_back(item.get<std::string>());
        }
        return out;
    };
    const auto first = json.find("0");
    info.legacyFormat = json.empty() || first == json.end() || !first->is_array() || first->size() != 2;
    for (const auto& [key, value] : json.items()) {
        const auto group = static_cast<std::uint32_t>(info.frames.size());
        if (info.legacyFormat) {
            info.frames.push_back(stringList(value, "node '" + key + "'"));
            info.groupOf[key] = group;
            continue;
        }
        if (!value.is_array() || value.size() != 2)
            throw Error(file.string(), "group \"" + key + "\"", "expected [[node names], [frames]]");
        for (auto& name : stringList(value[0], "group \"" + key + "\" names"))
            info.groupOf[name] = group;
        info.frames.push_back(stringList(value[1], "group \"" + key + "\" frames"));
    }
    return info;
}

} // namespace msprobe
