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

constexpr int kInputSection = 0, kOutputSection = 2;

int sectionOf(ItemState state)
{
    switch (state) {
    case ItemState::Parameters: return 1;
    case ItemState::Output: return kOutputSection;
    case ItemState::ParametersGrad: return 3;
    default: return 0;
    }
}

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

std::vector<CompareItem> compareItemsOf(const Graph& graph, const std::vector<NodeItem>& items)
{
    std::vector<CompareItem> out(items.size());
    for (std::size_t i = 0; i < items.size(); ++i) {
        const Item& item = graph.items->items()[items[i].item];
        out[i].name = graph.items->name(item);
        out[i].fields = graph.items->fields(item);
        itemStats(graph, items[i].item, out[i].fields.stats);
        out[i].section = sectionOf(item.state);
        out[i].null = item.node == kNullNode;
    }
    return out;
}

} // namespace

TensorMetrics compareTensorFiles(const std::optional<std::string>& npuDir, const CompareItem& npu,
    const std::optional<std::string>& benchDir, const CompareItem* bench)
{
    if (!bench || npu.fields.dataName == "-1" || bench->fields.dataName == "-1" || !npuDir || !benchDir)
        return tensorMetricsError("unsupported", {});
    try {
        const TensorData n = readTensorFile(resolveDataFile(*npuDir, npu.fields.dataName));
        const TensorData b = readTensorFile(resolveDataFile(*benchDir, bench->fields.dataName));
        return compareTensors(n, b);
    } catch (const std::exception&) {
        return tensorMetricsError("unsupported", {});
    }
}

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

ItemsCompare compareItems(std::span<const CompareItem> npu, std::span<const CompareItem> bench, CompareMode mode,
    const TensorMetricsSource& tensors)
{
    ItemsCompare result;
    if (npu.empty())
        return result;
    std::array<std::vector<std::size_t>, 4> npuSections, benchSections;
    for (std::size_t i = 0; i < npu.size(); ++i)
        npuSections[static_cast<std::size_t>(npu[i].section & 3)].push_back(i);
    for (std::size_t i = 0; i < bench.size(); ++i)
        benchSections[static_cast<std::size_t>(bench[i].section & 3)].push_back(i);
    const std::size_t stride = resultKeys(mode).size();
    result.cells.assign(npu.size() * stride, nullCell());

    struct Row {
        const CompareItem* npu;
        const CompareItem* bench; // nullptr: no bench item at this position
        std::size_t npuIndex;
    };
    std::vector<Row> rows;
    for (std::size_t s = 0; s < 4; ++s)
        for (std::size_t k = 0; k < npuSections[s].size(); ++k)
            rows.push_back({ &npu[npuSections[s][k]], k < benchSections[s].size() ? &bench[benchSections[s][k]] : nullptr,
                npuSections[s][k] });

    std::vector<RuleRow> rules(rows.size());
    for (std::size_t r = 0; r < rows.size(); ++r) {
        const Row& row = rows[r];
        RuleRow& rule = rules[r];
        rule.isOutput = row.npu->name.find(".output.") != std::string::npos;
        ResultCell* cells = result.cells.data() + row.npuIndex * stride;
        const ItemFields& nf = row.npu->fields;
        const ItemFields* bf = row.bench ? &row.bench->fields : nullptr;
        rule.matched = !(row.npu->null || (row.bench && row.bench->null));
        rule.benchFused = row.bench
            && (row.bench->name.find("qkv") != std::string::npos || row.bench->name.find("gate_up") != std::string::npos);
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
                rule.normRelativeErr.assign(1, ' '); // not = " ": GCC 12 reports a false -Wrestrict there
            cells[8] = plainCell(consistent ? "True" : "False");
        } else if (mode == CompareMode::Md5) {
            cells[1] = plainCell(consistent ? "True" : "False");
        } else {
            const TensorMetrics metrics = tensors ? tensors(*row.npu, row.bench) : tensorMetricsError("unsupported", {});
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
            const std::string& name = rows[r].npu->name;
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
        ResultCell* cells = result.cells.data() + rows[r].npuIndex * stride;
        const std::size_t resultAt = mode == CompareMode::Md5 ? 0 : stride - 2;
        cells[resultAt] = strCell(std::string(toString(outcomes[r].level)));
        cells[stride - 1] = strCell(errMessageText(outcomes[r].messages));
        result.level = std::max(result.level, outcomes[r].level);
    }
    result.compared = !rows.empty();
    return result;
}

void pairByPlainPosition(std::span<CompareItem> items)
{
    for (CompareItem& item : items)
        item.section = item.section == kOutputSection ? kOutputSection : kInputSection;
}

NodeCompare compareNodePair(const Graph& npu, std::uint32_t n, const Graph& bench, std::uint32_t b, CompareMode mode)
{
    NodeCompare result;
    result.npuItems = npu.nodeItems(n);
    if (result.npuItems.empty())
        return result;
    std::vector<CompareItem> npuItems = compareItemsOf(npu, result.npuItems);
    std::vector<CompareItem> benchItems = compareItemsOf(bench, bench.nodeItems(b));
    if (npu.node(n).modified) {
        pairByPlainPosition(npuItems);
        pairByPlainPosition(benchItems);
    }
    const auto dirOf = [](const Graph& g) { return g.hasDumpDataDir ? std::optional<std::string>(g.dumpDataDir) : std::nullopt; };
    const std::optional<std::string> npuDir = dirOf(npu), benchDir = dirOf(bench);
    ItemsCompare rows = compareItems(npuItems, benchItems, mode,
        [&](const CompareItem& ni, const CompareItem* bi) { return compareTensorFiles(npuDir, ni, benchDir, bi); });
    result.compared = rows.compared;
    result.level = rows.level;
    result.cells = std::move(rows.cells);
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

void updateCollectionPrecision(Graph& npu, std::uint32_t collection)
{
    GraphNode& node = npu.node(collection);
    double worst = 0.0;
    for (auto api : node.children)
        if (npu.node(api).hasPrecision())
            worst = std::max(worst, npu.node(api).precision);
    node.precision = worst;
}

void updateCollectionPrecision(Graph& npu)
{
    for (auto child : npu.node(Graph::root()).children)
        if (npu.node(child).op == NodeOp::ApiCollection)
            updateCollectionPrecision(npu, child);
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
