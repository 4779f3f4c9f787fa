// SPDX-License-Identifier: Apache-2.0
// Which ranks form one pipeline: each rank's first p2p send names the next stage; ranks are chained from there.
#include "graph/merge/merge_steps.h"

#include "compare/items.h"

#include <algorithm>
#include <optional>
#include <set>

namespace msprobe::graph {

namespace {

bool mentions(const std::string& text, std::string_view part) { return text.find(part) != std::string::npos; }

// Each rank's first p2p send destination.
std::optional<int> sendTargetOf(const MergeForest& forest, const RankGraph& graph)
{
    for (const std::uint32_t n : graph.map.values()) {
        const std::string& id = forest.node(n).id;
        if (!id.starts_with("Distributed."))
            continue;
        const DataHalf& half = mentions(id, ".batch_isend_irecv.") ? forest.node(n).output : forest.node(n).input;
        if (half.graph == kNoNode)
            continue;
        const Graph& source = forest.sources[half.graph];
        const dump::DumpFile& dump = *source.dump;
        const std::string prefix = std::string(source.node(half.node).id) + ".";
        if (mentions(id, ".batch_isend_irecv.")) {
            for (const NodeItem& nodeItem : source.nodeItems(half.node)) {
                const compare::Item& item = source.items->items()[nodeItem.item];
                if (!nodeItem.output || item.node == compare::kNullNode || dump.nodes[item.node].kind != dump::NodeKind::Tensor)
                    continue;
                std::string op, peer;
                for (const dump::LeafExtra& extra : dump.extrasOf(dump.tensors.extras[dump.nodes[item.node].payload])) {
                    std::string text(dump.text(extra.text));
                    if (text.size() >= 2 && (text.front() == '\'' || text.front() == '"'))
                        text = text.substr(1, text.size() - 2);
                    if (dump.text(extra.key) == "op")
                        op = text;
                    else if (dump.text(extra.key) == "peer")
                        peer = text;
                }
                if (op == "isend" && !peer.empty() && std::all_of(peer.begin(), peer.end(), ::isdigit) && std::stoi(peer) != graph.rank)
                    return std::stoi(peer);
            }
        } else if (mentions(id, ".send.") || mentions(id, ".isend.")) {
            for (const NodeItem& nodeItem : source.nodeItems(half.node)) {
                if (nodeItem.output || source.itemName(nodeItem.item) != prefix + "input.dst")
                    continue;
                const compare::Item& item = source.items->items()[nodeItem.item];
                if (item.node == compare::kNullNode || dump.nodes[item.node].kind != dump::NodeKind::Scalar)
                    continue;
                const dump::StatValue value = dump.scalars.number[dump.nodes[item.node].payload];
                if (value.kind == dump::StatKind::Int)
                    return static_cast<int>(value.i);
            }
        }
    }
    return std::nullopt;
}

std::string ppGroupsText(const std::vector<std::vector<int>>& groups)
{
    std::string out = "[";
    for (std::size_t i = 0; i < groups.size(); ++i) {
        out += i ? ", [" : "[";
        for (std::size_t j = 0; j < groups[i].size(); ++j)
            out += (j ? ", " : "") + std::to_string(groups[i][j]);
        out += "]";
    }
    return out + "]";
}

} // namespace

std::vector<std::vector<int>> ppGroupsOf(const MergeForest& forest, const ParallelParams& params, const Warn& warn)
{
    std::vector<std::pair<int, int>> mapping; // rank -> send target, in rank order
    for (const RankGraph& graph : forest.graphs)
        if (auto target = sendTargetOf(forest, graph))
            mapping.emplace_back(graph.rank, *target);
    std::vector<std::vector<int>> chains;
    std::set<int> visited;
    auto next = [&](int rank) -> std::optional<int> {
        for (const auto& [from, to] : mapping)
            if (from == rank)
                return to;
        return std::nullopt;
    };
    for (const auto& [start, target] : mapping) {
        (void)target;
        std::vector<int> chain;
        std::optional<int> current = start;
        while (current && next(*current) && !visited.contains(*current)) {
            chain.push_back(*current);
            visited.insert(*current);
            current = next(*current);
        }
        if (!chain.empty())
            chains.push_back(std::move(chain));
    }
    const auto fallback = [&] { return megatronRankGroups(params.rankSize, params.tp, params.pp, params.order).pp; };
    if (chains.empty()) {
        auto defaults = fallback();
        if (warn && params.pp > 1)
            warn("no send/isend/batch_isend_irecv destination found in the dumps; using Megatron's default PP groups "
                + ppGroupsText(defaults));
        return defaults;
    }
    if (chains[0].size() != static_cast<std::size_t>(params.pp)) {
        if (warn)
            warn("the PP groups found from the send/isend APIs " + ppGroupsText(chains) + " do not have --pp (" + std::to_string(params.pp)
                + ") ranks; using Megatron's default groups");
        return fallback();
    }
    return chains;
}

} // namespace msprobe::graph
