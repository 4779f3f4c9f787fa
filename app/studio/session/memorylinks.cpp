// SPDX-License-Identifier: Apache-2.0
#include "memorylinks.h"

#include "memorycomparison.h"
#include "support/ascii_text.h"
#include "support/python_text.h"

#include <set>

namespace msprobe::studio {

std::vector<std::size_t> operatorsInRange(const MemoryTimeline& timeline, std::int64_t beginNs, std::int64_t endNs)
{
    std::vector<std::size_t> out;
    for (std::size_t i = 0; i < timeline.ops.size() && timeline.ops[i].startNs <= endNs; ++i)
        if (timeline.ops[i].endNs >= beginNs)
            out.push_back(i);
    return out;
}

std::string operatorApiName(std::string_view name)
{
    if (const auto colons = name.find("::"); colons != std::string_view::npos)
        name = name.substr(colons + 2);
    else {
        const auto parts = msprobe::support::pythonSplit(name, '.');
        for (std::size_t i = 0; i + 1 < parts.size(); ++i)
            if (parts[i] == "aten")
                return std::string(parts[i + 1]);
    }
    return std::string(name.substr(0, name.find('.')));
}

NodeApi nodeApi(std::string_view nodeName)
{
    static const std::set<std::string_view> apiKinds { "Torch", "Functional", "Tensor", "Aten", "NPU", "Distributed", "VF", "Mint",
        "MintFunctional", "Jit", "Primitive" };
    const auto parts = msprobe::support::pythonSplit(nodeName, '.');
    NodeApi out;
    if (parts.size() < 2 || !apiKinds.count(parts[0]))
        return out;
    out.api = std::string(parts[1]);
    for (std::size_t i = 2; i < parts.size(); ++i)
        if (msprobe::support::isDigits(parts[i])) {
            out.callIndex = std::stoi(std::string(parts[i]));
            break;
        }
    return out;
}

std::optional<TimelineSpan> spanOfNode(const MemoryTimeline& timeline, std::string_view nodeName, const TimelineSpan* within)
{
    const NodeApi node = nodeApi(nodeName);
    if (node.api.empty())
        return std::nullopt;
    std::vector<const TimelineSpan*> instances;
    for (const auto& op : timeline.ops)
        if ((!within || (op.startNs >= within->startNs && op.startNs <= within->endNs)) && operatorApiName(op.label) == node.api)
            instances.push_back(&op);
    if (instances.empty())
        return std::nullopt;
    if (node.callIndex >= 0 && static_cast<std::size_t>(node.callIndex) < instances.size())
        return *instances[node.callIndex];
    TimelineSpan all = *instances.front();
    all.endNs = instances.back()->endNs;
    all.label = node.api;
    return all;
}

const TimelineSpan* spanOfGraphStep(const MemoryTimeline& timeline, int graphStep)
{
    return graphStep < 0 ? nullptr : stepSpan(timeline, static_cast<std::uint32_t>(graphStep) + 1);
}

std::vector<std::string> nodesOfOperators(const MemoryTimeline& timeline, const std::vector<std::size_t>& operators,
    const std::vector<std::string>& nodeNames)
{
    std::set<std::string> apis;
    for (std::size_t i : operators)
        if (i < timeline.ops.size())
            apis.insert(operatorApiName(timeline.ops[i].label));
    std::vector<std::string> out;
    for (const auto& name : nodeNames) {
        const NodeApi node = nodeApi(name);
        if (!node.api.empty() && apis.count(node.api))
            out.push_back(name);
    }
    return out;
}

} // namespace msprobe::studio
