// SPDX-License-Identifier: Apache-2.0
#include "compare/divergence.h"

#include "compare/stats_diff.h"

#include <cmath>

namespace msprobe {

namespace {

bool nonFinite(const PyVal& v)
{
    if (v.kind == PyKind::Float)
        return !std::isfinite(v.f);
    if (v.kind != PyKind::Str)
        return false;
    const StatClass c = classifyStat(v);
    return c == StatClass::Nan || c == StatClass::Inf || c == StatClass::NegInf;
}

// Why a row is out of tolerance, or empty.
std::string rowProblem(const CompareTable& table, std::size_t r, const DivergenceTolerance& tolerance, Cell& cell)
{
    const CompareRow& row = table.rows[r];
    if (row.bench == kUnmatched)
        return {};
    table.cell(r, Column::NpuName, cell);
    const std::string name = cell.text;
    if (row.messages & kMsgParameters)
        return name + ": scalar argument differs";
    switch (table.mode) {
    case CompareMode::Md5: {
        Cell bench;
        table.cell(r, Column::NpuMd5, cell);
        table.cell(r, Column::BenchMd5, bench);
        if (cell.text != bench.text)
            return name + ": CRC-32 " + cell.text + " vs " + bench.text;
        return {};
    }
    case CompareMode::Statistics: {
        bool npuBad = false, benchBad = false;
        for (int k = 0; k < 4; ++k) {
            npuBad |= nonFinite(table.statistic(row, true, k));
            benchBad |= nonFinite(table.statistic(row, false, k));
        }
        if (npuBad && !benchBad)
            return name + ": NaN/Inf on the NPU side only";
        static constexpr Column rel[] = { Column::MaxRelativeErr, Column::MinRelativeErr, Column::MeanRelativeErr, Column::NormRelativeErr };
        for (Column c : rel) {
            table.cell(r, c, cell);
            if (cell.text.empty() || cell.text.back() != '%')
                continue;
            const double fraction = percentToFraction(cell.text);
            if (std::fabs(fraction) > tolerance.relative)
                return name + ": " + std::string(columnTitle(c)) + " " + cell.text + " > " + pyText(PyVal::real(tolerance.relative * 100)) + "%";
        }
        return {};
    }
    case CompareMode::Tensor: {
        const PyVal cosine = table.tensorMetrics[row.metrics].cells[0];
        if (cosine.isStr(kNA))
            return name + ": NaN/Inf positions differ";
        if (cosine.kind == PyKind::Float && cosine.f < tolerance.cosine)
            return name + ": Cosine " + pyText(cosine) + " < " + pyText(PyVal::real(tolerance.cosine));
        return {};
    }
    }
    return {};
}

template <typename RowTest>
std::optional<DivergencePoint> firstEntry(const CompareTable& table, RowTest test)
{
    std::size_t start = 0;
    while (start < table.rows.size()) {
        const std::uint32_t entry = table.npuItem(table.rows[start]).entry;
        std::size_t end = start;
        while (end < table.rows.size() && table.npuItem(table.rows[end]).entry == entry)
            ++end;
        bool inputsOk = true;
        std::optional<DivergencePoint> found;
        for (std::size_t r = start; r < end && inputsOk; ++r) {
            const bool output = table.npuItem(table.rows[r]).state == ItemState::Output;
            std::string problem = test(r);
            if (problem.empty())
                continue;
            if (!output)
                inputsOk = false;
            else if (!found)
                found = DivergencePoint { std::string(table.apiOriginName(table.rows[r])), r, problem };
        }
        if (inputsOk && found)
            return found;
        start = end;
    }
    return std::nullopt;
}

} // namespace

std::optional<DivergencePoint> firstDivergence(const CompareTable& table, const DivergenceTolerance& tolerance)
{
    Cell cell;
    return firstEntry(table, [&](std::size_t r) { return rowProblem(table, r, tolerance, cell); });
}

std::optional<DivergencePoint> firstNanInf(const CompareTable& table)
{
    if (table.mode == CompareMode::Md5)
        return std::nullopt;
    Cell cell;
    return firstEntry(table, [&](std::size_t r) -> std::string {
        const CompareRow& row = table.rows[r];
        for (int k = 0; k < 4; ++k)
            if (nonFinite(table.statistic(row, true, k))) {
                table.cell(r, Column::NpuName, cell);
                return cell.text + ": NPU " + std::string(k == 0 ? "max" : k == 1 ? "min" : k == 2 ? "mean" : "l2norm") + " is "
                    + pyText(table.statistic(row, true, k));
            }
        return {};
    });
}

} // namespace msprobe
