// SPDX-License-Identifier: Apache-2.0
#include "compare/legacy_result.h"

#include "compare/stats_diff.h"
#include "compare/tensor_metrics_files.h"

#include <cmath>

namespace msprobe::compare {

std::string legacyAccuracy(const PyVal& cosine, const PyVal& maxAbsErr)
{
    if (cosine.isStr("shape unmatched"))
        return "Unmatched";
    if (cosine.isStr(kNoneText) || maxAbsErr.isStr(kNoneText))
        return "None";
    if (cosine.isStr(kNA) || maxAbsErr.isStr(kNA))
        return "No";
    auto asFloat = [](const PyVal& v, double& out) {
        if (v.kind == PyKind::Str)
            return parsePythonFloat(v.s, out);
        out = v.kind == PyKind::Bool ? (v.b ? 1.0 : 0.0) : v.number();
        return true;
    };
    double cos = 0, err = 0;
    if (!asFloat(cosine, cos) || !asFloat(maxAbsErr, err))
        return "None";
    if (cos < 0.99 && err > 0.001)
        return "No";
    if (cos < 0.9 || err > 1)
        return "No";
    return "Yes";
}

void applyLegacyResult(CompareTable& table)
{
    const ItemTable& npuTable = *table.npu.items;
    table.legacyAccuracy.assign(table.rows.size(), {});
    table.legacyMessages.assign(table.rows.size(), {});
    for (std::size_t r = 0; r < table.rows.size(); ++r) {
        CompareRow& row = table.rows[r];
        const Item* bi = table.benchItem(row);
        std::string& message = table.legacyMessages[r];
        if (!bi)
            message += "No bench data matched.";
        const bool consistent = npuTable.fields(table.npuItem(row)).requiresGrad
            == (bi ? table.bench.items->fields(*bi).requiresGrad : kNA);
        if (table.mode == CompareMode::Tensor) {
            const TensorMetrics& m = table.tensorMetrics[row.metrics];
            table.legacyAccuracy[r] = legacyAccuracy(m.cells[0], m.cells[2]);
            if (!consistent)
                message += "Requires_grad inconsistent. ";
            message += m.message;
            for (const TensorFileProblem& problem : m.fileProblems)
                message += " " + tensorFileProblemMessage(problem);
            if (!m.fileProblems.empty())
                row.level = ResultLevel::Error;
        } else if (table.mode == CompareMode::Statistics && bi) {
            bool warn = false;
            for (int k = 0; k < 4; ++k) {
                std::string diff, rel;
                legacyStatisticDiff(table.statistic(row, true, k), table.statistic(row, false, k), diff, rel, warn);
            }
            if (warn) {
                row.level = ResultLevel::Warning;
                message += "Need double check api accuracy. ";
            }
            if (!consistent)
                message += "Requires_grad inconsistent. ";
        }
    }
}

namespace {

bool numberOf(const PyVal& v, double& out)
{
    if (v.kind == PyKind::Int || v.kind == PyKind::Float) {
        out = v.number();
        return std::isfinite(out);
    }
    if (v.kind == PyKind::Str && !v.s.empty() && v.s.back() != '%')
        return parsePythonFloat(v.s, out) && std::isfinite(out);
    return false;
}

bool isNanOrInf(const PyVal& v)
{
    if (v.kind == PyKind::Float)
        return !std::isfinite(v.f);
    if (v.kind != PyKind::Str)
        return false;
    std::string lower(v.s);
    for (char& c : lower)
        c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
    return lower == "nan" || lower == "inf" || lower == "-inf";
}

} // namespace

HighlightResult legacyHighlight(const CompareTable& table)
{
    HighlightResult result;
    const std::size_t n = table.rows.size();
    result.rows.assign(n, Highlight::None);
    result.messages.assign(n, {});
    const bool tensor = table.mode == CompareMode::Tensor;
    auto mark = [&](std::size_t r, Highlight level, std::string_view message) {
        if (level > result.rows[r])
            result.rows[r] = level;
        if (!result.messages[r].empty())
            result.messages[r] += '\n';
        result.messages[r] += message;
    };
    // Per-row values used by the rules.
    struct Values {
        bool output = false;
        bool hasMax = false;
        double maxDiff = 0, thousandth = NAN, cosine = NAN, maxRel = NAN;
    };
    std::vector<Values> values(n);
    Cell cell;
    for (std::size_t r = 0; r < n; ++r) {
        const CompareRow& row = table.rows[r];
        Values& v = values[r];
        v.output = table.npuItem(row).state == ItemState::Output;
        if (isNanOrInf(table.statistic(row, true, 0)) || isNanOrInf(table.statistic(row, true, 1))) {
            mark(r, Highlight::Red, "maximum or minimum is nan, -inf, or inf");
        } else {
            PyVal maxDiff;
            std::string diffText;
            if (tensor) {
                maxDiff = table.tensorMetrics[row.metrics].cells[2];
            } else {
                table.cell(r, Column::MaxDiff, cell);
                diffText = cell.text;
                maxDiff = PyVal::str(diffText);
            }
            double d = 0, npuMax = 0, benchMax = 0;
            v.hasMax = numberOf(maxDiff, d) && numberOf(table.statistic(row, true, 0), npuMax)
                && numberOf(table.statistic(row, false, 0), benchMax);
            v.maxDiff = d;
            if (numberOf(maxDiff, d) && std::fabs(d) > 1e10)
                mark(r, Highlight::Red, "maximum absolute error exceeds 1e+10");
        }
        table.cell(r, Column::RequiresGradConsistent, cell);
        if (!cell.b)
            mark(r, Highlight::Yellow, "requires_grad is inconsistent");
        if (tensor) {
            const auto& m = table.tensorMetrics[row.metrics];
            numberOf(m.cells[4], v.thousandth);
            numberOf(m.cells[0], v.cosine);
        } else if (table.mode == CompareMode::Statistics) {
            table.cell(r, Column::MaxRelativeErr, cell);
            if (!cell.text.empty() && cell.text.back() == '%')
                v.maxRel = percentToFraction(cell.text);
        }
    }
    std::size_t start = 0;
    while (start < n) {
        const std::uint32_t entry = table.npuItem(table.rows[start]).entry;
        std::size_t end = start;
        while (end < n && table.npuItem(table.rows[end]).entry == entry)
            ++end;
        for (std::size_t o = start; o < end; ++o) {
            if (!values[o].output || result.rows[o] == Highlight::Red || !values[o].hasMax)
                continue;
            for (std::size_t i = start; i < end; ++i) {
                if (values[i].output || !values[i].hasMax)
                    continue;
                const double in = std::fabs(values[i].maxDiff), out = std::fabs(values[o].maxDiff);
                if (in > 1 && out > 1 && in <= out && std::log10(out) - std::log10(in) >= 1)
                    mark(o, Highlight::Yellow, "maximum absolute error of both input/parameters and output exceed 1, "
                                               "with the output larger by an order of magnitude");
                if (tensor) {
                    if (values[i].thousandth > 0.9 && values[o].thousandth < 0.6)
                        mark(o, Highlight::Red, "The input/parameter's one thousandth err ratio exceeds 0.9, while the output's is below 0.6");
                    else if (values[i].thousandth - values[o].thousandth > 0.1)
                        mark(o, Highlight::Yellow, "The output's one thousandth err ratio decreases by more than 0.1 compared to the input/parameter's");
                    if (values[i].cosine - values[o].cosine > 0.1)
                        mark(o, Highlight::Yellow, "The output's cosine decreases by more than 0.1 compared to the input/parameter's");
                } else {
                    if (values[o].maxRel > 0.5)
                        mark(o, Highlight::Red, "maximum relative error exceeds 0.5");
                    else if (values[o].maxRel > 0.1 && values[i].maxRel < 0.01)
                        mark(o, Highlight::Yellow, "The output's maximum relative error exceeds 0.1, while the input/parameter's is below 0.01");
                }
            }
        }
        start = end;
    }
    return result;
}

} // namespace msprobe::compare
