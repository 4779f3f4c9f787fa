// SPDX-License-Identifier: Apache-2.0
#include "capture/seed.h"

#include <ATen/Context.h>
#include <ATen/core/Tensor.h>
#include <ATen/core/dispatch/Dispatcher.h>
#include <c10/core/impl/LocalDispatchKeySet.h>
#include <torch/library.h>
#include <ATen/Utils.h>
#include <torch/cuda.h>

#include <cstdlib>

namespace msprobe {

namespace {

// TESTING_ONLY_GenericMode sits above Autograd and is never set by libtorch itself: while it is in the
// thread's included set, dropout ops land here and every other op falls through unchanged.
constexpr c10::DispatchKey kNoDropoutKey = c10::DispatchKey::TESTING_ONLY_GenericMode;

at::Tensor identity(const at::Tensor& input, double, bool) { return input; }
at::Tensor& identityInplace(at::Tensor& input, double, bool) { return input; }

} // namespace

void seed_all(std::uint64_t seed, bool deterministic, bool disable_dropout)
{
    at::manual_seed(seed);
    if (torch::cuda::is_available())
        torch::cuda::manual_seed_all(seed);
    std::srand(static_cast<unsigned>(seed));
    auto& ctx = at::globalContext();
    ctx.setDeterministicAlgorithms(deterministic, false);
    ctx.setDeterministicCuDNN(deterministic);
    ctx.setBenchmarkCuDNN(!deterministic && ctx.benchmarkCuDNN());
    if (deterministic)
        ::setenv("CUBLAS_WORKSPACE_CONFIG", ":4096:8", 1);
    c10::impl::tls_set_dispatch_key_included(kNoDropoutKey, disable_dropout);
}

} // namespace msprobe

TORCH_LIBRARY_IMPL(_, TESTING_ONLY_GenericMode, m)
{
    m.fallback(torch::CppFunction::makeFallthrough());
}

TORCH_LIBRARY_IMPL(aten, TESTING_ONLY_GenericMode, m)
{
    for (const char* op : { "dropout", "feature_dropout", "alpha_dropout", "feature_alpha_dropout" })
        m.impl(op, TORCH_FN(msprobe::identity));
    for (const char* op : { "dropout_", "feature_dropout_", "alpha_dropout_", "feature_alpha_dropout_" })
        m.impl(op, TORCH_FN(msprobe::identityInplace));
}
