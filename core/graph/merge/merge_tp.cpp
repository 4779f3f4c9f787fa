// SPDX-License-Identifier: Apache-2.0
// Tensor-parallel merge: statistics of the same node on every rank of a TP group become one (Max = max,
// Min = min, Mean = average, Norm = sqrt(sum of squares)), with the formulas in parallel_merge_info.
#include "graph/merge/merge_steps.h"

#include "compare/items.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>

namespace msprobe::graph {

namespace {

constexpr std::string_view kTpMergedInfo = "This data is the merged data after tensor parallelism(TP), and the data is merged from rank ";
constexpr const char* kStatNames[4] = { "Max", "Min", "Mean", "Norm" };

bool isNumber(const dump::StatValue& v) { return v.kind == dump::StatKind::Int || v.kind == dump::StatKind::Float || v.kind == dump::StatKind::Bool; }
double asDouble(const dump::StatValue& v) { return v.kind == dump::StatKind::Bool ? (v.b ? 1.0 : 0.0) : v.asDouble(); }

// Python's a == b (mean/norm with a relative tolerance of 1e-6 when uncertain); non-numbers count as equal.
bool valueSame(const dump::StatValue& a, const dump::StatValue& b, bool uncertain)
{
    if (!isNumber(a) || !isNumber(b))
        return true;
    const double x = asDouble(a), y = asDouble(b);
    if (!uncertain)
        return a.kind == dump::StatKind::Int && b.kind == dump::StatKind::Int ? a.i == b.i : x == y;
    const double diff = std::fabs(x - y);
    if (std::isnan(diff))
        return std::isnan(x) && std::isnan(y);
    if (std::isinf(diff))
        return std::isinf(x) && std::isinf(y);
    return x == 0 ? diff < 1e-6 : std::fabs(diff / x) < 1e-6;
}

bool paramSame(const MergeParam& a, const MergeParam& b, bool uncertain)
{
    return valueSame(a.stats[0], b.stats[0], false) && valueSame(a.stats[1], b.stats[1], false)
        && valueSame(a.stats[2], b.stats[2], uncertain) && valueSame(a.stats[3], b.stats[3], uncertain);
}

std::string rankList(const std::vector<int>& ranks)
{
    std::string out = "[";
    for (std::size_t i = 0; i < ranks.size(); ++i)
        out += (i ? ", " : "") + std::to_string(ranks[i]);
    return out + "]";
}

dump::StatValue add(const dump::StatValue& a, const dump::StatValue& b)
{
    if (a.kind == dump::StatKind::Int && b.kind == dump::StatKind::Int)
        return dump::StatValue::ofInt(a.i + b.i);
    return dump::StatValue::ofFloat(asDouble(a) + asDouble(b));
}

// Merges each param list into the main node's statistics; returns the formula lines.
std::vector<std::string> mergeParams(MergeForest& forest, std::uint32_t main, bool output, const std::vector<NeedMerge>& lists)
{
    std::vector<std::string> info;
    for (const NeedMerge& need : lists) {
        const auto& params = need.params;
        if (params.size() < 2)
            continue;
        for (int k = 0; k < 4; ++k) {
            if (std::any_of(params.begin(), params.end(), [k](const MergeParam& p) { return !isNumber(p.stats[k]); }))
                continue;
            std::string values;
            dump::StatValue result;
            double squares = 0;
            for (std::size_t i = 0; i < params.size(); ++i) {
                const dump::StatValue& v = params[i].stats[k];
                if (i)
                    values += k == 0 || k == 1 ? ", " : " + ";
                values += statText(v);
                if (k == 3)
                    values += " ** 2";
                if (k == 3) {
                    squares += std::pow(asDouble(v), 2.0);
                } else if (i == 0) {
                    result = v;
                } else if (k == 0) {
                    if (asDouble(v) > asDouble(result))
                        result = v;
                } else if (k == 1) {
                    if (asDouble(v) < asDouble(result))
                        result = v;
                } else {
                    result = add(result, v);
                }
            }
            const auto count = static_cast<double>(params.size());
            if (k == 2)
                result = dump::StatValue::ofFloat(asDouble(result) / count);
            else if (k == 3)
                result = dump::StatValue::ofFloat(std::pow(squares, 0.5));
            forest.setStat(main, output, need.key, k, result);
            std::string line = std::string("The ") + kStatNames[k] + " value merging method for " + need.key + " is: ";
            if (k == 0)
                line += "max(" + values + ")";
            else if (k == 1)
                line += "min(" + values + ")";
            else if (k == 2)
                line += "(" + values + ") / " + std::to_string(params.size());
            else
                line += "(" + values + ") ** 0.5";
            info.push_back(line + " = " + statText(result));
        }
    }
    return info;
}

void appendInfo(MergeForest& forest, std::uint32_t node, const std::vector<std::uint32_t>& others)
{
    std::vector<int> ranks { forest.node(node).rank };
    for (auto other : others)
        ranks.push_back(forest.node(other).rank);
    forest.node(node).mergeInfo.push_back(std::string(kTpMergedInfo) + rankList(ranks) + ".");
}

void eraseKey(std::vector<NeedMerge>& lists, std::string_view key)
{
    std::erase_if(lists, [&](const NeedMerge& n) { return n.key == key; });
}

// "_rank(\d+)\." : position and rank of the first match.
bool findRankMark(const std::string& id, std::size_t& at, std::size_t& end, int& rank)
{
    for (std::size_t pos = id.find("_rank"); pos != std::string::npos; pos = id.find("_rank", pos + 1)) {
        std::size_t e = pos + 5;
        while (e < id.size() && std::isdigit(static_cast<unsigned char>(id[e])))
            ++e;
        if (e > pos + 5 && e < id.size() && id[e] == '.') {
            at = pos;
            end = e;
            rank = std::stoi(id.substr(pos + 5, e - pos - 5));
            return true;
        }
    }
    return false;
}

std::string replaceRankMarks(const std::string& id, int rank)
{
    std::string out;
    std::size_t from = 0, at = 0, end = 0;
    int ignored = 0;
    while (from < id.size()) {
        const std::string rest = id.substr(from);
        if (!findRankMark(rest, at, end, ignored)) {
            out += rest;
            break;
        }
        out += rest.substr(0, at) + "_rank" + std::to_string(rank) + ".";
        from += end + 1;
    }
    return out;
}

class TpMerger {
public:
    TpMerger(MergeForest& forest, const std::vector<std::size_t>& group, const TpMapping& mapping)
        : f(forest)
        , m_group(group)
        , m_mapping(mapping)
    {
    }

    void run()
    {
        RankGraph& main = f.graphs[m_group[0]];
        for (const std::uint32_t n : main.map.values()) {
            const MergeNode& node = f.node(n);
            if (node.parent == kNoNode)
                continue;
            const MergeNode& parent = f.node(node.parent);
            if (parent.op != NodeOp::Module || parent.id == "clip_grad" || parent.id == "optimizer" || node.id.starts_with("Distributed")
                || !node.mergeInfo.empty())
                continue;
            handleMatmulReduce(n);
            const auto others = needMergeNodes(n);
            ParamDiff diff = compareParamData(f, n, others);
            if (!diff.empty()) {
                appendInfo(f, n, others);
                auto in = mergeParams(f, n, false, diff.input);
                auto out = mergeParams(f, n, true, diff.output);
                auto& info = f.node(n).mergeInfo;
                info.insert(info.end(), in.begin(), in.end());
                info.insert(info.end(), out.begin(), out.end());
            }
        }
        for (const std::uint32_t n : main.map.values())
            columnRowParallel(n);
    }

private:
    std::vector<std::uint32_t> needMergeNodes(std::uint32_t n) const
    {
        std::vector<std::uint32_t> others;
        const std::string& id = f.node(n).id;
        const auto ancestors = f.ancestorIds(n);
        std::size_t at = 0, end = 0;
        int rank = 0;
        const bool marked = findRankMark(id, at, end, rank);
        if (marked && !m_mapping.empty()) {
            auto it = m_mapping.find(rank);
            if (it == m_mapping.end() || it->second.empty() || it->second.size() != m_group.size() - 1)
                return {};
            for (std::size_t i = 1; i < m_group.size(); ++i) {
                const std::uint32_t other = f.graphs[m_group[i]].map.get(replaceRankMarks(id, it->second[i - 1]));
                if (other == kNoNode || f.ancestorIds(other) != ancestors)
                    return {};
                others.push_back(other);
            }
            return others;
        }
        for (std::size_t i = 1; i < m_group.size(); ++i) {
            const std::uint32_t other = f.graphs[m_group[i]].map.get(id);
            if (other == kNoNode || f.ancestorIds(other) != ancestors)
                return {};
            others.push_back(other);
        }
        return others;
    }

    // Forward RowParallelLinear / backward ColumnParallelLinear: the matmul's output is the one after its
    // all_reduce / reduce_scatter.
    void handleMatmulReduce(std::uint32_t n)
    {
        const MergeNode& node = f.node(n);
        if (node.op != NodeOp::Module)
            return;
        const auto parts = splitDotted(node.id);
        if (parts.size() < 4)
            return;
        const std::string& direction = parts[parts.size() - 2];
        const std::string& cls = parts[parts.size() - 3];
        if (!(direction == "forward" && cls.find("RowParallelLinear") != std::string::npos)
            && !(direction == "backward" && cls.find("ColumnParallelLinear") != std::string::npos))
            return;
        std::vector<std::uint32_t> matmuls, reduces;
        for (const std::uint32_t child : node.children) {
            const std::string& id = f.node(child).id;
            if (id.find("matmul") != std::string::npos)
                matmuls.push_back(child);
            if (id.find("_reduce_scatter_base") != std::string::npos || id.find("reduce_scatter_tensor") != std::string::npos
                || id.find("all_reduce") != std::string::npos)
                reduces.push_back(child);
        }
        if (matmuls.empty() || reduces.empty())
            return;
        for (const std::uint32_t matmul : matmuls) {
            const auto matmulOut = f.params(matmul, true);
            if (matmulOut.empty())
                continue;
            for (std::size_t r = 0; r < reduces.size(); ++r) {
                const std::uint32_t reduce = reduces[r];
                const auto reduceOut = f.params(reduce, true);
                if (reduceOut.empty())
                    continue;
                const auto reduceIn = f.params(reduce, false);
                const bool allReduce = f.node(reduce).id.find("all_reduce") != std::string::npos;
                if (reduceIn.size() < (allReduce ? 1u : 2u))
                    continue;
                if (!paramSame(matmulOut[0], reduceIn[allReduce ? 0 : 1], false))
                    continue;
                const auto others = needMergeNodes(matmul);
                ParamDiff diff = compareParamData(f, matmul, others);
                if (!diff.input.empty()) {
                    appendInfo(f, matmul, others);
                    auto in = mergeParams(f, matmul, false, diff.input);
                    auto& info = f.node(matmul).mergeInfo;
                    info.insert(info.end(), in.begin(), in.end());
                }
                // The reduce output's statistics as they are: a string one ("inf") stays a string, an absent one
                // becomes None.
                for (int k = 0; k < 4; ++k) {
                    if (reduceOut[0].stats[k].kind != dump::StatKind::Missing)
                        f.setStat(matmul, true, matmulOut[0].key, k, reduceOut[0].stats[k]);
                    else if (!reduceOut[0].statTexts[k].empty())
                        f.setStatText(matmul, true, matmulOut[0].key, k, reduceOut[0].statTexts[k]);
                    else
                        f.setStat(matmul, true, matmulOut[0].key, k, dump::StatValue::null());
                }
                f.node(matmul).mergeInfo.push_back("The output of this data is merged from " + f.node(reduce).id + "." + reduceOut[0].key);
                reduces.erase(reduces.begin() + static_cast<std::ptrdiff_t>(r));
                break;
            }
        }
    }

    // A ColumnParallelLinear ... RowParallelLinear span: every node in it merges (its input into the column
    // layer and its output out of the row layer stay as they are).
    void columnRowParallel(std::uint32_t n)
    {
        const MergeNode& node = f.node(n);
        if (node.op != NodeOp::Module || !node.mergeInfo.empty() || node.parent == kNoNode)
            return;
        const auto parts = splitDotted(node.id);
        if (parts.size() < 4 || parts[parts.size() - 2] != "forward" || parts[parts.size() - 3].find("ColumnParallelLinear") == std::string::npos)
            return;
        const auto& siblings = f.node(node.parent).children;
        long start = -1, end = -1;
        for (std::size_t i = 0; i < siblings.size(); ++i) {
            const std::string& id = f.node(siblings[i]).id;
            if (id.find(node.id) != std::string::npos)
                start = static_cast<long>(i);
            else if (id.find("RowParallelLinear") != std::string::npos)
                end = static_cast<long>(i);
        }
        if (start < 0 || end < 0 || end - start + 1 < 2)
            return;
        const std::vector<std::uint32_t> span(siblings.begin() + start, siblings.begin() + end + 1);
        std::vector<std::uint32_t> stack = span;
        while (!stack.empty()) {
            const std::uint32_t current = stack.back();
            stack.pop_back();
            const auto& children = f.node(current).children;
            stack.insert(stack.end(), children.rbegin(), children.rend());
            if (!f.node(current).mergeInfo.empty() || f.node(current).id.starts_with("Distributed"))
                continue;
            const auto others = needMergeNodes(current);
            ParamDiff diff = compareParamData(f, current, others, false);
            if (diff.empty())
                continue;
            appendInfo(f, current, others);
            const bool inMatmul = f.node(current).id.find("matmul") != std::string::npos;
            const std::uint32_t parent = f.node(current).parent;
            if (current == span.front() || (inMatmul && parent == span.front())) {
                eraseKey(diff.input, "input.0");
            } else if (current == span.back() || (inMatmul && parent == span.back())) {
                diff.output.clear();
                eraseKey(diff.input, "parameters.bias");
            }
            auto in = mergeParams(f, current, false, diff.input);
            auto out = mergeParams(f, current, true, diff.output);
            auto& info = f.node(current).mergeInfo;
            info.insert(info.end(), in.begin(), in.end());
            info.insert(info.end(), out.begin(), out.end());
        }
    }

    MergeForest& f;
    const std::vector<std::size_t>& m_group;
    const TpMapping& m_mapping;
};

// group_ranks of the node's "input.group" process group ("[0, 1]"), empty when absent.
std::vector<int> groupRanksOf(const MergeForest& forest, std::uint32_t n)
{
    const DataHalf& half = forest.node(n).input;
    if (half.graph == kNoNode)
        return {};
    const Graph& graph = forest.sources[half.graph];
    const std::string wanted = std::string(graph.node(half.node).id) + ".input.group";
    const dump::DumpFile& dump = *graph.dump;
    for (const NodeItem& nodeItem : graph.nodeItems(half.node)) {
        if (nodeItem.output || graph.itemName(nodeItem.item) != wanted)
            continue;
        const compare::Item& item = graph.items->items()[nodeItem.item];
        if (item.node == compare::kNullNode)
            return {};
        const dump::ValueNode& value = dump.nodes[item.node];
        dump::ExtrasRange range;
        if (value.kind == dump::NodeKind::Scalar || value.kind == dump::NodeKind::Raw)
            range = dump.scalars.extras[value.payload];
        else if (value.kind == dump::NodeKind::Tensor)
            range = dump.tensors.extras[value.payload];
        for (const dump::LeafExtra& extra : dump.extrasOf(range)) {
            if (dump.text(extra.key) != "group_ranks")
                continue;
            std::vector<int> ranks;
            const std::string_view text = dump.text(extra.text);
            std::size_t i = 0;
            while (i < text.size()) {
                if (std::isdigit(static_cast<unsigned char>(text[i]))) {
                    std::size_t j = i;
                    while (j < text.size() && std::isdigit(static_cast<unsigned char>(text[j])))
                        ++j;
                    ranks.push_back(std::stoi(std::string(text.substr(i, j - i))));
                    i = j;
                } else {
                    ++i;
                }
            }
            return ranks;
        }
    }
    return {};
}

std::string groupsText(const std::vector<std::vector<int>>& groups)
{
    std::string out = "[";
    for (std::size_t i = 0; i < groups.size(); ++i)
        out += (i ? ", " : "") + rankList(groups[i]);
    return out + "]";
}

} // namespace

bool isMergeDtype(std::string_view dtype)
{
    for (std::string_view known : { "torch.int8", "torch.int32", "torch.int64", "torch.bfloat16", "torch.float16", "torch.float32",
             "torch.float64", "Float16", "Float32", "BFloat16" })
        if (dtype == known)
            return true;
    return false;
}

ParamDiff compareParamData(const MergeForest& forest, std::uint32_t main, const std::vector<std::uint32_t>& others, bool compareData)
{
    ParamDiff diff;
    if (others.empty())
        return diff;
    for (const bool output : { false, true }) {
        std::vector<std::unordered_map<std::string, MergeParam>> otherParams;
        for (const std::uint32_t other : others) {
            auto& byKey = otherParams.emplace_back();
            for (auto& param : forest.params(other, output))
                byKey.emplace(param.key, std::move(param));
        }
        for (const MergeParam& mainParam : forest.params(main, output)) {
            if (!isMergeDtype(mainParam.dtype))
                continue;
            bool same = compareData;
            NeedMerge need { mainParam.key, { mainParam } };
            for (const auto& byKey : otherParams) {
                auto it = byKey.find(mainParam.key);
                if (it == byKey.end() || !isMergeDtype(it->second.dtype))
                    break;
                need.params.push_back(it->second);
                if (compareData && !paramSame(mainParam, it->second, true))
                    same = false;
            }
            if (!same)
                (output ? diff.output : diff.input).push_back(std::move(need));
        }
    }
    return diff;
}

std::size_t mergeTp(MergeForest& forest, const std::vector<std::size_t>& group, const TpMapping& mapping)
{
    if (group.size() >= 2)
        TpMerger(forest, group, mapping).run();
    return group.front();
}

std::vector<std::vector<int>> tpGroupsOf(const MergeForest& forest, const ParallelParams& params, const Warn& warn)
{
    std::vector<std::vector<int>> groups;
    for (const RankGraph& graph : forest.graphs) {
        for (const std::uint32_t n : graph.map.values()) {
            const std::string& id = forest.node(n).id;
            if (id.find("reduce_scatter") == std::string::npos && id.find("all_reduce") == std::string::npos)
                continue;
            auto ranks = groupRanksOf(forest, n);
            if (!ranks.empty() && std::find(groups.begin(), groups.end(), ranks) == groups.end())
                groups.push_back(std::move(ranks));
            break;
        }
    }
    const auto fallback = [&] { return megatronRankGroups(params.rankSize, params.tp, params.pp, params.order).tp; };
    if (groups.empty()) {
        auto defaults = fallback();
        if (warn && params.tp > 1)
            warn("no reduce_scatter/all_reduce with group_ranks found in the dumps; using Megatron's default TP groups "
                + groupsText(defaults));
        return defaults;
    }
    if (groups[0].size() != static_cast<std::size_t>(params.tp)) {
        if (warn)
            warn("the TP groups found in the communication APIs " + groupsText(groups) + " do not have --tp ("
                + std::to_string(params.tp) + ") ranks; using Megatron's default groups");
        return fallback();
    }
    return groups;
}

} // namespace msprobe::graph
