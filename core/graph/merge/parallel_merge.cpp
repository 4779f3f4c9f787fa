// SPDX-License-Identifier: Apache-2.0
#include "graph/merge/parallel_merge.h"

#include "support/error.h"

#include <algorithm>
#include <cctype>

namespace msprobe::graph {

namespace {

std::vector<std::string> splitOrder(const std::string& order)
{
    std::vector<std::string> tokens;
    std::size_t start = 0;
    while (start <= order.size()) {
        const std::size_t dash = std::min(order.find('-', start), order.size());
        tokens.push_back(order.substr(start, dash - start));
        start = dash + 1;
    }
    return tokens;
}

// Every rank of the groups of one dimension: the masked dimensions vary inside a group, the others between.
std::vector<std::vector<int>> groupsOf(const std::vector<std::string>& tokens, const std::vector<int>& sizes, int world,
    const std::string& dimension)
{
    std::vector<int> strides(sizes.size(), 1);
    for (std::size_t i = 1; i < sizes.size(); ++i)
        strides[i] = strides[i - 1] * sizes[i - 1];
    std::vector<std::size_t> masked, unmasked;
    for (std::size_t i = 0; i < tokens.size(); ++i)
        (tokens[i] == dimension ? masked : unmasked).push_back(i);
    int groupSize = 1;
    for (auto m : masked)
        groupSize *= sizes[m];
    auto decompose = [&](int value, const std::vector<std::size_t>& dims) {
        int rank = 0;
        for (auto d : dims) {
            rank += (value % sizes[d]) * strides[d];
            value /= sizes[d];
        }
        return rank;
    };
    std::vector<std::vector<int>> groups;
    for (int g = 0; g < world / groupSize; ++g) {
        std::vector<int> group;
        for (int i = 0; i < groupSize; ++i)
            group.push_back(decompose(g, unmasked) + decompose(i, masked));
        groups.push_back(std::move(group));
    }
    return groups;
}

} // namespace

const char* toString(MergeStrategy strategy)
{
    switch (strategy) {
    case MergeStrategy::None: return "none";
    case MergeStrategy::Tp: return "TP";
    case MergeStrategy::Pp: return "PP";
    case MergeStrategy::Vpp: return "VPP";
    case MergeStrategy::TpPp: return "TP+PP";
    case MergeStrategy::Full: return "full (PP per PP group, then TP per TP group)";
    }
    return "none";
}

void validateParallelParams(const ParallelParams& p, std::size_t rankDirs, const std::string& where)
{
    auto fail = [&](const std::string& message) { throw support::Error(where, "parallel merge", message); };
    if (p.rankSize <= 0 || p.tp <= 0 || p.pp <= 0 || p.vpp <= 0)
        fail("--rank_size, --tp, --pp and --vpp must be positive integers");
    if (rankDirs != static_cast<std::size_t>(p.rankSize))
        fail("--rank_size is " + std::to_string(p.rankSize) + " but the dump has " + std::to_string(rankDirs) + " rank folder(s)");
    if (p.tp > p.rankSize || p.rankSize % p.tp != 0)
        fail("--tp (" + std::to_string(p.tp) + ") must divide --rank_size (" + std::to_string(p.rankSize) + ")");
    if (p.pp > p.rankSize || p.rankSize % p.pp != 0)
        fail("--pp (" + std::to_string(p.pp) + ") must divide --rank_size (" + std::to_string(p.rankSize) + ")");
    if (p.tp * p.pp > p.rankSize)
        fail("--tp x --pp (" + std::to_string(p.tp * p.pp) + ") exceeds --rank_size (" + std::to_string(p.rankSize) + ")");
    if (p.vpp > 1 && p.pp < 2)
        fail("--vpp > 1 needs --pp >= 2");
    if (p.order.empty() || !std::all_of(p.order.begin(), p.order.end(), [](char c) { return (c >= 'a' && c <= 'z') || c == '-'; }))
        fail("--order must consist of lower-case letters and '-' (e.g. tp-cp-ep-dp-pp), not '" + p.order + "'");
}

MergeStrategy mergeStrategyOf(const ParallelParams& p)
{
    if (p.tp == 1 && p.pp == 1 && p.rankSize == 1)
        return MergeStrategy::None;
    if (p.tp == p.rankSize)
        return MergeStrategy::Tp;
    const MergeStrategy pipeline = p.vpp == 1 ? MergeStrategy::Pp : MergeStrategy::Vpp;
    if (p.pp == p.rankSize)
        return pipeline;
    if (p.pp == 1)
        return MergeStrategy::Tp;
    if (p.tp == 1)
        return pipeline;
    if (p.tp * p.pp == p.rankSize)
        return MergeStrategy::TpPp;
    return MergeStrategy::Full;
}

RankGroups megatronRankGroups(int worldSize, int tp, int pp, const std::string& givenOrder)
{
    std::string order = givenOrder;
    std::transform(order.begin(), order.end(), order.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    if (order.find("ep") != std::string::npos && order.find("ep-dp") == std::string::npos && order.find("dp-ep") == std::string::npos)
        throw support::Error("--order " + givenOrder + ": ep and dp must be adjacent");
    if (tp <= 0 || pp <= 0 || worldSize % (tp * pp) != 0)
        throw support::Error("world size " + std::to_string(worldSize) + " is not divisible by tp x pp (" + std::to_string(tp * pp) + ")");
    const int dp = worldSize / (tp * pp);
    std::vector<std::string> tokens = splitOrder(order);
    const std::vector<std::pair<std::string, int>> dimensions = { { "tp", tp }, { "pp", pp }, { "dp", dp }, { "ep", 1 }, { "cp", 1 } };
    for (const auto& [name, size] : dimensions) {
        if (std::find(tokens.begin(), tokens.end(), name) != tokens.end())
            continue;
        if (size != 1)
            throw support::Error("--order " + givenOrder + ": " + name + " not specified in order");
        tokens.push_back(name);
    }
    std::erase(tokens, std::string("ep"));
    std::vector<int> sizes;
    for (const auto& token : tokens) {
        auto it = std::find_if(dimensions.begin(), dimensions.end(), [&](const auto& d) { return d.first == token; });
        if (it == dimensions.end())
            throw support::Error("--order " + givenOrder + ": unknown dimension '" + token + "'");
        sizes.push_back(it->second);
    }
    return { groupsOf(tokens, sizes, worldSize, "tp"), groupsOf(tokens, sizes, worldSize, "pp"), groupsOf(tokens, sizes, worldSize, "dp") };
}

} // namespace msprobe::graph
