// SPDX-License-Identifier: Apache-2.0
#include "compare/divergence.h"

#include "compare/divergence_checks.h"
#include "compare/stats_diff.h"
#include "support/error.h"

#include <algorithm>
#include <cmath>

namespace msprobe::compare {

namespace {

using namespace detail;

// The rows of one NPU entry (the table keeps an entry's rows together).
struct EntryRows {
    std::uint32_t entry = 0; // ItemTable entry
    std::size_t begin = 0, end = 0;
};

std::vector<EntryRows> entryRows(const CompareTable& table)
{
    std::vector<EntryRows> out;
    for (std::size_t r = 0; r < table.rows.size(); ++r) {
        const std::uint32_t entry = table.npuItem(table.rows[r]).entry;
        if (out.empty() || out.back().entry != entry)
            out.push_back({ entry, r, r });
        out.back().end = r + 1;
    }
    return out;
}

// 0: forward pass, 1: backward pass, -1: not judged (debug values).
int passOf(const CompareTable& table, const EntryRows& rows)
{
    switch (table.npu.items->entries()[rows.entry].kind) {
    case CallKind::Forward: return 0;
    case CallKind::Backward:
    case CallKind::ParametersGrad: return 1;
    case CallKind::Debug: break;
    }
    return -1;
}

std::string entryName(const CompareTable& table, const EntryRows& rows)
{
    return std::string(table.apiOriginName(table.rows[rows.begin]));
}

// Rule (a) for a non-tensor input the bench entry has and the NPU entry lacks (a kwarg passed on one side only).
std::optional<DivergencePoint> benchOnlyArgument(const CompareTable& table, const EntryRows& rows)
{
    const Item* anyBench = nullptr;
    for (std::size_t r = rows.begin; r < rows.end && !anyBench; ++r)
        anyBench = table.benchItem(table.rows[r]);
    if (!anyBench)
        return std::nullopt;
    const ItemTable& bench = *table.bench.items;
    const EntryInfo& info = bench.entries()[anyBench->entry];
    for (std::uint32_t i = info.firstItem; i < info.firstItem + info.itemCount; ++i) {
        const Item& item = bench.items()[i];
        if (roleOf(item) != Role::Input || isTensor(bench, item) || (i < table.benchItemIgnored.size() && table.benchItemIgnored[i]))
            continue;
        bool paired = false;
        for (std::size_t r = rows.begin; r < rows.end && !paired; ++r)
            paired = table.rows[r].bench == static_cast<std::int32_t>(i);
        if (paired || namesPlacement(bench, item))
            continue;
        return DivergencePoint { entryName(table, rows), rows.begin, itemLabel(bench, item) + " absent vs " + valueText(bench, item),
            DivergencePoint::Rule::Argument };
    }
    return std::nullopt;
}

// Whether the entry diverges by the rule (divergence.h), and why.
std::optional<DivergencePoint> judge(const CompareTable& table, const EntryRows& rows, const DivergenceTolerance& tolerance)
{
    const ItemTable& npu = *table.npu.items;
    const ItemTable& bench = *table.bench.items;
    bool paired = false;
    for (std::size_t r = rows.begin; r < rows.end && !paired; ++r)
        paired = table.rows[r].bench != kUnmatched;
    if (!paired)
        return std::nullopt;

    // (a) a non-tensor argument differs
    for (std::size_t r = rows.begin; r < rows.end; ++r) {
        const CompareRow& row = table.rows[r];
        const Item& item = npu.items()[row.npu];
        if (roleOf(item) != Role::Input || isTensor(npu, item))
            continue;
        const Item* other = table.benchItem(row);
        if (other && isTensor(bench, *other))
            continue; // a tensor on the bench side: judged with the tensors
        if (!other ? !namesPlacement(npu, item) : valuesDiffer(npu, item, bench, *other))
            return DivergencePoint { entryName(table, rows), r,
                itemLabel(npu, item) + " " + valueText(npu, item) + " vs " + (other ? valueText(bench, *other) : std::string("absent")),
                DivergencePoint::Rule::Argument };
    }
    if (auto missing = benchOnlyArgument(table, rows))
        return missing;

    // (b) an output leaves tolerance while the tensor inputs stay within it
    bool inputs = false;
    for (std::size_t r = rows.begin; r < rows.end; ++r) {
        const CompareRow& row = table.rows[r];
        const Item& item = npu.items()[row.npu];
        if (roleOf(item) != Role::Input)
            continue;
        inputs = true;
        if (!isTensor(npu, item))
            continue;
        if (row.bench == kUnmatched || !tensorProblem(table, row, tolerance).empty())
            return std::nullopt;
    }
    if (!inputs)
        return std::nullopt;
    for (std::size_t r = rows.begin; r < rows.end; ++r) {
        const CompareRow& row = table.rows[r];
        const Item& item = npu.items()[row.npu];
        if (roleOf(item) != Role::Output || row.bench == kUnmatched)
            continue;
        const bool tensor = isTensor(npu, item) && isTensor(bench, *table.benchItem(row));
        const std::string problem = tensor ? tensorProblem(table, row, tolerance) : valueProblem(table, row, tolerance);
        if (!problem.empty())
            return DivergencePoint { entryName(table, rows), r,
                itemLabel(npu, item) + " " + problem + (table.mode == CompareMode::Md5 ? " with equal inputs" : " with inputs within tolerance"),
                DivergencePoint::Rule::Output };
    }
    return std::nullopt;
}

// Whether construct.json puts `name` (at any depth) inside `ancestor`.
bool inside(const dump::ConstructInfo& construct, const std::string& name, const std::string& ancestor)
{
    const dump::ConstructInfo::Node* node = construct.find(name);
    for (std::size_t depth = 0; node && node->parent && depth < construct.nodes.size(); ++depth) {
        if (*node->parent == ancestor)
            return true;
        node = construct.find(*node->parent);
    }
    return false;
}

bool isModule(const CompareTable& table, const EntryRows& rows)
{
    const EntryInfo& info = table.npu.items->entries()[rows.entry];
    return table.npu.dump->entries[info.dumpEntry].parsed.kind == dump::EntryKind::Module;
}

} // namespace

std::string_view toString(DivergencePoint::Rule rule)
{
    switch (rule) {
    case DivergencePoint::Rule::Argument: return "argument";
    case DivergencePoint::Rule::Output: return "output";
    case DivergencePoint::Rule::NanInf: return "nan_inf";
    }
    return "output";
}

std::optional<DivergencePoint> firstDivergence(const CompareTable& table, const DivergenceTolerance& tolerance, const dump::ConstructInfo* construct)
{
    const std::vector<EntryRows> entries = entryRows(table);
    for (int pass = 0; pass < 2; ++pass) {
        for (std::size_t i = 0; i < entries.size(); ++i) {
            if (passOf(table, entries[i]) != pass)
                continue;
            std::optional<DivergencePoint> found = judge(table, entries[i], tolerance);
            if (!found)
                continue;
            if (!construct || construct->nodes.empty() || !isModule(table, entries[i]))
                return found;
            // Entries written after their module (a start-order dump): the first diverging one inside it wins,
            // then the first diverging one inside that, while the entries stay inside the current choice.
            for (std::size_t j = i + 1; j < entries.size(); ++j) {
                if (passOf(table, entries[j]) != pass)
                    continue;
                if (!inside(*construct, entryName(table, entries[j]), found->entry))
                    break;
                if (auto inner = judge(table, entries[j], tolerance))
                    found = std::move(inner);
            }
            return found;
        }
    }
    return std::nullopt;
}

std::optional<DivergencePoint> firstDivergence(const CompareTable& table, const DivergenceTolerance& tolerance, const std::filesystem::path& npuJson)
{
    auto found = firstDivergence(table, tolerance);
    if (!found || !npuJson.has_parent_path())
        return found;
    const dump::EntryName parsed = dump::parseEntryName(found->entry);
    if (parsed.kind != dump::EntryKind::Module)
        return found;
    try {
        const dump::ConstructInfo construct = dump::readConstructJson(npuJson.parent_path() / "construct.json");
        return firstDivergence(table, tolerance, &construct);
    } catch (const support::Error&) {
        return found; // the compare never needed construct.json: a broken one leaves the dump order
    }
}

std::optional<DivergencePoint> firstNanInf(const CompareTable& table)
{
    if (table.mode == CompareMode::Md5)
        return std::nullopt;
    Cell cell;
    for (const EntryRows& rows : entryRows(table)) {
        bool inputsOk = true;
        std::optional<DivergencePoint> found;
        for (std::size_t r = rows.begin; r < rows.end && inputsOk; ++r) {
            const CompareRow& row = table.rows[r];
            std::string problem;
            for (int k = 0; k < 4 && problem.empty(); ++k)
                if (detail::nonFinite(table.statistic(row, true, k))) {
                    table.cell(r, Column::NpuName, cell);
                    problem = cell.text + ": NPU " + std::string(k == 0 ? "max" : k == 1 ? "min" : k == 2 ? "mean" : "l2norm") + " is "
                        + pyText(table.statistic(row, true, k));
                }
            if (problem.empty())
                continue;
            if (table.npuItem(row).state != ItemState::Output)
                inputsOk = false;
            else if (!found)
                found = DivergencePoint { entryName(table, rows), r, problem, DivergencePoint::Rule::NanInf };
        }
        if (inputsOk && found)
            return found;
    }
    return std::nullopt;
}

} // namespace msprobe::compare
