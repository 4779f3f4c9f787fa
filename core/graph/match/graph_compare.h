// SPDX-License-Identifier: Apache-2.0
// Precision of matched nodes: the node's own input/output items are compared with its partner's the way
// the reference's graph compare does (items paired by position inside the input, parameter, output and
// parameter-gradient sections), the compare Result rules grade each row, the worst row grades the node.
#pragma once

#include "compare/compare_options.h"
#include "compare/cross_runtime_pairing.h"
#include "compare/items.h"
#include "compare/result_rules.h"
#include "compare/tensor_metric_cache.h"
#include "compare/tensor_metrics.h"
#include "compare/tensor_metrics_files.h"
#include "graph/model/graph_model.h"
#include "graph/visdb/node_data.h"

#include <atomic>
#include <functional>
#include <optional>
#include <span>

namespace msprobe::graph {

struct GraphCompareOptions {
    compare::CompareMode mode = compare::CompareMode::Statistics;
    std::size_t threads = 0; // 0: all hardware threads
    const std::atomic<bool>* cancel = nullptr;
    std::function<void(std::size_t done, std::size_t total)> progress;
    compare::TensorFileProblemLog* tensorProblems = nullptr; // tensor mode: gathers the files missing or unreadable
    // A C++ (Aten) dump against a Python one: items pair by these keys inside a node pair, not by position.
    const compare::CrossRuntimeKeys* crossRuntime = nullptr;
    // Tensor mode: where a row's metrics come from (the studio's pair load shares them with its compare tables);
    // null: each row reads its two tensor files.
    compare::TensorMetricCache* tensorMetrics = nullptr;
};

// One input/output item of a node as a compare row reads it, whether it comes from a dump or from the data
// stored in a vis.db. The views in fields must outlive the compare.
struct CompareItem {
    std::string name; // "Functional.relu.0.forward.input.0"
    compare::ItemFields fields; // stats, dtype, shape, requires_grad, md5, data_name
    int section = 0; // 0 inputs (and kwargs), 1 parameters, 2 outputs, 3 parameter gradients
    bool null = false; // a JSON null in the dump
    std::string_view pairKey; // cross-runtime: items of a node pair with equal keys pair (empty: by position)
    bool ignored = false; // cross-runtime: an argument only this runtime passes, not compared
};

// Tensor mode: the six metrics of a row from the two items' tensor files (bench: nullptr when unpaired).
using TensorMetricsSource = std::function<compare::TensorMetrics(const CompareItem& npu, const CompareItem* bench)>;

// The graded rows of one node pair.
struct ItemsCompare {
    bool compared = false; // false: the NPU side has no items
    compare::ResultLevel level = compare::ResultLevel::Pass;
    std::vector<ResultCell> cells; // resultKeys(mode).size() per NPU item, in the NPU items' order
    std::vector<compare::TensorFileProblem> fileProblems; // tensor files missing or unreadable (their rows are errors)
};

// Pairs the items by position inside each section (extra NPU items meet "Nan"), computes the mode's cells and
// runs the Result rules: the one row compare behind both the graph compare and matching by hand.
ItemsCompare compareItems(std::span<const CompareItem> npu, std::span<const CompareItem> bench, compare::CompareMode mode,
    const TensorMetricsSource& tensors);

// Tensor mode: the metrics of a row read from the items' tensor files under the dump_data_dirs ("unsupported"
// when a side has no file, as the reference; a file that is missing or cannot be read is also listed in
// fileProblems, and compareItems makes its row an error naming the file in Err_message). cache, when given, is
// asked for the two files' metrics instead.
compare::TensorMetrics compareTensorFiles(const std::optional<std::string>& npuDir, const CompareItem& npu,
    const std::optional<std::string>& benchDir, const CompareItem* bench, compare::TensorMetricCache* cache = nullptr);

// The outcome of one node pair.
struct NodeCompare {
    bool compared = false; // false: the NPU node has no items (precision stays NULL)
    compare::ResultLevel level = compare::ResultLevel::Pass;
    std::vector<NodeItem> npuItems;
    std::vector<ResultCell> cells; // resultKeys(mode).size() per NPU item
};

// A pair made by hand (GraphNode::modified, e.g. from --mapping-file) is compared as the plugin's manual match
// does (spec §1.11): input_data keys i <-> i and output_data keys i <-> i, with no parameter sections.
NodeCompare compareNodePair(const Graph& npu, std::uint32_t n, const Graph& bench, std::uint32_t b, compare::CompareMode mode);

// Puts every item into one input group or one output group, so compareItems pairs them by plain position.
void pairByPlainPosition(std::span<CompareItem> items);

// 0 / 0.5 / 1 for pass / warning / error, with the reference's override for empty-like APIs.
double precisionIndexOf(std::string_view nodeId, compare::ResultLevel level, compare::CompareMode mode);

// Compares every matched NPU node with its partner: sets precision and renders the NPU node's data with
// the result fields (Graph::rendered); then API collections take the worst precision of their APIs.
void compareGraphs(Graph& npu, const Graph& bench, const GraphCompareOptions& options);

// Compares one pair again (or for the first time): precision and rendered data of the NPU node, with the
// options' mode, cross-runtime keys and tensor metrics, its missing tensor files added to tensorProblems.
void recompareNode(Graph& npu, std::uint32_t n, const Graph& bench, const GraphCompareOptions& options);

// API collections (type 9 directly under the root): the worst precision of their children (0 when none).
void updateCollectionPrecision(Graph& npu);
// The same for one API collection node.
void updateCollectionPrecision(Graph& npu, std::uint32_t collection);

} // namespace msprobe::graph
