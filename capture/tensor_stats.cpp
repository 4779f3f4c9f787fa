// SPDX-License-Identifier: Apache-2.0
#include "capture/tensor_stats.h"

#include "capture/aten_order_stats.h"
#include "capture/value.h"

#include <ATen/ATen.h>
#include <ATen/CPUFunctions.h>
#include <ATen/record_function.h>
#include <c10/core/GradMode.h>

#include <zlib.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <optional>
#include <type_traits>

namespace msprobe::capture {

namespace {

constexpr std::int64_t kBlock = 1024;

// One block of float32: max, min, sum, sum of squares, and the NaN/Inf (and, when asked, zero) counts.
struct BlockStats {
    float mx, mn, s, ss, bn, bi, bz;
};

// The counting pass: only for blocks whose sums say they hold a NaN or an infinity, and for zero counts.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
__attribute__((target_clones("arch=x86-64-v3", "default")))
#endif
BlockStats countBlock(const float* p, std::int64_t m, BlockStats b, bool countZeros)
{
    constexpr float inf = std::numeric_limits<float>::infinity();
    float bn = 0, bi = 0, bz = 0;
    if (!std::isfinite(b.s) || !std::isfinite(b.ss)) {
#pragma omp simd reduction(+ : bn, bi, bz)
        for (std::int64_t j = 0; j < m; ++j) {
            const float x = p[j];
            bn += x != x ? 1.f : 0.f;
            bi += (x == inf || x == -inf) ? 1.f : 0.f;
            bz += x == 0.f ? 1.f : 0.f;
        }
    } else if (countZeros) {
#pragma omp simd reduction(+ : bz)
        for (std::int64_t j = 0; j < m; ++j)
            bz += p[j] == 0.f ? 1.f : 0.f;
    }
    b.bn = bn, b.bi = bi, b.bz = countZeros ? bz : 0;
    return b;
}

// Max, min, sum and sum of squares in 32 lanes: four independent vectors per quantity, so the loop is not
// held to one vector per add latency. A NaN leaves max and min alone (x > m is false) and makes the sum NaN;
// an infinity makes a sum infinite or NaN: finite sums prove the block has neither, and the counting pass
// runs only where they do not. Cloned for x86-64-v3 (AVX2 + FMA, chosen at load time) because the baseline
// x86-64 build only gets 4-wide vectors.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
__attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#endif
BlockStats floatBlock(const float* p, std::int64_t m)
{
    constexpr int kLanes = 32;
    constexpr float inf = std::numeric_limits<float>::infinity();
    float mx[kLanes], mn[kLanes], s[kLanes], ss[kLanes];
    for (int k = 0; k < kLanes; ++k)
        mx[k] = -inf, mn[k] = inf, s[k] = 0, ss[k] = 0;
    std::int64_t j = 0;
    for (; j + kLanes <= m; j += kLanes)
        for (int k = 0; k < kLanes; ++k) {
            const float x = p[j + k];
            mx[k] = x > mx[k] ? x : mx[k];
            mn[k] = x < mn[k] ? x : mn[k];
            s[k] += x;
            ss[k] += x * x;
        }
    for (int k = 0; j < m; ++j, ++k) {
        const float x = p[j];
        mx[k] = x > mx[k] ? x : mx[k];
        mn[k] = x < mn[k] ? x : mn[k];
        s[k] += x;
        ss[k] += x * x;
    }
    BlockStats b { -inf, inf, 0, 0, 0, 0, 0 };
    for (int k = 0; k < kLanes; ++k) {
        b.mx = mx[k] > b.mx ? mx[k] : b.mx;
        b.mn = mn[k] < b.mn ? mn[k] : b.mn;
        b.s += s[k];
        b.ss += ss[k];
    }
    return b;
}

template <class T, class Acc>
void floatKernel(const T* data, std::int64_t n, RawStats& out, bool countZeros)
{
    constexpr Acc inf = std::numeric_limits<Acc>::infinity();
    Acc gmax = -inf, gmin = inf;
    double sum = 0, sq = 0, nans = 0, infs = 0, zeros = 0;
    for (std::int64_t begin = 0; begin < n; begin += kBlock) {
        const std::int64_t m = std::min(kBlock, n - begin);
        const T* p = data + begin;
        // Counters as Acc inside a block (exact up to 2^24) keep the loop in one vector type.
        Acc mx = -inf, mn = inf, s = 0, ss = 0, bn = 0, bi = 0, bz = 0;
        if constexpr (std::is_same_v<T, float>) {
            BlockStats b = floatBlock(p, m);
            if (countZeros || !std::isfinite(b.s) || !std::isfinite(b.ss))
                b = countBlock(p, m, b, countZeros);
            mx = b.mx, mn = b.mn, s = b.s, ss = b.ss, bn = b.bn, bi = b.bi, bz = b.bz;
        } else {
#pragma omp simd reduction(max : mx) reduction(min : mn) reduction(+ : s, ss, bn, bi, bz)
            for (std::int64_t j = 0; j < m; ++j) {
                const Acc x = static_cast<Acc>(p[j]);
                mx = x > mx ? x : mx;
                mn = x < mn ? x : mn;
                s += x;
                ss += x * x;
                bn += x != x ? Acc(1) : Acc(0);
                bi += (x == inf || x == -inf) ? Acc(1) : Acc(0);
                bz += x == Acc(0) ? Acc(1) : Acc(0);
            }
        }
        gmax = std::max(gmax, mx);
        gmin = std::min(gmin, mn);
        sum += static_cast<double>(s);
        sq += static_cast<double>(ss);
        nans += static_cast<double>(bn);
        infs += static_cast<double>(bi);
        zeros += static_cast<double>(bz);
    }
    out.kind = RawStats::Kind::Float;
    out.max = gmax;
    out.min = gmin;
    out.sum = sum;
    out.sumSquares = sq;
    out.nanCount = static_cast<std::int64_t>(nans);
    out.infCount = static_cast<std::int64_t>(infs);
    out.zeroCount = static_cast<std::int64_t>(zeros);
    if (out.nanCount) {
        out.max = out.min = out.sum = out.sumSquares = std::numeric_limits<double>::quiet_NaN();
    }
}

// bf16/fp16: convert a block to float first so the reduction loop vectorises.
template <class T>
void halfKernel(const T* data, std::int64_t n, RawStats& out, bool countZeros)
{
    RawStats total;
    float buf[kBlock];
    bool first = true;
    for (std::int64_t begin = 0; begin < n; begin += kBlock) {
        const std::int64_t m = std::min(kBlock, n - begin);
        for (std::int64_t j = 0; j < m; ++j)
            buf[j] = static_cast<float>(data[begin + j]);
        RawStats part;
        floatKernel<float, float>(buf, m, part, countZeros);
        if (first) {
            total = part;
            first = false;
        } else {
            total.max = std::max(total.max, part.max);
            total.min = std::min(total.min, part.min);
            total.sum += part.sum;
            total.sumSquares += part.sumSquares;
            total.nanCount += part.nanCount;
            total.infCount += part.infCount;
            total.zeroCount += part.zeroCount;
        }
    }
    out = total;
    if (out.nanCount)
        out.max = out.min = out.sum = out.sumSquares = std::numeric_limits<double>::quiet_NaN();
}

template <class T>
void intKernel(const T* p, std::int64_t n, RawStats& out)
{
    T mx = std::numeric_limits<T>::lowest(), mn = std::numeric_limits<T>::max();
    double s = 0, ss = 0;
    std::int64_t zeros = 0;
#pragma omp simd reduction(max : mx) reduction(min : mn) reduction(+ : s, ss, zeros)
    for (std::int64_t j = 0; j < n; ++j) {
        const T x = p[j];
        mx = x > mx ? x : mx;
        mn = x < mn ? x : mn;
        const double d = static_cast<double>(x);
        s += d;
        ss += d * d;
        zeros += x == 0;
    }
    out.kind = RawStats::Kind::Integer;
    out.imax = static_cast<std::int64_t>(mx);
    out.imin = static_cast<std::int64_t>(mn);
    out.max = static_cast<double>(mx);
    out.min = static_cast<double>(mn);
    out.sum = s;
    out.sumSquares = ss;
    out.zeroCount = zeros;
}

void boolKernel(const bool* p, std::int64_t n, RawStats& out)
{
    std::int64_t ones = 0;
    for (std::int64_t j = 0; j < n; ++j)
        ones += p[j] ? 1 : 0;
    out.kind = RawStats::Kind::Bool;
    out.imax = ones > 0;
    out.imin = ones == n;
    out.max = static_cast<double>(out.imax);
    out.min = static_cast<double>(out.imin);
    out.sum = out.sumSquares = static_cast<double>(ones);
    out.zeroCount = n - ones;
}

// Any device / dtype: ATen reductions on the tensor's device, one host transfer.
void atenKernel(const at::Tensor& t, RawStats& out)
{
    if (t.is_complex()) {
        const at::Tensor mag = t.abs().to(at::kDouble);
        const at::Tensor packed = at::stack({ mag.max(), mag.min(), mag.sum(), (mag * mag).sum() }).cpu();
        const double* v = packed.data_ptr<double>();
        out.kind = RawStats::Kind::Complex;
        out.max = v[0];
        out.min = v[1];
        out.sum = v[2];
        out.sumSquares = v[3];
        return;
    }
    if (t.scalar_type() == at::kBool) {
        const at::Tensor packed = at::stack({ t.any().to(at::kLong), t.sum().to(at::kLong) }).cpu();
        const std::int64_t* v = packed.data_ptr<std::int64_t>();
        out.kind = RawStats::Kind::Bool;
        out.imax = v[0];
        out.imin = v[1] == out.numel;
        out.max = static_cast<double>(out.imax);
        out.min = static_cast<double>(out.imin);
        out.sum = out.sumSquares = static_cast<double>(v[1]);
        out.zeroCount = out.numel - v[1];
        return;
    }
    const bool integral = at::isIntegralType(t.scalar_type(), false);
    const at::Tensor d = t.to(at::kDouble);
    std::vector<at::Tensor> parts { d.max(), d.min(), d.sum(), (d * d).sum(), (d == 0).sum().to(at::kDouble) };
    if (!integral) {
        parts.push_back(d.isnan().sum().to(at::kDouble));
        parts.push_back(d.isinf().sum().to(at::kDouble));
    }
    const at::Tensor packed = at::stack(parts).cpu();
    const double* v = packed.data_ptr<double>();
    out.kind = integral ? RawStats::Kind::Integer : RawStats::Kind::Float;
    out.max = v[0];
    out.min = v[1];
    out.sum = v[2];
    out.sumSquares = v[3];
    out.zeroCount = static_cast<std::int64_t>(v[4]);
    if (integral) {
        out.imax = static_cast<std::int64_t>(v[0]);
        out.imin = static_cast<std::int64_t>(v[1]);
    } else {
        out.nanCount = static_cast<std::int64_t>(v[5]);
        out.infCount = static_cast<std::int64_t>(v[6]);
    }
}

} // namespace

double RawStats::norm() const { return std::sqrt(sumSquares); }

RawStats computeRawStats(const at::Tensor& input, bool countZeros)
{
    RawStats out;
    if (!input.defined() || !input.has_storage() || input.numel() == 0)
        return out;
    out.numel = input.numel();
    if (!input.is_cpu() || input.is_complex() || input.is_quantized() || input.is_sparse()) {
        at::NoGradGuard noGrad;
        at::DisableRecordFunctionGuard noRecord;
        atenKernel(input, out);
        return out;
    }
    // The statistics do not depend on element order: a tensor whose elements fill a block of memory without
    // gaps or overlaps (contiguous, or a transpose or permutation of such) is read where it lies, from its
    // lowest address (PyTorch strides are never negative). Only other views are copied first.
    at::Tensor dense;
    if (!input.is_non_overlapping_and_dense()) {
        at::NoGradGuard noGrad;
        at::DisableRecordFunctionGuard noRecord;
        dense = input.contiguous();
    }
    const at::Tensor& t = dense.defined() ? dense : input;
    const std::int64_t n = out.numel;
    const void* data = t.data_ptr();
    switch (t.scalar_type()) {
    case at::kFloat: floatKernel<float, float>(static_cast<const float*>(data), n, out, countZeros); break;
    case at::kDouble: floatKernel<double, double>(static_cast<const double*>(data), n, out, countZeros); break;
    case at::kHalf: halfKernel(static_cast<const at::Half*>(data), n, out, countZeros); break;
    case at::kBFloat16: halfKernel(static_cast<const at::BFloat16*>(data), n, out, countZeros); break;
    case at::kLong: intKernel(static_cast<const std::int64_t*>(data), n, out); break;
    case at::kInt: intKernel(static_cast<const std::int32_t*>(data), n, out); break;
    case at::kShort: intKernel(static_cast<const std::int16_t*>(data), n, out); break;
    case at::kChar: intKernel(static_cast<const std::int8_t*>(data), n, out); break;
    case at::kByte: intKernel(static_cast<const std::uint8_t*>(data), n, out); break;
    case at::kBool: boolKernel(static_cast<const bool*>(data), n, out); break;
    default: {
        at::NoGradGuard noGrad;
        at::DisableRecordFunctionGuard noRecord;
        atenKernel(t, out);
        break;
    }
    }
    return out;
}

TensorStats toDumpStats(const RawStats& raw, at::ScalarType type, int64_t dim, StatPrecision precision)
{
    TensorStats s;
    s.max = s.min = s.mean = s.norm = dump::StatValue::null();
    const auto ownFloat = [type](double v) {
        // Mean and norm are computed in the tensor's own dtype by the reference.
        if (type == at::kFloat)
            return static_cast<double>(static_cast<float>(v));
        if (type == at::kHalf)
            return static_cast<double>(static_cast<float>(c10::Half(static_cast<float>(v))));
        if (type == at::kBFloat16)
            return static_cast<double>(static_cast<float>(c10::BFloat16(static_cast<float>(v))));
        return v;
    };
    switch (raw.kind) {
    case RawStats::Kind::Empty: return s;
    case RawStats::Kind::Bool:
        s.max = dump::StatValue::ofBool(raw.imax != 0);
        s.min = dump::StatValue::ofBool(raw.imin != 0);
        return s;
    case RawStats::Kind::Complex:
        s.max = dump::StatValue::ofFloat(raw.max);
        s.min = dump::StatValue::ofFloat(raw.min);
        s.mean = dump::StatValue::ofFloat(raw.mean());
        return s;
    case RawStats::Kind::Integer:
        s.max = dump::StatValue::ofInt(raw.imax);
        s.min = dump::StatValue::ofInt(raw.imin);
        if (dim == 0)
            s.mean = s.norm = s.max;
        return s;
    case RawStats::Kind::Float: break;
    }
    s.max = dump::StatValue::ofFloat(raw.max);
    s.min = dump::StatValue::ofFloat(raw.min);
    const bool lowFloat = type == at::kFloat || type == at::kHalf || type == at::kBFloat16;
    if (dim == 0) {
        s.mean = s.norm = s.max;
    } else if (lowFloat && precision == StatPrecision::Low) {
        s.mean = dump::StatValue::ofFloat(ownFloat(raw.mean()));
        s.norm = dump::StatValue::ofFloat(ownFloat(raw.norm()));
    }
    return s;
}

namespace {

double scalarAsDouble(const at::Tensor& scalar)
{
    switch (scalar.scalar_type()) {
    case at::kFloat: return *scalar.data_ptr<float>();
    case at::kDouble: return *scalar.data_ptr<double>();
    case at::kHalf: return static_cast<float>(*scalar.data_ptr<at::Half>());
    case at::kBFloat16: return static_cast<float>(*scalar.data_ptr<at::BFloat16>());
    default: return scalar.item<double>();
    }
}

} // namespace

TorchMeanNorm torchMeanNorm(const at::Tensor& tensor)
{
    at::NoGradGuard noGrad;
    at::DisableRecordFunctionGuard noRecord;
    const at::Tensor t = tensor.detach();
    if (t.is_cpu() && t.layout() == at::kStrided && !t.is_quantized()) {
        // The CPU kernels called directly: the dispatcher would only route to the same functions. torch.mean
        // of a float32 tensor on the CPU is its sum divided by the count in float32: the division is done here,
        // which saves a second ATen call. float16/bfloat16 means take another path in ATen (not the rounded
        // float32 sum over the count), so at::mean itself is called for them.
        const at::ScalarType type = t.scalar_type();
        const at::Tensor norm = at::cpu::linalg_vector_norm(t, 2, at::OptionalIntArrayRef {}, false, c10::nullopt);
        double mean = 0;
        if (type == at::kFloat)
            mean = *at::cpu::sum(t, at::OptionalIntArrayRef {}, false, c10::nullopt).data_ptr<float>()
                / static_cast<float>(t.numel());
        else
            mean = scalarAsDouble(at::cpu::mean(t, at::OptionalIntArrayRef {}, false, c10::nullopt));
        return { mean, scalarAsDouble(norm) };
    }
    const at::Tensor both = at::stack({ at::mean(t), at::linalg_vector_norm(t, 2) }).cpu();
    return { scalarAsDouble(both[0]), scalarAsDouble(both[1]) };
}

namespace {

bool holdsNegativeZero(const float* p, std::int64_t n)
{
    for (std::int64_t k = 0; k < n; ++k)
        if (p[k] == 0.f && std::signbit(p[k]))
            return true;
    return false;
}

// The one-pass statistics: Max/Min as the fused pass finds them, Mean and Norm from sums in ATen's order.
TensorStats fromAtenOrder(const AtenOrderStats& fast, const at::Tensor& tensor, StatPrecision precision)
{
    RawStats raw;
    raw.kind = RawStats::Kind::Float;
    raw.numel = tensor.numel();
    raw.max = fast.max, raw.min = fast.min, raw.sum = fast.sum, raw.sumSquares = fast.sumSquares;
    if (fast.hasNaN) {
        raw.nanCount = 1;
        raw.max = raw.min = raw.sum = raw.sumSquares = std::numeric_limits<double>::quiet_NaN();
    } else if ((fast.max == 0.f || fast.min == 0.f) && holdsNegativeZero(tensor.data_ptr<float>(), raw.numel)) {
        // Which zero torch.max/min return among +0 and -0 depends on their places and its vector lanes.
        at::NoGradGuard noGrad;
        at::DisableRecordFunctionGuard noRecord;
        raw.max = tensor.max().item<float>();
        raw.min = tensor.min().item<float>();
    }
    TensorStats stats = toDumpStats(raw, at::kFloat, tensor.dim(), precision);
    if (!fast.hasNaN && stats.mean.kind == dump::StatKind::Float) {
        stats.mean = dump::StatValue::ofFloat(fast.sum / static_cast<float>(raw.numel));
        stats.norm = dump::StatValue::ofFloat(std::sqrt(fast.sumSquares));
    }
    return stats;
}

} // namespace

TensorStats computeTensorStats(const at::Tensor& tensor, StatPrecision precision)
{
    if (!tensor.defined())
        return toDumpStats(RawStats {}, at::kFloat, 1, precision);
    if (const std::optional<AtenOrderStats> fast = atenOrderStats(tensor))
        return fromAtenOrder(*fast, tensor, precision);
    const RawStats raw = computeRawStats(tensor, false);
    TensorStats stats = toDumpStats(raw, tensor.scalar_type(), tensor.dim(), precision);
    // Mean and norm as torch computes them (its reduction order, in the tensor's dtype): a sum of float32
    // values is not associative, so any other order differs from the reference in the last bits.
    if (stats.mean.kind == dump::StatKind::Float && stats.norm.kind == dump::StatKind::Float && tensor.dim() > 0
        && raw.kind == RawStats::Kind::Float && raw.nanCount == 0) {
        const TorchMeanNorm exact = torchMeanNorm(tensor);
        stats.mean = dump::StatValue::ofFloat(exact.mean);
        stats.norm = dump::StatValue::ofFloat(exact.norm);
    }
    return stats;
}

std::string crc32Hex(const at::Tensor& input)
{
    uLong crc = crc32(0L, Z_NULL, 0);
    if (input.defined() && input.has_storage() && input.numel() > 0) {
        at::NoGradGuard noGrad;
        at::DisableRecordFunctionGuard noRecord;
        const at::Tensor t = input.cpu().contiguous();
        const auto* bytes = static_cast<const Bytef*>(t.data_ptr());
        std::size_t left = t.numel() * t.element_size();
        while (left > 0) {
            const uInt chunk = static_cast<uInt>(std::min<std::size_t>(left, 1u << 30));
            crc = crc32(crc, bytes, chunk);
            bytes += chunk;
            left -= chunk;
        }
    }
    char buf[16];
    std::snprintf(buf, sizeof buf, "%08lx", static_cast<unsigned long>(crc & 0xffffffffUL));
    return buf;
}

std::string xorChecksumJson(const at::Tensor& input)
{
    if (!input.defined() || !input.has_storage() || input.numel() == 0)
        return "null";
    at::NoGradGuard noGrad;
    at::DisableRecordFunctionGuard noRecord;
    const at::Tensor t = input.cpu().contiguous();
    char buf[32];
    if (t.dim() == 0 && at::isFloatingType(t.scalar_type())) {
        std::string out;
        appendJsonNumber(out, t.item<double>());
        return out;
    }
    std::uint64_t checksum = 0;
    if (t.dim() == 0 && (at::isIntegralType(t.scalar_type(), true))) {
        checksum = static_cast<std::uint64_t>(t.item<std::int64_t>());
    } else {
        const auto* bytes = static_cast<const unsigned char*>(t.data_ptr());
        const std::size_t size = static_cast<std::size_t>(t.numel()) * t.element_size();
        std::size_t k = 0;
        for (; k + 8 <= size; k += 8) {
            std::uint64_t word;
            std::memcpy(&word, bytes + k, 8);
            checksum ^= word;
        }
        std::uint64_t tail = 0;
        std::memcpy(&tail, bytes + k, size - k);
        checksum ^= tail;
    }
    std::snprintf(buf, sizeof buf, "\"0x%016llx\"", static_cast<unsigned long long>(checksum));
    return buf;
}

std::string torchDtypeName(at::ScalarType type)
{
    switch (type) {
    case at::kFloat: return "torch.float32";
    case at::kDouble: return "torch.float64";
    case at::kHalf: return "torch.float16";
    case at::kBFloat16: return "torch.bfloat16";
    case at::kLong: return "torch.int64";
    case at::kInt: return "torch.int32";
    case at::kShort: return "torch.int16";
    case at::kChar: return "torch.int8";
    case at::kByte: return "torch.uint8";
    case at::kBool: return "torch.bool";
    case at::kComplexFloat: return "torch.complex64";
    case at::kComplexDouble: return "torch.complex128";
    case at::kComplexHalf: return "torch.complex32";
    default: return std::string("torch.") + c10::toString(type);
    }
}

} // namespace msprobe::capture
