// SPDX-License-Identifier: Apache-2.0
#include "trend/trend_tags.h"

#include "support/python_text.h"

#include <algorithm>
#include <cctype>

namespace msprobe::trend {

namespace {

// The name's dot-separated parts (Python's str.split('.'), as everywhere names are cut).
std::vector<std::string> splitDots(const std::string& text)
{
    const auto views = support::pythonSplit(text, '.');
    return { views.begin(), views.end() };
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

std::vector<TrendTag> dumpTags(const std::string& targetName)
{
    const auto parts = splitDots(targetName);
    if (parts.size() < 3)
        return {};
    std::vector<TrendTag> tags;
    std::vector<std::string> rest;
    for (std::size_t k = 0; k + 2 < parts.size(); ++k) {
        if (parts[k] == "Module" || parts[k] == "Cell")
            tags.push_back({ parts[k], "default" });
        else
            rest.push_back(parts[k]);
    }
    if (rest.empty())
        return {};
    tags.push_back({ parts[parts.size() - 2] + "." + parts.back(), "index" });
    auto joined = [&](std::size_t from, std::size_t to) {
        std::string text;
        for (std::size_t k = from; k < to; ++k)
            text += (k == from ? "" : ".") + rest[k];
        return text;
    };
    if (tags.front().category != "default") {
        tags.push_back({ joined(0, rest.size()), "function" });
        return tags;
    }
    std::size_t start = 0; // the first part after the last layer
    std::size_t afterNumber = 0; // the first part after the last numeric part
    for (std::size_t k = 0; k < rest.size(); ++k) {
        if (!isNumber(rest[k]))
            continue;
        if (k > 0 && !isNumber(rest[k - 1])) {
            if (k - 1 > start)
                tags.push_back({ joined(start, k - 1), "module" });
            tags.push_back({ rest[k - 1] + "." + rest[k], "layer" });
            start = k + 1;
        }
        afterNumber = k + 1;
    }
    if (afterNumber < rest.size())
        tags.push_back({ joined(afterNumber, rest.size()), "module" });
    return tags;
}

} // namespace msprobe::trend
