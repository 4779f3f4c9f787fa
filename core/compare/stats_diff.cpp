// SPDX-License-Identifier: Apache-2.0
#include "compare/stats_diff.h"

#include <algorithm>
#include <charconv>
#include <cmath>

namespace msprobe::compare {

namespace {

bool lowerEquals(std::string_view text, std::string_view lower)
{
    if (text.size() != lower.size())
        return false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        char c = text[i];
        if (c >= 'A' && c <= 'Z')
            c = static_cast<char>(c - 'A' + 'a');
        if (c != lower[i])
            return false;
    }
    return true;
}

bool containsDevice(std::string_view text)
{
    for (std::size_t i = 0; i < text.size(); ++i) {
        auto at = [&](std::size_t k) {
            char c = text[k];
            return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
        };
        if (i + 3 <= text.size() && ((at(i) == 'n' && at(i + 1) == 'p' && at(i + 2) == 'u') || (at(i) == 'c' && at(i + 1) == 'p' && at(i + 2) == 'u')))
            return true;
        if (i + 4 <= text.size() && at(i) == 'c' && at(i + 1) == 'u' && at(i + 2) == 'd' && at(i + 3) == 'a')
            return true;
    }
    return false;
}

// The number pandas reads from str(cell).
double numberOf(const PyVal& value)
{
    switch (value.kind) {
    case PyKind::Int: return static_cast<double>(value.i);
    case PyKind::Float: return pandasReparse(value.f);
    case PyKind::Bool: return value.b ? 1.0 : 0.0;
    case PyKind::Str: break;
    }
    double d = NAN;
    bool isInt = false;
    std::int64_t i = 0;
    parsePandasNumber(value.s, d, isInt, i);
    return d;
}

std::int64_t integerOf(const PyVal& value)
{
    if (value.kind == PyKind::Int)
        return value.i;
    double d = NAN;
    bool isInt = false;
    std::int64_t i = 0;
    parsePandasNumber(value.s, d, isInt, i);
    return i;
}

void percentOf(std::string& rel, double ratio)
{
    support::appendPythonFloatRepr(rel, std::fabs(ratio));
    rel += '%';
}

} // namespace

StatClass classifyStat(const PyVal& value)
{
    switch (value.kind) {
    case PyKind::Float:
        if (std::isnan(value.f))
            return StatClass::Nan;
        if (std::isinf(value.f))
            return value.f > 0 ? StatClass::Inf : StatClass::NegInf;
        return StatClass::Num;
    case PyKind::Int: return StatClass::Num;
    case PyKind::Bool: return StatClass::Other;
    case PyKind::Str: break;
    }
    const std::string_view s = value.s;
    if (lowerEquals(s, "nan"))
        return StatClass::Nan;
    if (lowerEquals(s, "inf"))
        return StatClass::Inf;
    if (lowerEquals(s, "-inf"))
        return StatClass::NegInf;
    double d = 0;
    bool isInt = false;
    std::int64_t i = 0;
    if (!lowerEquals(s, "true") && !lowerEquals(s, "false") && parsePandasNumber(s, d, isInt, i))
        return StatClass::Num;
    if (containsDevice(s))
        return StatClass::Device;
    if (s == kNA)
        return StatClass::NA;
    return StatClass::Other;
}

bool isIntegerCell(const PyVal& value)
{
    if (value.kind == PyKind::Int)
        return true;
    if (value.kind != PyKind::Str)
        return false;
    double d = 0;
    bool isInt = false;
    std::int64_t i = 0;
    return parsePandasNumber(value.s, d, isInt, i) && isInt;
}

namespace {

// reparsed: pandasReparse of the two values when the caller has them (Float values), or nullptr.
void statisticDiffImpl(const PyVal& npu, const PyVal& bench, bool npuIntColumn, bool benchIntColumn, const double* reparsed,
    std::string& diff, std::string& rel)
{
    diff.clear();
    rel.clear();
    if (pyTextEquals(npu, bench)) {
        diff = "0";
        rel = "0";
        return;
    }
    const StatClass a = classifyStat(npu);
    const StatClass b = classifyStat(bench);
    auto both = [&](std::string_view text) {
        diff = text;
        rel = text;
    };
    if (a == StatClass::NA || b == StatClass::NA)
        return both(kNA);
    if (a == StatClass::Num && b == StatClass::Num) {
        if (npuIntColumn && benchIntColumn) {
            const std::int64_t x = integerOf(npu), y = integerOf(bench);
            const std::int64_t d = static_cast<std::int64_t>(static_cast<std::uint64_t>(x) - static_cast<std::uint64_t>(y));
            char buf[24];
            auto r = std::to_chars(buf, buf + sizeof buf, d);
            diff.assign(buf, r.ptr);
            if (y == 0)
                rel = "inf";
            else
                percentOf(rel, static_cast<double>(d) / static_cast<double>(y) * 100);
            return;
        }
        const double x = npuIntColumn ? static_cast<double>(integerOf(npu))
            : reparsed && npu.kind == PyKind::Float ? reparsed[0] : numberOf(npu);
        const double y = benchIntColumn ? static_cast<double>(integerOf(bench))
            : reparsed && bench.kind == PyKind::Float ? reparsed[1] : numberOf(bench);
        const double d = x - y;
        support::appendPythonFloatRepr(diff, d);
        if (y == 0)
            rel = "inf";
        else
            percentOf(rel, d / y * 100);
        return;
    }
    const bool aNumeric = a == StatClass::Num || a == StatClass::Nan || a == StatClass::Inf || a == StatClass::NegInf;
    const bool bNumeric = b == StatClass::Num || b == StatClass::Nan || b == StatClass::Inf || b == StatClass::NegInf;
    if ((a == StatClass::Nan && bNumeric) || (b == StatClass::Nan && aNumeric))
        return both(kNanText);
    if (a == StatClass::Inf && (b == StatClass::Num || b == StatClass::NegInf))
        return both("inf");
    if (a == StatClass::NegInf && (b == StatClass::Num || b == StatClass::Inf))
        return both("-inf");
    if (a == StatClass::Num && b == StatClass::Inf)
        return both("-inf");
    if (a == StatClass::Num && b == StatClass::NegInf)
        return both("inf");
    if (a == StatClass::Device && b == StatClass::Device)
        return both(kNA);
    if (a == StatClass::Device || a == StatClass::Other || b == StatClass::Device || b == StatClass::Other)
        return both("Diff");
    both(kNA); // INF vs INF etc. never reach here (equal texts); anything else is the default rule
}

} // namespace

void statisticDiff(const PyVal& npu, const PyVal& bench, bool npuIntColumn, bool benchIntColumn, std::string& diff, std::string& rel)
{
    statisticDiffImpl(npu, bench, npuIntColumn, benchIntColumn, nullptr, diff, rel);
}

void statisticDiff(const PyVal& npu, const PyVal& bench, bool npuIntColumn, bool benchIntColumn, double npuReparsed,
    double benchReparsed, std::string& diff, std::string& rel)
{
    const double reparsed[2] = { npuReparsed, benchReparsed };
    statisticDiffImpl(npu, bench, npuIntColumn, benchIntColumn, reparsed, diff, rel);
}

void legacyStatisticDiff(const PyVal& npu, const PyVal& bench, std::string& diff, std::string& rel, bool& warn)
{
    diff.clear();
    rel.clear();
    const bool numeric = (npu.kind == PyKind::Int || npu.kind == PyKind::Float) && (bench.kind == PyKind::Int || bench.kind == PyKind::Float);
    if (!numeric) {
        diff = kNA;
        rel = kNA;
        return;
    }
    const double x = npu.number(), y = bench.number();
    const double d = x - y;
    if (std::isnan(d)) {
        diff = kNanText;
        rel = kNanText;
        return;
    }
    if (npu.kind == PyKind::Int && bench.kind == PyKind::Int) {
        char buf[24];
        auto r = std::to_chars(buf, buf + sizeof buf, npu.i - bench.i);
        diff.assign(buf, r.ptr);
    } else {
        support::appendPythonFloatRepr(diff, d);
    }
    if (y != 0)
        percentOf(rel, d / y * 100);
    else
        rel = kNA;
    if (std::fabs(d) / (std::max(std::fabs(x), std::fabs(y)) + 1e-10) > 0.5)
        warn = true;
}

} // namespace msprobe::compare
