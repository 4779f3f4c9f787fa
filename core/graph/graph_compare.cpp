// SPDX-License-Identifier: Apache-2.0
#include "graph/graph_compare.h"

#include "compare/items.h"
#include "compare/stats_diff.h"
#include "compare/tensor_metrics.h"
#include "compare/thread_pool.h"
#include "dump/tensor_file.h"

#include <array>
#include <cmath>

namespace msprobe::graph {

namespace {

int sectionOf(ItemState state)
{
    switch (state) {
    case ItemState::Parameters: return 1;
    case ItemState::Output: return 2;
    case ItemState::ParametersGrad: return 3;
    default: return 0;
    }
}

struct Side {
    const Graph& graph;
    const std::vector<NodeItem>& items;
    std::array<std::vector<std::size_t>, 4> sections; // positions in items, per section
    Side(const Graph& g, const std::vector<NodeItem>& list)
        : graph(g)
        , items(list)
    {
        for (std::size_t i = 0; i < list.size(); ++i)
            sections[sectionOf(g.items->items()[list[i].item].state)].push_back(i);
    }
    const Item& item(std::size_t pos) const { return graph.items->items()[items[pos].item]; }
};

ResultCell strCell(std::string text) { return { ResultCell::Kind::Str, std::move(text) }; }
ResultCell plainCell(std::string text) { return { ResultCell::Kind::Plain, std::move(text) }; }
ResultCell nullCell() { return { ResultCell::Kind::Null, {} }; }

ResultCell pyCell(const PyVal& value)
{
    if (value.kind == PyKind::Str)
        return value.s == " " ? nullCell() : strCell(std::string(value.s));
    return plainCell(pyText(value));
}

// The reference's requires_grad of an item: "True"/"False", or None (empty here).
std::string_view requiresGradOf(const ItemFields& fields)
{
    return fields.requiresGrad == "True" || fields.requiresGrad == "False" ? fields.requiresGrad : std::string_view {};
}

// get_rela_diff_summary_mode: diffs are numbers unless N/A / Nan; inf/-inf/nan results get a trailing tab.
void summaryCells(const PyVal npu[4], const PyVal bench[4], ResultCell* out, std::string& normRel)
{
    for (int k = 0; k < 4; ++k) {
        std::string diff, rel;
        bool warn = false;
        legacyStatisticDiff(npu[k], bench[k], diff, rel, warn);
        if (diff == "inf" || diff == "-inf" || diff == "nan")
            out[k] = strCell(diff + '\t');
        else if (diff == kNA || diff == kNanText)
            out[k] = strCell(diff);
        else
            out[k] = plainCell(diff);
        out[4 + k] = strCell(rel);
        if (k == 3)
            normRel = rel;
    }
}

TensorMetrics tensorCells(const Graph& npu, const ItemFields& nf, const Graph& bench, const ItemFields* bf)
{
    if (!bf || nf.dataName == "-1" || bf->dataName == "-1" || !npu.hasDumpDataDir || !bench.hasDumpDataDir)
        return tensorMetricsError("unsupported", {});
    try {
        const TensorData n = readTensorFile(resolveDataFile(npu.dumpDataDir, nf.dataName));
        const TensorData b = readTensorFile(resolveDataFile(bench.dumpDataDir, bf->dataName));
        return compareTensors(n, b);
    } catch (const std::exception&) {
        return tensorMetricsError("unsupported", {});
    }
}

} // namespace

double precisionIndexOf(std::string_view nodeId, ResultLevel level, CompareMode mode)
{
    const std::size_t dot = nodeId.find('.');
    if (dot != std::string_view::npos) {
        std::string_view api = nodeId.substr(dot + 1);
        api = api.substr(0, api.find('.'));
        for (std::string_view ignored : { "empty", "empty_like", "empty_with_format", "new_empty_strided", "new_empty", "empty_strided" })
            if (api == ignored)
                return mode == CompareMode::Md5 ? 1.0 : 0.0;
    }
    switch (level) {
    case ResultLevel::Warning: return 0.5;
    case ResultLevel::Error: return 1.0;
    case ResultLevel::Pass: break;
    }
    return 0.0;
}

NodeCompare compareNodePair(const Graph& npu, std::uint32_t n, const Graph& bench, std::uint32_t b, CompareMode mode)
{
    NodeCompare result;
    result.npuItems = npu.nodeItems(n);
    if (result.npuItems.empty())
        return result;
    const std::vector<NodeItem> benchItems = bench.nodeItems(b);
    const Side ns(npu, result.npuItems), bs(bench, benchItems);
    const std::size_t stride = resultKeys(mode).size();
    result.cells.assign(result.npuItems.size() * stride, nullCell());

    struct Row {
        std::size_t npu;
        std::ptrdiff_t bench; // -1: no bench item at this position
    };
    std::vector<Row> rows;
    for (int s = 0; s < 4; ++s)
        for (std::size_t k = 0; k < ns.sections[s].size(); ++k)
            rows.push_back({ ns.sections[s][k], k < bs.sections[s].size() ? std::ptrdiff_t(bs.sections[s][k]) : -1 });

    std::vector<RuleRow> rules(rows.size());
    std::vector<ItemFields> npuFields(rows.size()), benchFields(rows.size());
    std::vector<std::string> names(rows.size()), benchNames(rows.size());
    for (std::size_t r = 0; r < rows.size(); ++r) {
        const Row& row = rows[r];
        const Item& ni = ns.item(row.npu);
        npuFields[r] = npu.items->fields(ni);
        itemStats(npu, result.npuItems[row.npu].item, npuFields[r].stats);
        names[r] = npu.items->name(ni);
        RuleRow& rule = rules[r];
        rule.isOutput = names[r].find(".output.") != std::string::npos;
        ResultCell* cells = result.cells.data() + row.npu * stride;
        const ItemFields& nf = npuFields[r];
        if (row.bench >= 0) {
            const Item& bi = bs.item(static_cast<std::size_t>(row.bench));
            benchFields[r] = bench.items->fields(bi);
            itemStats(bench, benchItems[static_cast<std::size_t>(row.bench)].item, benchFields[r].stats);
            benchNames[r] = bench.items->name(bi);
        }
        const ItemFields* bf = row.bench >= 0 ? &benchFields[r] : nullptr;
        const bool nullItem = ni.node == kNullNode || (bf && bs.item(static_cast<std::size_t>(row.bench)).node == kNullNode);
        rule.matched = !nullItem;
        rule.benchFused = bf && (benchNames[r].find("qkv") != std::string::npos || benchNames[r].find("gate_up") != std::string::npos);
        rule.npuMax = nf.stats[0];
        rule.npuMin = nf.stats[1];
        rule.npuReqGrad = requiresGradOf(nf);
        rule.npuDtype = nf.dtype == kNoneText ? std::string_view {} : nf.dtype;
        rule.npuShape = nf.shape;
        rule.npuMd5 = nf.md5;
        if (bf) {
            rule.benchMax = bf->stats[0];
            rule.benchMin = bf->stats[1];
            rule.benchReqGrad = requiresGradOf(*bf);
            rule.benchDtype = bf->dtype == kNoneText ? std::string_view {} : bf->dtype;
            rule.benchShape = bf->shape;
            rule.benchMd5 = bf->md5;
        } else {
            // Missing bench items are the string "Nan" in every bench column.
            rule.benchMax = rule.benchMin = PyVal::str(kNanText);
            rule.benchReqGrad = kNanText;
            rule.benchDtype = kNanText;
            rule.benchShape = std::string(kNanText);
            rule.benchMd5 = std::string(kNanText);
        }
        const std::string_view nrg = requiresGradOf(nf);
        const bool consistent = bf ? nrg == requiresGradOf(*bf) : false;
        if (mode == CompareMode::Statistics) {
            if (bf)
                summaryCells(nf.stats, bf->stats, cells, rule.normRelativeErr);
            else
                rule.normRelativeErr = " ";
            cells[8] = plainCell(consistent ? "True" : "False");
        } else if (mode == CompareMode::Md5) {
            cells[1] = plainCell(consistent ? "True" : "False");
        } else {
            const TensorMetrics metrics = tensorCells(npu, nf, bench, bf);
            for (int k = 0; k < 6; ++k)
                cells[k] = pyCell(metrics.cells[static_cast<std::size_t>(k)]);
            rule.cosine = metrics.cells[0];
            rule.oneThousandth = metrics.cells[4];
            cells[6] = plainCell(consistent ? "True" : "False");
        }
    }
    // The API name for the ignore lists comes from the first input row.
    std::string_view api;
    for (std::size_t r = 0; r < rows.size(); ++r)
        if (!rules[r].isOutput) {
            const std::string& name = names[r];
            const std::size_t dot = name.find('.');
            if (dot != std::string::npos)
                api = std::string_view(name).substr(dot + 1, name.find('.', dot + 1) - dot - 1);
            break;
        }
    for (auto& rule : rules)
        rule.apiSegment = api;
    std::vector<RuleOutcome> outcomes(rules.size());
    applyResultRules(mode, rules, outcomes);
    for (std::size_t r = 0; r < rows.size(); ++r) {
        ResultCell* cells = result.cells.data() + rows[r].npu * stride;
        const std::size_t resultAt = mode == CompareMode::Md5 ? 0 : stride - 2;
        cells[resultAt] = strCell(std::string(toString(outcomes[r].level)));
        cells[stride - 1] = strCell(errMessageText(outcomes[r].messages));
        result.level = std::max(result.level, outcomes[r].level);
    }
    result.compared = !rows.empty();
    return result;
}

void recompareNode(Graph& npu, std::uint32_t n, const Graph& bench, CompareMode mode)
{
    if (npu.rendered.size() < npu.size())
        npu.rendered.resize(npu.size());
    GraphNode& node = npu.node(n);
    npu.rendered[n] = {};
    node.precision = NAN;
    if (node.partner == kNoNode)
        return;
    NodeCompare outcome = compareNodePair(npu, n, bench, node.partner, mode);
    if (!outcome.compared)
        return;
    node.precision = precisionIndexOf(node.id, outcome.level, mode);
    RenderOptions options;
    options.mode = mode;
    options.md5Mode = mode == CompareMode::Md5;
    appendNodeData(npu.rendered[n].input, npu, n, outcome.npuItems, false, options, &outcome.cells);
    appendNodeData(npu.rendered[n].output, npu, n, outcome.npuItems, true, options, &outcome.cells);
}

void updateCollectionPrecision(Graph& npu)
{
    for (auto child : npu.node(Graph::root()).children) {
        GraphNode& collection = npu.node(child);
        if (collection.op != NodeOp::ApiCollection)
            continue;
        double worst = 0.0;
        for (auto api : collection.children)
            if (npu.node(api).hasPrecision())
                worst = std::max(worst, npu.node(api).precision);
        collection.precision = worst;
    }
}

void compareGraphs(Graph& npu, const Graph& bench, const GraphCompareOptions& options)
{
    npu.rendered.assign(npu.size(), {});
    std::vector<std::uint32_t> matched;
    for (std::uint32_t n = 0; n < npu.size(); ++n)
        if (npu.node(n).partner != kNoNode)
            matched.push_back(n);
    const std::size_t threads = options.threads ? options.threads : defaultThreadCount();
    std::atomic<std::size_t> done { 0 };
    parallelFor(matched.size(), threads, [&](std::size_t begin, std::size_t end) {
        for (std::size_t i = begin; i < end; ++i) {
            if (options.cancel && options.cancel->load())
                return;
            recompareNode(npu, matched[i], bench, options.mode);
            const std::size_t count = ++done;
            if (options.progress && (count % 4096 == 0))
                options.progress(count, matched.size());
        }
    });
    updateCollectionPrecision(npu);
    if (options.progress)
        options.progress(matched.size(), matched.size());
}

} // namespace msprobe::graph
