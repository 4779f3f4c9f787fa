// SPDX-License-Identifier: Apache-2.0
#include "graph/merge/merge_tree.h"

#include "compare/items.h"
#include "compare/py_value.h"
#include "graph/merge/dump_compose.h"
#include "support/error.h"

#include <algorithm>
#include <unordered_set>

namespace msprobe::graph {

std::uint32_t NodeMap::get(std::string_view id) const
{
    auto it = m_position.find(std::string(id));
    return it == m_position.end() ? kNoNode : m_entries[it->second].second;
}

void NodeMap::set(const std::string& id, std::uint32_t node)
{
    auto it = m_position.find(id);
    if (it != m_position.end()) {
        m_entries[it->second].second = node;
        return;
    }
    m_position.emplace(id, m_entries.size());
    m_entries.emplace_back(id, node);
}

void NodeMap::erase(std::string_view id)
{
    auto it = m_position.find(std::string(id));
    if (it == m_position.end())
        return;
    m_entries[it->second].second = kNoNode;
    m_position.erase(it);
}

std::vector<std::uint32_t> NodeMap::values() const
{
    std::vector<std::uint32_t> out;
    out.reserve(m_position.size());
    for (const auto& [id, node] : m_entries)
        if (node != kNoNode)
            out.push_back(node);
    return out;
}

std::vector<std::string> splitDotted(std::string_view id)
{
    std::vector<std::string> parts;
    std::size_t start = 0;
    for (;;) {
        const std::size_t dot = id.find('.', start);
        parts.emplace_back(id.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start));
        if (dot == std::string_view::npos)
            return parts;
        start = dot + 1;
    }
}

std::string joinDotted(const std::vector<std::string>& parts)
{
    std::string out;
    for (std::size_t i = 0; i < parts.size(); ++i) {
        if (i)
            out += '.';
        out += parts[i];
    }
    return out;
}

std::string statText(const dump::StatValue& value)
{
    switch (value.kind) {
    case dump::StatKind::Int: return std::to_string(value.i);
    case dump::StatKind::Float: {
        std::string out;
        support::appendPythonFloatRepr(out, value.f);
        return out;
    }
    case dump::StatKind::Bool: return value.b ? "True" : "False";
    case dump::StatKind::Null:
    case dump::StatKind::Missing: break;
    }
    return "None";
}

MergeForest::MergeForest(std::vector<std::pair<int, Graph>> built, std::vector<int> microSteps)
{
    for (std::size_t s = 0; s < built.size(); ++s) {
        sources.push_back(std::move(built[s].second));
        const Graph& graph = sources.back();
        const auto base = static_cast<std::uint32_t>(nodes.size());
        RankGraph rankGraph;
        rankGraph.rank = built[s].first;
        rankGraph.root = base + Graph::root();
        rankGraph.microSteps = s < microSteps.size() ? microSteps[s] : 1;
        for (std::uint32_t i = 0; i < graph.size(); ++i) {
            const GraphNode& from = graph.node(i);
            MergeNode node;
            node.id = std::string(from.id);
            node.op = from.op;
            node.parent = from.parent == kNoNode ? kNoNode : base + from.parent;
            for (auto child : from.children)
                node.children.push_back(base + child);
            node.rank = rankGraph.rank;
            node.graph = static_cast<std::uint32_t>(s);
            node.source = i;
            if (from.entry != kNoNode) {
                node.input.graph = node.output.graph = static_cast<std::uint32_t>(s);
                node.input.node = node.output.node = i;
            }
            rankGraph.map.set(node.id, base + i);
            nodes.push_back(std::move(node));
        }
        graphs.push_back(std::move(rankGraph));
    }
}

std::uint32_t MergeForest::addNode(NodeOp op, std::string id, int rank)
{
    MergeNode node;
    node.id = std::move(id);
    node.op = op;
    node.rank = rank;
    nodes.push_back(std::move(node));
    return static_cast<std::uint32_t>(nodes.size() - 1);
}

RankGraph* MergeForest::graphOfRank(int rank)
{
    for (auto& graph : graphs)
        if (graph.rank == rank)
            return &graph;
    return nullptr;
}

namespace {


bool endsWithCommParam(std::string_view key)
{
    for (std::string_view tail : { "src", "dst", "group_src", "group_dst" })
        if (key.ends_with(tail))
            return true;
    return false;
}

} // namespace

std::vector<MergeParam> MergeForest::params(std::uint32_t n, bool output) const
{
    const DataHalf& half = output ? nodes[n].output : nodes[n].input;
    std::vector<MergeParam> out;
    if (half.graph == kNoNode)
        return out;
    const Graph& graph = sources[half.graph];
    const std::string prefix = std::string(graph.node(half.node).id) + ".";
    const dump::DumpFile& dump = *graph.dump;
    for (const NodeItem& nodeItem : graph.nodeItems(half.node)) {
        if (nodeItem.output != output)
            continue;
        MergeParam param;
        const std::string name = graph.itemName(nodeItem.item);
        param.key = name.starts_with(prefix) ? name.substr(prefix.size()) : name;
        const compare::Item& item = graph.items->items()[nodeItem.item];
        if (item.node != compare::kNullNode) {
            const dump::ValueNode& value = dump.nodes[item.node];
            if (value.kind == dump::NodeKind::Tensor) {
                const dump::TensorTable& t = dump.tensors;
                param.dtype = dump.text(t.dtype[value.payload]);
                if (!param.dtype.empty()) {
                    param.stats[0] = t.max[value.payload];
                    param.stats[1] = t.min[value.payload];
                    param.stats[2] = t.mean[value.payload];
                    param.stats[3] = t.norm[value.payload];
                    for (const dump::LeafExtra& extra : dump.extrasOf(t.extras[value.payload]))
                        for (int k = 0; k < 4; ++k)
                            if (dump.text(extra.key) == dump::kStatKeys[k] && param.stats[k].kind == dump::StatKind::Missing)
                                param.statTexts[k] = std::string(dump.text(extra.text));
                }
            } else if (value.kind == dump::NodeKind::Scalar && !endsWithCommParam(param.key)) {
                const dump::ScalarValueKind kind = dump.scalars.valueKind[value.payload];
                if (kind == dump::ScalarValueKind::Int || kind == dump::ScalarValueKind::Float || kind == dump::ScalarValueKind::Bool)
                    for (auto& stat : param.stats)
                        stat = dump.scalars.number[value.payload];
            }
        }
        auto replaced = half.stats.find(param.key);
        if (replaced != half.stats.end())
            for (int k = 0; k < 4; ++k)
                if (replaced->second[k]) {
                    param.stats[k] = *replaced->second[k];
                    param.statTexts[k].clear();
                }
        auto texts = half.statTexts.find(param.key);
        if (texts != half.statTexts.end())
            for (int k = 0; k < 4; ++k)
                if (!texts->second[k].empty())
                    param.statTexts[k] = texts->second[k];
        out.push_back(std::move(param));
    }
    return out;
}

void MergeForest::setStat(std::uint32_t n, bool output, const std::string& key, int k, const dump::StatValue& value)
{
    DataHalf& half = output ? nodes[n].output : nodes[n].input;
    half.stats[key][k] = value;
    auto texts = half.statTexts.find(key);
    if (texts != half.statTexts.end())
        texts->second[k].clear();
}

void MergeForest::setStatText(std::uint32_t n, bool output, const std::string& key, int k, const std::string& reprText)
{
    setStat(n, output, key, k, dump::StatValue {});
    DataHalf& half = output ? nodes[n].output : nodes[n].input;
    half.statTexts[key][k] = reprText;
}

std::vector<std::string> MergeForest::ancestorIds(std::uint32_t n) const
{
    std::vector<std::string> ids;
    std::unordered_set<std::string> seen;
    for (std::uint32_t current = nodes[n].parent; current != kNoNode; current = nodes[current].parent) {
        if (!seen.insert(nodes[current].id).second)
            return {};
        ids.push_back(nodes[current].id);
    }
    std::reverse(ids.begin(), ids.end());
    return ids;
}

void MergeForest::addToMap(RankGraph& graph, std::uint32_t n)
{
    std::vector<std::uint32_t> stack { n };
    while (!stack.empty()) {
        const std::uint32_t current = stack.back();
        stack.pop_back();
        if (!graph.map.contains(nodes[current].id))
            graph.map.set(nodes[current].id, current);
        for (auto it = nodes[current].children.rbegin(); it != nodes[current].children.rend(); ++it)
            stack.push_back(*it);
    }
}

Graph MergeForest::materialize(std::size_t g) const
{
    const RankGraph& rankGraph = graphs[g];
    const Graph& main = sources[g];
    Graph out;
    out.dataSource = main.dataSource;
    out.dumpDataDir = main.dumpDataDir;
    out.hasDumpDataDir = main.hasDumpDataDir;
    out.task = main.task;
    out.framework = main.framework;
    out.megatronMicroSteps = main.megatronMicroSteps;
    out.construct = main.construct;
    out.stacks.legacyFormat = main.stacks.legacyFormat;
    out.stacks.groupOf = main.stacks.groupOf;
    std::vector<std::int32_t> stackBase;
    for (const Graph& source : sources) {
        stackBase.push_back(static_cast<std::int32_t>(out.stacks.frames.size()));
        out.stacks.frames.insert(out.stacks.frames.end(), source.stacks.frames.begin(), source.stacks.frames.end());
    }

    DumpComposer composer(*main.dump);
    struct Pending {
        std::uint32_t graphNode, mergeNode, dumpEntry;
    };
    std::vector<Pending> pending;
    auto dumpEntryOf = [&](const DataHalf& half, const dump::DumpFile*& file, std::uint32_t& entry) {
        file = nullptr;
        entry = 0;
        if (half.graph == kNoNode)
            return;
        const Graph& source = sources[half.graph];
        const std::uint32_t itemEntry = source.node(half.node).entry;
        if (itemEntry == kNoNode)
            return;
        file = source.dump.get();
        entry = source.items->entries()[itemEntry].dumpEntry;
    };
    auto copyNode = [&](std::uint32_t graphNode, std::uint32_t m) {
        const MergeNode& from = nodes[m];
        GraphNode& to = out.node(graphNode);
        if (from.source != kNoNode) {
            const GraphNode& built = sources[from.graph].node(from.source);
            to.stack = built.stack >= 0 ? built.stack + stackBase[from.graph] : built.stack;
            to.microStep = built.microStep;
            to.overflow = built.overflow;
        }
        if (!from.mergeInfo.empty())
            out.parallelMergeInfo[graphNode] = from.mergeInfo;
        const dump::DumpFile *inFile = nullptr, *outFile = nullptr;
        std::uint32_t inEntry = 0, outEntry = 0;
        dumpEntryOf(from.input, inFile, inEntry);
        dumpEntryOf(from.output, outFile, outEntry);
        if (inFile || outFile) {
            const std::uint32_t entry = composer.addEntry(from.id, inFile, inEntry, outFile, outEntry);
            pending.push_back({ graphNode, m, entry });
        }
    };

    copyNode(Graph::root(), rankGraph.root);
    std::vector<std::pair<std::uint32_t, std::uint32_t>> stack; // (merge node, graph parent)
    const auto& rootChildren = nodes[rankGraph.root].children;
    for (auto it = rootChildren.rbegin(); it != rootChildren.rend(); ++it)
        stack.emplace_back(*it, Graph::root());
    std::size_t guard = 0;
    while (!stack.empty()) {
        auto [m, parent] = stack.back();
        stack.pop_back();
        if (++guard > nodes.size())
            throw support::Error("parallel merge", "rank " + std::to_string(rankGraph.rank), "the merged tree has a cycle at " + nodes[m].id);
        const MergeNode& from = nodes[m];
        if (out.find(from.id) != kNoNode)
            throw support::Error("parallel merge", "rank " + std::to_string(rankGraph.rank),
                "two nodes of the merged graph are both named '" + from.id
                    + "' (the ranks' graphs do not fit the given --tp/--pp layout); the merge is refused rather than dropping one");
        const std::uint32_t created = out.add(from.op, from.id);
        out.attach(created, parent);
        copyNode(created, m);
        for (auto it = from.children.rbegin(); it != from.children.rend(); ++it)
            stack.emplace_back(*it, created);
    }

    // The composed dump: replaced statistics are written into its tensor rows.
    dump::DumpFile& dump = composer.file();
    auto items = std::make_shared<compare::ItemTable>(dump, compare::FlattenOptions {});
    std::vector<std::uint32_t> itemEntryOf(dump.entries.size(), kNoNode);
    for (std::uint32_t e = 0; e < items->entries().size(); ++e)
        itemEntryOf[items->entries()[e].dumpEntry] = e;
    for (const Pending& p : pending) {
        const std::uint32_t itemEntry = itemEntryOf[p.dumpEntry];
        out.node(p.graphNode).entry = itemEntry;
        const MergeNode& from = nodes[p.mergeNode];
        // A renamed node: items named after their data_name (tensor dumps) follow the new id, as the
        // reference's keys do; the data_name itself still names the tensor file.
        if (itemEntry != kNoNode && from.source != kNoNode)
            items->renameItems(itemEntry, sources[from.graph].node(from.source).id, from.id);
        if (itemEntry == kNoNode || (from.input.stats.empty() && from.output.stats.empty()))
            continue;
        const compare::EntryInfo& info = items->entries()[itemEntry];
        const std::string prefix = from.id + ".";
        for (std::uint32_t i = info.firstItem; i < info.firstItem + info.itemCount; ++i) {
            const compare::Item& item = items->items()[i];
            if (item.node == compare::kNullNode || dump.nodes[item.node].kind != dump::NodeKind::Tensor)
                continue;
            const std::string name = items->name(item);
            const bool output = name.find(".output.") != std::string::npos && name.find(".input.") == std::string::npos;
            const std::string key = name.starts_with(prefix) ? name.substr(prefix.size()) : name;
            const auto& replaced = output ? from.output.stats : from.input.stats;
            auto it = replaced.find(key);
            if (it == replaced.end())
                continue;
            const std::uint32_t row = dump.nodes[item.node].payload;
            dump::StatColumn* columns[4] = { &dump.tensors.max, &dump.tensors.min, &dump.tensors.mean, &dump.tensors.norm };
            for (int k = 0; k < 4; ++k)
                if (it->second[k])
                    columns[k]->set(row, *it->second[k]);
            // String statistics: the row's extras again, each replaced statistic's text in place of its old one.
            const auto& texts = output ? from.output.statTexts : from.input.statTexts;
            auto text = texts.find(key);
            if (text == texts.end())
                continue;
            std::vector<dump::LeafExtra> extras;
            for (const dump::LeafExtra& extra : dump.extrasOf(dump.tensors.extras[row])) {
                const std::string_view name = dump.text(extra.key);
                bool replacedText = false;
                for (int k = 0; k < 4; ++k)
                    replacedText = replacedText || (name == dump::kStatKeys[k] && it->second[k]);
                if (!replacedText)
                    extras.push_back(extra);
            }
            for (int k = 0; k < 4; ++k)
                if (!text->second[k].empty())
                    extras.push_back({ dump.strings.intern(dump::kStatKeys[k]), dump.strings.intern(text->second[k]) });
            dump.tensors.extras[row] = { static_cast<std::uint32_t>(dump.extras.size()), static_cast<std::uint32_t>(extras.size()) };
            if (extras.empty())
                dump.tensors.extras[row] = {};
            dump.extras.insert(dump.extras.end(), extras.begin(), extras.end());
        }
    }
    out.dump = composer.finish();
    out.items = std::move(items);
    return out;
}

} // namespace msprobe::graph
