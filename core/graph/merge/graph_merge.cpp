// SPDX-License-Identifier: Apache-2.0
#include "graph/merge/graph_merge.h"

#include "graph/merge/merge_steps.h"
#include "support/error.h"

namespace msprobe::graph {

namespace {

class SideMerger {
public:
    SideMerger(MergeForest& forest, const ParallelParams& params, const std::string& where, const Warn& warn)
        : f(forest)
        , p(params)
        , m_where(where)
        , m_warn(warn)
    {
    }

    std::vector<std::size_t> run()
    {
        switch (mergeStrategyOf(p)) {
        case MergeStrategy::None: {
            std::vector<std::size_t> all;
            for (std::size_t g = 0; g < f.graphs.size(); ++g)
                all.push_back(g);
            foldApiCollections(f, all);
            return all;
        }
        case MergeStrategy::Tp: {
            std::vector<std::size_t> out;
            for (const auto& group : groups(tpGroupsOf(f, p, m_warn))) {
                foldApiCollections(f, group);
                out.push_back(mergeTp(f, group, {}));
            }
            return out;
        }
        case MergeStrategy::Pp:
        case MergeStrategy::Vpp: {
            std::vector<std::size_t> out;
            for (const auto& group : groups(ppGroupsOf(f, p, m_warn))) {
                foldApiCollections(f, group);
                out.push_back(pipeline(group));
            }
            return out;
        }
        case MergeStrategy::TpPp: return tpPp();
        case MergeStrategy::Full: return full();
        }
        return {};
    }

private:
    std::size_t pipeline(const std::vector<std::size_t>& group)
    {
        return p.vpp > 1 ? mergeVpp(f, group, p.vpp, m_warn) : mergePp(f, group, m_warn);
    }

    std::vector<std::vector<std::size_t>> groups(const std::vector<std::vector<int>>& rankGroups) const
    {
        std::vector<std::vector<std::size_t>> out;
        for (const auto& ranks : rankGroups) {
            auto& group = out.emplace_back();
            for (const int rank : ranks) {
                std::size_t g = 0;
                while (g < f.graphs.size() && f.graphs[g].rank != rank)
                    ++g;
                if (g == f.graphs.size())
                    throw support::Error(m_where, "parallel merge", "the rank group of rank " + std::to_string(ranks.front()) + " names rank "
                            + std::to_string(rank) + ", which has no rank folder");
                group.push_back(g);
            }
            if (group.empty())
                out.pop_back();
        }
        return out;
    }

    TpMapping mappingOf(const std::vector<std::vector<int>>& tpGroups) const
    {
        TpMapping mapping;
        for (std::size_t i = 1; i < tpGroups.size(); ++i)
            if (!tpGroups[i].empty())
                mapping[tpGroups[i][0]] = std::vector<int>(tpGroups[i].begin() + 1, tpGroups[i].end());
        return mapping;
    }

    // PP within each PP group, then one TP merge over all the PP results.
    std::vector<std::size_t> tpPp()
    {
        const auto ppGroups = ppGroupsOf(f, p, m_warn);
        const auto tpGroups = tpGroupsOf(f, p, m_warn);
        const TpMapping mapping = mappingOf(tpGroups);
        std::vector<std::size_t> all;
        for (std::size_t g = 0; g < f.graphs.size(); ++g)
            all.push_back(g);
        foldApiCollections(f, all);
        std::vector<std::size_t> pipelines;
        for (const auto& group : groups(ppGroups))
            pipelines.push_back(pipeline(group));
        const std::size_t merged = mergeTp(f, pipelines, mapping);
        sortMergedApiCollections(f, merged);
        return { merged };
    }

    // PP within each PP group, then TP within each TP group of the PP results.
    std::vector<std::size_t> full()
    {
        const auto ppGroups = ppGroupsOf(f, p, m_warn);
        const auto tpGroups = tpGroupsOf(f, p, m_warn);
        const TpMapping mapping = mappingOf(tpGroups);
        std::vector<std::size_t> pipelines;
        for (const auto& group : groups(ppGroups)) {
            foldApiCollections(f, group);
            pipelines.push_back(pipeline(group));
        }
        std::vector<std::size_t> out;
        for (const auto& ranks : tpGroups) {
            std::vector<std::size_t> group;
            for (const int rank : ranks)
                for (const std::size_t g : pipelines)
                    if (f.graphs[g].rank == rank)
                        group.push_back(g);
            if (group.empty())
                continue;
            foldApiCollections(f, group);
            const std::size_t merged = mergeTp(f, group, mapping);
            sortMergedApiCollections(f, merged);
            out.push_back(merged);
        }
        return out;
    }

    MergeForest& f;
    const ParallelParams& p;
    const std::string& m_where;
    const Warn& m_warn;
};

} // namespace

std::vector<MergedGraph> mergeRankGraphs(std::vector<std::pair<int, Graph>> graphs, std::vector<int> microSteps,
    const ParallelParams& params, const std::string& where, const std::function<void(const std::string&)>& warn)
{
    MergeForest forest(std::move(graphs), std::move(microSteps));
    const Warn w = warn;
    const std::vector<std::size_t> results = SideMerger(forest, params, where, w).run();
    std::vector<MergedGraph> merged;
    for (const std::size_t g : results) {
        MergedGraph out;
        out.rank = forest.graphs[g].rank;
        out.microSteps = forest.graphs[g].microSteps;
        try {
            out.graph = forest.materialize(g);
        } catch (const support::Error& error) {
            throw support::Error(where, "parallel merge", error.what());
        }
        merged.push_back(std::move(out));
    }
    return merged;
}

} // namespace msprobe::graph
