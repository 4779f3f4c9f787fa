// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>

namespace msprobe {

// The C++ counterpart of msprobe's seed_all: seeds torch's generators (CPU, and CUDA where present) and the
// C library RNG; deterministic switches torch to deterministic algorithms (cuDNN deterministic, no
// benchmarking, CUBLAS_WORKSPACE_CONFIG set); disable_dropout makes every aten dropout the identity on the
// calling thread (as the reference patches dropout away), undone by a later call with false.
void seed_all(std::uint64_t seed = 1234, bool deterministic = false, bool disable_dropout = false);

} // namespace msprobe
