// SPDX-License-Identifier: Apache-2.0
// Pipeline-parallel merge: the layers each stage ran are appended under the first stage's copy of their
// parent and renumbered (forward by ascending rank, backward by descending rank); VPP then folds the model
// chunks Module.{k}.… into chunk 0.
#include "graph/merge/merge_steps.h"

#include "compare/items.h"

#include <algorithm>
#include <optional>
#include <set>

namespace msprobe::graph {

namespace {

// (layers\.|layer\.)\d+(\.) : [begin of the number, end of the number) of the first match at or after `from`.
bool findLayer(const std::string& id, std::size_t from, std::size_t& numberBegin, std::size_t& numberEnd, std::size_t* wordBegin = nullptr)
{
    for (std::size_t i = from; i < id.size(); ++i) {
        for (std::string_view word : { std::string_view("layers."), std::string_view("layer.") }) {
            if (id.compare(i, word.size(), word) != 0)
                continue;
            std::size_t j = i + word.size();
            while (j < id.size() && std::isdigit(static_cast<unsigned char>(id[j])))
                ++j;
            if (j > i + word.size() && j < id.size() && id[j] == '.') {
                numberBegin = i + word.size();
                numberEnd = j;
                if (wordBegin)
                    *wordBegin = i;
                return true;
            }
        }
    }
    return false;
}

bool hasLayer(const std::string& id)
{
    std::size_t b = 0, e = 0;
    return findLayer(id, 0, b, e);
}

// Every layer number replaced by `number` (re.sub of the layers pattern).
std::string replaceLayers(const std::string& id, const std::string& number)
{
    std::string out;
    std::size_t from = 0, b = 0, e = 0;
    while (findLayer(id, from, b, e)) {
        out += id.substr(from, b - from) + number;
        from = e;
    }
    return out + id.substr(from);
}

// "%(\d+)%(\d+)$": the position and rank marks the merge adds to ids before renumbering.
bool findMark(const std::string& id, std::size_t& at, long& position, long& rank)
{
    std::size_t end = id.size(), p = end;
    while (p > 0 && std::isdigit(static_cast<unsigned char>(id[p - 1])))
        --p;
    if (p == end || p == 0 || id[p - 1] != '%')
        return false;
    const std::size_t second = p - 1;
    std::size_t q = second;
    while (q > 0 && std::isdigit(static_cast<unsigned char>(id[q - 1])))
        --q;
    if (q == second || q == 0 || id[q - 1] != '%')
        return false;
    at = q - 1;
    position = std::stol(id.substr(q, second - q));
    rank = std::stol(id.substr(p));
    return true;
}

bool hasMark(const std::string& id)
{
    std::size_t at = 0;
    long a = 0, b = 0;
    return findMark(id, at, a, b);
}

std::string withoutMark(const std::string& id)
{
    std::size_t at = 0;
    long a = 0, b = 0;
    return findMark(id, at, a, b) ? id.substr(0, at) : id;
}

std::string replaceAll(std::string text, std::string_view what, std::string_view with)
{
    for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + with.size()))
        text.replace(at, what.size(), with);
    return text;
}

bool contains(const std::string& text, std::string_view part) { return text.find(part) != std::string::npos; }

class PpMerger {
public:
    PpMerger(MergeForest& forest, const std::vector<std::size_t>& group, const Warn& warn)
        : f(forest)
        , m_group(group)
        , m_warn(warn)
    {
    }

    std::size_t run()
    {
        RankGraph& main = f.graphs[m_group[0]];
        auto& rootChildren = f.node(main.root).children;
        for (std::size_t i = 0; i < f.node(main.root).children.size(); ++i) {
            const std::uint32_t n = rootChildren[i];
            if (f.node(n).op == NodeOp::Module && f.node(n).id != "clip_grad" && f.node(n).id != "optimizer") {
                mergeNodes(main, n);
                sortNodes(main, n);
            }
        }
        mergeRootUniqueChildren(main);
        return m_group[0];
    }

private:
    void mergeNodes(RankGraph& main, std::uint32_t n)
    {
        std::vector<std::uint32_t> others;
        for (std::size_t g = 1; g < m_group.size(); ++g) {
            const std::uint32_t other = f.graphs[m_group[g]].map.get(f.node(n).id);
            if (other == kNoNode)
                return;
            others.push_back(other);
        }
        if (!others.empty()) {
            const ParamDiff diff = compareParamData(f, n, others);
            const std::string& id = f.node(n).id;
            bool split = !diff.input.empty() && !diff.output.empty() && hasLayer(id);
            if (contains(id, ".backward.")) {
                const std::uint32_t forward = main.map.get(replaceAll(id, ".backward.", ".forward."));
                if (forward != kNoNode && f.node(forward).ppMerged)
                    split = true;
            }
            if (split) {
                f.node(n).ppMerged = true;
                const std::uint32_t up = f.node(n).parent;
                for (const std::uint32_t other : others) {
                    markPositionRank(other, f.node(other).rank);
                    addToMain(main, other);
                    f.node(other).parent = up;
                    f.node(up).children.push_back(other);
                }
                return;
            }
            if (diff.input.empty() && !diff.output.empty() && contains(id, ".forward."))
                f.node(n).output = f.node(others.back()).output;
            else if (!diff.input.empty() && diff.output.empty() && contains(id, ".backward."))
                f.node(n).input = f.node(others.back()).input;
            mergeOtherUniqueNodes(main, n, others);
        }
        for (std::size_t i = 0; i < f.node(n).children.size(); ++i) {
            const std::uint32_t child = f.node(n).children[i];
            if (f.node(child).op == NodeOp::Module)
                mergeNodes(main, child);
        }
    }

    void markPositionRank(std::uint32_t n, int rank)
    {
        long position = 0;
        const std::uint32_t parent = f.node(n).parent;
        if (parent != kNoNode) {
            const auto& siblings = f.node(parent).children;
            for (std::size_t i = 0; i < siblings.size(); ++i)
                if (f.node(siblings[i]).id == f.node(n).id) {
                    position = static_cast<long>(i);
                    break;
                }
        }
        f.node(n).id += "%" + std::to_string(position) + "%" + std::to_string(rank);
        for (const std::uint32_t child : f.node(n).children)
            markPositionRank(child, rank);
    }

    void addToMain(RankGraph& main, std::uint32_t n)
    {
        if (main.map.contains(f.node(n).id)) {
            if (m_warn)
                m_warn("parallel merge: " + f.node(n).id + " exists already in rank " + std::to_string(main.rank) + "'s graph");
        } else {
            main.map.set(f.node(n).id, n);
        }
        for (const std::uint32_t child : f.node(n).children)
            addToMain(main, child);
    }

    // Children that only another rank's copy has are appended to the main node.
    void mergeOtherUniqueNodes(RankGraph& main, std::uint32_t n, const std::vector<std::uint32_t>& others)
    {
        std::vector<std::vector<std::pair<std::string, std::uint32_t>>> lists;
        auto listOf = [&](std::uint32_t node) {
            std::vector<std::pair<std::string, std::uint32_t>> list; // a dict: first position, last value
            for (const std::uint32_t child : f.node(node).children) {
                auto it = std::find_if(list.begin(), list.end(), [&](const auto& e) { return e.first == f.node(child).id; });
                if (it == list.end())
                    list.emplace_back(f.node(child).id, child);
                else
                    it->second = child;
            }
            return list;
        };
        lists.push_back(listOf(n));
        for (const std::uint32_t other : others)
            lists.push_back(listOf(other));
        std::vector<std::uint32_t> unique;
        for (std::size_t i = 1; i < lists.size(); ++i) {
            std::set<std::string> otherIds;
            for (std::size_t j = 0; j < lists.size(); ++j)
                if (j != i)
                    for (const auto& e : lists[j])
                        otherIds.insert(e.first);
            for (const auto& e : lists[i])
                if (!otherIds.contains(e.first))
                    unique.push_back(e.second);
        }
        for (const std::uint32_t node : unique) {
            markPositionRank(node, f.node(node).rank);
            addToMain(main, node);
            f.node(n).children.push_back(node);
            f.node(node).parent = n;
        }
    }

    void sortNodes(RankGraph& main, std::uint32_t start)
    {
        std::vector<std::uint32_t> stack { start };
        while (!stack.empty()) {
            const std::uint32_t n = stack.back();
            stack.pop_back();
            const std::string& id = f.node(n).id;
            if (hasMark(id) && f.node(n).parent != kNoNode) {
                const bool forward = contains(id, ".forward.") || contains(id, ".forward%");
                const std::uint32_t parent = f.node(n).parent;
                std::vector<std::uint32_t> plain, marked;
                for (const std::uint32_t child : f.node(parent).children)
                    (hasMark(f.node(child).id) ? marked : plain).push_back(child);
                auto key = [&](std::uint32_t node) {
                    std::size_t at = 0;
                    long position = 0, rank = 0;
                    findMark(f.node(node).id, at, position, rank);
                    return std::pair<long, long>(forward ? rank : -rank, position);
                };
                std::stable_sort(marked.begin(), marked.end(), [&](std::uint32_t a, std::uint32_t b) { return key(a) < key(b); });
                std::vector<std::uint32_t> ordered = forward ? plain : marked;
                const auto& rest = forward ? marked : plain;
                ordered.insert(ordered.end(), rest.begin(), rest.end());
                long index = -1;
                auto number = [&](std::uint32_t item) {
                    if (hasLayer(f.node(item).id))
                        ++index;
                    if (hasMark(f.node(item).id))
                        f.node(item).ppIndex = static_cast<int>(index);
                };
                if (forward)
                    std::for_each(ordered.begin(), ordered.end(), number);
                else
                    std::for_each(ordered.rbegin(), ordered.rend(), number);
                for (const std::uint32_t item : marked)
                    updateNodeId(main, item);
                f.node(parent).children = ordered;
            }
            const auto& children = f.node(n).children;
            stack.insert(stack.end(), children.begin(), children.end());
        }
    }

    void updateNodeId(RankGraph& graph, std::uint32_t start)
    {
        std::vector<std::pair<std::uint32_t, std::string>> stack { { start, "" } };
        while (!stack.empty()) {
            auto [n, ppIndex] = stack.back();
            stack.pop_back();
            MergeNode& node = f.node(n);
            if (!graph.map.contains(node.id)) {
                if (m_warn)
                    m_warn("parallel merge: cannot rename " + node.id);
            } else {
                graph.map.erase(node.id);
                if (node.op == NodeOp::Module) {
                    if (hasLayer(node.id) && hasMark(node.id)) {
                        if (node.ppIndex)
                            ppIndex = std::to_string(*node.ppIndex);
                        node.id = replaceLayers(node.id, ppIndex);
                    }
                } else {
                    auto parts = splitDotted(node.id);
                    const std::string rank = node.id.substr(node.id.rfind('%') + 1);
                    if (parts.size() > 1)
                        parts[1] += "_rank" + rank;
                    node.id = joinDotted(parts);
                }
                node.id = withoutMark(node.id);
                graph.map.set(node.id, n);
            }
            for (const std::uint32_t child : node.children)
                stack.emplace_back(child, ppIndex);
        }
    }

    // Layers hanging directly under the root: the other stages' root children the first stage lacks.
    void mergeRootUniqueChildren(RankGraph& main)
    {
        if (m_group.size() < 2)
            return;
        auto& root = f.node(main.root);
        if (std::none_of(root.children.begin(), root.children.end(), [&](std::uint32_t c) { return hasLayer(f.node(c).id); }))
            return;
        std::set<std::string> mainIds;
        for (const std::uint32_t child : root.children)
            mainIds.insert(f.node(child).id);
        std::vector<std::uint32_t> toMerge;
        for (std::size_t g = 1; g < m_group.size(); ++g)
            for (const std::uint32_t child : f.node(f.graphs[m_group[g]].root).children)
                if (!mainIds.contains(f.node(child).id) && !f.node(child).id.starts_with(kApisBetweenModules))
                    toMerge.push_back(child);
        if (toMerge.empty())
            return;
        for (const std::uint32_t node : toMerge) {
            markPositionRank(node, f.node(node).rank);
            addToMain(main, node);
            f.node(node).parent = main.root;
            f.node(main.root).children.push_back(node);
        }
        std::vector<std::uint32_t> plain, marked;
        for (const std::uint32_t child : f.node(main.root).children)
            (hasMark(f.node(child).id) ? marked : plain).push_back(child);
        auto key = [&](std::uint32_t node) {
            std::size_t at = 0;
            long position = 0, rank = 0;
            findMark(f.node(node).id, at, position, rank);
            return std::pair<long, long>(rank, position);
        };
        std::stable_sort(marked.begin(), marked.end(), [&](std::uint32_t a, std::uint32_t b) { return key(a) < key(b); });
        std::vector<std::uint32_t> ordered = plain;
        ordered.insert(ordered.end(), marked.begin(), marked.end());
        f.node(main.root).children = ordered;
        long index = -1;
        for (const std::uint32_t node : plain)
            if (hasLayer(f.node(node).id))
                ++index;
        for (const std::uint32_t node : marked) {
            if (hasLayer(f.node(node).id))
                f.node(node).ppIndex = static_cast<int>(++index);
            updateNodeId(main, node);
        }
    }

    MergeForest& f;
    const std::vector<std::size_t>& m_group;
    const Warn& m_warn;
};

// "Module.3.x" -> "Module.{chunk}.x" when segment 1 is a number.
std::string replaceChunk(const std::string& id, const std::string& chunk)
{
    auto parts = splitDotted(id);
    if (parts.size() < 2 || parts[1].empty() || !std::all_of(parts[1].begin(), parts[1].end(), ::isdigit))
        return id;
    parts[1] = chunk;
    return joinDotted(parts);
}

bool isForwardModule(const std::string& id)
{
    const std::size_t at = id.rfind(".forward.");
    if (at == std::string::npos)
        return false;
    const std::string tail = id.substr(at + 9);
    return !tail.empty() && std::all_of(tail.begin(), tail.end(), ::isdigit);
}

class VppFolder {
public:
    VppFolder(MergeForest& forest, RankGraph& graph, int vpp)
        : f(forest)
        , g(graph)
        , m_last(std::to_string(vpp - 1))
        , m_vpp(vpp)
    {
    }

    void run()
    {
        mergeData();
        mergeChunks();
    }

private:
    std::vector<std::uint32_t> rootChunks(bool lastToo) const
    {
        std::vector<std::uint32_t> out;
        const auto& children = f.node(g.root).children;
        for (auto it = children.rbegin(); it != children.rend(); ++it) {
            const auto parts = splitDotted(f.node(*it).id);
            if (parts.size() >= 2 && (parts[1] == "0" || (lastToo && parts[1] == m_last)))
                out.push_back(*it);
        }
        return out;
    }

    // Chunk 0's forward modules take the last chunk's outputs, its backward modules the last chunk's inputs.
    void mergeData()
    {
        std::vector<std::uint32_t> stack = rootChunks(true);
        while (!stack.empty()) {
            const std::uint32_t n = stack.back();
            stack.pop_back();
            MergeNode& node = f.node(n);
            if (node.ppMerged || node.ppIndex || node.op != NodeOp::Module)
                continue;
            stack.insert(stack.end(), node.children.rbegin(), node.children.rend());
            const std::uint32_t target = g.map.get(replaceChunk(node.id, m_last));
            if (target == kNoNode)
                continue;
            if (isForwardModule(node.id))
                node.output = f.node(target).output;
            else
                node.input = f.node(target).input;
        }
    }

    // The layers of chunks 1.. move into chunk 0 (forward after, backward before) and are renumbered.
    void mergeChunks()
    {
        std::vector<std::uint32_t> stack = rootChunks(false);
        std::vector<std::uint32_t> layerParents;
        while (!stack.empty()) {
            const std::uint32_t n = stack.back();
            stack.pop_back();
            const MergeNode& node = f.node(n);
            const bool parentKnown = node.parent != kNoNode
                && std::find(layerParents.begin(), layerParents.end(), node.parent) != layerParents.end();
            if (node.ppMerged || (node.ppIndex && !parentKnown)) {
                if (node.parent != kNoNode && !parentKnown)
                    layerParents.push_back(node.parent);
                continue;
            }
            stack.insert(stack.end(), node.children.rbegin(), node.children.rend());
        }
        for (const std::uint32_t n : layerParents) {
            const bool forward = isForwardModule(f.node(n).id);
            for (int chunk = 1; chunk < m_vpp; ++chunk) {
                const std::uint32_t target = g.map.get(replaceChunk(f.node(n).id, std::to_string(chunk)));
                if (target == kNoNode)
                    continue;
                const auto moved = f.node(target).children;
                auto& children = f.node(n).children;
                if (forward)
                    children.insert(children.end(), moved.begin(), moved.end());
                else
                    children.insert(children.begin(), moved.begin(), moved.end());
                for (const std::uint32_t child : moved)
                    f.node(child).parent = n;
                // The emptied chunk leaves the graph: its modules from the root's child down to the target (which is
                // that child itself when the layers hang directly under the chunk's root module).
                auto chain = f.ancestorIds(target);
                chain.push_back(f.node(target).id);
                if (chain.size() < 2)
                    continue;
                f.node(target).children.clear();
                for (std::size_t a = 1; a < chain.size(); ++a)
                    g.map.erase(chain[a]);
                std::erase_if(f.node(g.root).children, [&](std::uint32_t c) { return f.node(c).id == chain[1]; });
            }
            sortLayers(f.node(n).children, forward);
        }
    }

    void rename(std::uint32_t n, const std::string& id)
    {
        g.map.erase(f.node(n).id);
        f.node(n).id = id;
        g.map.set(id, n);
    }

    void sortLayers(std::vector<std::uint32_t> list, bool forward)
    {
        if (!forward)
            std::reverse(list.begin(), list.end());
        long index = -1;
        for (const std::uint32_t n : list) {
            const std::string id = f.node(n).id;
            std::size_t numberBegin = 0, numberEnd = 0, wordBegin = 0;
            const bool layer = findLayer(id, 0, numberBegin, numberEnd, &wordBegin);
            if (layer)
                ++index;
            const auto parts = splitDotted(id);
            if (parts.size() < 2 || parts[1] == "0")
                continue;
            std::string prefix, newId;
            if (layer) {
                prefix = replaceChunk(id.substr(0, numberBegin) + std::to_string(index) + ".", "0");
                newId = prefix + id.substr(numberEnd + 1);
            } else {
                newId = replaceChunk(id, "0");
            }
            rename(n, newId);
            std::vector<std::uint32_t> stack = f.node(n).children;
            while (!stack.empty()) {
                const std::uint32_t current = stack.back();
                stack.pop_back();
                if (f.node(current).op != NodeOp::Module)
                    continue;
                const auto& children = f.node(current).children;
                stack.insert(stack.end(), children.rbegin(), children.rend());
                const std::string currentId = f.node(current).id;
                std::size_t b = 0, e = 0;
                rename(current, findLayer(currentId, 0, b, e) ? prefix + currentId.substr(e + 1) : replaceChunk(currentId, "0"));
            }
        }
    }

    MergeForest& f;
    RankGraph& g;
    std::string m_last;
    int m_vpp;
};

} // namespace

std::size_t mergePp(MergeForest& forest, const std::vector<std::size_t>& group, const Warn& warn)
{
    if (group.size() < 2)
        return group.front();
    return PpMerger(forest, group, warn).run();
}

std::size_t mergeVpp(MergeForest& forest, const std::vector<std::size_t>& group, int vpp, const Warn& warn)
{
    if (group.size() < 2)
        return group.front();
    const std::size_t main = PpMerger(forest, group, warn).run();
    VppFolder(forest, forest.graphs[main], vpp).run();
    return main;
}

} // namespace msprobe::graph
