// SPDX-License-Identifier: Apache-2.0
#include "graph/match/cross_runtime_match.h"

namespace msprobe::graph {

std::unordered_map<std::string, std::string> crossRuntimeNodeMap(const ItemTable& npu, const ItemTable& bench,
    const CrossRuntimeKeys& keys)
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

std::string crossRuntimeGraphText(const Graph& npu, const CrossRuntimeKeys& keys)
{
    constexpr std::size_t kListed = 20;
    std::size_t operators = 0, paired = 0;
    std::string unpaired;
    std::size_t listed = 0;
    for (std::uint32_t n = 0; n < npu.size(); ++n) {
        const GraphNode& node = npu.node(n);
        if (node.op != NodeOp::FunctionApi)
            continue;
        ++operators;
        if (node.partner != kNoNode) {
            ++paired;
            continue;
        }
        if (listed++ < kListed)
            unpaired += (unpaired.empty() ? "" : ", ") + std::string(node.id);
    }
    std::string text = std::string("cross-runtime pairing (") + (keys.scoped ? "counted per module call" : "counted over the whole dump")
        + "): " + std::to_string(paired) + " of " + std::to_string(operators) + " operator nodes paired";
    if (!unpaired.empty())
        text += "; not paired: " + unpaired + (listed > kListed ? ", ..." : "");
    return text;
}

} // namespace msprobe::graph
