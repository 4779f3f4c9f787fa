// SPDX-License-Identifier: Apache-2.0
#include "compare/result_rules.h"

#include "compare/consistent_match.h"

#include <algorithm>
#include <cmath>
#include <functional>

namespace msprobe::compare {

std::string_view toString(ResultLevel level)
{
    switch (level) {
    case ResultLevel::Pass: return "pass";
    case ResultLevel::Warning: return "warning";
    case ResultLevel::Error: return "error";
    }
    return "pass";
}

std::string_view ruleMessageText(RuleMessage message)
{
    switch (message) {
    case kMsgInfNan: return "error: There is nan/inf/-inf in the maximum or minimum value of NPU.";
    case kMsgRelativeErr: return "error: The NormRelativeErr of output is greater than 0.5.";
    case kMsgOneThousandth: return "error: The input/parameters of One Thousandth Err Ratio > 0.9 while the output < 0.6.";
    case kMsgRequiresGrad: return "error: The Required_Grad of NPU and Bench are inconsistent";
    case kMsgParameters: return "error: The scalar parameters of NPU and Bench are inconsistent.";
    case kMsgDtype: return "error: The dtype of NPU and Bench are inconsistent.";
    case kMsgShape: return "error: The shape of NPU and Bench are inconsistent.";
    case kMsgRelativeWarn: return "warning: The norm relative error of output is 10 times that of input.";
    case kMsgCosineWarn: return "warning: The input/parameters of Cosine > 0.9, and input/parameters - output > 0.1";
    case kMsgCrcWarn: return "warning: The parameter of NPU does not match the bench.";
    case kMsgCrcError: return "error: The CRC-32 value of NPU differs from that of the bench.";
    case kMsgNoCounterpart: return "warning: No counterpart in the other runtime's dump (cross-runtime pairing), not compared.";
    }
    return {};
}

std::string errMessageText(std::uint16_t messages)
{
    std::string out = "[";
    bool first = true;
    for (std::uint16_t bit = 1; bit && bit <= kMsgNoCounterpart; bit = static_cast<std::uint16_t>(bit << 1)) {
        if (!(messages & bit))
            continue;
        if (!first)
            out += ", ";
        first = false;
        support::appendJsonString(out, ruleMessageText(static_cast<RuleMessage>(bit)));
    }
    out += ']';
    return out;
}

double percentToFraction(std::string_view text)
{
    while (!text.empty() && text.front() == '%')
        text.remove_prefix(1);
    while (!text.empty() && text.back() == '%')
        text.remove_suffix(1);
    double value = 0;
    if (!parsePythonFloat(text, value))
        return 0;
    return value / 100;
}

namespace {

bool isInfOrNan(const PyVal& v)
{
    if (v.kind == PyKind::Float)
        return std::isnan(v.f) || std::isinf(v.f);
    if (v.kind != PyKind::Str)
        return false;
    std::string_view s = v.s;
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\n'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\n'))
        s.remove_suffix(1);
    std::string lower(s);
    for (char& c : lower)
        c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
    return lower == "inf" || lower == "-inf" || lower == "nan";
}

enum class Ignore { None, All, Input };

std::vector<std::string_view> commaParts(std::string_view shape)
{
    while (!shape.empty() && (shape.front() == '[' || shape.front() == ']'))
        shape.remove_prefix(1);
    while (!shape.empty() && (shape.back() == '[' || shape.back() == ']'))
        shape.remove_suffix(1);
    std::vector<std::string_view> parts;
    std::size_t start = 0;
    while (true) {
        const std::size_t comma = shape.find(',', start);
        parts.push_back(shape.substr(start, comma == std::string_view::npos ? shape.npos : comma - start));
        if (comma == std::string_view::npos)
            return parts;
        start = comma + 1;
    }
}

// Megatron training activations are [s, b, h] where inference has [s*b... , h]: a 3-d training shape facing a
// shape of another rank is compared as [d0, d1*d2].
std::string foldTrailingDims(const std::string& npuShape, const std::string& benchShape)
{
    const auto npuParts = commaParts(npuShape);
    if (npuParts.size() != 3 || npuParts.size() == commaParts(benchShape).size())
        return npuShape;
    long long dims[3];
    for (int k = 0; k < 3; ++k) {
        double value = 0;
        if (!parsePythonFloat(npuParts[static_cast<std::size_t>(k)], value) || value != std::floor(value))
            return npuShape;
        dims[k] = static_cast<long long>(value);
    }
    return "[" + std::to_string(dims[0]) + "," + std::to_string(dims[1] * dims[2]) + "]";
}

// ApiData.get_min_or_max_value: skip None/Nan/N/A, "x%" strings as fractions, other strings skipped.
double groupExtreme(std::span<const RuleRow> rows, const std::vector<std::size_t>& which, bool isMin,
    const std::function<PyVal(const RuleRow&)>& cell)
{
    double value = isMin ? 1.0 : 0.0;
    for (std::size_t index : which) {
        const PyVal v = cell(rows[index]);
        double x;
        if (v.kind == PyKind::Str) {
            if (v.s == kNanText || v.s == kNA || v.s.empty() || v.s.back() != '%')
                continue;
            x = percentToFraction(v.s);
        } else if (v.kind == PyKind::Bool) {
            x = v.b ? 1.0 : 0.0;
        } else {
            x = v.number();
        }
        // Python's min()/max() keep the first argument when a comparison with NaN is false.
        value = isMin ? (x < value ? x : value) : (x > value ? x : value);
    }
    return value;
}

} // namespace

void applyResultRules(CompareMode mode, std::span<const RuleRow> rows, std::span<RuleOutcome> out, RuleSet ruleSet)
{
    const bool verlTensor = mode == CompareMode::Tensor && ruleSet != RuleSet::Standard;
    std::vector<std::size_t> inputs, outputs;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        out[i] = {};
        (rows[i].isOutput ? outputs : inputs).push_back(i);
    }
    Ignore ignore = Ignore::None;
    if (!inputs.empty()) {
        const std::string_view api = rows[inputs.front()].apiSegment;
        static constexpr std::string_view allIgnore[] = { "empty", "empty_like", "numpy", "to", "__setitem__",
            "empty_with_format", "new_empty_strided", "new_empty", "empty_strided" };
        static constexpr std::string_view inputIgnore[] = { "_reduce_scatter_base", "_all_gather_base",
            "all_to_all_single", "batch_isend_irecv" };
        if (std::find(std::begin(allIgnore), std::end(allIgnore), api) != std::end(allIgnore))
            ignore = Ignore::All;
        else if (std::find(std::begin(inputIgnore), std::end(inputIgnore), api) != std::end(inputIgnore))
            ignore = Ignore::Input;
    }
    std::vector<std::size_t> checked;
    if (ignore == Ignore::Input)
        checked = outputs;
    else if (ignore == Ignore::None) {
        checked = inputs;
        checked.insert(checked.end(), outputs.begin(), outputs.end());
    }
    auto raise = [&](std::size_t i, ResultLevel level, RuleMessage message) {
        out[i].level = std::max(out[i].level, level);
        out[i].messages = static_cast<std::uint16_t>(out[i].messages | message);
    };
    const bool groupRules = ignore == Ignore::None;

    if (mode == CompareMode::Md5) {
        for (std::size_t i : checked) {
            const RuleRow& r = rows[i];
            if (r.npuMd5 == r.benchMd5)
                continue;
            auto isNull = [](const std::string& md5) { return md5 == kNA || md5 == kNanText || md5.empty(); };
            if (isNull(r.npuMd5) || isNull(r.benchMd5))
                raise(i, ResultLevel::Warning, kMsgCrcWarn);
            else
                raise(i, ResultLevel::Error, kMsgCrcError);
        }
        return;
    }

    // InfNan
    for (std::size_t i : checked) {
        const RuleRow& r = rows[i];
        if (isInfOrNan(r.benchMax) || isInfOrNan(r.benchMin))
            continue;
        if (isInfOrNan(r.npuMax) || isInfOrNan(r.npuMin))
            raise(i, ResultLevel::Error, kMsgInfNan);
    }
    if (mode == CompareMode::Statistics && groupRules) {
        // RelativeErr
        const auto normRel = [](const RuleRow& r) { return PyVal::str(r.normRelativeErr); };
        const double inMax = std::fabs(groupExtreme(rows, inputs, false, normRel));
        if (inMax < 0.1)
            for (std::size_t i : outputs)
                if (std::fabs(percentToFraction(rows[i].normRelativeErr)) > 0.5)
                    raise(i, ResultLevel::Error, kMsgRelativeErr);
    }
    if (mode == CompareMode::Tensor && groupRules && !outputs.empty()) {
        // OneThousandth (the code's output threshold is 0.1 although the message says 0.6)
        const auto ratio = [](const RuleRow& r) { return r.oneThousandth; };
        const double minIn = groupExtreme(rows, inputs, true, ratio);
        const double minOut = groupExtreme(rows, outputs, true, ratio);
        if (minIn > 0.9 && minOut < 0.1)
            raise(outputs.front(), ResultLevel::Error, kMsgOneThousandth);
    }
    // RequiresGrad (not in the consistent check's tensor list)
    for (std::size_t i : verlTensor ? std::vector<std::size_t> {} : checked) {
        const RuleRow& r = rows[i];
        if (!r.matched || r.npuReqGrad.empty() || r.benchReqGrad.empty())
            continue;
        if (r.npuReqGrad != r.benchReqGrad)
            raise(i, ResultLevel::Error, kMsgRequiresGrad);
    }
    // Parameters (input rows only)
    if (groupRules)
        for (std::size_t i : inputs) {
            const RuleRow& r = rows[i];
            if (!r.matched || r.npuDtype.empty() || r.benchDtype.empty())
                continue;
            if (r.npuDtype.find("class") == std::string_view::npos || r.benchDtype.find("class") == std::string_view::npos)
                continue;
            if (r.npuShape != "[]")
                continue;
            if (!pyEquals(r.npuMax, r.benchMax))
                raise(i, ResultLevel::Error, kMsgParameters);
        }
    // DType
    for (std::size_t i : checked) {
        const RuleRow& r = rows[i];
        if (!r.matched || r.npuMissing || r.benchFused || r.npuDtype.empty() || r.benchDtype.empty())
            continue;
        if (r.npuDtype != r.benchDtype)
            raise(i, ResultLevel::Error, kMsgDtype);
    }
    // Shape
    for (std::size_t i : checked) {
        const RuleRow& r = rows[i];
        if (!verlTensor) {
            if (r.matched && r.npuShape != r.benchShape)
                raise(i, ResultLevel::Error, kMsgShape);
            continue;
        }
        if (!r.matched || r.npuMissing || (ruleSet == RuleSet::ConsistentFsdp && r.benchFused))
            continue;
        std::string npuShape = squeezeShapeText(r.npuShape);
        const std::string benchShape = squeezeShapeText(r.benchShape);
        if (ruleSet == RuleSet::ConsistentMegatron)
            npuShape = foldTrailingDims(npuShape, benchShape);
        if (npuShape != benchShape)
            raise(i, ResultLevel::Error, kMsgShape);
    }
    if (mode == CompareMode::Statistics && groupRules && !outputs.empty()) {
        // RelativeWarn
        const auto normRel = [](const RuleRow& r) { return PyVal::str(r.normRelativeErr); };
        const double in = std::fabs(groupExtreme(rows, inputs, false, normRel));
        const double outMax = std::fabs(groupExtreme(rows, outputs, false, normRel));
        const bool warn = in == 0 ? outMax > 0.1 : outMax / in > 10;
        if (warn)
            raise(outputs.front(), ResultLevel::Warning, kMsgRelativeWarn);
    }
    if (mode == CompareMode::Tensor && groupRules && !outputs.empty()) {
        // CosineWarn
        const auto cosine = [](const RuleRow& r) { return r.cosine; };
        const double minIn = groupExtreme(rows, inputs, true, cosine);
        const double minOut = groupExtreme(rows, outputs, true, cosine);
        if (minIn > 0.9 && minIn - minOut > 0.1)
            raise(outputs.front(), ResultLevel::Warning, kMsgCosineWarn);
    }
}

} // namespace msprobe::compare
