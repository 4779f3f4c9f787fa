// SPDX-License-Identifier: Apache-2.0
#include "graph/model/graph_builder.h"
#include "support/python_text.h"

#include "compare/items.h"
#include "dump/dump_json_reader.h"
#include "dump/construct_stack.h"
#include "graph/model/graph_recompute.h"
#include "support/error.h"

#include <charconv>
#include <unordered_map>

namespace msprobe::graph {

namespace fs = std::filesystem;

bool endsWithDirectionNumber(std::string_view name, std::string_view direction, std::size_t* directionStart)
{
    std::size_t end = name.size();
    std::size_t digits = end;
    while (digits > 0 && name[digits - 1] >= '0' && name[digits - 1] <= '9')
        --digits;
    if (digits == end)
        return false;
    const std::size_t need = direction.size() + 2; // ".direction."
    if (digits < need || name[digits - 1] != '.' || name.substr(digits - 1 - direction.size(), direction.size()) != direction
        || name[digits - 2 - direction.size()] != '.')
        return false;
    if (directionStart)
        *directionStart = digits - 1 - direction.size();
    return true;
}

std::string swapDirectionNumber(std::string_view name, std::string_view from, std::string_view to)
{
    std::size_t start = 0;
    if (!endsWithDirectionNumber(name, from, &start))
        return std::string(name);
    std::string out(name.substr(0, start));
    out += to;
    out += name.substr(start + from.size());
    return out;
}

std::string replaceAllText(std::string_view text, std::string_view what, std::string_view with)
{
    std::string out;
    std::size_t pos = 0;
    while (true) {
        const std::size_t hit = text.find(what, pos);
        if (hit == std::string_view::npos)
            break;
        out.append(text.substr(pos, hit - pos));
        out.append(with);
        pos = hit + what.size();
    }
    out.append(text.substr(pos));
    return out;
}

namespace {

std::string_view joinFirst(std::string_view name, const std::vector<std::string_view>& parts, std::size_t count)
{
    if (count == 0)
        return {};
    const char* end = parts[count - 1].data() + parts[count - 1].size();
    return name.substr(0, static_cast<std::size_t>(end - name.data()));
}

class Builder {
public:
    Builder(Graph& graph, const dump::ConstructInfo& construct, BuildReport& report)
        : m_graph(graph)
        , m_construct(construct)
        , m_report(report)
    {
        const auto& entries = graph.items->entries();
        // Most nodes are dump entries: sized once, the maps are not rehashed while the graph grows.
        m_entryOf.reserve(entries.size());
        graph.reserve(entries.size() + 1024);
        for (std::uint32_t e = 0; e < entries.size(); ++e)
            m_entryOf[graph.dump->entryName(entries[e].dumpEntry)] = e; // the last of duplicated keys wins
    }

    void run()
    {
        for (const auto& item : m_construct.nodes) {
            std::optional<std::string> parent = item.parent;
            if (parent && parent->empty())
                parent.reset();
            parent = parent ? backwardInplaceFix(item.name, *parent) : backwardParentMissingFix(item.name);
            std::uint32_t parentNode = Graph::root();
            if (parent && !parent->empty())
                parentNode = createOrGet(*parent);
            const std::uint32_t node = createOrGet(item.name);
            m_graph.attach(node, parentNode);
        }
        handleRecompute(m_graph);
        collectApisBetweenModules();
        addParameterGrads();
        countUnreachable();
    }

private:
    bool inConstruct(const std::string& name) const { return m_construct.find(name) != nullptr; }

    // An inplace layer can break the backward hierarchy: then the forward twin's parent tells the truth.
    std::optional<std::string> backwardInplaceFix(const std::string& child, const std::string& parent) const
    {
        if (!endsWithDirectionNumber(child, "backward"))
            return parent;
        const auto childParts = support::pythonSplit(child, '.');
        const auto parentParts = support::pythonSplit(parent, '.');
        if (childParts.size() < 5 || parentParts.size() < 4)
            return parent;
        if (joinFirst(child, childParts, childParts.size() - 4) == joinFirst(parent, parentParts, parentParts.size() - 3))
            return parent;
        const auto* twin = m_construct.find(swapDirectionNumber(child, "backward", "forward"));
        if (!twin)
            return parent;
        if (!twin->parent || twin->parent->empty())
            return std::nullopt;
        std::string mapped = swapDirectionNumber(*twin->parent, "forward", "backward");
        return inConstruct(mapped) ? std::optional<std::string>(mapped) : parent;
    }

    std::optional<std::string> backwardParentMissingFix(const std::string& child) const
    {
        if (endsWithDirectionNumber(child, "backward")) {
            const auto* twin = m_construct.find(swapDirectionNumber(child, "backward", "forward"));
            if (twin && twin->parent && !twin->parent->empty()) {
                std::string mapped = swapDirectionNumber(*twin->parent, "forward", "backward");
                if (inConstruct(mapped))
                    return mapped;
            }
        }
        if (child.ends_with(".backward")) {
            const auto* twin = m_construct.find(replaceAllText(child, "backward", "forward"));
            if (twin && twin->parent && !twin->parent->empty()) {
                std::string mapped = replaceAllText(*twin->parent, "forward", "backward");
                if (inConstruct(mapped))
                    return mapped;
            }
        }
        return std::nullopt;
    }

    std::uint32_t createOrGet(const std::string& name)
    {
        if (const std::uint32_t existing = m_graph.find(name); existing != kNoNode)
            return existing;
        const std::uint32_t index = m_graph.add(nodeOpOf(name), name);
        GraphNode& node = m_graph.node(index);
        if (auto it = m_entryOf.find(name); it != m_entryOf.end())
            node.entry = it->second;
        node.stack = stackOf(name);
        if (node.stack == kNoStack) {
            if (endsWithDirectionNumber(name, "backward")) {
                // Same-name modules share one stack whatever their call count: use call 0's.
                std::size_t start = 0;
                endsWithDirectionNumber(name, "backward", &start);
                copyForwardStack(index, std::string(name.substr(0, start)) + "forward.0");
            } else if (name.ends_with(".backward")) {
                copyForwardStack(index, replaceAllText(name, "backward", "forward"));
            }
        }
        if (m_graph.megatronMicroSteps) {
            const auto* item = m_construct.find(name);
            m_graph.node(index).microStep = item && item->microStep ? *item->microStep : 0;
        }
        return index;
    }

    std::int32_t stackOf(const std::string& name) const
    {
        auto it = m_graph.stacks.groupOf.find(name);
        if (it == m_graph.stacks.groupOf.end() || m_graph.stacks.frames[it->second].empty())
            return kNoStack;
        return static_cast<std::int32_t>(it->second);
    }

    void copyForwardStack(std::uint32_t index, const std::string& twin)
    {
        const std::uint32_t forward = m_graph.find(twin);
        m_graph.node(index).stack = forward == kNoNode ? kMissingForwardStack : m_graph.node(forward).stack;
    }

    // Runs of two or more APIs directly under the root become one "Apis_Between_Modules.K" node.
    void collectApisBetweenModules()
    {
        const std::vector<std::uint32_t> children = m_graph.node(Graph::root()).children;
        std::vector<std::uint32_t> output;
        std::size_t counter = 0;
        for (std::size_t i = 0; i < children.size();) {
            if (m_graph.node(children[i]).op != NodeOp::FunctionApi) {
                output.push_back(children[i++]);
                continue;
            }
            std::size_t end = i;
            while (end < children.size() && m_graph.node(children[end]).op == NodeOp::FunctionApi)
                ++end;
            if (end - i < 2) {
                output.push_back(children[i]);
                i = end;
                continue;
            }
            std::string id;
            do {
                id = "Apis_Between_Modules." + std::to_string(counter++);
            } while (m_graph.find(id) != kNoNode);
            const std::uint32_t collection = m_graph.add(NodeOp::ApiCollection, id);
            GraphNode& node = m_graph.node(collection);
            node.parent = Graph::root();
            node.microStep = m_graph.node(children[i]).microStep;
            for (std::size_t k = i; k < end; ++k) {
                m_graph.node(children[k]).parent = collection;
                m_graph.node(collection).children.push_back(children[k]);
            }
            output.push_back(collection);
            i = end;
        }
        m_graph.node(Graph::root()).children = std::move(output);
    }

    // Parameter gradients hang under the last backward call of their module.
    void addParameterGrads()
    {
        std::vector<std::pair<std::string, std::vector<std::string>>> prefixes; // dump order
        std::unordered_map<std::string, std::size_t> prefixIndex;
        const auto& entries = m_graph.dump->entries;
        for (std::size_t e = 0; e < entries.size(); ++e) {
            const std::string_view key = m_graph.dump->entryName(e);
            if (m_graph.find(key) != kNoNode)
                continue;
            std::size_t at = key.rfind(".parameters_grad");
            if (at == std::string_view::npos)
                continue;
            const std::string_view tail = key.substr(at + 16);
            if (!tail.empty()) {
                if (tail.size() < 2 || tail[0] != '.'
                    || tail.substr(1).find_first_not_of("0123456789") != std::string_view::npos)
                    continue;
            }
            std::string prefix(key.substr(0, at));
            auto [it, inserted] = prefixIndex.emplace(prefix, prefixes.size());
            if (inserted)
                prefixes.emplace_back(prefix, std::vector<std::string> {});
            prefixes[it->second].second.emplace_back(key.substr(at));
        }
        if (prefixes.empty())
            return;
        std::vector<std::int64_t> maxCall(prefixes.size(), 0);
        for (const auto& node : m_graph.nodes) {
            std::size_t start = 0;
            if (!endsWithDirectionNumber(node.id, "backward", &start))
                continue;
            auto it = prefixIndex.find(std::string(node.id.substr(0, start - 1)));
            if (it == prefixIndex.end())
                continue;
            std::int64_t call = 0;
            const std::string_view digits = node.id.substr(start + 9);
            std::from_chars(digits.data(), digits.data() + digits.size(), call);
            maxCall[it->second] = std::max(maxCall[it->second], call);
        }
        for (std::size_t p = 0; p < prefixes.size(); ++p) {
            const std::uint32_t owner = m_graph.find(prefixes[p].first + ".backward." + std::to_string(maxCall[p]));
            if (owner == kNoNode) {
                m_report.droppedParameterGrads += prefixes[p].second.size();
                continue;
            }
            for (const auto& suffix : prefixes[p].second) {
                const std::string id = prefixes[p].first + suffix;
                if (m_graph.find(id) != kNoNode)
                    continue;
                const std::uint32_t index = m_graph.add(NodeOp::Module, id);
                if (auto it = m_entryOf.find(id); it != m_entryOf.end())
                    m_graph.node(index).entry = it->second;
                m_graph.attach(index, owner);
            }
        }
    }

    void countUnreachable()
    {
        const auto order = m_graph.postOrder();
        m_report.unreachableNodes = m_graph.size() - order.size();
        if (m_report.unreachableNodes)
            m_report.warnings.push_back(std::to_string(m_report.unreachableNodes)
                + (m_report.unreachableNodes == 1 ? " construct.json node never reaches" : " construct.json nodes never reach")
                + " the root (a parent that is not a construct key, or a cycle); they are left out as the reference tool does");
        if (m_report.droppedParameterGrads)
            m_report.warnings.push_back(std::to_string(m_report.droppedParameterGrads)
                + (m_report.droppedParameterGrads == 1 ? " parameters_grad entry has" : " parameters_grad entries have")
                + " no backward module to attach to and are left out");
    }

    Graph& m_graph;
    const dump::ConstructInfo& m_construct;
    BuildReport& m_report;
    std::unordered_map<std::string_view, std::uint32_t> m_entryOf;
};

std::string tensorDirFor(const dump::DumpFile& dump, const fs::path& rankDir, bool& present)
{
    present = !dump.dumpDataDir.empty();
    if (!present)
        return {};
    const fs::path tensorPath(dump.dumpDataDir);
    if (rankDir.lexically_normal() != tensorPath.parent_path().lexically_normal())
        return (rankDir / "dump_tensor_data").string();
    return dump.dumpDataDir;
}

} // namespace

Graph buildGraph(dump::ConstructInfo construct, std::shared_ptr<const dump::DumpFile> dump, dump::StackInfo stack,
    const fs::path& rankDir, BuildReport* report)
{
    BuildReport local;
    BuildReport& out = report ? *report : local;
    if (construct.nodes.empty())
        throw support::Error((rankDir / "construct.json").string(), {},
            "construct.json is empty, so the model structure is unknown and no graph can be built; dump with "
            "level L0 or mix to record it");
    Graph graph;
    graph.dump = dump;
    graph.items = std::make_shared<compare::ItemTable>(*dump, compare::FlattenOptions {});
    graph.stacks = std::move(stack);
    graph.task = dump->task;
    graph.framework = dump->framework;
    graph.megatronMicroSteps = construct.megatronMicroStepNumber;
    graph.dumpDataDir = tensorDirFor(*dump, rankDir, graph.hasDumpDataDir);
    graph.construct = std::make_shared<dump::ConstructInfo>(std::move(construct));
    Builder(graph, *graph.construct, out).run();
    return graph;
}

Graph buildGraph(const fs::path& rankDir, BuildReport* report, const DumpFileSource& readDump)
{
    for (const char* name : { "construct.json", "dump.json", "stack.json" }) {
        std::error_code ec;
        if (!fs::is_regular_file(rankDir / name, ec))
            throw support::Error((rankDir / name).string(), {}, "missing: graph_visualize needs construct.json, dump.json and stack.json");
    }
    dump::ConstructInfo construct = dump::readConstructJson(rankDir / "construct.json");
    if (construct.nodes.empty())
        throw support::Error((rankDir / "construct.json").string(), {},
            "construct.json is empty, so the model structure is unknown and no graph can be built; dump with "
            "level L0 or mix to record it");
    auto dump = readDump ? readDump(rankDir / "dump.json") : std::make_shared<const dump::DumpFile>(dump::readDumpJson(rankDir / "dump.json"));
    return buildGraph(std::move(construct), std::move(dump), dump::readStackJson(rankDir / "stack.json"), rankDir, report);
}

} // namespace msprobe::graph
