// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <ATen/core/Tensor.h>

#include <string>

namespace msprobe::capture {

// numpy .npy (version 1.0) bytes of a tensor, contiguous, little-endian. bfloat16 has no numpy dtype and is
// stored as float32 (dump.json keeps the original dtype); complex32 as complex64.
std::string encodeNpy(const at::Tensor& tensor);

// torch.save-compatible zip archive of one contiguous tensor (readable by Python torch.load).
std::string encodePt(const at::Tensor& tensor);

} // namespace msprobe::capture
