// SPDX-License-Identifier: Apache-2.0
#include "dump/dump_summary.h"

#include "dump/dump_json_reader.h"

#include <algorithm>
#include <unordered_set>

namespace fs = std::filesystem;

namespace msprobe::dump {

namespace {

std::uint64_t sizeOf(const fs::path& file)
{
    std::error_code ec;
    auto size = fs::file_size(file, ec);
    return ec ? 0 : size;
}

void collectTensorFiles(const fs::path& dir, RankSummary& summary)
{
    std::error_code ec;
    if (!fs::is_directory(dir, ec))
        return;
    for (const auto& item : fs::directory_iterator(dir, ec)) {
        std::error_code itemError;
        if (item.is_regular_file(itemError)) {
            ++summary.tensorFiles;
            summary.tensorFileBytes += item.file_size(itemError);
        }
    }
}

} // namespace

DumpMode detectDumpMode(const DumpFile& dump)
{
    if (dump.task == "tensor")
        return DumpMode::Tensor;
    if (dump.task != "statistics")
        return DumpMode::NotComparable;
    for (support::StringId md5 : dump.tensors.md5)
        if (md5 != support::kNoString)
            return DumpMode::Md5;
    return DumpMode::Statistics;
}

std::string_view toString(DumpMode mode)
{
    switch (mode) {
    case DumpMode::Statistics: return "statistics";
    case DumpMode::Md5: return "md5";
    case DumpMode::Tensor: return "tensor";
    case DumpMode::NotComparable: break;
    }
    return "not comparable";
}

std::string leafPath(const DumpFile& dump, std::uint32_t body, std::uint32_t leaf)
{
    // Walk down from the body, choosing at each level the child whose subtree holds the leaf.
    std::string path;
    std::uint32_t node = body;
    while (node != leaf) {
        const auto& parent = dump.nodes[node];
        std::uint32_t child = node + 1;
        std::size_t index = 0;
        while (!(child <= leaf && leaf < child + dump.nodes[child].subtreeSize)) {
            child += dump.nodes[child].subtreeSize;
            ++index;
        }
        if (!path.empty())
            path += '.';
        path += parent.kind == NodeKind::Dict ? std::string(dump.text(dump.nodes[child].key)) : std::to_string(index);
        node = child;
    }
    return path;
}

TreeSummary summarizeDumpTree(const DumpTree& tree, std::size_t maxNanInfItems)
{
    TreeSummary summary;
    summary.tree = tree;
    DumpJsonReader reader;
    for (const auto& step : tree.steps) {
        for (const auto& rank : step.ranks) {
            RankSummary rs;
            rs.step = step.label;
            rs.rank = rank.label;
            rs.dumpJson = rank.dumpJson.string();
            rs.constructBytes = sizeOf(rank.constructJson());
            rs.stackBytes = sizeOf(rank.stackJson());
            collectTensorFiles(rank.tensorDataDir(), rs);
            if (!rank.dumpJson.empty()) {
                DumpFile dump = reader.read(rank.dumpJson);
                rs.dumpJsonBytes = dump.fileSize;
                rs.task = dump.task;
                rs.level = dump.level;
                rs.framework = dump.framework;
                rs.mode = detectDumpMode(dump);
                rs.counts = countEntries(dump);
                rs.entryNames.reserve(dump.entries.size());
                for (std::size_t e = 0; e < dump.entries.size(); ++e) {
                    rs.entryNames.emplace_back(dump.entryName(e));
                    const auto body = dump.entries[e].body;
                    const auto end = body + dump.nodes[body].subtreeSize;
                    for (auto n = body; n < end && rs.nanInfItems.size() < maxNanInfItems; ++n)
                        if (dump.nodes[n].kind == NodeKind::Tensor && tensorHasNanOrInf(dump.tensors, dump.nodes[n].payload))
                            rs.nanInfItems.push_back(std::string(dump.entryName(e)) + ": " + leafPath(dump, body, n));
                }
            }
            summary.ranks.push_back(std::move(rs));
        }
    }
    return summary;
}

PairSummary summarizePair(const TreeSummary& problem, const TreeSummary& bench)
{
    PairSummary result;
    const auto& ps = problem.tree.steps;
    const auto& bs = bench.tree.steps;
    if (ps.size() != bs.size())
        result.problems.push_back("the problem side has " + std::to_string(ps.size()) + " step(s), the bench side "
            + std::to_string(bs.size()));
    std::size_t pIndex = 0, bIndex = 0;
    for (std::size_t s = 0; s < std::min(ps.size(), bs.size()); ++s) {
        if (ps[s].ranks.size() != bs[s].ranks.size())
            result.problems.push_back(ps[s].label + ": " + std::to_string(ps[s].ranks.size()) + " rank dir(s) vs "
                + std::to_string(bs[s].ranks.size()));
        for (std::size_t r = 0; r < std::min(ps[s].ranks.size(), bs[s].ranks.size()); ++r) {
            const auto& p = problem.ranks[pIndex + r];
            const auto& b = bench.ranks[bIndex + r];
            PairSummary::RankPair pair;
            pair.step = ps[s].label;
            pair.problemRank = p.rank;
            pair.benchRank = b.rank;
            pair.problemEntries = p.entryNames.size();
            pair.benchEntries = b.entryNames.size();
            pair.problemMode = p.mode;
            pair.benchMode = b.mode;
            std::unordered_set<std::string_view> benchNames(b.entryNames.begin(), b.entryNames.end());
            pair.commonEntries = static_cast<std::size_t>(std::count_if(p.entryNames.begin(), p.entryNames.end(),
                [&](const std::string& name) { return benchNames.count(name) != 0; }));
            if (p.mode != b.mode)
                result.problems.push_back(pair.step + "/" + p.rank + ": modes differ (" + std::string(toString(p.mode))
                    + " vs " + std::string(toString(b.mode)) + ")");
            if (p.mode == DumpMode::NotComparable)
                result.problems.push_back(pair.step + "/" + p.rank + ": task '" + p.task + "' is not comparable");
            result.pairs.push_back(pair);
        }
        pIndex += ps[s].ranks.size();
        bIndex += bs[s].ranks.size();
    }
    return result;
}

} // namespace msprobe::dump
