// SPDX-License-Identifier: Apache-2.0
#include "graph/model/graph_labels.h"
#include "support/python_text.h"

#include "graph/model/graph_builder.h"

namespace msprobe::graph {

std::string shortLabel(std::string_view name, int type, bool rootChild)
{
    if (rootChild)
        return std::string(name);
    const auto parts = support::pythonSplit(name, '.');
    auto digits = [](std::string_view s) { return !s.empty() && s.find_first_not_of("0123456789") == std::string_view::npos; };
    std::size_t keep = type == 0 ? 4 : 2;
    if (parts.size() >= keep && digits(parts[parts.size() - keep]))
        ++keep;
    if (parts.size() <= keep)
        return std::string(name);
    const std::string_view first = parts[parts.size() - keep];
    return std::string(name.substr(static_cast<std::size_t>(first.data() - name.data())));
}

std::string displayLabel(const VisGraph& graph, std::uint32_t node)
{
    const VisNode& n = graph.nodes[node];
    const bool rootChild = n.parent == graph.root() || n.parent == kNoVisNode;
    return shortLabel(n.name, n.type, rootChild);
}

} // namespace msprobe::graph
