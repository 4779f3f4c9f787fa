// SPDX-License-Identifier: Apache-2.0
#include "graph/match/graph_match.h"
#include "support/python_text.h"

#include "graph/model/graph_builder.h"

#include <deque>
#include <unordered_set>

namespace msprobe::graph {

namespace {

void link(Graph& npu, std::uint32_t n, Graph& bench, std::uint32_t b)
{
    npu.node(n).partner = b;
    bench.node(b).partner = n;
}

// Breadth-first over the NPU graph from the root, as the reference walks it.
template <typename Visit>
void breadthFirst(const Graph& graph, Visit visit)
{
    std::deque<std::uint32_t> queue { Graph::root() };
    std::vector<std::uint8_t> seen(graph.size(), 0);
    seen[Graph::root()] = 1;
    while (!queue.empty()) {
        const std::uint32_t n = queue.front();
        queue.pop_front();
        visit(n);
        for (auto child : graph.node(n).children)
            if (!seen[child]) {
                seen[child] = 1;
                queue.push_back(child);
            }
    }
}

void matchDefault(Graph& npu, Graph& bench)
{
    // Equal ancestor chains reduce to: the parent is the root on both sides, or the parents are matched.
    breadthFirst(npu, [&](std::uint32_t n) {
        const std::uint32_t b = bench.find(npu.node(n).id);
        if (b == kNoNode)
            return;
        const std::uint32_t np = npu.node(n).parent, bp = bench.node(b).parent;
        bool same = false;
        if (np == kNoNode || bp == kNoNode)
            same = np == kNoNode && bp == kNoNode;
        else
            same = npu.node(np).partner == bp && bench.node(bp).partner == np && npu.node(np).id == bench.node(bp).id;
        if (same)
            link(npu, n, bench, b);
    });
}

std::unordered_map<std::string, std::uint32_t> recountApis(const Graph& graph, std::uint32_t parent,
    std::vector<std::pair<std::string, std::uint32_t>>* ordered)
{
    std::unordered_map<std::string, std::uint32_t> byKey;
    std::unordered_map<std::string, int> counts;
    for (auto child : graph.node(parent).children) {
        if (graph.node(child).op != NodeOp::FunctionApi)
            continue;
        std::string key = fuzzyApiKey(graph.node(child).id);
        key += std::to_string(++counts[key]);
        byKey[key] = child;
        if (ordered)
            ordered->emplace_back(std::move(key), child);
    }
    return byKey;
}

void matchFuzzy(Graph& npu, Graph& bench)
{
    breadthFirst(npu, [&](std::uint32_t n) {
        if (npu.node(n).op == NodeOp::FunctionApi)
            return;
        const std::uint32_t b = bench.find(npu.node(n).id);
        if (b == kNoNode)
            return;
        link(npu, n, bench, b);
        std::vector<std::pair<std::string, std::uint32_t>> npuApis;
        recountApis(npu, n, &npuApis);
        const auto benchApis = recountApis(bench, b, nullptr);
        for (const auto& [key, api] : npuApis)
            if (auto it = benchApis.find(key); it != benchApis.end())
                link(npu, api, bench, it->second);
    });
}

void matchLayerMapping(Graph& npu, Graph& bench, const std::unordered_map<std::string, std::string>& map)
{
    breadthFirst(npu, [&](std::uint32_t n) {
        const std::string_view id = npu.node(n).id;
        auto it = map.find(std::string(id));
        const std::uint32_t b = bench.find(it == map.end() ? id : std::string_view(it->second));
        if (b != kNoNode)
            link(npu, n, bench, b);
    });
}

} // namespace

std::string fuzzyApiKey(std::string_view id)
{
    // re.sub(r"\.\d+\.", ".") scans left to right without overlaps.
    std::string out;
    std::size_t i = 0;
    while (i < id.size()) {
        if (id[i] == '.') {
            std::size_t j = i + 1;
            while (j < id.size() && id[j] >= '0' && id[j] <= '9')
                ++j;
            if (j > i + 1 && j < id.size() && id[j] == '.') {
                out += '.';
                i = j + 1;
                continue;
            }
        }
        out += id[i++];
    }
    // then re.sub(r"_rank\d+", "")
    std::string result;
    for (std::size_t k = 0; k < out.size();) {
        if (out.compare(k, 5, "_rank") == 0 && k + 5 < out.size() && out[k + 5] >= '0' && out[k + 5] <= '9') {
            k += 5;
            while (k < out.size() && out[k] >= '0' && out[k] <= '9')
                ++k;
            continue;
        }
        result += out[k++];
    }
    return result;
}

std::string oppositeDirectionId(std::string_view id)
{
    if (id.find("forward") != std::string_view::npos)
        return replaceAllText(id, "forward", "backward");
    if (id.find("backward") != std::string_view::npos)
        return replaceAllText(id, "backward", "forward");
    return {};
}

void unmatchNode(Graph& npu, std::uint32_t n, Graph& bench)
{
    const std::uint32_t b = npu.node(n).partner;
    if (b != kNoNode && bench.node(b).partner == n) {
        bench.node(b).partner = kNoNode;
        bench.node(b).modified = true;
    }
    npu.node(n).partner = kNoNode;
    npu.node(n).precision = NAN;
    npu.node(n).modified = true;
    if (n < npu.rendered.size())
        npu.rendered[n] = {};
}

std::string matchPair(Graph& npu, std::uint32_t n, Graph& bench, std::uint32_t b)
{
    if (npu.node(n).op != bench.node(b).op)
        return "node types differ (" + std::to_string(int(npu.node(n).op)) + " vs " + std::to_string(int(bench.node(b).op)) + ")";
    if (npu.node(n).partner != kNoNode)
        unmatchNode(npu, n, bench);
    const std::uint32_t previous = bench.node(b).partner;
    if (previous != kNoNode && npu.node(previous).partner == b)
        unmatchNode(npu, previous, bench);
    link(npu, n, bench, b);
    npu.node(n).modified = true;
    bench.node(b).modified = true;
    return {};
}

std::string descendantKey(const GraphNode& node) { return descendantKey(node.id, static_cast<int>(node.op)); }

std::string descendantKey(std::string_view id, int nodeType)
{
    const auto parts = support::pythonSplit(id, '.');
    auto digits = [](std::string_view s) {
        return !s.empty() && s.find_first_not_of("0123456789") == std::string_view::npos;
    };
    auto segment = [&](std::size_t fromEnd) -> std::string_view {
        return parts.size() >= fromEnd ? parts[parts.size() - fromEnd] : std::string_view {};
    };
    std::string_view shortName;
    if (nodeType == static_cast<int>(NodeOp::Module))
        shortName = digits(segment(4)) ? segment(5) : segment(4);
    else
        shortName = digits(segment(2)) ? segment(3) : segment(2);
    return std::string(shortName) + "." + std::to_string(nodeType);
}

std::vector<std::pair<std::uint32_t, std::uint32_t>> pairByDescendantKey(const std::vector<KeyedChild>& npu, const std::vector<KeyedChild>& bench)
{
    std::unordered_map<std::string_view, std::vector<std::uint32_t>> benchByKey;
    for (const auto& [child, key] : bench)
        benchByKey[key].push_back(child);
    std::unordered_map<std::string_view, std::size_t> used;
    std::vector<std::pair<std::uint32_t, std::uint32_t>> pairs;
    for (const auto& [child, key] : npu) {
        auto it = benchByKey.find(key);
        if (it == benchByKey.end())
            continue;
        std::size_t& next = used[key];
        if (next < it->second.size())
            pairs.emplace_back(child, it->second[next++]);
    }
    return pairs;
}

std::size_t matchDescendants(Graph& npu, std::uint32_t n, Graph& bench, std::uint32_t b)
{
    auto freeChildren = [](const Graph& graph, std::uint32_t parent) {
        std::vector<KeyedChild> out;
        for (auto child : graph.node(parent).children)
            if (graph.node(child).partner == kNoNode)
                out.emplace_back(child, descendantKey(graph.node(child)));
        return out;
    };
    std::size_t made = 0;
    for (const auto& [child, partner] : pairByDescendantKey(freeChildren(npu, n), freeChildren(bench, b))) {
        if (!matchPair(npu, child, bench, partner).empty())
            continue;
        ++made;
        made += matchDescendants(npu, child, bench, partner);
    }
    return made;
}

void unmatchDescendants(Graph& npu, std::uint32_t n, Graph& bench)
{
    for (auto child : npu.node(n).children) {
        if (npu.node(child).partner != kNoNode)
            unmatchNode(npu, child, bench);
        unmatchDescendants(npu, child, bench);
    }
}

MatchReport matchGraphs(Graph& npu, Graph& bench, const MatchOptions& options)
{
    MatchReport report;
    if (options.fuzzy)
        matchFuzzy(npu, bench);
    else if (options.layerMapping)
        matchLayerMapping(npu, bench, options.layerMap);
    else
        matchDefault(npu, bench);

    // A twin named in the list itself keeps what the list says about it (a file of final states replays exactly).
    // A pair that cannot apply (missing node, different node types) says nothing about its nodes.
    std::unordered_set<std::string_view> listedNpu, listedBench;
    for (const auto& pair : options.manual) {
        const std::uint32_t n = npu.find(pair.npu);
        const std::uint32_t b = pair.bench ? bench.find(*pair.bench) : kNoNode;
        if (n == kNoNode || (pair.bench && (b == kNoNode || npu.node(n).op != bench.node(b).op)))
            continue;
        listedNpu.insert(pair.npu);
        if (pair.bench)
            listedBench.insert(*pair.bench);
    }
    for (const auto& pair : options.manual) {
        const std::uint32_t n = npu.find(pair.npu);
        if (n == kNoNode) {
            report.problems.push_back("manual pair: no NPU node '" + pair.npu + "'");
            continue;
        }
        if (!pair.bench) {
            unmatchNode(npu, n, bench);
            if (pair.descendants)
                unmatchDescendants(npu, n, bench);
            ++report.manualApplied;
            continue;
        }
        const std::uint32_t b = bench.find(*pair.bench);
        if (b == kNoNode) {
            report.problems.push_back("manual pair: no bench node '" + *pair.bench + "'");
            continue;
        }
        if (auto error = matchPair(npu, n, bench, b); !error.empty()) {
            report.problems.push_back("manual pair " + pair.npu + " -> " + *pair.bench + ": " + error);
            continue;
        }
        ++report.manualApplied;
        if (pair.descendants)
            matchDescendants(npu, n, bench, b);
        if (!options.manualWithOpposite)
            continue;
        const std::string npuTwin = oppositeDirectionId(pair.npu), benchTwin = oppositeDirectionId(*pair.bench);
        if (listedNpu.contains(npuTwin) || listedBench.contains(benchTwin))
            continue;
        const std::uint32_t on = npu.find(npuTwin);
        const std::uint32_t ob = bench.find(benchTwin);
        if (on != kNoNode && ob != kNoNode && on != n && ob != b)
            matchPair(npu, on, bench, ob);
    }
    for (const auto& node : npu.nodes)
        if (node.partner != kNoNode)
            ++report.matched;
    return report;
}

} // namespace msprobe::graph
