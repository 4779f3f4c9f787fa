// SPDX-License-Identifier: Apache-2.0
#include "compare/tensor_metrics.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

namespace msprobe::compare {

namespace {

constexpr double kFloatEpsilon = 2.220446049250313e-16; // numpy float64 eps, also the reference's norm floor
constexpr std::string_view kUnsupported = "unsupported";

// numpy dtype after the reference's torch -> numpy step (bfloat16 is widened to float32).
dump::ElementType numpyType(dump::ElementType type) { return type == dump::ElementType::BFloat16 ? dump::ElementType::Float32 : type; }

bool isFloatType(dump::ElementType t) { return t == dump::ElementType::Float16 || t == dump::ElementType::Float32 || t == dump::ElementType::Float64; }

std::vector<std::int64_t> squeezed(const std::vector<std::int64_t>& shape)
{
    std::vector<std::int64_t> out;
    for (std::int64_t d : shape)
        if (d != 1)
            out.push_back(d);
    return out;
}

// Round a double to the nearest binary16 value (ties to even), returned as double.
double roundToHalf(double x)
{
    if (!std::isfinite(x) || x == 0.0)
        return x;
    const double a = std::fabs(x);
    if (a >= 65520.0)
        return std::copysign(INFINITY, x);
    int exp;
    std::frexp(a, &exp); // a = m * 2^exp, m in [0.5, 1)
    const int e = std::max(exp - 1, -14); // unbiased exponent, subnormals share -14
    const double quantum = std::ldexp(1.0, e - 10);
    return std::copysign(std::nearbyint(a / quantum) * quantum, x);
}

double formatValue(double x) { return roundTo12Decimals(x); }

// The relative-error metrics from |(n - b) / b| (eps added to both where b == 0), computed element by element in
// numpy's result type F (float or double) in one pass, without the error array.
template <typename F>
void relativeMetrics(const double* n, const double* b, std::size_t size, bool zeroD, std::array<PyVal, 6>& cells)
{
    const F eps = std::numeric_limits<F>::epsilon();
    // numpy compares a float32 array with a Python float in float32.
    const F thousandth = static_cast<F>(0.001), fiveThousandths = static_cast<F>(0.005);
    F maxRe = 0; // np.max propagates NaN
    bool sawNan = false;
    std::size_t below1 = 0, below5 = 0;
    for (std::size_t i = 0; i < size; ++i) {
        F x = static_cast<F>(n[i]);
        F y = static_cast<F>(b[i]);
        if (b[i] == 0) {
            x = static_cast<F>(x + eps);
            y = static_cast<F>(y + eps);
        }
        const F re = std::fabs(static_cast<F>(static_cast<F>(x - y) / y));
        if (std::isnan(re))
            sawNan = true;
        else if (i == 0 || re > maxRe)
            maxRe = re;
        below1 += re < thousandth;
        below5 += re < fiveThousandths;
    }
    cells[3] = sawNan || size == 0 ? PyVal::str(kNanText) : PyVal::real(formatValue(static_cast<double>(maxRe)));
    if (zeroD) {
        cells[4] = cells[5] = PyVal::str(kUnsupported);
        return;
    }
    if (size == 0) {
        cells[4] = cells[5] = PyVal::str(kNanText);
        return;
    }
    cells[4] = PyVal::real(formatValue(static_cast<double>(below1) / static_cast<double>(size)));
    cells[5] = PyVal::real(formatValue(static_cast<double>(below5) / static_cast<double>(size)));
}

PyVal zeroDMaxAbsErr(double n, double b, dump::ElementType tn, dump::ElementType tb)
{
    const bool intN = !isFloatType(tn) && tn != dump::ElementType::Bool, intB = !isFloatType(tb) && tb != dump::ElementType::Bool;
    double d;
    if (tn == dump::ElementType::Bool || tb == dump::ElementType::Bool) {
        d = std::fabs(n - b);
    } else if (intN && intB) {
        std::int64_t x = static_cast<std::int64_t>(n), y = static_cast<std::int64_t>(b);
        std::int64_t diff = static_cast<std::int64_t>(static_cast<std::uint64_t>(x) - static_cast<std::uint64_t>(y));
        if (tn == tb && tn == dump::ElementType::UInt8)
            diff = static_cast<std::uint8_t>(diff);
        else if (tn == tb && tn == dump::ElementType::Int8)
            diff = static_cast<std::int8_t>(diff);
        else if (tn == tb && tn == dump::ElementType::Int16)
            diff = static_cast<std::int16_t>(diff);
        else if (tn == tb && tn == dump::ElementType::Int32)
            diff = static_cast<std::int32_t>(diff);
        d = std::fabs(static_cast<double>(diff));
    } else if (tn == dump::ElementType::Float16 && tb == dump::ElementType::Float16) {
        d = std::fabs(roundToHalf(n - b));
    } else if ((tn == dump::ElementType::Float32 || tn == dump::ElementType::Float16) && (tb == dump::ElementType::Float32 || tb == dump::ElementType::Float16)) {
        d = std::fabs(static_cast<double>(static_cast<float>(n) - static_cast<float>(b)));
    } else {
        d = std::fabs(n - b);
    }
    if (std::isnan(d))
        return PyVal::str(kNanText);
    return PyVal::real(formatValue(d));
}

} // namespace

TensorMetrics tensorMetricsError(std::string_view value, std::string message)
{
    TensorMetrics m;
    m.cells.fill(PyVal::str(value));
    m.message = std::move(message);
    return m;
}

TensorMetrics compareTensors(const dump::TensorData& npu, const dump::TensorData& bench)
{
    if (npu.numel() == 0)
        return tensorMetricsError(kUnsupported, "This is empty data, can not compare.");
    const auto npuShape = squeezed(npu.shape), benchShape = squeezed(bench.shape);
    if (npuShape != benchShape)
        return tensorMetricsError("shape unmatched", "Shape of NPU and bench tensor do not match. Skipped.");
    const dump::ElementType tn = numpyType(npu.elementType), tb = numpyType(bench.elementType);
    const bool zeroD = npuShape.empty();

    TensorMetrics m;
    const double* n = npu.values.data();
    const double* b = bench.values.data();
    const std::size_t size = npu.values.size();
    std::vector<double> finiteN, finiteB; // copies with NaN/Inf zeroed, only when there are any
    if (zeroD) {
        m.message = "This is type of 0-d tensor, can not calculate 'Cosine', 'EucDist', 'One Thousandth Err Ratio' and "
                    "'Five Thousandths Err Ratio'. ";
    } else {
        bool invalid = false;
        for (std::size_t i = 0; i < size && !invalid; ++i)
            invalid = !std::isfinite(n[i]) || !std::isfinite(b[i]);
        if (invalid) {
            for (std::size_t i = 0; i < size; ++i) {
                if (std::isnan(n[i]) != std::isnan(b[i]) || std::isinf(n[i]) != std::isinf(b[i]))
                    return tensorMetricsError(kNA, "The position of inf or nan in NPU and bench Tensor do not match.");
            }
            finiteN.assign(n, n + size);
            finiteB.assign(b, b + size);
            for (std::size_t i = 0; i < size; ++i)
                if (!std::isfinite(finiteN[i])) {
                    finiteN[i] = 0;
                    finiteB[i] = 0;
                }
            n = finiteN.data();
            b = finiteB.data();
        }
        if (tn != tb)
            m.message = "Dtype of NPU and bench tensor do not match.";
    }

    // Relative error in numpy's result type: float32 when both sides are float16/float32, else float64.
    const bool single = (tn == dump::ElementType::Float16 || tn == dump::ElementType::Float32) && (tb == dump::ElementType::Float16 || tb == dump::ElementType::Float32);
    if (single)
        relativeMetrics<float>(n, b, size, zeroD, m.cells);
    else
        relativeMetrics<double>(n, b, size, zeroD, m.cells);

    if (zeroD) {
        m.cells[0] = m.cells[1] = PyVal::str(kUnsupported);
        m.cells[2] = zeroDMaxAbsErr(n[0], b[0], tn, tb);
        return m;
    }
    if (size == 1) {
        m.cells[0] = PyVal::str(kUnsupported);
        m.message += "This is a 1-d tensor of length 1.";
    }
    double dot = 0, nn = 0, bb = 0, dd = 0, maxAbs = 0;
    bool nanAbs = false;
    for (std::size_t i = 0; i < size; ++i) {
        const double x = n[i], y = b[i], d = x - y;
        dot += x * y;
        nn += x * x;
        bb += y * y;
        dd += d * d;
        const double a = std::fabs(d);
        if (std::isnan(a))
            nanAbs = true;
        else if (a > maxAbs)
            maxAbs = a;
    }
    if (size != 1) {
        const double normN = std::sqrt(nn), normB = std::sqrt(bb);
        if (normN <= kFloatEpsilon && normB <= kFloatEpsilon) {
            m.cells[0] = PyVal::real(1.0);
        } else if (normN <= kFloatEpsilon) {
            m.cells[0] = PyVal::str(kNanText);
            m.message += "Cannot compare by Cosine Similarity, All the data is Zero in npu dump data.";
        } else if (normB <= kFloatEpsilon) {
            m.cells[0] = PyVal::str(kNanText);
            m.message += "Cannot compare by Cosine Similarity, All the data is Zero in Bench dump data.";
        } else {
            const double cos = dot / (normN * normB);
            if (std::isnan(cos)) {
                m.cells[0] = PyVal::str(kNanText);
                m.message += "Cannot compare by Cosine Similarity, the dump data has NaN.";
            } else {
                double value = formatValue(cos);
                if (value > 0.9999)
                    value = roundTo6Decimals(value);
                m.cells[0] = PyVal::real(value);
            }
        }
    }
    m.cells[1] = PyVal::real(std::sqrt(dd));
    m.cells[2] = nanAbs ? PyVal::str(kNanText) : PyVal::real(formatValue(maxAbs));
    return m;
}

} // namespace msprobe::compare
