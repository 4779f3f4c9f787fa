// SPDX-License-Identifier: Apache-2.0
#include "graph/match/cross_runtime_match.h"

#include "compare/compare_job.h"

namespace msprobe::graph {

std::unordered_map<std::string, std::string> crossRuntimeNodeMap(const compare::ItemTable& npu, const compare::ItemTable& bench,
    const compare::CrossRuntimeKeys& keys)
{
    std::unordered_map<std::string_view, std::string_view> benchByKey;
    for (std::size_t e = 0; e < bench.entries().size() && e < keys.benchEntryKeys.size(); ++e)
        if (!keys.benchEntryKeys[e].empty())
            benchByKey.emplace(keys.benchEntryKeys[e], bench.dump().entryName(bench.entries()[e].dumpEntry));
    std::unordered_map<std::string, std::string> map;
    for (std::size_t e = 0; e < npu.entries().size() && e < keys.npuEntryKeys.size(); ++e) {
        if (keys.npuEntryKeys[e].empty())
            continue;
        if (auto it = benchByKey.find(keys.npuEntryKeys[e]); it != benchByKey.end())
            map.emplace(std::string(npu.dump().entryName(npu.entries()[e].dumpEntry)), std::string(it->second));
    }
    return map;
}

bool keyCrossRuntimeNodePair(std::string_view npuNode, std::span<CompareItem> npu, std::string_view benchNode, std::span<CompareItem> bench,
    compare::NodePairKeys& keys)
{
    auto sideOf = [](std::string_view node, std::span<CompareItem> items) {
        compare::NodePairSide side { node, {}, {} };
        for (const CompareItem& item : items) {
            side.items.push_back(item.name);
            side.tensor.push_back(item.fields.dtype.starts_with("torch.") && item.fields.dtype != "torch.ProcessGroup");
        }
        return side;
    };
    keys = compare::crossRuntimeNodePairKeys(sideOf(npuNode, npu), sideOf(benchNode, bench));
    if (!keys.active)
        return false;
    for (std::size_t i = 0; i < npu.size(); ++i) {
        npu[i].pairKey = keys.npu[i];
        npu[i].ignored = keys.npuIgnored[i];
    }
    for (std::size_t i = 0; i < bench.size(); ++i) {
        bench[i].pairKey = keys.bench[i];
        bench[i].ignored = keys.benchIgnored[i];
    }
    return true;
}

CrossRuntimeGraphSummary crossRuntimeGraphSummary(const Graph& npu, const compare::CrossRuntimeKeys& keys)
{
    constexpr std::size_t kListed = 20;
    CrossRuntimeGraphSummary summary;
    std::string unpaired;
    std::size_t listed = 0;
    for (std::uint32_t n = 0; n < npu.size(); ++n) {
        const GraphNode& node = npu.node(n);
        if (node.op != NodeOp::FunctionApi)
            continue;
        ++summary.operators;
        if (node.partner != kNoNode) {
            ++summary.paired;
            continue;
        }
        if (listed++ < kListed)
            unpaired += (unpaired.empty() ? "" : ", ") + std::string(node.id);
    }
    summary.info = std::string("cross-runtime pairing (") + (keys.scoped ? "counted per module call" : "counted over the whole dump")
        + "): " + std::to_string(summary.paired) + " of " + std::to_string(summary.operators) + " operator nodes paired";
    if (!unpaired.empty())
        summary.info += "; not paired: " + unpaired + (listed > kListed ? ", ..." : "");
    const std::size_t missing = summary.operators - summary.paired;
    if (compare::tooManyUnpaired(missing, summary.operators))
        summary.warning = "cross-runtime pairing left " + std::to_string(missing) + " of " + std::to_string(summary.operators)
            + " operator nodes without a partner: more than a tenth were not compared with anything";
    return summary;
}

} // namespace msprobe::graph
