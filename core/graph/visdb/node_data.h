// SPDX-License-Identifier: Apache-2.0
// A node's input_data / output_data as the reference stores them in vis.db: one JSON object per dict,
// item name -> {field: string}, with its format_node_data rules (every value a string, quotes dropped,
// None -> "null", long decimals rounded, null items collapsed to {"value": "null"}).
#pragma once

#include "compare/compare_options.h"
#include "compare/py_value.h"
#include "graph/model/graph_model.h"

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace msprobe::graph {

// One compare result cell as the reference held it before formatting.
struct ResultCell {
    enum class Kind : std::uint8_t {
        Str, // a Python str: quotes dropped, "None" -> "null", long decimals rounded
        Plain, // a number or bool: printed as is
        Null, // None or " ": "null"
    } kind = Kind::Str;
    std::string text;
};

// The result fields a mode appends to each compared NPU item, in order.
std::span<const std::string_view> resultKeys(compare::CompareMode mode);

struct RenderOptions {
    bool md5Mode = false; // keep the md5 field
    compare::CompareMode mode = compare::CompareMode::Statistics;
};

// Appends the JSON object of the node's input_data (output == false) or output_data. results, when given,
// holds resultKeys(mode).size() cells per entry of items (all of them, inputs then outputs).
void appendNodeData(std::string& out, const Graph& graph, std::uint32_t node, const std::vector<NodeItem>& items,
    bool output, const RenderOptions& options, const std::vector<ResultCell>* results);

// Replaces out with the node's input (output == false) or output data, rendered in a per-thread buffer so that
// out is allocated once at its final size (the texts of every node stay in memory until written).
void renderNodeDataExact(std::string& out, const Graph& graph, std::uint32_t node, const std::vector<NodeItem>& items,
    bool output, const RenderOptions& options, const std::vector<ResultCell>* results);

// Fills graph.rendered[node] (sized by the caller) with the node's input and output data without compare fields:
// what an unmatched node or a bench node shows.
void renderNodeData(Graph& graph, std::uint32_t node, const RenderOptions& options);

// format_node_data's string rule, appended as a JSON string literal.
void appendFormattedString(std::string& out, std::string_view text);

// A result cell's JSON value as the reference formats it.
void appendResultCell(std::string& out, const ResultCell& cell);

// Statistic k (0 Max .. 3 Norm) of an item as the reference's item dict holds it (None as "None",
// string placeholders such as "inf" kept as strings).
void itemStats(const Graph& graph, std::uint32_t item, compare::PyVal out[4]);

} // namespace msprobe::graph
