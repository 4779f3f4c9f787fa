// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "compare/py_value.h"
#include "dump/tensor_file.h"

#include <array>
#include <string>
#include <vector>

namespace msprobe::compare {

// The six tensor-mode metrics of one row (Cosine, EucDist, MaxAbsErr, MaxRelativeErr, One Thousandth Err Ratio,
// Five Thousandths Err Ratio) and the reference's message (which the Result rules discard later).
// A tensor file a row names that is missing or cannot be read (the folder or the file absent, a link out of the
// dump folder, a truncated or inconsistent .pt or .npy).
struct TensorFileProblem {
    std::string file; // the path (the data_name under its folder when it cannot be resolved)
    std::string reason; // why, without the path
};

struct TensorMetrics {
    std::array<PyVal, 6> cells;
    std::string message;
    std::vector<TensorFileProblem> fileProblems; // non-empty: the cells are "unsupported" and the row is an error
};

// All six set to one error value ("unsupported", "shape unmatched", "N/A").
TensorMetrics tensorMetricsError(std::string_view value, std::string message);

// Compares two tensors as the reference's npy_compare does after torch.load: bf16 already widened, squeezed,
// validation chain (empty, shape, 0-d, NaN/Inf positions, dtype), then the metrics with numpy's dtype rules.
TensorMetrics compareTensors(const dump::TensorData& npu, const dump::TensorData& bench);

} // namespace msprobe::compare
