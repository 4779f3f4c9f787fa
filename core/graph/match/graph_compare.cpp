// SPDX-License-Identifier: Apache-2.0
#include "graph/match/graph_compare.h"

#include "graph/match/cross_runtime_match.h"

#include "compare/items.h"
#include "compare/stats_diff.h"
#include "compare/tensor_metrics.h"
#include "support/thread_pool.h"
#include "dump/tensor_file.h"

#include <array>
#include <cmath>

namespace msprobe::graph {

namespace {

constexpr int kInputSection = 0, kOutputSection = 2;

int sectionOf(compare::ItemState state)
{
    switch (state) {
    case compare::ItemState::Parameters: return 1;
    case compare::ItemState::Output: return kOutputSection;
    case compare::ItemState::ParametersGrad: return 3;
    default: return 0;
    }
}

// The cells are written in place: a reused cell keeps its string's buffer (this runs for every compared item).
void setCell(ResultCell& cell, ResultCell::Kind kind, std::string_view text)
{
    cell.kind = kind;
    cell.text.assign(text);
}
void strCell(ResultCell& cell, std::string_view text) { setCell(cell, ResultCell::Kind::Str, text); }
void plainCell(ResultCell& cell, std::string_view text) { setCell(cell, ResultCell::Kind::Plain, text); }
void nullCell(ResultCell& cell) { setCell(cell, ResultCell::Kind::Null, {}); }

void pyCell(ResultCell& cell, const compare::PyVal& value)
{
    if (value.kind == compare::PyKind::Str)
        return value.s == " " ? nullCell(cell) : strCell(cell, value.s);
    cell.kind = ResultCell::Kind::Plain;
    cell.text.clear();
    compare::appendPyText(cell.text, value);
}

// Makes cells hold count null cells, keeping the buffers of the cells it already has.
void resetCells(std::vector<ResultCell>& cells, std::size_t count)
{
    if (cells.size() > count)
        cells.erase(cells.begin() + static_cast<std::ptrdiff_t>(count), cells.end());
    for (ResultCell& cell : cells)
        nullCell(cell);
    cells.resize(count, ResultCell { ResultCell::Kind::Null, {} });
}

// The reference's requires_grad of an item: "True"/"False", or None (empty here).
std::string_view requiresGradOf(const compare::ItemFields& fields)
{
    return fields.requiresGrad == "True" || fields.requiresGrad == "False" ? fields.requiresGrad : std::string_view {};
}

// get_rela_diff_summary_mode: diffs are numbers unless N/A / Nan; inf/-inf/nan results get a trailing tab.
void summaryCells(const compare::PyVal npu[4], const compare::PyVal bench[4], ResultCell* out, std::string& normRel)
{
    for (int k = 0; k < 4; ++k) {
        std::string& diff = out[k].text;
        std::string& rel = out[4 + k].text;
        bool warn = false;
        compare::legacyStatisticDiff(npu[k], bench[k], diff, rel, warn);
        if (diff == "inf" || diff == "-inf" || diff == "nan") {
            out[k].kind = ResultCell::Kind::Str;
            diff += '\t';
        } else {
            out[k].kind = diff == compare::kNA || diff == compare::kNanText ? ResultCell::Kind::Str : ResultCell::Kind::Plain;
        }
        out[4 + k].kind = ResultCell::Kind::Str;
        if (k == 3)
            normRel = rel;
    }
}

// Fills out (resized to the items; reused names keep their buffers). keys/ignored: cross-runtime, per ItemTable item.
void compareItemsOf(const Graph& graph, const std::vector<NodeItem>& items, std::vector<CompareItem>& out,
    const std::vector<std::string>* keys = nullptr, const std::vector<std::uint8_t>* ignored = nullptr)
{
    out.resize(items.size());
    for (std::size_t i = 0; i < items.size(); ++i) {
        const compare::Item& item = graph.items->items()[items[i].item];
        out[i].name.clear();
        graph.items->appendName(out[i].name, item);
        out[i].fields = graph.items->fields(item);
        itemStats(graph, items[i].item, out[i].fields.stats);
        out[i].section = sectionOf(item.state);
        out[i].null = item.node == compare::kNullNode;
        out[i].pairKey = keys && items[i].item < keys->size() ? std::string_view((*keys)[items[i].item]) : std::string_view {};
        out[i].ignored = ignored && items[i].item < ignored->size() && (*ignored)[items[i].item];
    }
}

// Per-thread buffers of the row compare, reused from one node pair to the next.
struct RowScratch {
    std::array<std::vector<std::size_t>, 4> npuSections, benchSections;
    std::vector<compare::RuleRow> rules;
    std::vector<compare::RuleOutcome> outcomes;
};

struct PairScratch {
    std::vector<CompareItem> npuItems, benchItems;
    ItemsCompare rows;
};

PairScratch& threadPairScratch()
{
    thread_local PairScratch scratch;
    return scratch;
}

void compareItemsInto(ItemsCompare& result, std::span<const CompareItem> npu, std::span<const CompareItem> bench,
    compare::CompareMode mode, const TensorMetricsSource& tensors);

// Compares the pair into scratch.rows; npuItems receives the NPU node's items.
void compareNodePairInto(const Graph& npu, std::uint32_t n, const Graph& bench, std::uint32_t b, compare::CompareMode mode,
    std::vector<NodeItem>& npuItems, PairScratch& scratch, const compare::CrossRuntimeKeys* crossRuntime = nullptr,
    compare::TensorMetricCache* tensorMetrics = nullptr)
{
    scratch.rows.compared = false;
    scratch.rows.level = compare::ResultLevel::Pass;
    scratch.rows.fileProblems.clear();
    npuItems = npu.nodeItems(n);
    if (npuItems.empty())
        return;
    if (crossRuntime && !npu.node(n).modified) {
        compareItemsOf(npu, npuItems, scratch.npuItems, &crossRuntime->npu, &crossRuntime->npuIgnored);
        compareItemsOf(bench, bench.nodeItems(b), scratch.benchItems, &crossRuntime->bench, &crossRuntime->benchIgnored);
    } else {
        compareItemsOf(npu, npuItems, scratch.npuItems);
        compareItemsOf(bench, bench.nodeItems(b), scratch.benchItems);
    }
    thread_local compare::NodePairKeys pairKeys; // a cross-runtime pair made by hand: items pair by aten argument names
    if (npu.node(n).modified
        && !keyCrossRuntimeNodePair(npu.node(n).id, scratch.npuItems, bench.node(b).id, scratch.benchItems, pairKeys)) {
        pairByPlainPosition(scratch.npuItems);
        pairByPlainPosition(scratch.benchItems);
    }
    const auto dirOf = [](const Graph& g) { return g.hasDumpDataDir ? std::optional<std::string>(g.dumpDataDir) : std::nullopt; };
    const std::optional<std::string> npuDir = dirOf(npu), benchDir = dirOf(bench);
    compareItemsInto(scratch.rows, scratch.npuItems, scratch.benchItems, mode,
        [&](const CompareItem& ni, const CompareItem* bi) { return compareTensorFiles(npuDir, ni, benchDir, bi, tensorMetrics); });
}

} // namespace

compare::TensorMetrics compareTensorFiles(const std::optional<std::string>& npuDir, const CompareItem& npu,
    const std::optional<std::string>& benchDir, const CompareItem* bench, compare::TensorMetricCache* cache)
{
    if (!bench || npu.fields.dataName == "-1" || bench->fields.dataName == "-1")
        return compare::tensorMetricsError("unsupported", {});
    if (!npuDir || !benchDir) { // the dump.json names no dump_data_dir: its tensor files cannot be found
        compare::TensorMetrics metrics = compare::tensorMetricsError("unsupported", {});
        for (const auto& [dir, item] : { std::pair { &npuDir, &npu }, { &benchDir, bench } })
            if (!*dir)
                metrics.fileProblems.push_back({ std::string(item->fields.dataName), "the dump.json gives no dump_data_dir" });
        return metrics;
    }
    if (cache)
        return cache->metrics(*npuDir, npu.fields.dataName, *benchDir, bench->fields.dataName);
    return compare::compareTensorFilePair(*npuDir, npu.fields.dataName, *benchDir, bench->fields.dataName);
}

double precisionIndexOf(std::string_view nodeId, compare::ResultLevel level, compare::CompareMode mode)
{
    const std::size_t dot = nodeId.find('.');
    if (dot != std::string_view::npos) {
        std::string_view api = nodeId.substr(dot + 1);
        api = api.substr(0, api.find('.'));
        for (std::string_view ignored : { "empty", "empty_like", "empty_with_format", "new_empty_strided", "new_empty", "empty_strided" })
            if (api == ignored)
                return mode == compare::CompareMode::Md5 ? 1.0 : 0.0;
    }
    switch (level) {
    case compare::ResultLevel::Warning: return 0.5;
    case compare::ResultLevel::Error: return 1.0;
    case compare::ResultLevel::Pass: break;
    }
    return 0.0;
}

namespace {

void compareItemsInto(ItemsCompare& result, std::span<const CompareItem> npu, std::span<const CompareItem> bench,
    compare::CompareMode mode, const TensorMetricsSource& tensors)
{
    result.compared = false;
    result.level = compare::ResultLevel::Pass;
    result.fileProblems.clear();
    if (npu.empty()) {
        result.cells.clear();
        return;
    }
    thread_local RowScratch scratch;
    auto& npuSections = scratch.npuSections;
    auto& benchSections = scratch.benchSections;
    for (std::size_t s = 0; s < 4; ++s) {
        npuSections[s].clear();
        benchSections[s].clear();
    }
    for (std::size_t i = 0; i < npu.size(); ++i)
        npuSections[static_cast<std::size_t>(npu[i].section & 3)].push_back(i);
    for (std::size_t i = 0; i < bench.size(); ++i)
        benchSections[static_cast<std::size_t>(bench[i].section & 3)].push_back(i);
    const std::size_t stride = resultKeys(mode).size();
    resetCells(result.cells, npu.size() * stride);

    struct Row {
        const CompareItem* npu;
        const CompareItem* bench; // nullptr: no bench item at this position
        std::size_t npuIndex;
    };
    thread_local std::vector<Row> rows;
    rows.clear();
    const bool byKey = !npu.front().pairKey.empty();
    if (byKey) { // cross-runtime: equal keys pair, one-runtime-only arguments are left out
        for (std::size_t s = 0; s < 4; ++s)
            for (std::size_t k : npuSections[s]) {
                if (npu[k].ignored)
                    continue;
                const CompareItem* partner = nullptr;
                for (const CompareItem& candidate : bench)
                    if (candidate.pairKey == npu[k].pairKey) {
                        partner = &candidate;
                        break;
                    }
                rows.push_back({ &npu[k], partner, k });
            }
    } else {
        for (std::size_t s = 0; s < 4; ++s)
            for (std::size_t k = 0; k < npuSections[s].size(); ++k)
                rows.push_back({ &npu[npuSections[s][k]], k < benchSections[s].size() ? &bench[benchSections[s][k]] : nullptr,
                    npuSections[s][k] });
    }

    std::vector<compare::RuleRow>& rules = scratch.rules;
    rules.resize(rows.size());
    thread_local std::vector<std::vector<compare::TensorFileProblem>> rowProblems;
    rowProblems.assign(rows.size(), {});
    for (std::size_t r = 0; r < rows.size(); ++r) {
        const Row& row = rows[r];
        compare::RuleRow& rule = rules[r];
        // A reused rule: every field is set below, or reset here.
        rule.npuMissing = false;
        rule.cosine = rule.oneThousandth = compare::PyVal {};
        rule.isOutput = row.npu->name.find(".output.") != std::string::npos;
        ResultCell* cells = result.cells.data() + row.npuIndex * stride;
        const compare::ItemFields& nf = row.npu->fields;
        const compare::ItemFields* bf = row.bench ? &row.bench->fields : nullptr;
        rule.matched = !(row.npu->null || (row.bench && row.bench->null));
        rule.benchFused = row.bench
            && (row.bench->name.find("qkv") != std::string::npos || row.bench->name.find("gate_up") != std::string::npos);
        rule.npuMax = nf.stats[0];
        rule.npuMin = nf.stats[1];
        rule.npuReqGrad = requiresGradOf(nf);
        rule.npuDtype = nf.dtype == compare::kNoneText ? std::string_view {} : nf.dtype;
        rule.npuShape = nf.shape;
        rule.npuMd5 = nf.md5;
        if (bf) {
            rule.benchMax = bf->stats[0];
            rule.benchMin = bf->stats[1];
            rule.benchReqGrad = requiresGradOf(*bf);
            rule.benchDtype = bf->dtype == compare::kNoneText ? std::string_view {} : bf->dtype;
            rule.benchShape = bf->shape;
            rule.benchMd5 = bf->md5;
        } else {
            // Missing bench items are the string "Nan" in every bench column.
            rule.benchMax = rule.benchMin = compare::PyVal::str(compare::kNanText);
            rule.benchReqGrad = compare::kNanText;
            rule.benchDtype = compare::kNanText;
            rule.benchShape = std::string(compare::kNanText);
            rule.benchMd5 = std::string(compare::kNanText);
        }
        const std::string_view nrg = requiresGradOf(nf);
        const bool consistent = bf ? nrg == requiresGradOf(*bf) : false;
        if (mode == compare::CompareMode::Statistics) {
            if (bf)
                summaryCells(nf.stats, bf->stats, cells, rule.normRelativeErr);
            else
                rule.normRelativeErr.assign(1, ' '); // not = " ": GCC 12 reports a false -Wrestrict there
            plainCell(cells[8], consistent ? "True" : "False");
        } else if (mode == compare::CompareMode::Md5) {
            plainCell(cells[1], consistent ? "True" : "False");
        } else {
            const compare::TensorMetrics metrics = tensors ? tensors(*row.npu, row.bench) : compare::tensorMetricsError("unsupported", {});
            for (int k = 0; k < 6; ++k)
                pyCell(cells[k], metrics.cells[static_cast<std::size_t>(k)]);
            rule.cosine = metrics.cells[0];
            rule.oneThousandth = metrics.cells[4];
            rowProblems[r] = metrics.fileProblems;
            plainCell(cells[6], consistent ? "True" : "False");
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
    std::vector<compare::RuleOutcome>& outcomes = scratch.outcomes;
    outcomes.assign(rules.size(), compare::RuleOutcome {});
    compare::applyResultRules(mode, rules, outcomes);
    for (std::size_t r = 0; r < rows.size(); ++r) {
        ResultCell* cells = result.cells.data() + rows[r].npuIndex * stride;
        const std::size_t resultAt = mode == compare::CompareMode::Md5 ? 0 : stride - 2;
        // A row whose tensor file is missing or unreadable was not compared: never a pass.
        const compare::ResultLevel level = rowProblems[r].empty() ? outcomes[r].level : compare::ResultLevel::Error;
        strCell(cells[resultAt], toString(level));
        strCell(cells[stride - 1], compare::errMessageWithProblems(outcomes[r].messages, rowProblems[r]));
        result.level = std::max(result.level, level);
        result.fileProblems.insert(result.fileProblems.end(), rowProblems[r].begin(), rowProblems[r].end());
    }
    result.compared = !rows.empty();
}

} // namespace

ItemsCompare compareItems(std::span<const CompareItem> npu, std::span<const CompareItem> bench, compare::CompareMode mode,
    const TensorMetricsSource& tensors)
{
    ItemsCompare result;
    compareItemsInto(result, npu, bench, mode, tensors);
    return result;
}

void pairByPlainPosition(std::span<CompareItem> items)
{
    for (CompareItem& item : items)
        item.section = item.section == kOutputSection ? kOutputSection : kInputSection;
}

NodeCompare compareNodePair(const Graph& npu, std::uint32_t n, const Graph& bench, std::uint32_t b, compare::CompareMode mode)
{
    NodeCompare result;
    PairScratch scratch;
    compareNodePairInto(npu, n, bench, b, mode, result.npuItems, scratch);
    result.compared = scratch.rows.compared;
    result.level = scratch.rows.level;
    result.cells = std::move(scratch.rows.cells);
    return result;
}

void recompareNode(Graph& npu, std::uint32_t n, const Graph& bench, const GraphCompareOptions& options)
{
    const compare::CompareMode mode = options.mode;
    if (npu.rendered.size() < npu.size())
        npu.rendered.resize(npu.size());
    GraphNode& node = npu.node(n);
    npu.rendered[n] = {};
    node.precision = NAN;
    if (node.partner == kNoNode)
        return;
    PairScratch& scratch = threadPairScratch();
    std::vector<NodeItem> npuItems;
    compareNodePairInto(npu, n, bench, node.partner, mode, npuItems, scratch, options.crossRuntime, options.tensorMetrics);
    if (options.tensorProblems)
        options.tensorProblems->add(scratch.rows.fileProblems);
    if (!scratch.rows.compared)
        return;
    node.precision = precisionIndexOf(node.id, scratch.rows.level, mode);
    RenderOptions render;
    render.mode = mode;
    render.md5Mode = mode == compare::CompareMode::Md5;
    renderNodeDataExact(npu.rendered[n].input, npu, n, npuItems, false, render, &scratch.rows.cells);
    renderNodeDataExact(npu.rendered[n].output, npu, n, npuItems, true, render, &scratch.rows.cells);
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
    const std::size_t threads = options.threads ? options.threads : support::defaultThreadCount();
    std::atomic<std::size_t> done { 0 };
    support::parallelFor(matched.size(), threads, [&](std::size_t begin, std::size_t end) {
        for (std::size_t i = begin; i < end; ++i) {
            if (options.cancel && options.cancel->load())
                return;
            recompareNode(npu, matched[i], bench, options);
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
