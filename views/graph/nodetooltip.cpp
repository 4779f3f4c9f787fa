// SPDX-License-Identifier: Apache-2.0
#include "nodetooltip.h"

using namespace msprobe::graph;

namespace msprobe::views {

namespace {

QString text(const std::string& s) { return QString::fromStdString(s).toHtmlEscaped(); }

QString levelName(PrecisionLevel level)
{
    const auto name = toString(level);
    return QString::fromLatin1(name.data(), qsizetype(name.size()));
}

} // namespace

QString nodeToolTip(const VisGraph& graph, std::uint32_t index, bool benchSide, const std::string& task, const std::string& inputData,
    const std::string& outputData, const SubtreeSummary* hidden)
{
    const VisNode& node = graph.nodes[index];
    QString html = QStringLiteral("<b>") + text(node.name) + QStringLiteral("</b>");
    if (node.matched())
        html += QStringLiteral("<br/>matched: ") + text(node.link.back());
    if (benchSide) {
        html += node.matched() ? QString() : QStringLiteral("<br/>no matching node on the debug side");
    } else {
        const Explanation why = explainNode(graph, index, task, inputData, outputData);
        html += QStringLiteral("<br/>level: <b>") + levelName(why.level) + QStringLiteral("</b>");
        if (node.hasPrecision())
            html += QStringLiteral(" (precision index ") + QString::number(node.precision) + QLatin1Char(')');
        if (!why.summary.empty())
            html += QStringLiteral("<br/>") + text(why.summary);
        for (const Reason& reason : why.reasons)
            html += QStringLiteral("<br/>&bull; ") + text(reason.item) + QStringLiteral(": ") + text(reason.metric) + QStringLiteral(" = ")
                + text(reason.value) + (reason.threshold.empty() ? QString() : QStringLiteral(" (limit: ") + text(reason.threshold) + QLatin1Char(')'));
        if (!node.overflow.empty()) {
            html += QStringLiteral("<br/>overflow: <b>") + text(node.overflow) + QStringLiteral("</b>");
            for (const auto& item : why.overflow)
                html += QStringLiteral("<br/>&bull; ") + text(item);
        }
    }
    if (hidden && !node.children.empty() && (hidden->bad() > 0 || hidden->unmatched > 0))
        html += QStringLiteral("<br/>below: %1 error(s), %2 warning(s), %3 unmatched; worst %4")
                    .arg(hidden->errors)
                    .arg(hidden->warnings)
                    .arg(hidden->unmatched)
                    .arg(levelName(hidden->worst));
    return html;
}

} // namespace msprobe::views
