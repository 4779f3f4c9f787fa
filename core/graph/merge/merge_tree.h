// SPDX-License-Identifier: Apache-2.0
// The working form of a parallel merge (spec §1.9): every rank's graph as a tree of movable, renamable nodes
// whose input/output items still live in that rank's dump, plus the statistics the merge replaced. After the
// merge, a rank's tree becomes an ordinary Graph again (materialize) with one composed dump behind it.
#pragma once

#include "graph/model/graph_model.h"

#include <array>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace msprobe::graph {

// The node (of a rank graph) whose items make one half (input_data or output_data) of a merged node, and the
// statistics the merge replaced, by item key relative to the node id ("output.0", "parameters.weight").
struct DataHalf {
    std::uint32_t graph = kNoNode; // index into MergeForest::sources; kNoNode: no items
    std::uint32_t node = kNoNode;
    std::map<std::string, std::array<std::optional<dump::StatValue>, 4>, std::less<>> stats;
    // Replaced statistics that are strings ("inf"), as Python repr() text; their stats entry is Missing.
    std::map<std::string, std::array<std::string, 4>, std::less<>> statTexts;
};

struct MergeNode {
    std::string id;
    NodeOp op = NodeOp::Module;
    std::uint32_t parent = kNoNode;
    std::vector<std::uint32_t> children;
    int rank = 0;
    std::uint32_t graph = kNoNode, source = kNoNode; // the built node it stands for; kNoNode: made by the merge
    DataHalf input, output;
    std::vector<std::string> mergeInfo; // parallel_merge_info
    bool ppMerged = false;
    std::optional<int> ppIndex; // PP: the layer number given to a node from another rank
};

// One item of a node half as the merge reads it.
struct MergeParam {
    std::string key; // relative to the node id
    std::string_view dtype; // tensors only; "" otherwise
    dump::StatValue stats[4]; // Max, Min, Mean, Norm; Missing when not a number
    std::string statTexts[4]; // a statistic written as a string ("inf"): its repr() text ("'inf'"); else empty
};

// Python dict semantics for a graph's node_map: insertion order; a key set again keeps its place, a key
// erased and set again moves to the end.
class NodeMap {
public:
    std::uint32_t get(std::string_view id) const; // kNoNode when absent
    bool contains(std::string_view id) const { return get(id) != kNoNode; }
    void set(const std::string& id, std::uint32_t node);
    void erase(std::string_view id);
    std::vector<std::uint32_t> values() const;

private:
    std::unordered_map<std::string, std::size_t> m_position;
    std::vector<std::pair<std::string, std::uint32_t>> m_entries; // erased: kNoNode
};

struct RankGraph {
    int rank = 0;
    std::uint32_t root = kNoNode;
    NodeMap map;
    int microSteps = 1;
};

class MergeForest {
public:
    // graphs: (rank, built graph) in rank order; micro steps and overflow levels already set on them.
    MergeForest(std::vector<std::pair<int, Graph>> graphs, std::vector<int> microSteps);

    std::vector<Graph> sources;
    std::vector<MergeNode> nodes;
    std::vector<RankGraph> graphs; // same order as sources

    MergeNode& node(std::uint32_t n) { return nodes[n]; }
    const MergeNode& node(std::uint32_t n) const { return nodes[n]; }
    std::uint32_t addNode(NodeOp op, std::string id, int rank);
    RankGraph* graphOfRank(int rank);

    std::vector<MergeParam> params(std::uint32_t n, bool output) const;
    bool hasData(std::uint32_t n, bool output) const { return !params(n, output).empty(); }
    void setStat(std::uint32_t n, bool output, const std::string& key, int k, const dump::StatValue& value);
    // A statistic replaced by a string one (reprText as MergeParam::statTexts holds it).
    void setStatText(std::uint32_t n, bool output, const std::string& key, int k, const std::string& reprText);
    // Ids from the root down to the parent (the reference's get_ancestors).
    std::vector<std::string> ancestorIds(std::uint32_t n) const;
    // Adds the node and its subtree to a graph's node map (existing ids are left as they are).
    void addToMap(RankGraph& graph, std::uint32_t n);

    // The merged graph hanging under graphs[g]'s root, with the composed dump behind its items. Throws
    // msprobe::Error when two nodes of the result share an id.
    Graph materialize(std::size_t g) const;
};

// "Apis_Between_Modules", "Apis_Between_Modules_All_Ranks".
inline constexpr std::string_view kApisBetweenModules = "Apis_Between_Modules";
inline constexpr std::string_view kApisAllRanks = "Apis_Between_Modules_All_Ranks";

std::vector<std::string> splitDotted(std::string_view id);
std::string joinDotted(const std::vector<std::string>& parts);
// Python str() of a statistic ("5", "5.0", "nan", "True", "None").
std::string statText(const dump::StatValue& value);

} // namespace msprobe::graph
