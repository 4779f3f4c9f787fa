// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "compare/py_value.h"
#include "dump/tensor_file.h"

#include <array>
#include <string>

namespace msprobe {

// The six tensor-mode metrics of one row (Cosine, EucDist, MaxAbsErr, MaxRelativeErr, One Thousandth Err Ratio,
// Five Thousandths Err Ratio) and the reference's message (which the Result rules discard later).
struct TensorMetrics {
    std::array<PyVal, 6> cells;
    std::string message;
};

// All six set to one error value ("unsupported", "shape unmatched", "N/A").
TensorMetrics tensorMetricsError(std::string_view value, std::string message);

// Compares two tensors as the reference's npy_compare does after torch.load: bf16 already widened, squeezed,
// validation chain (empty, shape, 0-d, NaN/Inf positions, dtype), then the metrics with numpy's dtype rules.
TensorMetrics compareTensors(const TensorData& npu, const TensorData& bench);

} // namespace msprobe
