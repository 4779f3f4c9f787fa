// SPDX-License-Identifier: Apache-2.0
// The hierarchical model graph of one rank of one step: modules, APIs and API collections, as the
// reference's graph_visualize builds it from construct.json + dump.json + stack.json.
#pragma once

#include "dump/construct_stack.h"
#include "dump/dump_model.h"
#include "support/string_pool.h"

#include <cmath>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace msprobe::compare {
class ItemTable;
}

namespace msprobe::graph {

inline constexpr std::uint32_t kNoNode = 0xFFFFFFFFu;

// Stored as TEXT in vis.db ("0", "1", "9"). 8 (multi collection) is known to the UI but never built.
enum class NodeOp : std::uint8_t { Module = 0, FunctionApi = 1, ApiCollection = 9 };

enum class OverflowLevel : std::uint8_t { None, Medium, High, Critical };
std::string_view toString(OverflowLevel level); // "" for None


// Stack reference of a node: a group of stack.json, no stack, or the reference's placeholder for a
// backward node whose forward twin is unknown.
inline constexpr std::int32_t kNoStack = -1;
inline constexpr std::int32_t kMissingForwardStack = -2;
inline constexpr std::string_view kMissingForwardStackText
    = "This backward node cannot find the forward node and cannot retrieve stack information.";

// One flattened leaf of a node's dump entry, as it appears in input_data or output_data.
struct NodeItem {
    std::uint32_t item = 0; // index into the graph's ItemTable
    bool output = false; // lands in output_data (name has ".output." and no ".input.")
};

struct GraphNode {
    std::string_view id; // into the graph's name pool
    NodeOp op = NodeOp::Module;
    std::uint32_t parent = kNoNode;
    std::vector<std::uint32_t> children;
    std::uint32_t entry = kNoNode; // ItemTable entry whose items are this node's data; kNoNode: no data
    std::int32_t stack = kNoStack; // group in Graph::stacks, kNoStack, or kMissingForwardStack
    std::int32_t microStep = -1; // -1: None (written as 0)
    std::uint32_t partner = kNoNode; // the matched node of the other graph
    double precision = NAN; // NaN: NULL; 0 / 0.5 / 1 otherwise
    OverflowLevel overflow = OverflowLevel::None;
    bool modified = false; // matched or unmatched by hand
    bool hasPrecision() const { return !std::isnan(precision); }
};

// A matched NPU node's input_data / output_data JSON, rendered when its compare ran.
struct RenderedData {
    std::string input, output;
};

// One rank's graph. Node 0 is the root ("DefaultModel").
class Graph {
public:
    Graph();
    Graph(const Graph&) = delete;
    Graph& operator=(const Graph&) = delete;
    Graph(Graph&&) = default;
    Graph& operator=(Graph&&) = default;

    std::string dataSource = "NPU"; // "NPU" or "Bench"
    std::string dumpDataDir; // tensor directory; empty: NULL
    bool hasDumpDataDir = false;
    std::string task; // dump.json "task"
    std::string framework = "pytorch";
    std::optional<int> megatronMicroSteps;
    std::shared_ptr<const dump::DumpFile> dump;
    std::shared_ptr<const compare::ItemTable> items;
    dump::StackInfo stacks;
    std::shared_ptr<const dump::ConstructInfo> construct;
    std::vector<GraphNode> nodes;
    std::vector<RenderedData> rendered; // by node; filled for compared NPU nodes only
    // parallel_merge_info lines by node: set only on graphs made by a parallel merge.
    std::unordered_map<std::uint32_t, std::vector<std::string>> parallelMergeInfo;

    static constexpr std::uint32_t root() { return 0; }
    const GraphNode& node(std::uint32_t index) const { return nodes[index]; }
    GraphNode& node(std::uint32_t index) { return nodes[index]; }
    std::size_t size() const { return nodes.size(); }

    // Room for count nodes without reallocating the node list or rehashing the id index.
    void reserve(std::size_t count);
    // kNoNode when absent.
    std::uint32_t find(std::string_view id) const;
    // Creates a node; the caller attaches it. The id must be new.
    std::uint32_t add(NodeOp op, std::string_view id);
    // Attaches child under parent unless it already has a parent (the first attach wins) or is the parent.
    void attach(std::uint32_t child, std::uint32_t parent);
    void detachFromParent(std::uint32_t child);

    // Ids from the root down to the node's parent (the reference's get_ancestors); empty on a cycle.
    std::vector<std::uint32_t> ancestors(std::uint32_t index) const;
    // ancestors + the node itself.
    std::vector<std::uint32_t> path(std::uint32_t index) const;
    bool isAncestor(std::uint32_t maybeAncestor, std::uint32_t index) const;
    // Post-order walk from the root (children first, root last): the vis.db node_order.
    std::vector<std::uint32_t> postOrder() const;

    // The node's input/output items in dict order (duplicate keys keep the first position).
    std::vector<NodeItem> nodeItems(std::uint32_t index) const;
    std::string itemName(std::uint32_t item) const;
    // Frames of a node's stack (empty for none).
    std::vector<std::string> stackFrames(const GraphNode& node) const;

private:
    support::StringPool m_names;
    std::unordered_map<std::string_view, std::uint32_t> m_index;
};

// "Module.a.b.Linear.forward.0" -> module; "Functional.relu.0.forward" -> function API; else module.
NodeOp nodeOpOf(std::string_view name);

} // namespace msprobe::graph
