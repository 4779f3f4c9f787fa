// SPDX-License-Identifier: Apache-2.0
#include "compare/compare_engine.h"

#include "compare/consistent_table.h"
#include "compare/legacy_result.h"
#include "compare/stats_diff.h"
#include "compare/tensor_metric_cache.h"
#include "compare/tensor_metrics_files.h"
#include "support/thread_pool.h"
#include "dump/dump_json_reader.h"
#include "dump/tensor_file.h"
#include "support/error.h"
#include "support/phase_times.h"

#include <thread>

namespace fs = std::filesystem;

namespace msprobe::compare {

namespace {

void checkCancel(const CompareHooks& hooks)
{
    if (hooks.cancel && hooks.cancel->load(std::memory_order_relaxed))
        throw support::Error("cancelled");
}

// Whether a + b contains needle (without building the concatenation).
bool containsAcross(std::string_view a, std::string_view b, std::string_view needle)
{
    if (a.find(needle) != std::string_view::npos || b.find(needle) != std::string_view::npos)
        return true;
    const std::size_t keepA = std::min(a.size(), needle.size() - 1), keepB = std::min(b.size(), needle.size() - 1);
    std::string joint(a.substr(a.size() - keepA));
    joint += b.substr(0, keepB);
    return joint.find(needle) != std::string::npos;
}

bool itemNameContains(const ItemTable& table, const Item& item, std::string_view needle)
{
    if (item.explicitName != support::kNoString)
        return table.text(item.explicitName).find(needle) != std::string_view::npos;
    return containsAcross(table.entryName(item), table.suffix(item), needle);
}

// pandas: the four statistic columns of a side become float64 when every cell is a number and one is a float; a
// column whose cells all read as integers stays int64. One pass over the rows, split across threads.
void columnFacts(CompareTable& table, std::size_t threads)
{
    struct Facts {
        bool allNumeric[2] = { true, true }, anyFloat[2] = { false, false };
        bool allInt[2][4] = { { true, true, true, true }, { true, true, true, true } };
    };
    table.npuStatsAsFloat = table.benchStatsAsFloat = false; // statistic() must hand out the raw cells here
    const std::size_t n = table.rows.size();
    threads = std::max<std::size_t>(1, std::min(threads, n / 65536 + 1));
    std::vector<Facts> partial(threads);
    const std::size_t chunk = (n + threads - 1) / threads;
    support::parallelFor(threads, threads, [&](std::size_t begin, std::size_t end) {
        for (std::size_t t = begin; t < end; ++t) {
            Facts& f = partial[t];
            PyVal values[4];
            for (std::size_t r = t * chunk; r < std::min(n, (t + 1) * chunk); ++r)
                for (int side = 0; side < 2; ++side) {
                    table.statistics(table.rows[r], side == 0, values);
                    for (int k = 0; k < 4; ++k) {
                        const PyVal& v = values[k];
                        if (v.kind == PyKind::Float)
                            f.anyFloat[side] = true;
                        else if (v.kind != PyKind::Int)
                            f.allNumeric[side] = false;
                        if (f.allInt[side][k] && !isIntegerCell(v))
                            f.allInt[side][k] = false;
                    }
                }
        }
    });
    for (int side = 0; side < 2; ++side) {
        bool allNumeric = true, anyFloat = false, allInt[4] = { n > 0, n > 0, n > 0, n > 0 };
        for (const Facts& f : partial) {
            allNumeric &= f.allNumeric[side];
            anyFloat |= f.anyFloat[side];
            for (int k = 0; k < 4; ++k)
                allInt[k] &= f.allInt[side][k];
        }
        const bool asFloat = allNumeric && anyFloat; // then every int cell reads as a float: no int column
        (side == 0 ? table.npuStatsAsFloat : table.benchStatsAsFloat) = asFloat;
        bool* intColumn = side == 0 ? table.npuIntColumn : table.benchIntColumn;
        for (int k = 0; k < 4; ++k)
            intColumn[k] = !asFloat && allInt[k];
    }
}

TensorMetrics compareRowTensors(const CompareTable& table, const CompareRow& row, TensorMetricCache* cache)
{
    const ItemTable& npuTable = *table.npu.items;
    const std::string_view npuName = npuTable.dataName(table.npuItem(row));
    const Item* bi = table.benchItem(row);
    const std::string_view benchName = bi ? table.bench.items->dataName(*bi) : std::string_view(kNA);
    if (auto problem = dataNameProblem(npuName, benchName))
        return *problem;
    if (cache)
        return cache->metrics(table.npu.dataDir, npuName, table.bench.dataDir, benchName);
    return compareTensorFilePair(table.npu.dataDir, npuName, table.bench.dataDir, benchName);
}

void computeTensorMetrics(CompareTable& table, const CompareHooks& hooks)
{
    const std::size_t n = table.rows.size();
    table.tensorMetrics.resize(n);
    for (std::size_t i = 0; i < n; ++i)
        table.rows[i].metrics = static_cast<std::uint32_t>(i);
    std::atomic<std::size_t> done { 0 };
    const std::size_t threads = hooks.threads ? hooks.threads : support::defaultThreadCount();
    support::parallelFor(n, threads, [&](std::size_t begin, std::size_t end) {
        for (std::size_t i = begin; i < end; ++i) {
            checkCancel(hooks);
            table.tensorMetrics[i] = compareRowTensors(table, table.rows[i], hooks.tensorMetrics);
            const std::size_t finished = done.fetch_add(1) + 1;
            if (hooks.rowProgress && (finished % 64 == 0 || finished == n))
                hooks.rowProgress(finished, n);
        }
    });
}

// The first row of the entry group that row r belongs to (rows of one entry are contiguous).
std::size_t entryGroupStart(const CompareTable& table, std::size_t r)
{
    if (r >= table.rows.size())
        return table.rows.size();
    const std::uint32_t entry = table.npuItem(table.rows[r]).entry;
    while (r > 0 && table.npuItem(table.rows[r - 1]).entry == entry)
        --r;
    return r;
}

// A RuleRow as default-constructed, its strings emptied but keeping their buffers.
void resetKeepingCapacity(RuleRow& rr)
{
    std::string shapes[2] = { std::move(rr.npuShape), std::move(rr.benchShape) };
    std::string normRelativeErr = std::move(rr.normRelativeErr), md5s[2] = { std::move(rr.npuMd5), std::move(rr.benchMd5) };
    rr = RuleRow {};
    for (std::string* text : { &shapes[0], &shapes[1], &normRelativeErr, &md5s[0], &md5s[1] })
        text->clear();
    rr.npuShape = std::move(shapes[0]);
    rr.benchShape = std::move(shapes[1]);
    rr.normRelativeErr = std::move(normRelativeErr);
    rr.npuMd5 = std::move(md5s[0]);
    rr.benchMd5 = std::move(md5s[1]);
}

// The Result rules over the entry groups that start in [begin, end).
void applyRulesToRows(CompareTable& table, std::size_t begin, std::size_t end)
{
    const ItemTable& npuTable = *table.npu.items;
    const ItemTable& benchTable = *table.bench.items;
    std::vector<RuleRow> group;
    std::vector<RuleOutcome> outcomes;
    std::string scratch, normDiff;
    PyVal npuStats[4], benchStats[4];
    std::size_t start = begin;
    if (entryGroupStart(table, begin) < begin) { // that group belongs to the previous range
        const std::uint32_t entry = table.npuItem(table.rows[begin]).entry;
        while (start < table.rows.size() && table.npuItem(table.rows[start]).entry == entry)
            ++start;
    }
    while (start < end) {
        const std::uint32_t entry = table.npuItem(table.rows[start]).entry;
        std::size_t groupEnd = start;
        while (groupEnd < table.rows.size() && table.npuItem(table.rows[groupEnd]).entry == entry)
            ++groupEnd;
        if (group.size() < groupEnd - start)
            group.resize(groupEnd - start);
        outcomes.assign(groupEnd - start, RuleOutcome {});
        std::string firstInputName;
        for (std::size_t r = start; r < groupEnd; ++r) {
            const CompareRow& row = table.rows[r];
            RuleRow& rr = group[r - start];
            resetKeepingCapacity(rr);
            const Item& ni = table.npuItem(row);
            const Item* bi = table.benchItem(row);
            rr.isOutput = itemNameContains(npuTable, ni, ".output.");
            rr.matched = bi != nullptr;
            if (!rr.isOutput && firstInputName.empty())
                firstInputName = npuTable.name(ni);
            const bool md5 = table.mode == CompareMode::Md5;
            rr.npuDtype = npuTable.dtype(ni);
            npuTable.appendShape(rr.npuShape, ni);
            rr.npuReqGrad = npuTable.requiresGrad(ni);
            if (md5)
                rr.npuMd5 = npuTable.fields(ni).md5;
            if (bi) {
                rr.benchDtype = benchTable.dtype(*bi);
                benchTable.appendShape(rr.benchShape, *bi);
                rr.benchReqGrad = benchTable.requiresGrad(*bi);
                if (md5)
                    rr.benchMd5 = benchTable.fields(*bi).md5;
                rr.benchFused = itemNameContains(benchTable, *bi, "qkv") || itemNameContains(benchTable, *bi, "gate_up");
            } else {
                rr.benchDtype = rr.benchReqGrad = kNA;
                rr.benchShape = rr.benchMd5 = kNA;
            }
            if (table.mode != CompareMode::Md5) {
                table.statistics(row, true, npuStats);
                table.statistics(row, false, benchStats);
                rr.npuMax = npuStats[0];
                rr.npuMin = npuStats[1];
                rr.benchMax = benchStats[0];
                rr.benchMin = benchStats[1];
            }
            if (table.mode == CompareMode::Statistics) {
                statisticDiff(npuStats[3], benchStats[3], table.npuIntColumn[3], table.benchIntColumn[3], normDiff,
                    rr.normRelativeErr);
            } else if (table.mode == CompareMode::Tensor) {
                rr.cosine = table.tensorMetrics[row.metrics].cells[0];
                rr.oneThousandth = table.tensorMetrics[row.metrics].cells[4];
            }
        }
        if (!firstInputName.empty()) {
            const std::size_t dot = firstInputName.find('.');
            if (dot != std::string::npos) {
                const std::size_t next = firstInputName.find('.', dot + 1);
                scratch = firstInputName.substr(dot + 1, next == std::string::npos ? std::string::npos : next - dot - 1);
                for (auto& rr : group)
                    if (!rr.isOutput) {
                        rr.apiSegment = scratch;
                        break;
                    }
            }
        }
        applyResultRules(table.mode, std::span<const RuleRow>(group.data(), groupEnd - start), outcomes);
        for (std::size_t r = start; r < groupEnd; ++r) {
            // A row whose tensor file is missing or unreadable was not compared: never a pass.
            const bool unreadable = table.mode == CompareMode::Tensor && !table.tensorMetrics[table.rows[r].metrics].fileProblems.empty();
            table.rows[r].level = unreadable ? ResultLevel::Error : outcomes[r - start].level;
            table.rows[r].messages = outcomes[r - start].messages;
        }
        start = groupEnd;
    }
}

void applyRules(CompareTable& table, std::size_t threads)
{
    support::parallelFor(table.rows.size(), threads, [&](std::size_t begin, std::size_t end) { applyRulesToRows(table, begin, end); });
}

bool tensorHasMd5(const dump::DumpFile& dump, std::uint32_t node)
{
    const dump::ValueNode& v = dump.nodes[node];
    if (v.kind == dump::NodeKind::Tensor)
        return dump.tensors.md5[v.payload] != support::kNoString;
    if (v.kind == dump::NodeKind::Dict)
        return dump.childByKey(node, "md5") >= 0;
    return false;
}

constexpr std::size_t kCrossRuntimeEntriesListed = 50;

// Matches the rows by cross-runtime keys: rows of one-runtime-only arguments are left out, and the report says how
// the rest paired.
void matchCrossRuntime(CompareTable& table, const CompareConstructs& constructs)
{
    const ItemTable& npuItems = *table.npu.items;
    const ItemTable& benchItems = *table.bench.items;
    const CrossRuntimeKeys keys = crossRuntimeKeys(npuItems, constructs.npu, benchItems, constructs.bench);
    const auto matched = matchItems(npuItems, benchItems, table.options, &keys);
    CrossRuntimeReport& report = table.crossRuntime;
    report = {};
    report.active = true;
    report.npuIsAten = detectRuntime(*table.npu.dump) == DumpRuntime::Aten;
    report.scoped = keys.scoped;
    table.benchItemIgnored = keys.benchIgnored;
    std::vector<std::uint8_t> benchPaired(benchItems.entries().size(), 0), benchListed(benchItems.entries().size(), 0);
    std::uint32_t lastUnpairedEntry = kNullNode;
    table.rows.reserve(matched.size());
    for (const auto& m : matched) {
        if (keys.npuIgnored[m.npu]) {
            ++report.ignoredRows;
            continue;
        }
        CompareRow row;
        row.npu = m.npu;
        row.bench = m.bench;
        table.rows.push_back(row);
        if (m.bench != kUnmatched) {
            ++report.pairedRows;
            benchPaired[benchItems.items()[static_cast<std::size_t>(m.bench)].entry] = 1;
            continue;
        }
        ++report.unpairedRows;
        const std::uint32_t entry = npuItems.items()[m.npu].entry;
        if (entry != lastUnpairedEntry && report.unpairedNpuEntries.size() < kCrossRuntimeEntriesListed)
            report.unpairedNpuEntries.emplace_back(npuItems.entryName(npuItems.items()[m.npu]));
        lastUnpairedEntry = entry;
    }
    for (std::size_t j = 0; j < benchItems.items().size(); ++j) {
        const std::uint32_t entry = benchItems.items()[j].entry;
        if (benchPaired[entry] || benchListed[entry] || keys.benchIgnored[j])
            continue;
        benchListed[entry] = 1;
        if (report.unpairedBenchEntries.size() < kCrossRuntimeEntriesListed)
            report.unpairedBenchEntries.emplace_back(benchItems.entryName(benchItems.items()[j]));
    }
}

// In a cross-runtime compare a row without a partner was not compared: a warning, never a pass.
void flagUnpairedCrossRuntimeRows(CompareTable& table)
{
    for (CompareRow& row : table.rows)
        if (row.bench == kUnmatched) {
            row.level = std::max(row.level, ResultLevel::Warning);
            row.messages |= kMsgNoCounterpart;
        }
}

// Whether both paths name one file (a self-compare), however spelled.
bool sameFile(const fs::path& a, const fs::path& b)
{
    std::error_code ec;
    return fs::equivalent(a, b, ec) && !ec;
}

} // namespace

bool usesCrossRuntimePairing(const dump::DumpFile& npu, const dump::DumpFile& bench, const CompareOptions& options)
{
    if (options.crossRuntime == CrossRuntime::Off || !options.consistentBackend.empty() || options.debugFile)
        return false;
    if (options.crossRuntime == CrossRuntime::On)
        return sameRuntimeNote(npu, bench).empty();
    return !options.useDataMapping && !options.useCellMapping && !options.fuzzyMatch && isCrossRuntimePair(npu, bench);
}

bool hasMd5Checksums(const dump::DumpFile& dump)
{
    for (const dump::Entry& entry : dump.entries) {
        const dump::ValueNode& body = dump.nodes[entry.body];
        if (body.kind != dump::NodeKind::Dict)
            continue;
        const std::uint32_t end = entry.body + body.subtreeSize;
        for (std::uint32_t field = entry.body + 1; field < end; field += dump.nodes[field].subtreeSize) {
            const dump::ValueNode& f = dump.nodes[field];
            if (f.kind == dump::NodeKind::List) {
                const std::uint32_t listEnd = field + f.subtreeSize;
                for (std::uint32_t element = field + 1; element < listEnd; element += dump.nodes[element].subtreeSize)
                    if (tensorHasMd5(dump, element))
                        return true;
            } else if (tensorHasMd5(dump, field)) {
                return true;
            }
        }
    }
    return false;
}

CompareMode detectCompareMode(const dump::DumpFile& npu, const dump::DumpFile& bench)
{
    if (npu.task != bench.task)
        throw support::Error(npu.path, {}, "the dump task '" + npu.task + "' differs from the bench dump's '" + bench.task + "' ("
                + bench.path + "): both sides must be dumped with the same task");
    if (npu.task == "tensor")
        return CompareMode::Tensor;
    if (npu.task != "statistics")
        throw support::Error(npu.path, {}, "task '" + npu.task + "' cannot be compared: compare applies only to task tensor or statistics");
    const bool npuMd5 = hasMd5Checksums(npu), benchMd5 = hasMd5Checksums(bench);
    if (npuMd5 != benchMd5)
        throw support::Error(npuMd5 ? npu.path : bench.path, {},
            "this dump has md5 checksums and the other side (" + (npuMd5 ? bench.path : npu.path)
                + ") has none: both must use the same summary_mode");
    return npuMd5 ? CompareMode::Md5 : CompareMode::Statistics;
}

std::unique_ptr<CompareTable> compareDumps(dump::DumpFile npu, dump::DumpFile bench, dump::StackInfo stack, bool stackMode,
    const CompareOptions& options, const CompareHooks& hooks, const CompareConstructs& constructs)
{
    return compareDumps(std::make_shared<const dump::DumpFile>(std::move(npu)), std::make_shared<const dump::DumpFile>(std::move(bench)),
        std::move(stack), stackMode, options, hooks, constructs);
}

std::unique_ptr<CompareTable> compareDumps(std::shared_ptr<const dump::DumpFile> npu, std::shared_ptr<const dump::DumpFile> bench,
    dump::StackInfo stack, bool stackMode, const CompareOptions& options, const CompareHooks& hooks, const CompareConstructs& constructs)
{
    support::PhaseTimes phases;
    auto table = std::make_unique<CompareTable>();
    const CompareMode dumpMode = detectCompareMode(*npu, *bench);
    table->mode = dumpMode == CompareMode::Tensor && options.firstDiffAnalyze ? CompareMode::Statistics : dumpMode;
    table->options = options;
    table->stackMode = stackMode;
    table->stack = std::move(stack);
    table->npu.dataDir = fs::path(npu->path).parent_path() / "dump_tensor_data";
    table->bench.dataDir = fs::path(bench->path).parent_path() / "dump_tensor_data";
    table->npu.dump = std::move(npu);
    table->bench.dump = std::move(bench);
    FlattenOptions npuFlatten { options.debugFile, options.consistentBackend };
    FlattenOptions benchFlatten { options.debugFile, {} };
    support::runConcurrently([&] { table->npu.items = std::make_unique<ItemTable>(*table->npu.dump, npuFlatten); },
        [&] { table->bench.items = std::make_unique<ItemTable>(*table->bench.dump, benchFlatten); });
    phases.mark("flatten");
    checkCancel(hooks);
    if (table->consistent()) {
        buildConsistentTable(*table, hooks);
        return table;
    }

    if (usesCrossRuntimePairing(*table->npu.dump, *table->bench.dump, options)) {
        matchCrossRuntime(*table, constructs);
    } else {
        if (options.crossRuntime == CrossRuntime::On)
            table->crossRuntime.note = sameRuntimeNote(*table->npu.dump, *table->bench.dump);
        const auto matched = matchItems(*table->npu.items, *table->bench.items, options);
        table->rows.reserve(matched.size());
        for (const auto& m : matched) {
            CompareRow row;
            row.npu = m.npu;
            row.bench = m.bench;
            table->rows.push_back(row);
        }
    }
    phases.mark("match");
    checkCancel(hooks);
    if (table->mode != CompareMode::Md5)
        columnFacts(*table, hooks.threads ? hooks.threads : support::defaultThreadCount());
    phases.mark("facts");
    if (table->mode == CompareMode::Tensor)
        computeTensorMetrics(*table, hooks);
    checkCancel(hooks);
    if (!options.firstDiffAnalyze) {
        if (options.legacyResult)
            applyLegacyResult(*table);
        else
            applyRules(*table, hooks.threads ? hooks.threads : support::defaultThreadCount());
        if (table->crossRuntime.active)
            flagUnpairedCrossRuntimeRows(*table);
    }
    phases.mark("rules");
    return table;
}

std::unique_ptr<CompareTable> compareDumpFiles(const fs::path& npuJson, const fs::path& benchJson, const CompareOptions& options,
    const CompareHooks& hooks)
{
    support::PhaseTimes phases;
    // stack.json is read on a third thread while both dump.json files are read.
    dump::StackInfo stack;
    const fs::path stackJson = npuJson.parent_path() / "stack.json";
    std::error_code ec;
    // Anything named stack.json is read: a FIFO, a device or a dangling link is an error, not "no stacks".
    const bool stackMode = fs::symlink_status(stackJson, ec).type() != fs::file_type::not_found;
    std::exception_ptr stackFailure;
    std::thread stackReader;
    if (stackMode)
        stackReader = std::thread([&] {
            try {
                stack = dump::readStackJson(stackJson);
                for (std::size_t g = 0; g < stack.frames.size(); ++g)
                    for (const auto& frame : stack.frames[g])
                        if (hasFormulaPrefix(frame))
                            throw support::Error(stackJson.string(), "stack group " + std::to_string(g),
                                "a stack frame starts with a formula character (+ - = % @), refused as the reference does");
                stack.buildLookup(); // for the CSV rows' look-ups, while the dumps are still being read
            } catch (...) {
                stackFailure = std::current_exception();
            }
        });
    std::shared_ptr<const dump::DumpFile> npu, bench;
    try {
        const auto read = [&](const fs::path& file) {
            return hooks.readDump ? hooks.readDump(file) : std::make_shared<const dump::DumpFile>(dump::readDumpJson(file));
        };
        if (sameFile(npuJson, benchJson))
            bench = npu = read(npuJson);
        else
            support::runConcurrently([&] { npu = read(npuJson); }, [&] { bench = read(benchJson); });
    } catch (...) {
        if (stackReader.joinable())
            stackReader.join();
        throw;
    }
    if (stackReader.joinable())
        stackReader.join();
    if (stackFailure)
        std::rethrow_exception(stackFailure);
    phases.mark("read");
    checkCancel(hooks);
    CompareConstructs constructs;
    if (usesCrossRuntimePairing(*npu, *bench, options)) {
        constructs.npu = dump::readConstructJson(npuJson.parent_path() / "construct.json");
        constructs.bench = dump::readConstructJson(benchJson.parent_path() / "construct.json");
    }
    return compareDumps(std::move(npu), std::move(bench), std::move(stack), stackMode, options, hooks, constructs);
}

} // namespace msprobe::compare
