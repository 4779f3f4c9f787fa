// SPDX-License-Identifier: Apache-2.0
#include "graph/visdb/error_magnitude.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <string>

namespace msprobe::graph {

namespace {

using Json = nlohmann::ordered_json;

constexpr std::array<std::string_view, kMagnitudeSteps> kPalette = { "#FFFCF3", "#FFEDBE", "#FFDC7F", "#FFC62E", "#FF704D" };

// A stored metric as a fraction: "55.5%" -> 0.555, "0.25" -> 0.25, "nan"/"inf" -> infinity (the worst), text
// that is no number ("N/A", "unsupported", "") -> nothing.
std::optional<double> metricOf(const Json& item, const char* key)
{
    const auto it = item.find(key);
    if (it == item.end())
        return std::nullopt;
    if (it->is_number())
        return it->get<double>();
    if (!it->is_string())
        return std::nullopt;
    std::string text = it->get<std::string>();
    const bool percent = !text.empty() && text.back() == '%';
    if (percent)
        text.pop_back();
    char* end = nullptr;
    const double value = std::strtod(text.c_str(), &end);
    if (text.empty() || end != text.c_str() + text.size())
        return std::nullopt;
    if (!std::isfinite(value))
        return INFINITY;
    return percent ? value / 100 : value;
}

} // namespace

double errorMagnitude(std::string_view outputData, compare::CompareMode mode)
{
    if (outputData.empty())
        return NAN;
    const Json items = Json::parse(outputData, nullptr, false);
    if (!items.is_object())
        return NAN;
    double worst = -1;
    auto consider = [&](std::optional<double> value) {
        if (value)
            worst = std::max(worst, std::abs(*value));
    };
    for (const auto& [name, item] : items.items()) {
        if (!item.is_object())
            continue;
        // NaN or inf in the debug side's own statistics leaves the relative errors "N/A": it is the worst case.
        if (mode != compare::CompareMode::Md5)
            for (const char* key : { "Max", "Min", "Mean", "Norm" })
                if (const auto value = metricOf(item, key); value && std::isinf(*value))
                    worst = 1;
        switch (mode) {
        case compare::CompareMode::Statistics:
            for (const char* key : { "MaxRelativeErr", "MinRelativeErr", "MeanRelativeErr", "NormRelativeErr" })
                consider(metricOf(item, key));
            break;
        case compare::CompareMode::Tensor:
            if (const auto cosine = metricOf(item, "Cosine"))
                consider(std::isfinite(*cosine) ? 1 - *cosine : INFINITY);
            consider(metricOf(item, "MaxRelativeErr"));
            break;
        case compare::CompareMode::Md5: {
            const auto result = item.find("Result");
            const std::string text = result != item.end() && result->is_string() ? result->get<std::string>() : std::string();
            if (text == "pass")
                worst = std::max(worst, 0.0);
            else if (text == "error" || text == "diff" || text == "different")
                worst = 1;
            break;
        }
        }
    }
    return worst < 0 ? NAN : std::min(1.0, worst);
}

std::vector<float> errorMagnitudes(const VisGraph& graph, compare::CompareMode mode)
{
    std::vector<float> out(graph.nodes.size(), NAN);
    for (std::size_t i = 0; i < graph.nodes.size(); ++i)
        if (graph.nodes[i].matched())
            out[i] = static_cast<float>(errorMagnitude(graph.nodes[i].outputData, mode));
    return out;
}

int magnitudeStep(double magnitude)
{
    if (std::isnan(magnitude))
        return -1;
    return std::clamp(static_cast<int>(magnitude * kMagnitudeSteps), 0, kMagnitudeSteps - 1);
}

std::string_view magnitudeColour(int step) { return kPalette[static_cast<std::size_t>(std::clamp(step, 0, kMagnitudeSteps - 1))]; }

} // namespace msprobe::graph
