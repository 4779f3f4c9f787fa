// SPDX-License-Identifier: Apache-2.0
#include "compare/divergence.h"

#include "compare/stats_diff.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

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

// The statistics test: each of Max/Min/Mean/Norm may differ by at most `relative` of the tensor's magnitude,
// max(|Max|, |Min|) over both sides (for Norm: of the larger Norm). Scaling by the statistic itself would flag
// every near-zero Mean (a LayerNorm gradient's Mean of 1e-9 moving to 2e-9 is a 100% change of nothing).
std::string statisticsReason(const CompareTable& table, const CompareRow& row, double relative)
{
    PyVal npu[4], bench[4];
    for (int k = 0; k < 4; ++k) {
        npu[k] = table.statistic(row, true, k);
        bench[k] = table.statistic(row, false, k);
    }
    auto magnitude = [](const PyVal& v) { return v.isNumber() && std::isfinite(v.number()) ? std::fabs(v.number()) : 0.0; };
    const double range = std::max({ magnitude(npu[0]), magnitude(npu[1]), magnitude(bench[0]), magnitude(bench[1]) });
    static constexpr const char* kNames[] = { "Max", "Min", "Mean", "Norm" };
    for (int k = 0; k < 4; ++k) {
        if (!npu[k].isNumber() || !bench[k].isNumber())
            continue;
        const double a = npu[k].number(), b = bench[k].number();
        if (!std::isfinite(a) || !std::isfinite(b))
            continue;
        const double scale = k == 3 ? std::max(std::fabs(a), std::fabs(b)) : range;
        const double diff = std::fabs(a - b);
        if (diff == 0 || diff <= relative * scale)
            continue;
        const double share = scale > 0 ? diff / scale : std::numeric_limits<double>::infinity();
        char percent[64];
        std::snprintf(percent, sizeof percent, "%.3g%% of %s > %.3g%%", share * 100, k == 3 ? "the Norm" : "max(|Max|, |Min|)",
            relative * 100);
        return std::string(kNames[k]) + " " + pyText(npu[k]) + " vs " + pyText(bench[k]) + ", off by " + percent;
    }
    return {};
}

// Why a row is out of tolerance (without the row's name), or empty.
std::string rowReason(const CompareTable& table, const CompareRow& row, const DivergenceTolerance& tolerance)
{
    if (row.bench == kUnmatched)
        return {};
    if (row.messages & kMsgParameters)
        return "scalar argument differs";
    switch (table.mode) {
    case CompareMode::Md5: {
        const std::string npuMd5 = table.npu.items->fields(table.npuItem(row)).md5;
        const std::string benchMd5 = table.bench.items->fields(*table.benchItem(row)).md5;
        if (npuMd5 != benchMd5)
            return "CRC-32 " + npuMd5 + " vs " + benchMd5;
        return {};
    }
    case CompareMode::Statistics: {
        bool npuBad = false, benchBad = false;
        for (int k = 0; k < 4; ++k) {
            npuBad |= nonFinite(table.statistic(row, true, k));
            benchBad |= nonFinite(table.statistic(row, false, k));
        }
        if (npuBad && !benchBad)
            return "NaN/Inf on the NPU side only";
        return statisticsReason(table, row, tolerance.relative);
    }
    case CompareMode::Tensor: {
        const PyVal cosine = table.tensorMetrics[row.metrics].cells[0];
        if (cosine.isStr(kNA))
            return "NaN/Inf positions differ";
        if (cosine.kind == PyKind::Float && cosine.f < tolerance.cosine)
            return "Cosine " + pyText(cosine) + " < " + pyText(PyVal::real(tolerance.cosine));
        return {};
    }
    }
    return {};
}

std::string rowProblem(const CompareTable& table, std::size_t r, const DivergenceTolerance& tolerance)
{
    std::string reason = rowReason(table, table.rows[r], tolerance);
    if (reason.empty())
        return reason;
    std::string line;
    table.npu.items->appendName(line, table.npuItem(table.rows[r]));
    return line + ": " + reason;
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
    return firstEntry(table, [&](std::size_t r) { return rowProblem(table, r, tolerance); });
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
