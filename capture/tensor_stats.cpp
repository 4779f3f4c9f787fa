// SPDX-License-Identifier: Apache-2.0
#include "capture/tensor_stats.h"

#include <ATen/ATen.h>

namespace msprobe::capture {

namespace {

StatValue scalarStat(const at::Tensor& t)
{
    if (t.scalar_type() == at::kBool)
        return StatValue::ofBool(t.item<bool>());
    if (at::isIntegralType(t.scalar_type(), /*includeBool=*/false))
        return StatValue::ofInt(t.item<std::int64_t>());
    return StatValue::ofFloat(t.item<double>());
}

} // namespace

TensorStats computeTensorStats(const at::Tensor& input, StatPrecision precision)
{
    TensorStats stats;
    stats.max = stats.min = stats.mean = stats.norm = StatValue::null();
    if (!input.defined() || input.numel() == 0)
        return stats;
    const at::Tensor t = input.detach();
    const auto type = t.scalar_type();
    if (type == at::kBool) {
        stats.max = StatValue::ofBool(t.any().item<bool>());
        stats.min = StatValue::ofBool(t.all().item<bool>());
        return stats;
    }
    if (t.is_complex()) {
        const at::Tensor magnitude = t.abs();
        stats.max = scalarStat(magnitude.max());
        stats.min = scalarStat(magnitude.min());
        stats.mean = scalarStat(magnitude.mean());
        return stats;
    }
    if (t.dim() == 0) {
        stats.max = stats.min = stats.mean = stats.norm = scalarStat(t);
        return stats;
    }
    const auto [minimum, maximum] = at::aminmax(t);
    stats.max = scalarStat(maximum);
    stats.min = scalarStat(minimum);
    const bool lowPrecisionFloat = type == at::kHalf || type == at::kBFloat16 || type == at::kFloat;
    if (lowPrecisionFloat && precision == StatPrecision::Low) {
        stats.mean = scalarStat(t.mean());
        stats.norm = scalarStat(at::norm(t));
    }
    return stats;
}

} // namespace msprobe::capture
