// SPDX-License-Identifier: Apache-2.0
#include "parallel/rank_groups.h"

#include "support/error.h"

#include <algorithm>
#include <cctype>
#include <utility>

namespace msprobe::parallel {

namespace {

std::vector<std::string> splitTokens(const std::string& text)
{
    std::vector<std::string> tokens;
    std::size_t start = 0;
    while (true) {
        const std::size_t dash = text.find('-', start);
        tokens.push_back(text.substr(start, dash == std::string::npos ? std::string::npos : dash - start));
        if (dash == std::string::npos)
            return tokens;
        start = dash + 1;
    }
}

bool contains(const std::vector<std::string>& tokens, std::string_view token)
{
    return std::find(tokens.begin(), tokens.end(), token) != tokens.end();
}

std::vector<long long> prefixProducts(const std::vector<int>& dims)
{
    std::vector<long long> products { 1 };
    for (int dim : dims)
        products.push_back(products.back() * dim);
    return products;
}

// Mixed-radix digits of `index` over `dims` (first digit varies fastest).
void decompose(long long index, const std::vector<int>& dims, std::vector<long long>& digits)
{
    digits.resize(dims.size());
    for (std::size_t i = 0; i < dims.size(); ++i) {
        digits[i] = index % dims[i];
        index /= dims[i];
    }
}

} // namespace

RankGenerator::RankGenerator(int tensorParallel, int expertParallel, int dataParallel, int pipelineParallel,
    int contextParallel, std::string_view order)
{
    const std::string original(order);
    std::string normalized = original;
    std::transform(normalized.begin(), normalized.end(), normalized.begin(),
        [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    const std::pair<std::string_view, int> sizes[] = {
        { "tp", tensorParallel },
        { "pp", pipelineParallel },
        { "dp", dataParallel },
        { "ep", expertParallel },
        { "cp", contextParallel },
    };
    std::vector<std::string> tokens = splitTokens(normalized);
    for (std::size_t i = 0; i < tokens.size(); ++i) {
        const bool known = std::any_of(std::begin(sizes), std::end(sizes), [&](const auto& s) { return s.first == tokens[i]; });
        if (!known)
            throw support::Error("The order (" + original + ") has an unknown parallel dimension (" + tokens[i]
                + "); use tp, pp, dp, ep and cp joined by '-'.");
        if (std::find(tokens.begin(), tokens.begin() + static_cast<std::ptrdiff_t>(i), tokens[i]) != tokens.begin() + static_cast<std::ptrdiff_t>(i))
            throw support::Error("The order (" + original + ") names the parallel dimension (" + tokens[i] + ") twice.");
    }
    if (contains(tokens, "ep") && normalized.find("ep-dp") == std::string::npos && normalized.find("dp-ep") == std::string::npos)
        throw support::Error("The ep and dp must be adjacent in order (" + original + ").");
    for (const auto& [name, size] : sizes) {
        if (contains(tokens, name))
            continue;
        if (size != 1)
            throw support::Error("The parallel size (" + std::string(name) + ") is (" + std::to_string(size)
                + "), but it's not specified in order (" + original + ").");
        normalized += "-" + std::string(name);
        tokens.emplace_back(name);
    }
    m_order = normalized;
    for (const std::string& token : tokens) {
        const int size = std::find_if(std::begin(sizes), std::end(sizes), [&](const auto& s) { return s.first == token; })->second;
        if (token == "dp") {
            m_tokensWithExpert.push_back(token);
            m_sizesWithExpert.push_back(dataParallel / expertParallel);
            m_tokensWithoutExpert.push_back(token);
            m_sizesWithoutExpert.push_back(dataParallel);
        } else if (token == "ep") {
            m_tokensWithExpert.push_back(token);
            m_sizesWithExpert.push_back(expertParallel);
        } else {
            m_tokensWithExpert.push_back(token);
            m_sizesWithExpert.push_back(size);
            m_tokensWithoutExpert.push_back(token);
            m_sizesWithoutExpert.push_back(size);
        }
    }
    m_totalSize = tensorParallel * dataParallel * pipelineParallel * contextParallel;
}

RankGroups RankGenerator::groups(std::string_view tokens, bool separateExpert) const
{
    const auto& order = separateExpert ? m_tokensWithExpert : m_tokensWithoutExpert;
    const auto& dims = separateExpert ? m_sizesWithExpert : m_sizesWithoutExpert;
    std::vector<bool> masked(order.size(), false);
    for (const std::string& token : splitTokens(std::string(tokens))) {
        const auto at = std::find(order.begin(), order.end(), token);
        if (at == order.end())
            throw support::Error("no parallel dimension (" + token + ") in order (" + m_order + ")");
        masked[static_cast<std::size_t>(at - order.begin())] = true;
    }
    const std::vector<long long> strides = prefixProducts(dims);
    std::vector<int> maskedDims, unmaskedDims;
    std::vector<long long> maskedStrides, unmaskedStrides;
    for (std::size_t i = 0; i < dims.size(); ++i) {
        (masked[i] ? maskedDims : unmaskedDims).push_back(dims[i]);
        (masked[i] ? maskedStrides : unmaskedStrides).push_back(strides[i]);
    }
    const long long groupSize = prefixProducts(maskedDims).back();
    const long long groupCount = m_totalSize / groupSize;
    RankGroups result(static_cast<std::size_t>(groupCount));
    std::vector<long long> groupDigits, memberDigits;
    for (long long g = 0; g < groupCount; ++g) {
        decompose(g, unmaskedDims, groupDigits);
        long long base = 0;
        for (std::size_t i = 0; i < groupDigits.size(); ++i)
            base += groupDigits[i] * unmaskedStrides[i];
        auto& group = result[static_cast<std::size_t>(g)];
        group.reserve(static_cast<std::size_t>(groupSize));
        for (long long m = 0; m < groupSize; ++m) {
            decompose(m, maskedDims, memberDigits);
            long long rank = base;
            for (std::size_t i = 0; i < memberDigits.size(); ++i)
                rank += memberDigits[i] * maskedStrides[i];
            group.push_back(static_cast<int>(rank));
        }
    }
    return result;
}

} // namespace msprobe::parallel
