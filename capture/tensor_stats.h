// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "dump/dump_model.h"

#include <ATen/core/Tensor.h>

#include <cstdint>
#include <string>

namespace msprobe::capture {

enum class StatPrecision { Low, High };

// Everything one pass over a tensor yields. Integer and bool tensors fill max/min exactly in imax/imin.
struct RawStats {
    enum class Kind : std::uint8_t { Empty, Float, Integer, Bool, Complex } kind = Kind::Empty;
    std::int64_t numel = 0;
    double max = 0, min = 0, sum = 0, sumSquares = 0;
    std::int64_t imax = 0, imin = 0;
    std::int64_t nanCount = 0, infCount = 0, zeroCount = 0;

    double mean() const { return numel ? sum / static_cast<double>(numel) : 0.0; }
    double norm() const;
};

struct TensorStats {
    dump::StatValue max, min, mean, norm;
};

// One fused pass (max, min, sum, sum of squares, NaN/Inf/zero counts). CPU tensors of float32/float64/
// float16/bfloat16/integer/bool types use a SIMD loop with double accumulation across blocks; other
// devices or dtypes use ATen reductions on the tensor's own device. Never records autograd history.
// countZeros false may leave zeroCount at 0 for floating-point tensors (dump.json has no use for it; the monitor's
// "zeros" has) and saves a third of the pass.
RawStats computeRawStats(const at::Tensor& tensor, bool countZeros = true);

// The statistics msprobe writes for a tensor (spec 1.6, current HEAD):
// float16/bfloat16/float32 -> max, min, mean and L2 norm (NaN anywhere makes all four NaN, as torch does);
// float64, integer types (and any dtype with precision "high") -> max and min only;
// bool -> any()/all(); 0-d tensors -> the value four times; empty tensors -> all null.
// Mean and norm there are raw's (block-wise float sums): close to torch's but not bit-identical.
TensorStats toDumpStats(const RawStats& raw, at::ScalarType type, int64_t dim, StatPrecision precision);

// torch.mean(t) and torch.norm(t) (which is torch.linalg.vector_norm(t, 2)) in the tensor's own dtype, widened
// to double: ATen's own reductions on the tensor as it lies (strides included), so the bits are those Python's
// torch gets from the same libtorch version with the same number of intra-op threads.
struct TorchMeanNorm {
    double mean = 0, norm = 0;
};
TorchMeanNorm torchMeanNorm(const at::Tensor& tensor);

// What dump.json records: toDumpStats, with Mean and Norm of float16/bfloat16/float32 from torchMeanNorm, or,
// for tensors atenOrderStats covers (dense float32), all four from its one pass in ATen's order.
TensorStats computeTensorStats(const at::Tensor& tensor, StatPrecision precision = StatPrecision::Low);

// CRC-32 (zlib polynomial) of the tensor's raw bytes in its native dtype, contiguous, as "%08x".
std::string crc32Hex(const at::Tensor& tensor);

// summary_mode "xor" (the reference's xor_checksum): the XOR of the raw bytes, contiguous, read as little-endian
// 64-bit words (the tail zero-padded), as JSON text: "0x%016x" in quotes; for a 0-d tensor its value (a number,
// an integer or bool in hex like the words); null for an empty tensor.
std::string xorChecksumJson(const at::Tensor& tensor);

// "torch.float32" etc.
std::string torchDtypeName(at::ScalarType type);

} // namespace msprobe::capture
