// SPDX-License-Identifier: Apache-2.0
#include "trend/trend_tags.h"

#include "support/ascii_text.h"
#include "support/python_text.h"


namespace msprobe::trend {

namespace {

// The name's dot-separated parts as owned strings (tags are built by joining them).
std::vector<std::string> dotParts(const std::string& text)
{
    const auto views = support::pythonSplit(text, '.');
    return { views.begin(), views.end() };
}

} // namespace

std::vector<TrendTag> monitorTags(const std::string& targetName)
{
    std::vector<TrendTag> tags;
    const auto parts = dotParts(targetName);
    for (std::size_t k = 0; k < parts.size(); ++k) {
        if (!support::isDigits(parts[k]))
            tags.push_back({ parts[k], "module" });
        else if (k > 0 && !support::isDigits(parts[k - 1]))
            tags.push_back({ parts[k - 1] + "." + parts[k], "layer" });
    }
    return tags;
}

std::vector<TrendTag> dumpTags(const std::string& targetName)
{
    const auto parts = dotParts(targetName);
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
        if (!support::isDigits(rest[k]))
            continue;
        if (k > 0 && !support::isDigits(rest[k - 1])) {
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
