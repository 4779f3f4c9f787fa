// SPDX-License-Identifier: Apache-2.0
#include "graph/graph_run.h"

#include "support/atomic_file.h"
#include "graph/visdb/vis_db_reader.h"
#include "support/error.h"
#include "support/json_file.h"

#include <string_view>
#include <unordered_map>


namespace msprobe::graph {

std::vector<ManualPair> readMappingFile(const std::filesystem::path& file)
{
    const auto json = support::readSmallJsonFile(file);
    if (!json.is_object())
        throw support::Error(file.string(), {}, "a mapping file is a JSON object of NPU node id -> bench node id");
    std::vector<ManualPair> pairs;
    for (const auto& [key, value] : json.items()) {
        ManualPair pair;
        pair.npu = key;
        const nlohmann::ordered_json* bench = &value;
        if (value.is_object()) {
            auto it = value.find("bench");
            if (it == value.end())
                throw support::Error(file.string(), "node '" + key + "'", "an object value needs a \"bench\" member");
            bench = &*it;
            if (auto d = value.find("descendants"); d != value.end()) {
                if (!d->is_boolean())
                    throw support::Error(file.string(), "node '" + key + "'", "\"descendants\" must be true or false");
                pair.descendants = d->get<bool>();
            }
        }
        if (bench->is_array() && !bench->empty())
            bench = &bench->back(); // a matched_node_link path: the partner is its last element
        if (bench->is_string())
            pair.bench = bench->get<std::string>();
        else if (!bench->is_null() && !(bench->is_array() && bench->empty()))
            throw support::Error(file.string(), "node '" + key + "'", "the bench node must be a string, a path list or null");
        pairs.push_back(std::move(pair));
    }
    // Pairs are one to one: a second NPU node on the same bench node would silently take it from the first.
    std::unordered_map<std::string_view, std::string_view> npuOf;
    for (const auto& pair : pairs)
        if (pair.bench)
            if (auto [it, fresh] = npuOf.try_emplace(*pair.bench, pair.npu); !fresh)
                throw support::Error(file.string(), "node '" + pair.npu + "'",
                    "NPU nodes '" + std::string(it->second) + "' and '" + pair.npu + "' are both mapped onto bench node '"
                        + *pair.bench + "' (a bench node pairs with one NPU node)");
    return pairs;
}

void writeMappingFile(const std::filesystem::path& file, const std::vector<ManualPair>& pairs)
{
    nlohmann::ordered_json json = nlohmann::ordered_json::object();
    for (const auto& pair : pairs) {
        if (!pair.descendants) {
            json[pair.npu] = pair.bench ? nlohmann::ordered_json(*pair.bench) : nlohmann::ordered_json(nullptr);
            continue;
        }
        nlohmann::ordered_json entry;
        entry["bench"] = pair.bench ? nlohmann::ordered_json(*pair.bench) : nlohmann::ordered_json(nullptr);
        entry["descendants"] = true;
        json[pair.npu] = entry;
    }
    // Temp file + rename: a crash never leaves a half-written mapping beside the database.
    support::AtomicFile out(file);
    out.write(json.dump(4) + '\n');
    out.commit();
}

std::vector<ManualPair> manualPairsOf(const VisGraph& npu)
{
    std::vector<ManualPair> pairs;
    for (const auto& node : npu.nodes) {
        if (!node.modified)
            continue;
        ManualPair pair;
        pair.npu = node.name;
        if (!node.link.empty())
            pair.bench = node.link.back();
        pairs.push_back(std::move(pair));
    }
    return pairs;
}

std::filesystem::path visConfigPath(const std::filesystem::path& database, int step, int rank)
{
    std::string tag = database.filename().string();
    if (tag.ends_with(".vis.db"))
        tag.resize(tag.size() - 7);
    return database.parent_path() / (tag + "_" + std::to_string(step) + "_" + std::to_string(rank) + ".vis.config");
}

} // namespace msprobe::graph
