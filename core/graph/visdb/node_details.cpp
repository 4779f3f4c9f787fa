// SPDX-License-Identifier: Apache-2.0
#include "graph/visdb/node_details.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdlib>

namespace msprobe::graph {

namespace {

bool hiddenField(std::string_view key) { return key == "data_name" || key == "isBench" || key == "isMatched" || key == "value"; }

std::string shortName(const std::string& item, const std::string& node)
{
    if (!node.empty() && item.size() > node.size() && item.starts_with(node) && item[node.size()] == '.')
        return item.substr(node.size() + 1);
    return item;
}

std::vector<std::size_t> positions(const StoredItems& items, bool output)
{
    std::vector<std::size_t> out;
    for (std::size_t i = 0; i < items.size(); ++i)
        if (items.isOutput(i) == output)
            out.push_back(i);
    return out;
}

} // namespace

int DetailsTable::column(std::string_view name) const
{
    auto it = std::find(columns.begin(), columns.end(), name);
    return it == columns.end() ? -1 : static_cast<int>(it - columns.begin());
}

DetailsTable comparisonTable(const std::string& npuNode, const StoredItems& npu, const std::string& benchNode, const StoredItems* bench)
{
    struct Source {
        const StoredItems* items;
        std::size_t index;
        bool bench, paired;
    };
    std::vector<Source> order, unpairedNpu, unpairedBench;
    for (bool output : { false, true }) {
        const auto n = positions(npu, output);
        const auto b = bench ? positions(*bench, output) : std::vector<std::size_t> {};
        const std::size_t common = std::min(n.size(), b.size());
        for (std::size_t k = 0; k < common; ++k) {
            order.push_back({ &npu, n[k], false, true });
            order.push_back({ bench, b[k], true, true });
        }
        for (std::size_t k = common; k < n.size(); ++k)
            unpairedNpu.push_back({ &npu, n[k], false, false });
        for (std::size_t k = common; k < b.size(); ++k)
            unpairedBench.push_back({ bench, b[k], true, false });
    }
    order.insert(order.end(), unpairedNpu.begin(), unpairedNpu.end());
    order.insert(order.end(), unpairedBench.begin(), unpairedBench.end());

    DetailsTable table;
    table.columns.push_back("name");
    std::vector<std::vector<std::pair<std::string, std::string>>> fields;
    fields.reserve(order.size());
    for (const auto& source : order) {
        fields.push_back(source.items->fields(source.index));
        for (const auto& [key, value] : fields.back())
            if (!hiddenField(key) && key != "name" && table.column(key) < 0)
                table.columns.push_back(key);
    }
    for (std::size_t r = 0; r < order.size(); ++r) {
        DetailsRow row;
        row.bench = order[r].bench;
        row.paired = order[r].paired;
        row.item = order[r].items->name(order[r].index);
        row.cells.assign(table.columns.size(), "-");
        row.cells[0] = shortName(row.item, row.bench ? benchNode : npuNode);
        for (const auto& [key, value] : fields[r]) {
            const int c = table.column(key);
            if (c > 0 && !value.empty())
                row.cells[static_cast<std::size_t>(c)] = value;
        }
        table.rows.push_back(std::move(row));
    }
    return table;
}

DistributedInfo distributedInfo(std::string_view matchedDistributed)
{
    DistributedInfo info;
    const auto json = nlohmann::json::parse(matchedDistributed, nullptr, false);
    if (!json.is_object())
        return info;
    if (auto type = json.find("communications_type"); type != json.end() && type->is_string())
        info.type = type->get<std::string>();
    auto nodes = json.find("nodes_info");
    if (nodes == json.end() || !nodes->is_object())
        return info;
    for (const auto& [rank, value] : nodes->items()) {
        char* end = nullptr;
        const long r = std::strtol(rank.c_str(), &end, 10);
        if (end == rank.c_str() || *end || !value.is_array() || value.size() < 2 || !value[1].is_string())
            continue;
        DistributedPeer peer;
        peer.rank = static_cast<int>(r);
        peer.node = value[1].get<std::string>();
        peer.index = value[0].is_string() ? value[0].get<std::string>() : value[0].dump();
        info.peers.push_back(std::move(peer));
    }
    std::sort(info.peers.begin(), info.peers.end(), [](const auto& a, const auto& b) { return a.rank < b.rank; });
    if (info.peers.empty())
        info.type.clear();
    return info;
}

std::vector<std::string> parallelMergeLines(std::string_view parallelMergeInfo)
{
    std::vector<std::string> lines;
    if (parallelMergeInfo.empty() || parallelMergeInfo == "[]" || parallelMergeInfo == "null")
        return lines;
    const auto json = nlohmann::json::parse(parallelMergeInfo, nullptr, false);
    if (json.is_array()) {
        for (const auto& line : json)
            lines.push_back(line.is_string() ? line.get<std::string>() : line.dump());
        return lines;
    }
    lines.emplace_back(parallelMergeInfo);
    return lines;
}

} // namespace msprobe::graph
