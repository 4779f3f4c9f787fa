// SPDX-License-Identifier: Apache-2.0
// Built with -ffp-contract=off: a square fused into its addition is a variant of its own (fmaLanes/fmaTail),
// never the compiler's choice.
#include "capture/aten_order_stats.h"

#include <ATen/ATen.h>
#include <ATen/CPUFunctions.h>
#include <ATen/Parallel.h>
#include <ATen/record_function.h>
#include <c10/core/GradMode.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#endif

namespace msprobe::capture {

namespace {

// ATen's utils::CeilLog2: 1 for x <= 2, else ceil(log2(x)).
std::int64_t ceilLog2(std::int64_t x)
{
    if (x <= 2)
        return 1;
    return static_cast<std::int64_t>(std::bit_width(static_cast<std::uint64_t>(x) - 1));
}

template <int W, bool Fma>
struct Lanes {
    float mx[W], mn[W], sq[W];

    Lanes()
    {
        for (int k = 0; k < W; ++k)
            mx[k] = -std::numeric_limits<float>::infinity(), mn[k] = std::numeric_limits<float>::infinity(), sq[k] = 0;
    }
    // One Vectorized<float>: into the sum accumulator acc, and, in memory order, the norm's accumulator.
    void visit(const float* v, float* acc)
    {
        for (int k = 0; k < W; ++k) {
            const float x = v[k];
            mx[k] = x > mx[k] ? x : mx[k];
            mn[k] = x < mn[k] ? x : mn[k];
            acc[k] += x;
            if constexpr (Fma)
                sq[k] = std::fma(x, x, sq[k]);
            else
                sq[k] = sq[k] + x * x;
        }
    }
};

// norm_kernel_tensor_iterator_impl's last loop: buffer[0] += x * x over the elements after the last vector.
float addTailSquares(float squares, const float* p, std::int64_t tail, const AtenOrderVariant& v)
{
    const std::int64_t unfused = !v.fmaTail ? tail : v.tailGroup > 0 ? tail / v.tailGroup * v.tailGroup : 0;
    for (std::int64_t k = 0; k < tail; ++k) {
        const float x = p[k];
        squares = k < unfused ? squares + x * x : std::fma(x, x, squares);
    }
    return squares;
}

template <int W>
void addLanes(float* to, const float* from)
{
    for (int k = 0; k < W; ++k)
        to[k] += from[k];
}

// multi_row_sum<float, 4, LoadPolicy<float>> of row_sum: n < W elements, summed as scalars in rows of four.
float scalarRowSum(const float* p, std::int64_t n)
{
    const std::int64_t rows = n / 4;
    float acc[4][4] = {};
    for (std::int64_t i = 0; i < rows; ++i)
        for (int k = 0; k < 4; ++k)
            acc[0][k] += p[i * 4 + k];
    for (int j = 1; j < 4; ++j)
        for (int k = 0; k < 4; ++k)
            acc[0][k] += acc[j][k];
    float partial[4] = { acc[0][0], acc[0][1], acc[0][2], acc[0][3] };
    for (std::int64_t i = rows * 4; i < n; ++i)
        partial[0] += p[i];
    for (int k = 1; k < 4; ++k)
        partial[0] += partial[k];
    return partial[0];
}

// What the loop over whole vectors leaves: the sum's lanes (after row_sum folded its partials), the norm's
// accumulator, and max/min per lane.
template <int W>
struct VectorTotals {
    alignas(64) float sum[W], sq[W], mx[W], mn[W];
};

constexpr int kLevels = 4, kRows = 4;

// multi_row_sum's level step for `size` rows: 2^max(4, CeilLog2(size) / 4).
std::int64_t levelPowerFor(std::int64_t size)
{
    return std::max<std::int64_t>(4, ceilLog2(size) / kLevels);
}

// vectorized_inner_sum / row_sum / multi_row_sum of SumKernel.cpp over the whole vectors of n >= W contiguous
// floats, with the norm's accumulator (norm_kernel_tensor_iterator_impl's acc_vec) and max/min fed from the
// same loads. Portable: any width, squares fused or not.
template <int W, bool Fma>
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
__attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#endif
void accumulatePortable(const float* p, std::int64_t n, VectorTotals<W>& out)
{
    Lanes<W, Fma> lanes;
    const std::int64_t vecSize = n / W;
    const std::int64_t size = vecSize / kRows; // rows of kRows vectors
    const std::int64_t levelPower = levelPowerFor(size);
    const std::int64_t levelStep = std::int64_t(1) << levelPower;
    const std::int64_t levelMask = levelStep - 1;
    alignas(64) float acc[kLevels][kRows][W] = {};
    std::int64_t i = 0;
    for (; i + levelStep <= size;) {
        for (std::int64_t j = 0; j < levelStep; ++j, ++i) {
            const float* row = p + i * kRows * W;
            for (int r = 0; r < kRows; ++r)
                lanes.visit(row + r * W, acc[0][r]);
        }
        for (int j = 1; j < kLevels; ++j) {
            for (int r = 0; r < kRows; ++r) {
                addLanes<W>(acc[j][r], acc[j - 1][r]);
                std::fill_n(acc[j - 1][r], W, 0.f);
            }
            if ((i & (levelMask << (j * levelPower))) != 0)
                break;
        }
    }
    for (; i < size; ++i) {
        const float* row = p + i * kRows * W;
        for (int r = 0; r < kRows; ++r)
            lanes.visit(row + r * W, acc[0][r]);
    }
    for (int j = 1; j < kLevels; ++j)
        for (int r = 0; r < kRows; ++r)
            addLanes<W>(acc[0][r], acc[j][r]);
    // row_sum: the vectors after the last whole row go to the first partial, then the partials fold into it.
    for (std::int64_t v = size * kRows; v < vecSize; ++v)
        lanes.visit(p + v * W, acc[0][0]);
    for (int r = 1; r < kRows; ++r)
        addLanes<W>(acc[0][0], acc[0][r]);
    std::copy_n(acc[0][0], W, out.sum);
    std::copy_n(lanes.sq, W, out.sq);
    std::copy_n(lanes.mx, W, out.mx);
    std::copy_n(lanes.mn, W, out.mn);
}

#if defined(__x86_64__) && defined(__GNUC__)
// One row of four vectors: into a0..a3, their squares into sq in memory order.
__attribute__((target("avx2,fma"), always_inline)) inline void avx2Row(
    const float* q, __m256& a0, __m256& a1, __m256& a2, __m256& a3, __m256& sq, __m256& mx, __m256& mn)
{
    const __m256 x0 = _mm256_loadu_ps(q), x1 = _mm256_loadu_ps(q + 8), x2 = _mm256_loadu_ps(q + 16),
                 x3 = _mm256_loadu_ps(q + 24);
    a0 = _mm256_add_ps(a0, x0), a1 = _mm256_add_ps(a1, x1), a2 = _mm256_add_ps(a2, x2), a3 = _mm256_add_ps(a3, x3);
    sq = _mm256_fmadd_ps(x0, x0, sq), sq = _mm256_fmadd_ps(x1, x1, sq);
    sq = _mm256_fmadd_ps(x2, x2, sq), sq = _mm256_fmadd_ps(x3, x3, sq);
    mx = _mm256_max_ps(_mm256_max_ps(x0, x1), _mm256_max_ps(_mm256_max_ps(x2, x3), mx));
    mn = _mm256_min_ps(_mm256_min_ps(x0, x1), _mm256_min_ps(_mm256_min_ps(x2, x3), mn));
}

// accumulatePortable<8, true> in AVX2 registers (what libtorch's AVX2 kernels are): the portable loop keeps
// its accumulators in memory. Same additions in the same order, lane by lane.
__attribute__((target("avx2,fma"))) void accumulateAvx2Fma(const float* p, std::int64_t n, VectorTotals<8>& out)
{
    constexpr int W = 8;
    const std::int64_t vecSize = n / W;
    const std::int64_t size = vecSize / kRows;
    const std::int64_t levelPower = levelPowerFor(size);
    const std::int64_t levelStep = std::int64_t(1) << levelPower;
    const std::int64_t levelMask = levelStep - 1;
    const __m256 zero = _mm256_setzero_ps();
    __m256 acc[kLevels][kRows];
    for (auto& level : acc)
        for (auto& a : level)
            a = zero;
    __m256 sq = zero, mx = _mm256_set1_ps(-std::numeric_limits<float>::infinity()),
           mn = _mm256_set1_ps(std::numeric_limits<float>::infinity());
    __m256 a0 = zero, a1 = zero, a2 = zero, a3 = zero;
    std::int64_t i = 0;
    for (; i + levelStep <= size;) {
        for (std::int64_t j = 0; j < levelStep; ++j, ++i)
            avx2Row(p + i * kRows * W, a0, a1, a2, a3, sq, mx, mn);
        acc[0][0] = a0, acc[0][1] = a1, acc[0][2] = a2, acc[0][3] = a3;
        for (int j = 1; j < kLevels; ++j) {
            for (int r = 0; r < kRows; ++r) {
                acc[j][r] = _mm256_add_ps(acc[j][r], acc[j - 1][r]);
                acc[j - 1][r] = zero;
            }
            if ((i & (levelMask << (j * levelPower))) != 0)
                break;
        }
        a0 = acc[0][0], a1 = acc[0][1], a2 = acc[0][2], a3 = acc[0][3];
    }
    for (; i < size; ++i)
        avx2Row(p + i * kRows * W, a0, a1, a2, a3, sq, mx, mn);
    acc[0][0] = a0, acc[0][1] = a1, acc[0][2] = a2, acc[0][3] = a3;
    for (int j = 1; j < kLevels; ++j)
        for (int r = 0; r < kRows; ++r)
            acc[0][r] = _mm256_add_ps(acc[0][r], acc[j][r]);
    for (std::int64_t v = size * kRows; v < vecSize; ++v) {
        const __m256 x = _mm256_loadu_ps(p + v * W);
        acc[0][0] = _mm256_add_ps(acc[0][0], x);
        sq = _mm256_fmadd_ps(x, x, sq);
        mx = _mm256_max_ps(x, mx);
        mn = _mm256_min_ps(x, mn);
    }
    for (int r = 1; r < kRows; ++r)
        acc[0][0] = _mm256_add_ps(acc[0][0], acc[0][r]);
    _mm256_store_ps(out.sum, acc[0][0]);
    _mm256_store_ps(out.sq, sq);
    _mm256_store_ps(out.mx, mx);
    _mm256_store_ps(out.mn, mn);
}

bool cpuHasAvx2Fma()
{
    static const bool has = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    return has;
}
#endif

// The rest of vectorized_inner_sum (the scalar tail, then the lanes, into an output that starts at zero) and of
// the norm (lanes folded left to right, then the tail's squares); max and min over lanes and tail.
template <int W>
void finish(const float* p, std::int64_t n, const VectorTotals<W>& t, const AtenOrderVariant& variant, AtenOrderStats& out)
{
    const std::int64_t tailBegin = n / W * W;
    float total = 0, mx = -std::numeric_limits<float>::infinity(), mn = std::numeric_limits<float>::infinity();
    for (std::int64_t k = tailBegin; k < n; ++k)
        total += p[k];
    for (int k = 0; k < W; ++k)
        total += t.sum[k];
    out.sum = 0.f + total;
    float squares = t.sq[0];
    for (int k = 1; k < W; ++k)
        squares = squares + t.sq[k];
    out.sumSquares = addTailSquares(squares, p + tailBegin, n - tailBegin, variant);
    for (int k = 0; k < W; ++k) {
        mx = t.mx[k] > mx ? t.mx[k] : mx;
        mn = t.mn[k] < mn ? t.mn[k] : mn;
    }
    for (std::int64_t k = tailBegin; k < n; ++k) {
        mx = p[k] > mx ? p[k] : mx;
        mn = p[k] < mn ? p[k] : mn;
    }
    out.max = mx;
    out.min = mn;
}

template <int W, bool Fma>
void vectorPass(const float* p, std::int64_t n, const AtenOrderVariant& variant, bool simd, AtenOrderStats& out)
{
    VectorTotals<W> totals;
#if defined(__x86_64__) && defined(__GNUC__)
    if constexpr (W == 8 && Fma)
        if (simd && cpuHasAvx2Fma()) {
            accumulateAvx2Fma(p, n, totals);
            finish<W>(p, n, totals, variant, out);
            return;
        }
#endif
    (void)simd;
    accumulatePortable<W, Fma>(p, n, totals);
    finish<W>(p, n, totals, variant, out);
}

bool hasNaN(const float* p, std::int64_t n)
{
    for (std::int64_t k = 0; k < n; ++k)
        if (std::isnan(p[k]))
            return true;
    return false;
}

} // namespace

std::vector<AtenOrderVariant> atenOrderCandidates()
{
    std::vector<AtenOrderVariant> out;
    for (int lanes : { 8, 16 })
        for (bool fmaLanes : { false, true })
            for (int tailGroup : { -1, 0, 4 })
                out.push_back({ lanes, fmaLanes, tailGroup >= 0, std::max(tailGroup, 0) });
    return out;
}

namespace {

// Values of many magnitudes and both signs (odd seeds), or of one magnitude (even seeds: there a square's
// rounding, fused or not, shows in the total): their sums depend on the order of every addition.
std::vector<float> checkValues(std::int64_t n, std::uint32_t seed)
{
    std::mt19937 gen(seed);
    std::normal_distribution<float> normal;
    std::uniform_real_distribution<float> uniform(1.f, 2.f);
    std::vector<float> v(static_cast<std::size_t>(n));
    for (float& x : v)
        x = seed % 2 ? normal(gen) * std::exp(normal(gen) * 2.f) + 3.3f : uniform(gen) * (gen() % 2 ? 1000.f : -1000.f);
    return v;
}

bool sameBits(float a, float b)
{
    return std::memcmp(&a, &b, sizeof a) == 0;
}

std::optional<AtenOrderVariant> selfCheck()
{
    if (const char* off = std::getenv("MSPROBE_STATS_ATEN"); off && *off && std::strcmp(off, "0") != 0)
        return std::nullopt;
    at::NoGradGuard noGrad;
    at::DisableRecordFunctionGuard noRecord;
    std::vector<AtenOrderVariant> alive = atenOrderCandidates();
    const std::int64_t sizes[] = { 1, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 100, 127, 128, 129, 255,
        256, 257, 511, 512, 513, 1000, 1023, 1024, 1025, 2047, 2049, 4095, 4096, 4097, 8191, 8192, 8193, 12345, 16384,
        16385, 24577, kAtenGrainSize - 1 };
    // Small sizes (the tails' rules) several times: one random draw often rounds two rules alike.
    std::vector<std::int64_t> all;
    for (int draw = 0; draw < 6; ++draw)
        for (std::int64_t n = 1; n < 48; ++n)
            all.push_back(n);
    all.insert(all.end(), std::begin(sizes), std::end(sizes));
    std::uint32_t seed = 1;
    for (const std::int64_t n : all) {
        std::vector<float> values = checkValues(n, seed++);
        const at::Tensor t = at::from_blob(values.data(), { n }, at::kFloat);
        const float sum = *at::cpu::sum(t, at::OptionalIntArrayRef {}, false, c10::nullopt).data_ptr<float>();
        const float norm
            = *at::cpu::linalg_vector_norm(t, 2, at::OptionalIntArrayRef {}, false, c10::nullopt).data_ptr<float>();
        std::erase_if(alive, [&](const AtenOrderVariant& v) {
            const AtenOrderStats s = atenOrderStatsWith(values.data(), n, v);
            return !sameBits(s.sum, sum) || !sameBits(std::sqrt(s.sumSquares), norm);
        });
        if (alive.empty())
            return std::nullopt;
    }
    // Two rules the tensors could not tell apart: which one ATen follows elsewhere is not known.
    if (alive.size() != 1)
        return std::nullopt;
    return alive.front();
}

} // namespace

AtenOrderStats atenOrderStatsWith(const float* data, std::int64_t n, const AtenOrderVariant& v, bool simd)
{
    AtenOrderStats out;
    if (n < v.lanes) {
        // Below one vector both ATen kernels run scalar loops: the sum in rows of four, the squares in order.
        out.sum = 0.f + scalarRowSum(data, n);
        float squares = 0, mx = -std::numeric_limits<float>::infinity(), mn = std::numeric_limits<float>::infinity();
        for (int k = 1; k < v.lanes; ++k)
            squares = squares + 0.f;
        squares = addTailSquares(squares, data, n, v);
        for (std::int64_t k = 0; k < n; ++k) {
            mx = data[k] > mx ? data[k] : mx;
            mn = data[k] < mn ? data[k] : mn;
        }
        out.sumSquares = squares, out.max = mx, out.min = mn;
    } else if (v.lanes == 8) {
        v.fmaLanes ? vectorPass<8, true>(data, n, v, simd, out) : vectorPass<8, false>(data, n, v, simd, out);
    } else {
        v.fmaLanes ? vectorPass<16, true>(data, n, v, simd, out) : vectorPass<16, false>(data, n, v, simd, out);
    }
    // A NaN makes the sum NaN (so does +inf meeting -inf): only then is the tensor searched for one.
    out.hasNaN = std::isnan(out.sum) && hasNaN(data, n);
    return out;
}

std::optional<AtenOrderVariant> atenOrderVariant()
{
    static const std::optional<AtenOrderVariant> variant = selfCheck();
    return variant;
}

bool atenOrderCovers(const at::Tensor& t)
{
    if (!t.defined() || !t.is_cpu() || t.layout() != at::kStrided || t.is_quantized()
        || t.scalar_type() != at::kFloat || t.dim() == 0 || !t.has_storage() || !t.is_non_overlapping_and_dense())
        return false;
    const std::int64_t n = t.numel();
    if (n == 0 || n > kAtenOrderMaxNumel)
        return false;
    return n < kAtenGrainSize || at::get_num_threads() == 1 || at::in_parallel_region();
}

std::optional<AtenOrderStats> atenOrderStats(const at::Tensor& t)
{
    if (!atenOrderCovers(t))
        return std::nullopt;
    const std::optional<AtenOrderVariant> variant = atenOrderVariant();
    if (!variant)
        return std::nullopt;
    // A transposed or permuted dense tensor: ATen's TensorIterator orders the dimensions by stride and coalesces
    // them, so its full reductions run over memory as over the contiguous tensor; memory starts at data_ptr (strides
    // are never negative).
    return atenOrderStatsWith(t.data_ptr<float>(), t.numel(), *variant);
}

} // namespace msprobe::capture
