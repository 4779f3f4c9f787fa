// SPDX-License-Identifier: Apache-2.0
#include "compare/divergence_checks.h"

#include "compare/stats_diff.h"
#include "support/python_text.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <limits>

namespace msprobe::compare::detail {

namespace {

bool allDigits(std::string_view text)
{
    return !text.empty() && std::all_of(text.begin(), text.end(), [](unsigned char c) { return std::isdigit(c) != 0; });
}

std::string_view lastSegment(std::string_view name)
{
    const std::size_t dot = name.rfind('.');
    return dot == std::string_view::npos ? name : name.substr(dot + 1);
}

std::string_view firstSegment(std::string_view name)
{
    return name.substr(0, name.find('.'));
}

// "npu:0", "cuda", "cpu", "xpu:3": a torch device string.
bool isDeviceString(std::string_view text)
{
    static constexpr std::string_view kDevices[] = { "cpu", "cuda", "npu", "xpu", "mps", "hpu", "mlu", "musa", "meta", "xla",
        "privateuseone" };
    const std::size_t colon = text.find(':');
    const std::string_view type = text.substr(0, colon);
    if (std::find(std::begin(kDevices), std::end(kDevices), type) == std::end(kDevices))
        return false;
    return colon == std::string_view::npos || allDigits(text.substr(colon + 1));
}

const dump::ValueNode* nodeOf(const ItemTable& items, const Item& item)
{
    return item.node == kNullNode ? nullptr : &items.dump().nodes[item.node];
}

double finiteMagnitude(const PyVal& v)
{
    return v.isNumber() && std::isfinite(v.number()) ? std::fabs(v.number()) : 0.0;
}

std::string shortNumber(double value)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.3g", value);
    return text;
}

// Max/Min/Mean each against the tensor's magnitude, max(|Max|, |Min|) over both sides, Norm against the larger
// Norm: scaling by the statistic itself would flag every near-zero Mean (a LayerNorm gradient's Mean of 1e-9
// moving to 2e-9 is a 100% change of nothing).
std::string statisticsProblem(const CompareTable& table, const CompareRow& row, double relative)
{
    PyVal npu[4], bench[4];
    table.statistics(row, true, npu);
    table.statistics(row, false, bench);
    bool npuBad = false, benchBad = false;
    for (int k = 0; k < 4; ++k) {
        npuBad |= nonFinite(npu[k]);
        benchBad |= nonFinite(bench[k]);
    }
    if (npuBad && !benchBad)
        return "has NaN/Inf on the NPU side only";
    const double range = std::max({ finiteMagnitude(npu[0]), finiteMagnitude(npu[1]), finiteMagnitude(bench[0]), finiteMagnitude(bench[1]) });
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
        return std::string(kNames[k]) + " relative error " + shortNumber(share) + " > " + shortNumber(relative) + " (" + pyText(npu[k])
            + " vs " + pyText(bench[k]) + (k == 3 ? ", of the Norm)" : ", of max(|Max|, |Min|))");
    }
    return {};
}

std::string tensorModeProblem(const CompareTable& table, const CompareRow& row, const DivergenceTolerance& tolerance)
{
    const TensorMetrics& m = table.tensorMetrics[row.metrics];
    const PyVal& cosine = m.cells[0];
    if (cosine.isStr(kNA) && m.message.find("inf or nan") != std::string::npos)
        return "NaN/Inf positions differ";
    if (cosine.kind == PyKind::Float)
        return cosine.f < tolerance.cosine ? "Cosine " + pyText(cosine) + " < " + pyText(PyVal::real(tolerance.cosine)) : std::string();
    // 0-d and one-element tensors have no cosine: their largest relative error decides.
    const PyVal& relative = m.cells[3];
    if (relative.kind == PyKind::Float && relative.f > tolerance.relative)
        return "Max relative error " + shortNumber(relative.f) + " > " + shortNumber(tolerance.relative);
    return {};
}

bool numberOf(const ItemTable& items, const Item& item, double& out)
{
    const dump::ValueNode* v = nodeOf(items, item);
    if (!v || v->kind != dump::NodeKind::Scalar)
        return false;
    const auto& s = items.dump().scalars;
    const dump::ScalarValueKind kind = s.valueKind[v->payload];
    if (kind != dump::ScalarValueKind::Int && kind != dump::ScalarValueKind::Float)
        return false;
    out = s.number[v->payload].asDouble();
    return true;
}

} // namespace

bool nonFinite(const PyVal& v)
{
    if (v.kind == PyKind::Float)
        return !std::isfinite(v.f);
    if (v.kind != PyKind::Str)
        return false;
    const StatClass c = classifyStat(v);
    return c == StatClass::Nan || c == StatClass::Inf || c == StatClass::NegInf;
}

Role roleOf(const Item& item)
{
    switch (item.state) {
    case ItemState::Input:
    case ItemState::Parameters: return Role::Input;
    case ItemState::Output:
    case ItemState::ParametersGrad: return Role::Output;
    case ItemState::Debug: break;
    }
    return Role::Ignored;
}

bool isTensor(const ItemTable& items, const Item& item)
{
    const dump::ValueNode* v = nodeOf(items, item);
    return v && v->kind == dump::NodeKind::Tensor;
}

std::string itemLabel(const ItemTable& items, const Item& item)
{
    const std::string name = items.name(item);
    const std::string_view entry = items.entryName(item);
    std::string_view rest = name;
    if (rest.size() > entry.size() && rest.starts_with(entry) && rest[entry.size()] == '.')
        rest.remove_prefix(entry.size() + 1);
    const std::string_view head = firstSegment(rest);
    const std::string_view tail = head.size() < rest.size() ? rest.substr(head.size() + 1) : std::string_view();
    const bool backward = items.entries()[item.entry].kind == CallKind::Backward;
    if (head == "input" && !tail.empty())
        return std::string(allDigits(firstSegment(tail)) ? (backward ? "input " : "argument ") : "kwarg ") + std::string(tail);
    if (head == "kwargs" && !tail.empty())
        return "kwarg " + std::string(tail);
    if (head == "output" && !tail.empty())
        return "output " + std::string(tail);
    if (head == "parameters" && !tail.empty())
        return "parameter " + std::string(tail);
    if (item.state == ItemState::ParametersGrad)
        return "gradient of " + std::string(rest);
    return std::string(rest);
}

std::string valueText(const ItemTable& items, const Item& item)
{
    const dump::ValueNode* v = nodeOf(items, item);
    if (!v || v->kind == dump::NodeKind::Null)
        return "None";
    const dump::DumpFile& dump = items.dump();
    if (v->kind == dump::NodeKind::Tensor)
        return "a tensor";
    const auto& s = dump.scalars;
    const std::string_view type = dump.text(s.type[v->payload]);
    const std::string_view text = dump.text(s.text[v->payload]);
    switch (s.valueKind[v->payload]) {
    case dump::ScalarValueKind::String: return type == "str" ? support::pythonStringRepr(text) : std::string(text);
    case dump::ScalarValueKind::Missing: {
        std::string out = std::string(type) + "(";
        bool first = true;
        for (const dump::LeafExtra& extra : dump.extrasOf(s.extras[v->payload])) {
            out += first ? "" : ", ";
            out += std::string(dump.text(extra.key)) + "=" + std::string(dump.text(extra.text));
            first = false;
        }
        return out + ")";
    }
    default: return std::string(text);
    }
}

bool namesPlacement(const ItemTable& items, const Item& item)
{
    const std::string_view key = lastSegment(items.suffix(item));
    if (key == "device" || key == "group" || key == "process_group" || key == "pg" || key == "stream")
        return true;
    const dump::ValueNode* v = nodeOf(items, item);
    if (!v || v->kind != dump::NodeKind::Scalar)
        return false;
    const dump::DumpFile& dump = items.dump();
    const std::string_view type = dump.text(dump.scalars.type[v->payload]);
    if (type.find("device") != std::string_view::npos || type.find("ProcessGroup") != std::string_view::npos
        || type.find("Stream") != std::string_view::npos || type.find("stream") != std::string_view::npos)
        return true;
    return dump.scalars.valueKind[v->payload] == dump::ScalarValueKind::String && isDeviceString(dump.text(dump.scalars.text[v->payload]));
}

bool valuesDiffer(const ItemTable& npuItems, const Item& npu, const ItemTable& benchItems, const Item& bench)
{
    if (namesPlacement(npuItems, npu) && namesPlacement(benchItems, bench))
        return false;
    const dump::ValueNode* a = nodeOf(npuItems, npu);
    const dump::ValueNode* b = nodeOf(benchItems, bench);
    const bool aNull = !a || a->kind == dump::NodeKind::Null, bNull = !b || b->kind == dump::NodeKind::Null;
    if (aNull || bNull)
        return aNull != bNull;
    if (a->kind != b->kind)
        return true;
    const dump::DumpFile& da = npuItems.dump();
    const dump::DumpFile& db = benchItems.dump();
    const auto& sa = da.scalars;
    const auto& sb = db.scalars;
    if (da.text(sa.type[a->payload]) != db.text(sb.type[b->payload]) || sa.valueKind[a->payload] != sb.valueKind[b->payload]
        || da.text(sa.text[a->payload]) != db.text(sb.text[b->payload]))
        return true;
    const auto ea = da.extrasOf(sa.extras[a->payload]);
    const auto eb = db.extrasOf(sb.extras[b->payload]);
    auto relevant = [](const dump::DumpFile& d, const dump::LeafExtra& e) { return d.text(e.key) != "data_name"; };
    std::vector<std::pair<std::string_view, std::string_view>> left, right;
    for (const dump::LeafExtra& e : ea)
        if (relevant(da, e))
            left.emplace_back(da.text(e.key), da.text(e.text));
    for (const dump::LeafExtra& e : eb)
        if (relevant(db, e))
            right.emplace_back(db.text(e.key), db.text(e.text));
    return left != right;
}

std::string tensorProblem(const CompareTable& table, const CompareRow& row, const DivergenceTolerance& tolerance)
{
    const Item& npu = table.npuItem(row);
    const Item* bench = table.benchItem(row);
    if (!bench)
        return {};
    const ItemTable& a = *table.npu.items;
    const ItemTable& b = *table.bench.items;
    if (!isTensor(a, npu) || !isTensor(b, *bench))
        return isTensor(a, npu) == isTensor(b, *bench) ? std::string() : valueText(a, npu) + " vs " + valueText(b, *bench);
    const dump::TensorTable& ta = a.dump().tensors;
    const dump::TensorTable& tb = b.dump().tensors;
    const std::uint32_t ra = a.dump().nodes[npu.node].payload, rb = b.dump().nodes[bench->node].payload;
    if (!std::ranges::equal(ta.shape(ra), tb.shape(rb))) {
        std::string text = "shape ";
        appendShapeText(text, ta.shape(ra));
        text += " vs ";
        appendShapeText(text, tb.shape(rb));
        return text;
    }
    switch (table.mode) {
    case CompareMode::Md5: {
        const std::string_view x = a.dump().text(ta.md5[ra]), y = b.dump().text(tb.md5[rb]);
        return !x.empty() && !y.empty() && x != y ? "CRC-32 " + std::string(x) + " vs " + std::string(y) : std::string();
    }
    case CompareMode::Statistics: return statisticsProblem(table, row, tolerance.relative);
    case CompareMode::Tensor: return tensorModeProblem(table, row, tolerance);
    }
    return {};
}

std::string valueProblem(const CompareTable& table, const CompareRow& row, const DivergenceTolerance& tolerance)
{
    const Item& npu = table.npuItem(row);
    const Item* bench = table.benchItem(row);
    if (!bench)
        return {};
    const ItemTable& a = *table.npu.items;
    const ItemTable& b = *table.bench.items;
    double x = 0, y = 0;
    if (numberOf(a, npu, x) && numberOf(b, *bench, y)) {
        if (x == y || std::fabs(x - y) <= tolerance.relative * std::max(std::fabs(x), std::fabs(y)))
            return {};
        return valueText(a, npu) + " vs " + valueText(b, *bench);
    }
    if (isTensor(a, npu) != isTensor(b, *bench) || valuesDiffer(a, npu, b, *bench))
        return valueText(a, npu) + " vs " + valueText(b, *bench);
    return {};
}

} // namespace msprobe::compare::detail
