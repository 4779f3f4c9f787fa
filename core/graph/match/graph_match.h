// SPDX-License-Identifier: Apache-2.0
// Pairs the nodes of the NPU (debug) graph with the nodes of the bench graph.
#pragma once

#include "graph/model/graph_model.h"

#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace msprobe::graph {

// A match made by hand (in the desktop app): NPU node id -> bench node id; no bench id = unmatch.
struct ManualPair {
    std::string npu;
    std::optional<std::string> bench;
    bool descendants = false; // also pair (or unmatch) the unmatched children below, by name then by order
};

struct MatchOptions {
    bool fuzzy = false; // -fm
    bool layerMapping = false; // -lm: bench = layerMap[npu] (or the same id); no ancestor check
    std::unordered_map<std::string, std::string> layerMap; // NPU dump key -> bench dump key ("N/A": none)
    std::vector<ManualPair> manual; // applied after the automatic matching
    bool manualWithOpposite = true; // also pair the forward/backward twins of a manual pair
};

struct MatchReport {
    std::size_t matched = 0; // NPU nodes with a partner
    std::size_t manualApplied = 0;
    std::vector<std::string> problems; // manual pairs that could not be applied, and why
};

// Default: same id and same ancestor ids. Fuzzy: modules/collections by id anywhere, then the APIs inside
// each matched pair by name without call counts plus their order in the parent. Sets GraphNode::partner
// on both sides (a bench node keeps the last NPU node that chose it) and marks manual pairs modified.
MatchReport matchGraphs(Graph& npu, Graph& bench, const MatchOptions& options);

// The id an API gets for fuzzy matching inside its parent: ".<digits>." -> ".", "_rank<digits>" removed.
std::string fuzzyApiKey(std::string_view id);

// Pairs npu/bench by hand (same node type required); clears their previous partners. Returns an error text
// or empty. Used for --mapping-file and by the desktop app.
std::string matchPair(Graph& npu, std::uint32_t n, Graph& bench, std::uint32_t b);
void unmatchNode(Graph& npu, std::uint32_t n, Graph& bench);
// Pairs the still unmatched children of a matched pair by short name and node type, the k-th NPU child with
// a key taking the k-th bench child with that key, and recurses into the new pairs. Returns pairs made.
std::size_t matchDescendants(Graph& npu, std::uint32_t n, Graph& bench, std::uint32_t b);
// The pairing behind matchDescendants on (child, descendant key) lists of still unmatched children.
using KeyedChild = std::pair<std::uint32_t, std::string>;
std::vector<std::pair<std::uint32_t, std::uint32_t>> pairByDescendantKey(const std::vector<KeyedChild>& npu, const std::vector<KeyedChild>& bench);
// Unmatches every matched descendant of n (with its current partner).
void unmatchDescendants(Graph& npu, std::uint32_t n, Graph& bench);
// "{short name}.{node type}": layer4 for Module.layer4.0.BasicBlock.forward.0 ... (the UI's descendant key).
std::string descendantKey(const GraphNode& node);
std::string descendantKey(std::string_view id, int nodeType); // nodeType: the vis.db node_type

// The forward/backward twin ids of a node ("forward" <-> "backward" everywhere), or empty when neither appears.
std::string oppositeDirectionId(std::string_view id);

} // namespace msprobe::graph
