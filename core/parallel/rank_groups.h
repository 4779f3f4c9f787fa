// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace msprobe::parallel {

using RankGroups = std::vector<std::vector<int>>;

// Megatron's RankGenerator (spec 4.2): the ranks are laid out on a grid whose dimensions follow `order`
// (first token varies fastest); the group of a dimension holds the ranks that differ only along it.
class RankGenerator {
public:
    // Throws msprobe::Error, with the reference's message, when ep and dp are not adjacent in `order` or a
    // dimension of size > 1 is missing from it; also when a token is unknown or repeated (which the reference
    // does not check). Missing size-1 dimensions are appended.
    RankGenerator(int tensorParallel, int expertParallel, int dataParallel, int pipelineParallel,
        int contextParallel, std::string_view order);

    // Groups for "tp", "pp", "dp", "cp" or a combination such as "tp-pp"; with separateExpert, "ep" is a dimension
    // of its own and "dp" has size dp / ep.
    RankGroups groups(std::string_view tokens, bool separateExpert = false) const;
    // The order as used: lower case, missing dimensions appended.
    const std::string& normalizedOrder() const { return m_order; }

private:
    std::string m_order;
    std::vector<std::string> m_tokensWithExpert, m_tokensWithoutExpert;
    std::vector<int> m_sizesWithExpert, m_sizesWithoutExpert;
    int m_totalSize = 1;
};

} // namespace msprobe::parallel
