// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "dump/dump_model.h"

#include <ATen/core/Tensor.h>

namespace msprobe::capture {

struct TensorStats {
    StatValue max, min, mean, norm;
};

enum class StatPrecision { Low, High };

// The statistics msprobe writes for a tensor (spec 1.6, current HEAD):
// float16/bfloat16/float32 -> max, min, mean and L2 norm computed in the tensor's own dtype;
// float64, integer types (and any dtype with precision "high") -> max and min only;
// bool -> any()/all(); 0-d tensors -> the value four times; empty tensors -> all null.
// Computed on the tensor's own device.
TensorStats computeTensorStats(const at::Tensor& tensor, StatPrecision precision = StatPrecision::Low);

} // namespace msprobe::capture
