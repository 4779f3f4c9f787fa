// SPDX-License-Identifier: Apache-2.0
// `msprobe graph_visualize`: from dump folders to one build_{ts}.vis.db or compare_{ts}.vis.db.
#pragma once

#include "compare/compare_options.h"
#include "compare/tensor_metric_cache.h"

#include "graph/match/graph_match.h"
#include "graph/model/graph_builder.h"
#include "graph/merge/parallel_merge.h"

#include <atomic>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace msprobe::graph {

class VisGraph;

// What a dump path holds (the reference's check_directory_content).
enum class InputLayout { Files, Ranks, Steps };
InputLayout classifyInput(const std::filesystem::path& dir);

// Rank directories of a step (or dump) directory, sorted by rank number, with their rank numbers.
// Falls back to a single proc<pid> directory. Empty when there is neither.
std::vector<std::pair<std::string, int>> rankDirectories(const std::filesystem::path& dir);
std::vector<std::pair<std::string, int>> stepDirectories(const std::filesystem::path& dir);
// How many ranks a parallel merge of `root` merges: the rank folders of its first step (1 for the dump files
// themselves). What --rank_size/--tp/--pp are validated against.
std::size_t ranksToMerge(const std::filesystem::path& root);

struct GraphRunOptions {
    std::filesystem::path target; // -tp
    std::filesystem::path golden; // -gp (empty: build)
    std::filesystem::path output; // -o
    bool overflowCheck = false; // -oc
    bool fuzzy = false; // -fm
    bool layerMapping = false; // -lm
    // A C++ libtorch capture (Aten.*) against a Python msprobe dump: nodes and items paired by the aten table
    // (Auto: when the dumps show it and neither -fm nor -lm is given; On: --cross-runtime).
    compare::CrossRuntime crossRuntime = compare::CrossRuntime::Auto;
    std::filesystem::path layerMappingFile; // -lm FILE (empty: the default mapping only)
    std::filesystem::path mappingFile; // --mapping-file: manual node pairs
    // --rank_size/--tp/--pp/--vpp/--order: one entry (build) or two (NPU, bench); empty: no parallel merge.
    std::vector<ParallelParams> parallel;
    // --file_type json: a parallel-merge build writes each merged graph as step{S}/rank{R}/construct.json,
    // dump.json and stack.json under output instead of a vis.db (ignored without parallel merge or with -gp).
    bool jsonFiles = false;
    std::string timestamp; // empty: now, "%Y%m%d%H%M%S"
    std::size_t threads = 0;
    const std::atomic<bool>* cancel = nullptr;
    std::function<void(int percent, const std::string& stage)> progress;
    std::function<void(const std::string& message)> warn;
    std::function<void(const std::string& message)> info; // what went as asked, e.g. how cross-runtime pairing went
    // Where each rank's dump.json comes from (the studio shares one parse with its compare); empty: read the
    // file. A parallel merge builds its ranks through it too.
    DumpFileSource readDump;
    // Tensor mode: where the matched nodes' tensor metrics come from (the studio's pair load lends its compare
    // tables the ones computed here); null: each compared row reads its two tensor files.
    compare::TensorMetricCache* tensorMetrics = nullptr;
};

struct GraphRunResult {
    std::filesystem::path database; // empty when jsonFiles wrote rank folders instead
    std::vector<std::filesystem::path> jsonFolders; // --file_type json: the rank folders written
    std::vector<int> ranks, steps;
    std::size_t graphs = 0; // per side
    std::size_t nodes = 0; // rows written
};

GraphRunResult runGraphVisualize(const GraphRunOptions& options);

// Reads a manual mapping file: a JSON object {npu_id: bench_id | null | {"bench": id|null, "descendants": bool}}
// (also the .vis.config files the plugin writes). Throws msprobe::Error naming the file and key.
std::vector<ManualPair> readMappingFile(const std::filesystem::path& file);
// Writes the pairs made by hand (modified NPU nodes of a graph pair) in the same format.
void writeMappingFile(const std::filesystem::path& file, const std::vector<ManualPair>& pairs);
// The pairs made by hand in an NPU graph read from a vis.db (rows with modified = 1): partner or unmatched.
std::vector<ManualPair> manualPairsOf(const VisGraph& npu);
// "{db name without .vis.db}_{step}_{rank}.vis.config" next to the database (the plugin's file name).
std::filesystem::path visConfigPath(const std::filesystem::path& database, int step, int rank);

} // namespace msprobe::graph
