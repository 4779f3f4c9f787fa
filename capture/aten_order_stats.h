// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <ATen/core/Tensor.h>

#include <cstdint>
#include <optional>
#include <vector>

namespace msprobe::capture {

// Max, min, sum and sum of squares of a float32 tensor from one pass over memory, the sums added in the order
// libtorch 1.13's CPU kernels add them: torch.sum's cascade sum (SumKernel.cpp: four interleaved vector
// accumulators, four levels) and torch.linalg.vector_norm's 2-norm loop (ReduceOpsKernel.cpp: one vector
// accumulator, its lanes folded left to right, then the scalar tail). sum / numel and sqrt(sumSquares) in float32
// are then torch.mean and torch.norm bit for bit.
struct AtenOrderStats {
    float max = 0, min = 0, sum = 0, sumSquares = 0;
    bool hasNaN = false;
};

// How the installed libtorch's kernels were compiled: the width of Vectorized<float> (8 for AVX2 and the
// generic build, 16 for AVX-512) and whether the compiler fused the squares into their additions.
struct AtenOrderVariant {
    int lanes = 8;
    bool fmaLanes = false; // acc_vec += x * x on the vector accumulator
    bool fmaTail = false; // buffer[0] += x * x on the elements after the last whole vector
    // With fmaTail: the tail's leading elements, in whole groups of this many, are squared apart from their
    // addition (the compiler vectorised that loop's multiplications 4 wide, the additions kept in order); 0: none.
    int tailGroup = 0;
    friend bool operator==(const AtenOrderVariant&, const AtenOrderVariant&) = default;
};

// Every variant the self-check tries: 8 or 16 lanes, squares fused or not in the lanes, and in the tail none,
// all, or all but the leading groups of four.
std::vector<AtenOrderVariant> atenOrderCandidates();

// The variant that reproduces this process's ATen, found once (first use) by comparing every candidate with
// at::sum and at::linalg_vector_norm on fixed pseudo-random tensors of sizes around the vector width and the
// cascade's level steps; nullopt when no candidate matches them all (then the capture keeps ATen's own calls).
std::optional<AtenOrderVariant> atenOrderVariant();

// Elements above which torch.sum would split a tensor across intra-op threads (at::internal::GRAIN_SIZE): its
// sum then depends on the thread count and the split, so such tensors stay on ATen unless ATen runs serially
// (one thread, or inside a parallel region).
constexpr std::int64_t kAtenGrainSize = 32768;
// Counts above 2^24 do not convert to float exactly: left to ATen.
constexpr std::int64_t kAtenOrderMaxNumel = std::int64_t(1) << 24;

// Whether the one-pass statistics are ATen's for this tensor: a CPU, strided float32 tensor whose elements fill a
// block of memory (contiguous, or a transpose or permutation of such: ATen reduces those in memory order too) of
// 1..2^24 elements and at least one dimension, which ATen would reduce on one thread (see kAtenGrainSize).
// Says nothing about the self-check.
bool atenOrderCovers(const at::Tensor& tensor);

// The statistics when atenOrderCovers the tensor and atenOrderVariant() found a variant; otherwise nullopt.
std::optional<AtenOrderStats> atenOrderStats(const at::Tensor& tensor);

// The pass with a given variant, whatever the self-check said (tests compare each candidate with ATen). simd
// false: the portable loop even where an AVX2 one reproduces the variant (tests compare the two).
AtenOrderStats atenOrderStatsWith(const float* data, std::int64_t numel, const AtenOrderVariant& variant, bool simd = true);

} // namespace msprobe::capture
