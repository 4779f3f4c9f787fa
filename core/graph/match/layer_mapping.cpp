// SPDX-License-Identifier: Apache-2.0
#include "graph/match/layer_mapping.h"
#include "support/ascii_text.h"
#include "support/python_text.h"

#include "graph/model/graph_builder.h"
#include "support/error.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <regex>
#include <sstream>

namespace msprobe::graph {

namespace {

std::string join(const std::vector<std::string>& parts, std::size_t begin, std::size_t end)
{
    std::string out;
    for (std::size_t i = begin; i < end && i < parts.size(); ++i) {
        if (i > begin)
            out += '.';
        out += parts[i];
    }
    return out;
}

std::vector<std::string> split(std::string_view text, char sep)
{
    const auto parts = support::pythonSplit(text, sep);
    return { parts.begin(), parts.end() };
}


struct DataItem {
    std::string dataName, apiType, apiName, typeName, state;
    std::string layerScope, frameStackScope, fullScope;
};

void setName(DataItem& item, const std::string& name)
{
    item.dataName = name;
    const auto parts = split(name, '.');
    const std::size_t n = parts.size();
    if (n < 4)
        throw support::Error("layer mapping", name, "a dump key needs at least four dot-separated fields");
    if (parts[n - 1] == "parameters_grad") {
        item.apiType = item.state = "parameters_grad";
        item.apiName = parts[n - 3];
        item.typeName = parts[n - 2];
        return;
    }
    if (parts[n - 2] == "parameters_grad" && support::isDigits(parts[n - 1])) {
        item.apiType = item.state = "parameters_grad";
        item.apiName = parts[n - 4];
        item.typeName = parts[n - 3];
        return;
    }
    item.apiType = parts[0];
    item.typeName = parts[n - 3];
    if (item.apiType == "Cell" || item.apiType == "Module") {
        item.apiName = parts[n - 4];
        item.state = parts[n - 2];
    } else {
        item.apiName = item.typeName;
        item.state = parts[n - 1];
    }
}

void setLayerScope(DataItem& item, const std::optional<std::string>& parent)
{
    std::vector<std::string> list;
    const auto parts = split(item.dataName, '.');
    if (item.apiType == "Cell" || item.apiType == "Module") {
        list.assign(parts.begin(), parts.end() - 4);
        list.insert(list.end(), parts.end() - 3, parts.end());
    } else if (item.apiType == "parameters_grad") {
        list = parts;
    } else if (parent && !parent->empty()) {
        list = split(*parent, '.');
    }
    item.layerScope = list.empty() ? "TopLayer" : join(list, 0, list.size() >= 3 ? list.size() - 3 : 0);
    if (parent && parent->find('.') != std::string::npos && split(*parent, '.').size() < 4)
        throw support::Error("layer mapping", *parent, "a construct.json parent needs at least four dot-separated fields");
}

// The innermost framework function between the API template frame and the forward/backward frame.
std::string frameScope(const std::vector<std::string>& stack, bool mindspore)
{
    static const std::regex pytorchEnd(R"(in (for|back)ward,)");
    std::ptrdiff_t start = -1;
    std::size_t end = stack.size();
    for (std::size_t i = 0; i < stack.size(); ++i) {
        const bool isStart = stack[i].find("Template") != std::string::npos;
        if (isStart)
            start = static_cast<std::ptrdiff_t>(i);
        else if (start >= 0 && (mindspore ? stack[i].find("construct") != std::string::npos : std::regex_search(stack[i], pytorchEnd))) {
            end = i;
            break;
        }
    }
    static const char* frameFiles[] = { "site-packages/torch", "package/torch", "site-packages/mindspore", "package/mindspore" };
    std::string frame;
    bool noEntrance = true;
    for (std::size_t i = static_cast<std::size_t>(start + 1); i < end; ++i) {
        const auto fields = split(stack[i], ',');
        const bool frameFile = std::any_of(std::begin(frameFiles), std::end(frameFiles),
            [&](const char* f) { return fields[0].find(f) != std::string::npos; });
        if (frameFile && noEntrance)
            frame = stack[i];
        else
            noEntrance = false;
    }
    if (frame.empty())
        return {};
    const auto fields = split(frame, ',');
    if (fields[0].find("msprobe") != std::string::npos || fields[0].find("MindSpeed") != std::string::npos)
        return {};
    if (fields.size() < 3)
        throw support::Error("layer mapping", frame, "a stack frame is not 'File ..., line ..., in ...'");
    if (fields[2].find("construct") != std::string::npos || fields[2].find("__call__") != std::string::npos)
        return {};
    std::istringstream words(fields[2]);
    std::string word, name;
    int index = 0;
    while (words >> word)
        if (index++ == 1)
            name = word;
    return name;
}

struct Trie {
    std::string typeName;
    std::map<std::string, std::vector<const DataItem*>> items; // by state
    std::unordered_map<std::string, std::unique_ptr<Trie>> children;

    Trie* child(const std::string& name) const
    {
        auto it = children.find(name);
        return it == children.end() ? nullptr : it->second.get();
    }
    void insert(const DataItem& item)
    {
        const auto parts = split(item.fullScope, '.');
        Trie* node = this;
        for (std::size_t i = 1; i < parts.size(); ++i) {
            auto& slot = node->children[parts[i]];
            if (!slot) {
                slot = std::make_unique<Trie>();
                slot->typeName = parts[i];
            }
            node = slot.get();
        }
        node->items[item.state].push_back(&item);
        node->typeName = item.typeName;
    }
};

struct Side {
    std::vector<std::unique_ptr<DataItem>> items;
    Trie root;
};

// renumber_index_pass for ParallelTransformer "layers" indices: make them relative to the smallest one.
void renumberLayers(std::vector<std::unique_ptr<DataItem>>& items)
{
    std::vector<std::pair<std::string, double>> prefixes;
    for (const auto& item : items)
        if (item->typeName == "ParallelTransformer") {
            const std::string prefix = item->fullScope + ".layers";
            if (std::none_of(prefixes.begin(), prefixes.end(), [&](const auto& p) { return p.first == prefix; }))
                prefixes.emplace_back(prefix, std::numeric_limits<double>::infinity());
        }
    auto nextIndex = [](const std::string& scope, const std::string& prefix, std::string* nextItem) -> double {
        if (!scope.starts_with(prefix + "."))
            return std::numeric_limits<double>::infinity();
        std::string rest = scope.substr(prefix.size() + 1);
        const std::string next = rest.substr(0, rest.find('.'));
        if (next.empty())
            return std::numeric_limits<double>::infinity();
        if (nextItem)
            *nextItem = next;
        static const std::regex number(R"(\d+)");
        double last = std::numeric_limits<double>::infinity();
        for (std::sregex_iterator it(next.begin(), next.end(), number), endIt; it != endIt; ++it)
            last = std::stod(it->str());
        return last;
    };
    for (auto& [prefix, minimum] : prefixes)
        for (const auto& item : items)
            minimum = std::min(minimum, nextIndex(item->fullScope, prefix, nullptr));
    for (const auto& [prefix, minimum] : prefixes)
        for (auto& item : items) {
            std::string next;
            const double index = nextIndex(item->fullScope, prefix, &next);
            if (std::isinf(index - minimum) || std::isnan(index - minimum))
                continue;
            item->fullScope = prefix + "." + std::to_string(static_cast<long long>(index - minimum))
                + item->fullScope.substr(prefix.size() + 1 + next.size());
        }
}

void buildSide(Side& side, const Graph& graph)
{
    if (!graph.construct || graph.construct->nodes.empty() || graph.stacks.groupOf.empty())
        return; // the reference yields no items without stack.json and construct.json
    const bool mindspore = graph.framework == "mindspore";
    std::unordered_map<std::string, DataItem*> byName;
    for (std::size_t e = 0; e < graph.dump->entries.size(); ++e) {
        auto item = std::make_unique<DataItem>();
        const std::string name(graph.dump->entryName(e));
        setName(*item, name);
        const auto* node = graph.construct->find(name);
        setLayerScope(*item, node ? node->parent : std::nullopt);
        const bool layer = item->apiType == "Cell" || item->apiType == "Module";
        if (!layer && item->apiType != "Primitive" && item->apiType != "Jit")
            if (const auto* frames = graph.stacks.framesOf(name); frames && !frames->empty())
                item->frameStackScope = frameScope(*frames, mindspore);
        item->fullScope = item->layerScope + (item->frameStackScope.empty() ? "" : "." + item->frameStackScope) + "." + item->apiName;
        byName[name] = item.get();
        side.items.push_back(std::move(item));
    }
    // Backward items have no stack: they take their forward twin's scopes.
    for (auto& item : side.items) {
        auto parts = split(item->dataName, '.');
        const std::size_t from = parts.size() - 2;
        if (std::find(parts.begin() + from, parts.end(), "backward") == parts.end())
            continue;
        for (std::size_t i = from; i < parts.size(); ++i)
            parts[i] = replaceAllText(parts[i], "backward", "forward");
        auto it = byName.find(join(parts, 0, parts.size()));
        if (it == byName.end())
            continue;
        item->fullScope = it->second->fullScope;
        item->layerScope = it->second->layerScope;
    }
    renumberLayers(side.items);
    side.root.typeName = "TopLayer";
    for (const auto& item : side.items)
        side.root.insert(*item);
}

// {type: {first segment: [(npu path, bench path, segment count)]}} with the longest paths first.
using Prepared = std::unordered_map<std::string, std::unordered_map<std::string, std::vector<std::tuple<std::string, std::string, std::size_t>>>>;

Prepared prepare(const LayerMappingRules& rules)
{
    Prepared out;
    for (const auto& [typeName, map] : rules) {
        auto& byPrefix = out[typeName == "Cell" ? "TopLayer" : typeName];
        for (const auto& [key, value] : map) {
            const auto keyParts = split(key, '.');
            byPrefix[keyParts[0]].emplace_back(key, value.substr(0, value.find('(')), keyParts.size());
        }
        for (auto& [prefix, list] : byPrefix)
            std::stable_sort(list.begin(), list.end(), [](const auto& a, const auto& b) { return std::get<2>(a) > std::get<2>(b); });
    }
    return out;
}

} // namespace

std::unordered_map<std::string, std::string> layerMappingFor(const Graph& npu, const Graph& bench, const LayerMappingRules& rules)
{
    Side n, b;
    buildSide(n, npu);
    buildSide(b, bench);
    Prepared mapping = prepare(rules);
    std::unordered_map<std::string, std::string> result;
    for (const auto& item : n.items) {
        const auto scope = split(item->fullScope, '.');
        std::string newScope = "TopLayer";
        const Trie* node = &n.root;
        std::size_t idx = 0;
        while (idx + 1 < scope.size() && node) {
            const std::string& child = scope[idx + 1];
            std::size_t step = 1;
            bool renamed = false;
            if (auto type = mapping.find(node->typeName); type != mapping.end())
                if (auto list = type->second.find(child); list != type->second.end())
                    for (const auto& [origin, target, level] : list->second)
                        if (join(scope, idx + 1, idx + 1 + level) == origin) {
                            newScope += "." + target;
                            step = level;
                            renamed = true;
                            break;
                        }
            if (!renamed)
                newScope += "." + child;
            for (std::size_t k = 0; k < step && node; ++k) {
                node = node->child(scope[idx + 1]);
                ++idx;
            }
        }
        std::string benchName = "N/A";
        if (node) {
            std::ptrdiff_t index = -1;
            if (auto list = node->items.find(item->state); list != node->items.end())
                for (std::size_t i = 0; i < list->second.size(); ++i)
                    if (list->second[i]->dataName == item->dataName)
                        index = static_cast<std::ptrdiff_t>(i);
            const auto parts = split(newScope, '.');
            const Trie* target = &b.root;
            for (std::size_t i = 1; i < parts.size() && target; ++i)
                target = target->child(parts[i]);
            if (target && index >= 0)
                if (auto list = target->items.find(item->state); list != target->items.end() && std::size_t(index) < list->second.size())
                    benchName = list->second[std::size_t(index)]->dataName;
        }
        result[item->dataName] = benchName;
    }
    return result;
}

std::unordered_map<std::string, std::string> layerMappingFor(const Graph& npu, const Graph& bench, const std::filesystem::path& yamlFile)
{
    return layerMappingFor(npu, bench, yamlFile.empty() ? LayerMappingRules {} : readLayerMappingYaml(yamlFile));
}

} // namespace msprobe::graph
