// SPDX-License-Identifier: Apache-2.0
// graph_visualize --file_type json (spec §1.1): a merged graph written back as a dump,
// {output}/step{S}/rank{R}/construct.json, dump.json and stack.json, in the reference's layout (json.dump with
// indent 2): construct.json maps every node but the root to its parent in post-order; dump.json carries the
// task, level, framework, dump_data_dir, "is_merged": true and, under "data", each node's (merged) dump entry
// plus its "parallel_merge_info"; stack.json groups the nodes of one stack ({"0": [[ids], [frames]], ...}).
#pragma once

#include "graph/model/graph_model.h"

#include <filesystem>

namespace msprobe::graph {

// Each file is written under a temporary name and renamed into place. Returns the rank folder. Throws
// msprobe::Error naming the file on a write failure.
std::filesystem::path writeMergedGraphJson(const Graph& graph, const std::filesystem::path& output, int step, int rank);

// The three texts, as written (for tests and for the writer).
std::string mergedConstructJson(const Graph& graph);
std::string mergedDumpJson(const Graph& graph);
std::string mergedStackJson(const Graph& graph);

} // namespace msprobe::graph
