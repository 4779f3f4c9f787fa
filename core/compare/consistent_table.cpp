// SPDX-License-Identifier: Apache-2.0
#include "compare/consistent_table.h"
#include "support/python_text.h"

#include "compare/stats_diff.h"
#include "compare/tensor_metrics_files.h"
#include "support/thread_pool.h"
#include "dump/tensor_file.h"
#include "support/error.h"

#include <atomic>
#include <numeric>
#include <stdexcept>
#include <unordered_map>

namespace fs = std::filesystem;

namespace msprobe::compare {

namespace {

// A tensor file that is missing or unreadable: reported in the row (and counted), not as a failure.
struct UnreadableDumpFile {
    std::vector<TensorFileProblem> problems;
};

bool contains(std::string_view text, std::string_view needle) { return text.find(needle) != std::string_view::npos; }


// read_real_data for one side: the joined names of the split projections are read and concatenated (inputs: the
// first file; parameters: along axis 0; outputs: along axis 1); any other name is one file.
dump::TensorData readSide(const fs::path& dataDir, const std::string& dataName, bool joinable)
{
    auto readOne = [&](const std::string& name) {
        std::vector<TensorFileProblem> problems;
        std::optional<dump::TensorData> tensor = loadRowTensor(dataDir, name, problems);
        if (!tensor)
            throw UnreadableDumpFile { std::move(problems) };
        return std::move(*tensor);
    };
    if (!joinable)
        return readOne(dataName);
    const auto names = support::pythonSplit(dataName, ';');
    if (contains(dataName, ".input."))
        return readOne(std::string(names.front()));
    std::vector<dump::TensorData> parts;
    for (const auto name : names)
        parts.push_back(readOne(std::string(name)));
    return concatenateTensors(std::move(parts), contains(dataName, ".parameters.") ? 0 : 1, dataName);
}

TensorMetrics compareConsistentTensors(const CompareTable& table, const ConsistentRow& row)
{
    const std::string& npuName = row.npu.dataName;
    const std::string& benchName = row.bench.dataName;
    if (auto problem = dataNameProblem(npuName, benchName))
        return *problem;
    const bool fsdp = table.options.consistentBackend == "fsdp";
    const bool npuJoinable = fsdp && (contains(npuName, ".q_proj.") || contains(npuName, ".gate_proj."));
    const bool benchJoinable = !fsdp && contains(benchName, ".gate_up_proj.");
    try {
        const dump::TensorData npu = readSide(table.npu.dataDir, npuName, npuJoinable);
        const dump::TensorData bench = readSide(table.bench.dataDir, benchName, benchJoinable);
        return compareTensors(npu, bench);
    } catch (UnreadableDumpFile& missing) {
        TensorMetrics metrics
            = tensorMetricsError("unsupported", "Dump file: " + missing.problems.front().file + " not found or read failed.");
        metrics.fileProblems = std::move(missing.problems);
        return metrics;
    }
}

void computeConsistentTensorMetrics(CompareTable& table, const CompareHooks& hooks)
{
    const std::size_t n = table.rows.size();
    table.tensorMetrics.resize(n);
    std::atomic<std::size_t> done { 0 };
    support::parallelFor(n, hooks.threads ? hooks.threads : support::defaultThreadCount(), [&](std::size_t begin, std::size_t end) {
        for (std::size_t i = begin; i < end; ++i) {
            if (hooks.cancel && hooks.cancel->load(std::memory_order_relaxed))
                throw support::Error("cancelled");
            table.rows[i].metrics = static_cast<std::uint32_t>(i);
            table.tensorMetrics[i] = compareConsistentTensors(table, table.consistentRows[i]);
            const std::size_t finished = done.fetch_add(1) + 1;
            if (hooks.rowProgress && (finished % 64 == 0 || finished == n))
                hooks.rowProgress(finished, n);
        }
    });
}

RuleRow ruleRow(const CompareTable& table, std::size_t r)
{
    const ConsistentRow& row = table.consistentRows[r];
    RuleRow rr;
    rr.isOutput = contains(row.npu.name, ".output.");
    rr.matched = row.bench.name != kNA;
    rr.npuMissing = row.npu.name == kNA;
    rr.benchFused = contains(row.bench.name, "qkv") || contains(row.bench.name, "gate_up");
    rr.npuDtype = row.npu.dtype;
    rr.benchDtype = row.bench.dtype;
    rr.npuShape = row.npu.shape;
    rr.benchShape = row.bench.shape;
    rr.npuReqGrad = row.npu.requiresGrad;
    rr.benchReqGrad = row.bench.requiresGrad;
    rr.npuMd5 = row.npu.md5;
    rr.benchMd5 = row.bench.md5;
    rr.npuMax = row.npu.stats[0].view();
    rr.npuMin = row.npu.stats[1].view();
    rr.benchMax = row.bench.stats[0].view();
    rr.benchMin = row.bench.stats[1].view();
    if (table.mode == CompareMode::Statistics) {
        std::string diff;
        statisticDiff(row.npu.stats[3].view(), row.bench.stats[3].view(), false, false, diff, rr.normRelativeErr);
    } else if (table.mode == CompareMode::Tensor) {
        rr.cosine = table.tensorMetrics[r].cells[0];
        rr.oneThousandth = table.tensorMetrics[r].cells[4];
    }
    return rr;
}

// The reference groups rows by entry name (first seen first), runs the checkers per group and writes the
// outcomes back by position in that grouped order: rows of one entry that are not adjacent shift the
// Result/Err_message cells, and so do ours.
void applyConsistentRules(CompareTable& table)
{
    std::vector<std::vector<std::size_t>> groups;
    std::unordered_map<std::string_view, std::size_t> groupOf;
    for (std::size_t r = 0; r < table.consistentRows.size(); ++r) {
        auto [it, inserted] = groupOf.emplace(table.consistentRows[r].apiOriginName, groups.size());
        if (inserted)
            groups.emplace_back();
        groups[it->second].push_back(r);
    }
    const RuleSet ruleSet = table.options.consistentBackend == "fsdp" ? RuleSet::ConsistentFsdp : RuleSet::ConsistentMegatron;
    std::size_t position = 0;
    std::vector<RuleRow> rows;
    std::vector<RuleOutcome> outcomes;
    std::vector<std::string> segments;
    for (const auto& group : groups) {
        rows.clear();
        for (std::size_t r : group)
            rows.push_back(ruleRow(table, r));
        // The ignore lists look at the second dot segment of the group's first input row.
        for (std::size_t k = 0; k < rows.size(); ++k) {
            if (rows[k].isOutput)
                continue;
            const std::string& name = table.consistentRows[group[k]].npu.name;
            const std::size_t dot = name.find('.');
            if (dot != std::string::npos) {
                const std::size_t next = name.find('.', dot + 1);
                segments.push_back(name.substr(dot + 1, next == std::string::npos ? std::string::npos : next - dot - 1));
                rows[k].apiSegment = segments.back();
            }
            break;
        }
        outcomes.assign(rows.size(), RuleOutcome {});
        applyResultRules(table.mode, rows, outcomes, ruleSet);
        segments.clear();
        for (const RuleOutcome& outcome : outcomes) {
            table.rows[position].level = outcome.level;
            table.rows[position].messages = outcome.messages;
            ++position;
        }
    }
    if (table.mode == CompareMode::Tensor) // a row whose tensor file cannot be read was not compared
        for (CompareRow& row : table.rows)
            if (!table.tensorMetrics[row.metrics].fileProblems.empty())
                row.level = ResultLevel::Error;
}

void setText(Cell& out, std::string_view text)
{
    out.kind = Cell::Kind::Str;
    out.text.assign(text);
}

} // namespace

dump::TensorData concatenateTensors(std::vector<dump::TensorData> parts, std::size_t axis, const std::string& what)
{
    dump::TensorData out;
    out.elementType = parts.front().elementType;
    out.shape = parts.front().shape;
    const std::size_t rank = out.shape.size();
    if (axis >= rank)
        throw support::Error(what + ": the tensors have " + std::to_string(rank) + " dimension(s), they cannot be joined along axis "
            + std::to_string(axis));
    for (std::size_t p = 1; p < parts.size(); ++p) {
        const auto& shape = parts[p].shape;
        bool compatible = shape.size() == rank;
        for (std::size_t d = 0; compatible && d < rank; ++d)
            compatible = d == axis || shape[d] == out.shape[d];
        if (!compatible)
            throw support::Error(what + ": the tensors' shapes differ outside axis " + std::to_string(axis) + ", they cannot be joined");
        out.shape[axis] += shape[axis];
        if (parts[p].elementType != out.elementType)
            out.elementType = dump::ElementType::Float64;
    }
    // Row-major: the blocks before `axis` repeat; each part contributes its slab of (dims from axis on) per block.
    std::size_t outer = 1;
    for (std::size_t d = 0; d < axis; ++d)
        outer *= static_cast<std::size_t>(out.shape[d]);
    std::vector<std::size_t> slab(parts.size());
    for (std::size_t p = 0; p < parts.size(); ++p)
        slab[p] = outer ? parts[p].values.size() / outer : 0;
    out.values.reserve(outer * std::accumulate(slab.begin(), slab.end(), std::size_t { 0 }));
    for (std::size_t o = 0; o < outer; ++o)
        for (std::size_t p = 0; p < parts.size(); ++p)
            out.values.insert(out.values.end(), parts[p].values.begin() + static_cast<std::ptrdiff_t>(o * slab[p]),
                parts[p].values.begin() + static_cast<std::ptrdiff_t>((o + 1) * slab[p]));
    return out;
}

void buildConsistentTable(CompareTable& table, const CompareHooks& hooks)
{
    if (table.options.firstDiffAnalyze || table.options.legacyResult)
        throw support::Error("--consistent_check cannot be combined with -da or the legacy Result columns (the reference "
                    "does not define them together)");
    table.consistentRows = matchConsistent(*table.npu.items, *table.bench.items, table.options);
    table.rows.assign(table.consistentRows.size(), CompareRow {});
    for (std::size_t r = 0; r < table.rows.size(); ++r)
        table.rows[r].npu = static_cast<std::uint32_t>(r);
    if (table.mode == CompareMode::Tensor)
        computeConsistentTensorMetrics(table, hooks);
    applyConsistentRules(table);
}

void consistentCell(const CompareTable& table, std::size_t index, Column column, Cell& out)
{
    const ConsistentRow& row = table.consistentRows[index];
    out.list = nullptr;
    const ConsistentSide& side = column == Column::BenchName || column == Column::BenchDtype || column == Column::BenchShape
            || column == Column::BenchRequiresGrad || column == Column::BenchMd5
        ? row.bench
        : row.npu;
    switch (column) {
    case Column::NpuName:
    case Column::BenchName: setText(out, side.name); return;
    case Column::NpuDtype:
    case Column::BenchDtype: setText(out, side.dtype); return;
    case Column::NpuShape:
    case Column::BenchShape: setText(out, side.shape); return;
    case Column::NpuRequiresGrad:
    case Column::BenchRequiresGrad: setText(out, side.requiresGrad); return;
    case Column::NpuMd5:
    case Column::BenchMd5: setText(out, side.md5); return;
    case Column::NpuMax:
    case Column::NpuMin:
    case Column::NpuMean:
    case Column::NpuNorm: setPyCell(out, row.npu.stats[static_cast<int>(column) - static_cast<int>(Column::NpuMax)].view()); return;
    case Column::BenchMax:
    case Column::BenchMin:
    case Column::BenchMean:
    case Column::BenchNorm: setPyCell(out, row.bench.stats[static_cast<int>(column) - static_cast<int>(Column::BenchMax)].view()); return;
    case Column::RequiresGradConsistent:
        out.kind = Cell::Kind::Bool;
        out.b = row.npu.requiresGrad == row.bench.requiresGrad;
        return;
    case Column::Result: setText(out, toString(table.rows[index].level)); return;
    case Column::ErrMessage:
        setText(out, table.mode == CompareMode::Tensor
                ? errMessageWithProblems(table.rows[index].messages, table.tensorMetrics[table.rows[index].metrics].fileProblems)
                : errMessageText(table.rows[index].messages));
        return;
    case Column::Stack: {
        const std::vector<std::string>* frames = row.stackItem < 0
            ? nullptr
            : table.stack.framesOf(table.npu.items->entryName(table.npu.items->items()[static_cast<std::size_t>(row.stackItem)]));
        if (frames)
            setListCell(out, *frames);
        else
            setText(out, kNA);
        return;
    }
    case Column::DataName:
        out.ownedList.assign({ row.npu.dataName, row.bench.dataName });
        setListCell(out, out.ownedList);
        return;
    default: // metric and difference cells come from CompareTable::derivedCell; the others are not columns here
        out.kind = Cell::Kind::Missing;
        return;
    }
}

} // namespace msprobe::compare
