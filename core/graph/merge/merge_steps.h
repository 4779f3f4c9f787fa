// SPDX-License-Identifier: Apache-2.0
// The steps of a parallel merge (spec §1.9) on a MergeForest; graph_merge.cpp composes them per strategy.
// A "group" is a list of indices into MergeForest::graphs, its first the graph the others merge into.
#pragma once

#include "graph/merge/merge_tree.h"
#include "graph/merge/parallel_merge.h"

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace msprobe::graph {

using Warn = std::function<void(const std::string&)>;
using TpMapping = std::map<int, std::vector<int>>; // first rank of a TP group -> the others

// Apis_Between_Modules.K of every graph of the group into Apis_Between_Modules_All_Ranks.K of the first.
void foldApiCollections(MergeForest& forest, const std::vector<std::size_t>& group);
// The Apis_Between_Modules_Rank{r} children of each All_Ranks collection in rank order.
void sortMergedApiCollections(MergeForest& forest, std::size_t graph);

// TP groups from the group_ranks of each rank's first reduce_scatter/all_reduce, else Megatron's.
std::vector<std::vector<int>> tpGroupsOf(const MergeForest& forest, const ParallelParams& params, const Warn& warn);
// PP chains from each rank's first send/isend destination, else Megatron's.
std::vector<std::vector<int>> ppGroupsOf(const MergeForest& forest, const ParallelParams& params, const Warn& warn);

// Merges the group into its first graph; returns that graph's index.
std::size_t mergeTp(MergeForest& forest, const std::vector<std::size_t>& group, const TpMapping& mapping);
std::size_t mergePp(MergeForest& forest, const std::vector<std::size_t>& group, const Warn& warn);
// PP merge, then the chunks Module.{k}.… folded into chunk 0.
std::size_t mergeVpp(MergeForest& forest, const std::vector<std::size_t>& group, int vpp, const Warn& warn);

// Shared by the TP and PP steps: the params of `main` that differ from (or, compareData false, exist in) the
// nodes of the other ranks, by half, each with the values of all ranks.
struct NeedMerge {
    std::string key;
    std::vector<MergeParam> params; // main first
};
struct ParamDiff {
    std::vector<NeedMerge> input, output;
    bool empty() const { return input.empty() && output.empty(); }
};
ParamDiff compareParamData(const MergeForest& forest, std::uint32_t main, const std::vector<std::uint32_t>& others, bool compareData = true);
bool isMergeDtype(std::string_view dtype);

} // namespace msprobe::graph
