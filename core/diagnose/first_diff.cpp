// SPDX-License-Identifier: Apache-2.0
#include "diagnose/first_diff.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>

namespace msprobe::diagnose {

namespace {

bool hasForwardBackwardInfix(std::string_view name)
{
    return name.find(".forward.") != std::string_view::npos || name.find(".backward.") != std::string_view::npos;
}
} // namespace

void appendJsonNewline(std::string& out, int indent, int depth)
{
    out += '\n';
    out.append(static_cast<std::size_t>(indent * depth), ' ');
}

void appendJsonCell(std::string& out, const compare::Cell& cell, int indent, int depth)
{
    switch (cell.kind) {
    case compare::Cell::Kind::Str: support::appendJsonString(out, cell.text); return;
    case compare::Cell::Kind::Int: out += std::to_string(cell.i); return;
    case compare::Cell::Kind::Float:
        if (std::isnan(cell.f))
            out += "NaN";
        else if (std::isinf(cell.f))
            out += cell.f > 0 ? "Infinity" : "-Infinity";
        else
            support::appendPythonFloatRepr(out, cell.f);
        return;
    case compare::Cell::Kind::Bool: out += cell.b ? "true" : "false"; return;
    case compare::Cell::Kind::Missing: out += "NaN"; return;
    case compare::Cell::Kind::List: {
        if (!cell.list || cell.list->empty()) {
            out += "[]";
            return;
        }
        out += '[';
        for (std::size_t i = 0; i < cell.list->size(); ++i) {
            appendJsonNewline(out, indent, depth + 1);
            support::appendJsonString(out, (*cell.list)[i]);
            if (i + 1 < cell.list->size())
                out += ',';
        }
        appendJsonNewline(out, indent, depth);
        out += ']';
        return;
    }
    }
}

std::vector<ApiCheck> firstDiffChecks(const compare::CompareTable& table)
{
    // gen_api_batches: consecutive rows of one entry; a name without ".forward."/".backward." joins the batch
    // before it when it is a substring of that batch's name.
    struct Batch {
        std::string name;
        std::size_t begin, end;
    };
    std::vector<Batch> batches;
    for (std::size_t r = 0; r < table.rows.size(); ++r) {
        const std::string_view name = table.apiOriginName(table.rows[r]);
        if (!batches.empty()
            && (batches.back().name == name || (!hasForwardBackwardInfix(name) && batches.back().name.find(name) != std::string::npos))) {
            batches.back().end = r + 1;
            continue;
        }
        batches.push_back({ std::string(name), r, r + 1 });
    }
    static const std::map<std::string_view, std::vector<int>> ignoredOutputs = { { "npu_fusion_attention", { 4, 5 } } };
    std::vector<ApiCheck> checks;
    compare::Cell cell;
    for (const Batch& batch : batches) {
        const auto parts = support::pythonSplit(batch.name, '.');
        if (parts.size() < 4)
            continue;
        const std::string_view api = parts[parts.size() - 3];
        auto ignored = ignoredOutputs.find(api);
        ApiCheck check { batch.name, true, batch.begin, batch.end };
        int outputIndex = -1;
        for (std::size_t r = batch.begin; r < batch.end; ++r) {
            if (table.npuItem(table.rows[r]).state != compare::ItemState::Output)
                continue;
            ++outputIndex;
            if (ignored != ignoredOutputs.end()
                && std::find(ignored->second.begin(), ignored->second.end(), outputIndex) != ignored->second.end())
                continue;
            if (table.mode == compare::CompareMode::Md5) {
                table.cell(r, compare::Column::Result, cell);
                if (cell.text == "Different")
                    check.isSame = false;
            } else {
                for (compare::Column c : { compare::Column::MaxRelativeErr, compare::Column::MinRelativeErr, compare::Column::MeanRelativeErr, compare::Column::NormRelativeErr }) {
                    table.cell(r, c, cell);
                    if (!cell.text.empty() && cell.text.back() == '%') {
                        double value = 0;
                        if (compare::parsePythonFloat(std::string_view(cell.text).substr(0, cell.text.size() - 1), value) && value / 100 > 0.5) {
                            check.isSame = false;
                            break;
                        }
                    }
                }
            }
        }
        // A later batch of the same name replaces the earlier one's value but keeps its place (a dict).
        auto same = std::find_if(checks.begin(), checks.end(), [&](const ApiCheck& c) { return c.name == check.name; });
        if (same != checks.end())
            *same = check;
        else
            checks.push_back(check);
    }
    return checks;
}

std::string firstDiffCompareJson(const compare::CompareTable& table, const std::vector<ApiCheck>& checks)
{
    if (checks.empty())
        return "{}";
    const auto columns = table.columns();
    std::string out = "{";
    compare::Cell cell;
    for (std::size_t i = 0; i < checks.size(); ++i) {
        const ApiCheck& check = checks[i];
        appendJsonNewline(out, 4, 1);
        support::appendJsonString(out, check.name);
        out += ": {";
        appendJsonNewline(out, 4, 2);
        out += "\"is_same\": ";
        out += check.isSame ? "true" : "false";
        out += ',';
        appendJsonNewline(out, 4, 2);
        out += "\"op_items\": ";
        if (check.rowBegin == check.rowEnd) {
            out += "[]";
        } else {
            out += '[';
            for (std::size_t r = check.rowBegin; r < check.rowEnd; ++r) {
                appendJsonNewline(out, 4, 3);
                out += '{';
                for (std::size_t c = 0; c < columns.size(); ++c) {
                    appendJsonNewline(out, 4, 4);
                    support::appendJsonString(out, compare::columnTitle(columns[c]));
                    out += ": ";
                    table.cell(r, columns[c], cell);
                    appendJsonCell(out, cell, 4, 4);
                    if (c + 1 < columns.size())
                        out += ',';
                }
                appendJsonNewline(out, 4, 3);
                out += '}';
                if (r + 1 < check.rowEnd)
                    out += ',';
            }
            appendJsonNewline(out, 4, 2);
            out += ']';
        }
        appendJsonNewline(out, 4, 1);
        out += '}';
        if (i + 1 < checks.size())
            out += ',';
    }
    out += "\n}";
    return out;
}

} // namespace msprobe::diagnose
