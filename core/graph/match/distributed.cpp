// SPDX-License-Identifier: Apache-2.0
#include "graph/match/distributed.h"
#include "support/python_text.h"

#include "compare/py_value.h"
#include "graph/model/graph_builder.h"
#include "support/sqlite_util.h"

#include <nlohmann/json.hpp>

#include <map>
#include <optional>
#include <unordered_map>

namespace msprobe::graph {

namespace {

using Json = nlohmann::ordered_json;

struct CommNode {
    std::string id;
    Json input; // input_data as stored (string values)
    std::string index; // the peer-visible index: precision or overflow level, "Nan" when NULL
    Json matched; // matched_distributed under construction (null: none)
};

// rank text -> (node id -> node), in row order.
struct RankNodes {
    std::vector<CommNode> nodes;
    std::unordered_map<std::string, std::size_t> byId;
};
// Ranks in the order their rows were read (the reference's dict order).
struct StepInfo {
    std::vector<std::pair<std::string, RankNodes>> ranks;
    RankNodes& operator[](const std::string& rank)
    {
        for (auto& [key, nodes] : ranks)
            if (key == rank)
                return nodes;
        ranks.emplace_back(rank, RankNodes {});
        return ranks.back().second;
    }
    RankNodes* find(const std::string& rank)
    {
        for (auto& [key, nodes] : ranks)
            if (key == rank)
                return &nodes;
        return nullptr;
    }
};

enum class Kind { P2P, Collective };
struct ApiConfig {
    std::string_view peer, param, direction;
    Kind kind;
};

const ApiConfig* configOf(std::string_view api)
{
    static const std::unordered_map<std::string_view, ApiConfig> config = {
        { "send", { "recv", "dst", "send", Kind::P2P } },
        { "isend", { "irecv", "dst", "send", Kind::P2P } },
        { "recv", { "send", "src", "receive", Kind::P2P } },
        { "irecv", { "isend", "src", "receive", Kind::P2P } },
        { "broadcast", { "broadcast", "1", "send", Kind::Collective } },
        { "scatter", { "scatter", "src", "send", Kind::Collective } },
        { "gather", { "gather", "dst", "receive", Kind::Collective } },
        { "reduce", { "reduce", "1", "receive", Kind::Collective } },
    };
    auto it = config.find(api);
    return it == config.end() ? nullptr : &it->second;
}

std::string apiOf(const std::string& id)
{
    const auto parts = support::pythonSplit(id, '.');
    return parts.size() > 1 ? std::string(parts[1]) : std::string {};
}

// The stored value of "{id}.input.{param}" as Python would see it (a string), or none.
std::optional<std::string> inputValue(const CommNode& node, std::string_view param)
{
    auto it = node.input.find(node.id + ".input." + std::string(param));
    if (it == node.input.end() || !it->is_object())
        return std::nullopt;
    auto value = it->find("value");
    if (value == it->end() || value->is_null())
        return std::nullopt;
    return value->is_string() ? value->get<std::string>() : value->dump();
}

struct Group {
    std::vector<std::string> ranks; // as str(rank)
    std::string id;
};

std::optional<Group> groupOf(const CommNode& node)
{
    auto it = node.input.find(node.id + ".input.group");
    if (it == node.input.end() || !it->is_object() || it->empty())
        return std::nullopt;
    auto ranks = it->find("group_ranks");
    auto id = it->find("group_id");
    if (ranks == it->end() || id == it->end())
        return std::nullopt;
    Json list = *ranks;
    if (list.is_string()) {
        list = Json::parse(list.get<std::string>(), nullptr, false);
        if (list.is_discarded())
            return std::nullopt;
    }
    if (!list.is_array() || list.empty())
        return std::nullopt;
    Group group;
    for (const auto& r : list)
        group.ranks.push_back(r.is_string() ? r.get<std::string>() : r.dump());
    group.id = id->is_string() ? id->get<std::string>() : id->dump();
    if (group.id.empty())
        return std::nullopt;
    return group;
}

class Analyzer {
public:
    explicit Analyzer(StepInfo& info)
        : m_info(info)
    {
        for (auto& [rank, nodes] : m_info.ranks) {
            std::unordered_map<std::string, int> counts;
            auto& mapping = m_mapping[rank];
            for (const auto& node : nodes.nodes) {
                const std::string api = apiOf(node.id);
                if (api == "batch_isend_irecv")
                    continue; // its peers are not stored in the database: the reference never matches it
                std::string key;
                const ApiConfig* config = configOf(api);
                if (config && config->kind == Kind::P2P) {
                    auto target = inputValue(node, config->param);
                    if (!target)
                        continue;
                    key = api + "rank" + *target;
                } else {
                    auto group = groupOf(node);
                    if (!group)
                        continue;
                    key = group->id + api;
                }
                const std::string unique = key + "_" + std::to_string(++counts[key]);
                mapping[unique] = node.id;
                mapping[node.id] = unique;
            }
        }
    }

    void run()
    {
        for (auto& [rank, nodes] : m_info.ranks)
            for (auto& node : nodes.nodes) {
                if (!node.matched.is_null())
                    continue;
                const std::string api = apiOf(node.id);
                const ApiConfig* config = configOf(api);
                if (api == "batch_isend_irecv")
                    continue;
                if (config && config->kind == Kind::P2P)
                    p2p(node, rank, api, *config);
                else
                    collective(node, rank, api, config);
            }
    }

private:
    static std::string replaceAll(std::string text, const std::string& what, const std::string& with)
    {
        return replaceAllText(text, what, with);
    }

    CommNode* targetNode(const std::string& rank, const std::string& unique, const std::string& api,
        const std::string& targetRank, const std::string* targetApi)
    {
        RankNodes* nodes = m_info.find(targetRank);
        if (!nodes)
            return nullptr;
        const auto& mapping = m_mapping[targetRank];
        const std::string targetUnique = targetApi
            ? replaceAll(replaceAll(unique, "rank" + targetRank, "rank" + rank), api, *targetApi)
            : unique;
        auto id = mapping.find(targetUnique);
        if (id == mapping.end())
            return nullptr;
        auto index = nodes->byId.find(id->second);
        return index == nodes->byId.end() ? nullptr : &nodes->nodes[index->second];
    }

    static void addMatched(CommNode& node, const CommNode& target, std::string_view direction, const std::string& targetRank)
    {
        Json info = Json::object();
        info[targetRank] = Json::array({ target.index, target.id });
        node.matched = Json::object();
        node.matched["communications_type"] = direction;
        node.matched["nodes_info"] = info;
    }

    static std::string_view opposite(std::string_view direction)
    {
        return direction == "send" ? "receive" : direction == "receive" ? "send" : direction;
    }

    void p2p(CommNode& node, const std::string& rank, const std::string& api, const ApiConfig& config)
    {
        auto targetRank = inputValue(node, config.param);
        if (!targetRank)
            return;
        const std::string unique = m_mapping[rank].count(node.id) ? m_mapping[rank][node.id] : std::string {};
        const std::string peerApi(config.peer);
        CommNode* target = targetNode(rank, unique, api, *targetRank, &peerApi);
        if (!target)
            return;
        const ApiConfig* peerConfig = configOf(peerApi);
        auto source = inputValue(*target, peerConfig->param);
        if (!source || *source != rank)
            return;
        addMatched(node, *target, config.direction, *targetRank);
        addMatched(*target, node, peerConfig->direction, rank);
    }

    void collective(CommNode& node, const std::string& rank, const std::string& api, const ApiConfig* config)
    {
        std::string_view direction = "send_receive";
        if (config) {
            auto source = inputValue(node, config->param);
            if (!source || *source != rank)
                return;
            direction = config->direction;
        }
        auto group = groupOf(node);
        if (!group)
            return;
        const std::string unique = m_mapping[rank].count(node.id) ? m_mapping[rank][node.id] : std::string {};
        Json info = Json::object();
        for (const auto& targetRank : group->ranks) {
            if (targetRank == rank)
                continue;
            CommNode* target = targetNode(rank, unique, api, targetRank, nullptr);
            if (!target)
                continue;
            auto targetGroup = groupOf(*target);
            if (!targetGroup || targetGroup->id != group->id)
                continue;
            info[targetRank] = Json::array({ target->index, target->id });
            if (config)
                addMatched(*target, node, opposite(config->direction), rank);
        }
        if (!info.empty()) {
            node.matched = Json::object();
            node.matched["communications_type"] = direction;
            node.matched["nodes_info"] = info;
        }
    }

    StepInfo& m_info;
    std::map<std::string, std::unordered_map<std::string, std::string>> m_mapping;
};

std::string precisionText(double value)
{
    if (value == static_cast<double>(static_cast<std::int64_t>(value)))
        return std::to_string(static_cast<std::int64_t>(value));
    std::string out;
    support::appendPythonFloatRepr(out, value);
    return out;
}

// json.dumps with ", " / ": " separators and non-ASCII escaped.
void dumpPython(std::string& out, const Json& value)
{
    if (value.is_object()) {
        out += '{';
        bool first = true;
        for (const auto& [key, item] : value.items()) {
            if (!first)
                out += ", ";
            first = false;
            support::appendJsonString(out, key);
            out += ": ";
            dumpPython(out, item);
        }
        out += '}';
    } else if (value.is_array()) {
        out += '[';
        for (std::size_t i = 0; i < value.size(); ++i) {
            if (i)
                out += ", ";
            dumpPython(out, value[i]);
        }
        out += ']';
    } else if (value.is_string()) {
        support::appendJsonString(out, value.get<std::string>());
    } else {
        out += value.dump();
    }
}

} // namespace

void analyseDistributed(support::SqliteDb& db, bool overflowCheck)
{
    // data_source -> step -> rank -> nodes
    std::map<std::string, std::map<std::int64_t, StepInfo>> all; // sources and steps: any order will do
    {
        support::SqliteStatement query(db, "SELECT node_name, input_data, rank, step, data_source, precision_index, overflow_level "
                                  "FROM tb_nodes WHERE is_distributed = 1");
        while (query.step()) {
            CommNode node;
            node.id = std::string(query.columnText(0));
            node.input = Json::parse(query.columnText(1), nullptr, false);
            if (node.input.is_discarded() || !node.input.is_object())
                continue;
            if (overflowCheck)
                node.index = query.isNull(6) ? "Nan" : std::string(query.columnText(6));
            else
                node.index = query.isNull(5) ? "Nan" : precisionText(query.columnDouble(5));
            RankNodes& rank = all[std::string(query.columnText(4))][query.columnInt(3)][std::to_string(query.columnInt(2))];
            rank.byId[node.id] = rank.nodes.size();
            rank.nodes.push_back(std::move(node));
        }
    }
    if (all.empty())
        return;
    support::SqliteStatement update(db, "UPDATE tb_nodes SET matched_distributed = ? WHERE step = ? AND rank = ? AND data_source = ? AND node_name = ?");
    db.exec("BEGIN");
    for (auto& [source, steps] : all)
        for (auto& [step, info] : steps) {
            Analyzer analyzer(info);
            analyzer.run();
            for (const auto& [rank, nodes] : info.ranks)
                for (const auto& node : nodes.nodes) {
                    if (node.matched.is_null())
                        continue;
                    std::string text;
                    dumpPython(text, node.matched);
                    update.bindText(1, text);
                    update.bindInt(2, step);
                    update.bindInt(3, std::stoll(rank));
                    update.bindText(4, source);
                    update.bindText(5, node.id);
                    update.run();
                }
        }
    db.exec("COMMIT");
}

} // namespace msprobe::graph
