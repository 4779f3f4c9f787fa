// SPDX-License-Identifier: Apache-2.0
// Parallel merge (`graph_visualize --rank_size/--tp/--pp/--vpp/--order`, spec §1.9): the parameters of one
// side, their validation, the merge strategy they select and the Megatron default rank groups (RankGenerator
// with cp = ep = 1) used when the dumps' communication APIs do not reveal the groups.
#pragma once

#include <string>
#include <vector>

namespace msprobe::graph {

struct ParallelParams {
    int rankSize = 1;
    int tp = 1;
    int pp = 1;
    int vpp = 1;
    std::string order = "tp-cp-ep-dp-pp";
};

enum class MergeStrategy { None, Tp, Pp, Vpp, TpPp, Full };
const char* toString(MergeStrategy strategy);

// Throws msprobe::Error naming `where` (the dump path) when the values break the reference's rules:
// rankDirs == rank_size, all > 0, tp and pp divide rank_size, tp * pp <= rank_size, vpp > 1 needs pp >= 2,
// order of [a-z-] only.
void validateParallelParams(const ParallelParams& params, std::size_t rankDirs, const std::string& where);

// tp = pp = rank_size = 1: None; tp == rank_size: Tp; pp == rank_size: Pp (Vpp when vpp > 1); pp == 1: Tp;
// tp == 1: Pp/Vpp; tp * pp == rank_size: TpPp; else Full.
MergeStrategy mergeStrategyOf(const ParallelParams& params);

struct RankGroups {
    std::vector<std::vector<int>> tp, pp, dp;
};

// Megatron's groups for world size, tp and pp in the given order (first token varies fastest). Throws
// msprobe::Error for an order that misses a dimension of size > 1 or separates ep from dp.
RankGroups megatronRankGroups(int worldSize, int tp, int pp, const std::string& order);

} // namespace msprobe::graph
