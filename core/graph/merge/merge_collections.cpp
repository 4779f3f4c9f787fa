// SPDX-License-Identifier: Apache-2.0
#include "graph/merge/merge_steps.h"

#include <algorithm>

namespace msprobe::graph {

namespace {

std::string lastSegment(const std::string& id)
{
    const std::size_t dot = id.rfind('.');
    return dot == std::string::npos ? id : id.substr(dot + 1);
}

// "Apis_Between_Modules_Rank3.0" -> 3; -1 without the marker.
long rankOfCollection(const std::string& id)
{
    const std::size_t at = id.find("_Rank");
    if (at == std::string::npos)
        return -1;
    std::size_t end = at + 5;
    while (end < id.size() && std::isdigit(static_cast<unsigned char>(id[end])))
        ++end;
    return end == at + 5 ? -1 : std::stol(id.substr(at + 5, end - at - 5));
}

} // namespace

void foldApiCollections(MergeForest& forest, const std::vector<std::size_t>& group)
{
    if (group.empty())
        return;
    RankGraph& main = forest.graphs[group[0]];
    const std::vector<std::uint32_t> rootChildren = forest.node(main.root).children;
    std::vector<std::uint32_t> newChildren;
    int allRanksCount = 0;
    for (const std::uint32_t mainNode : rootChildren) {
        const std::string mainId = forest.node(mainNode).id;
        if (mainId.starts_with(kApisAllRanks)) {
            newChildren.push_back(mainNode);
            for (std::size_t o = 1; o < group.size(); ++o) {
                const std::uint32_t other = forest.graphs[group[o]].map.get(mainId);
                if (other == kNoNode)
                    continue;
                for (const std::uint32_t sub : forest.node(other).children) {
                    forest.node(sub).parent = mainNode;
                    main.map.set(forest.node(sub).id, sub);
                    for (const std::uint32_t subSub : forest.node(sub).children)
                        main.map.set(forest.node(subSub).id, subSub);
                }
                auto moved = forest.node(other).children;
                auto& children = forest.node(mainNode).children;
                children.insert(children.end(), moved.begin(), moved.end());
            }
        } else if (mainId.starts_with(kApisBetweenModules)) {
            const std::string allId = std::string(kApisAllRanks) + "." + std::to_string(allRanksCount++);
            const std::uint32_t all = forest.addNode(NodeOp::ApiCollection, allId, main.rank);
            main.map.set(allId, all);
            forest.node(all).parent = main.root;
            newChildren.push_back(all);
            const std::string k = lastSegment(mainId);
            forest.node(mainNode).id = std::string(kApisBetweenModules) + "_Rank" + std::to_string(main.rank) + "." + k;
            forest.node(all).children = { mainNode };
            forest.node(mainNode).parent = all;
            main.map.set(forest.node(mainNode).id, mainNode);
            main.map.erase(mainId);
            for (std::size_t o = 1; o < group.size(); ++o) {
                RankGraph& otherGraph = forest.graphs[group[o]];
                const std::uint32_t other = otherGraph.map.get(mainId);
                if (other == kNoNode)
                    continue;
                forest.node(other).id = std::string(kApisBetweenModules) + "_Rank" + std::to_string(otherGraph.rank) + "." + k;
                main.map.set(forest.node(other).id, other);
                for (const std::uint32_t sub : forest.node(other).children) {
                    auto parts = splitDotted(forest.node(sub).id);
                    if (parts.size() > 1)
                        parts[1] += "_rank" + std::to_string(otherGraph.rank);
                    forest.node(sub).id = joinDotted(parts);
                    main.map.set(forest.node(sub).id, sub);
                }
                forest.node(all).children.push_back(other);
                forest.node(other).parent = all;
            }
        } else {
            newChildren.push_back(mainNode);
        }
    }
    forest.node(main.root).children = std::move(newChildren);
}

void sortMergedApiCollections(MergeForest& forest, std::size_t graph)
{
    for (const std::uint32_t child : forest.node(forest.graphs[graph].root).children) {
        MergeNode& node = forest.node(child);
        if (node.op != NodeOp::ApiCollection || !node.id.starts_with(kApisAllRanks))
            continue;
        std::stable_sort(node.children.begin(), node.children.end(),
            [&](std::uint32_t a, std::uint32_t b) { return rankOfCollection(forest.node(a).id) < rankOfCollection(forest.node(b).id); });
    }
}

} // namespace msprobe::graph
