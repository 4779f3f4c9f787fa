// SPDX-License-Identifier: Apache-2.0
#include "nodelistfilter.h"

#include <QRegularExpression>

using namespace msprobe::graph;

namespace msprobe::views {

namespace {

bool gradeMatches(const VisNode& node, const NodeFilter& filter)
{
    if (!node.children.empty())
        return false;
    const PrecisionLevel level = levelOf(node);
    return filter.levels.count(level) > 0 || (!node.overflow.empty() && filter.overflow.count(node.overflow) > 0);
}

} // namespace

std::vector<std::uint32_t> filterNodes(const VisGraph& graph, const NodeFilter& filter)
{
    std::vector<std::uint32_t> out;
    QRegularExpression pattern;
    if (filter.regex) {
        pattern = QRegularExpression(filter.text, QRegularExpression::CaseInsensitiveOption);
        if (!pattern.isValid())
            return out;
    }
    for (std::uint32_t i = 0; i < graph.nodes.size(); ++i) {
        const VisNode& node = graph.nodes[i];
        if (filter.microStep >= 0 && node.microStep != filter.microStep)
            continue;
        if (filter.gradesOnly() && !gradeMatches(node, filter))
            continue;
        if (!filter.text.isEmpty()) {
            const QString name = QString::fromStdString(node.name);
            if (filter.regex ? !pattern.match(name).hasMatch() : !name.contains(filter.text, Qt::CaseInsensitive))
                continue;
        }
        out.push_back(i);
    }
    return out;
}

std::uint32_t firstDivergence(const VisGraph& graph, int microStep)
{
    NodeFilter filter;
    filter.levels = { PrecisionLevel::Error };
    filter.microStep = microStep;
    const auto errors = filterNodes(graph, filter);
    return errors.empty() ? kNoVisNode : errors.front();
}

} // namespace msprobe::views
