// SPDX-License-Identifier: Apache-2.0
#include "trend/trend_tags.h"

#include <algorithm>
#include <cctype>

namespace msprobe::trend {

namespace {

std::vector<std::string> splitDots(const std::string& text)
{
    std::vector<std::string> parts;
    std::size_t start = 0;
    for (std::size_t dot; (dot = text.find('.', start)) != std::string::npos; start = dot + 1)
        parts.push_back(text.substr(start, dot - start));
    parts.push_back(text.substr(start));
    return parts;
}

bool isNumber(const std::string& part)
{
    return !part.empty() && std::all_of(part.begin(), part.end(), [](unsigned char c) { return std::isdigit(c); });
}

} // namespace

std::vector<TrendTag> monitorTags(const std::string& targetName)
{
    std::vector<TrendTag> tags;
    const auto parts = splitDots(targetName);
    for (std::size_t k = 0; k < parts.size(); ++k) {
        if (!isNumber(parts[k]))
            tags.push_back({ parts[k], "module" });
        else if (k > 0 && !isNumber(parts[k - 1]))
            tags.push_back({ parts[k - 1] + "." + parts[k], "layer" });
    }
    return tags;
}

} // namespace msprobe::trend
