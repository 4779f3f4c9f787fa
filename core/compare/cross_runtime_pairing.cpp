// SPDX-License-Identifier: Apache-2.0
#include "compare/cross_runtime_pairing.h"
#include "support/ascii_text.h"

#include "compare/cross_runtime_table.h"
#include "support/python_text.h"

#include <optional>
#include <unordered_map>
#include <unordered_set>

namespace msprobe {

namespace {

std::string_view prefixOf(std::string_view name) { return name.substr(0, name.find('.')); }

bool isModuleName(std::string_view name) { return name.starts_with("Module.") || name.starts_with("Cell."); }

// Keys in aten terms: a forward API entry is "{scope}|{aten op}.{k}.forward" with k its order among the calls of
// that aten operator inside the same module call; its items name their argument by the aten schema.
class SideKeyer {
public:
    SideKeyer(const ItemTable& table, const ConstructInfo& construct, bool scoped, char unpairableMark)
        : m_table(table)
        , m_construct(construct)
        , m_scoped(scoped)
        , m_mark(unpairableMark)
    {
    }

    // keys/ignored/argument per item; entryKeys per EntryInfo (empty: cannot pair).
    void run(std::vector<std::string>& keys, std::vector<std::uint8_t>& ignored, std::vector<std::uint8_t>& argument,
        std::vector<std::string>& entryKeys)
    {
        const auto& items = m_table.items();
        keys.assign(items.size(), {});
        ignored.assign(items.size(), 0);
        argument.assign(items.size(), 0);
        entryKeys.assign(m_table.entries().size(), {});
        findLinearDecompositions();
        for (std::size_t e = 0; e < m_table.entries().size(); ++e) {
            const EntryInfo& entry = m_table.entries()[e];
            const std::string_view name = m_table.dump().entryName(entry.dumpEntry);
            ArgumentNaming naming;
            const CompositePart* part = m_parts.empty() || !m_parts[e] ? nullptr : &*m_parts[e];
            const std::string entryKey = part ? compositeKey(entry, name, *part, naming) : keyOf(entry, name, naming);
            entryKeys[e] = part && !part->main ? std::string() : entryKey;
            for (std::uint32_t i = entry.firstItem; i < entry.firstItem + entry.itemCount; ++i) {
                const Item& item = items[i];
                if (entryKey.empty()) {
                    keys[i] = std::string(1, m_mark) + m_table.name(item);
                    continue;
                }
                std::string_view suffix = m_table.suffix(item);
                if (item.explicitName != kNoString) // tensor mode: the data_name stem, e.g. ".kwargs.bias"
                    suffix = std::string_view(m_table.text(item.explicitName)).substr(std::min(name.size(), m_table.text(item.explicitName).size()));
                if (part && entry.kind == CallKind::Forward && item.state == ItemState::Output && !part->keepsOutput) {
                    keys[i] = entryKey + "." + part->op + std::string(suffix); // an intermediate result: not compared
                    ignored[i] = 1;
                    continue;
                }
                if (naming.atenOp.empty() || item.state != ItemState::Input || entry.kind != CallKind::Forward) {
                    keys[i] = entryKey + std::string(suffix);
                    continue;
                }
                // ".input.{k or key}{rest}" (".kwargs.{key}" in tensor mode)
                const auto parts = pythonSplit(suffix.substr(suffix.starts_with('.') ? 1 : 0), '.');
                if (parts.size() < 2) {
                    keys[i] = entryKey + std::string(suffix);
                    continue;
                }
                const std::string canonical = isDigits(parts[1]) && parts[1].size() < 10
                    ? naming.positionalName(static_cast<std::size_t>(std::stoul(std::string(parts[1]))))
                    : naming.keywordName(parts[1]);
                argument[i] = 1;
                if (canonical == kIgnoredArgument)
                    ignored[i] = 1;
                // Left-out arguments keep their own name, so that two of one call stay apart.
                std::string key = entryKey + ".input." + canonical + (canonical == kIgnoredArgument ? std::string(parts[1]) : std::string());
                for (std::size_t p = 2; p < parts.size(); ++p)
                    key.append(1, '.').append(parts[p]);
                keys[i] = std::move(key);
            }
        }
    }

private:
    // One call of a decomposed operator: libtorch's C++ torch::nn::functional::linear (what nn::Linear runs) calls
    // t + addmm, or t + matmul (+ add_ for the bias), where Python's F.linear reaches aten linear. Each part names
    // its arguments in linear's terms ("-": not compared); the main part is the node the graph pairs.
    struct CompositePart {
        std::size_t first = 0; // the entry of the first part (its key is made there)
        std::string op; // this part's aten op
        std::vector<std::string> positional;
        bool keepsOutput = false; // the part whose output is the whole call's
        bool main = false;
    };

    std::string parentOf(std::string_view name) const
    {
        const ConstructInfo::Node* node = m_construct.find(std::string(name));
        return node && node->parent ? *node->parent : std::string();
    }

    static bool isLinearModuleCall(std::string_view module)
    {
        const std::size_t forward = module.find(".forward.");
        const std::string_view head = module.substr(0, forward);
        return forward != std::string_view::npos && head.substr(head.rfind('.') + 1) == "Linear";
    }

    void findLinearDecompositions()
    {
        std::vector<std::size_t> calls; // forward Aten calls in dump order
        for (std::size_t e = 0; e < m_table.entries().size(); ++e) {
            const EntryInfo& entry = m_table.entries()[e];
            if (entry.kind == CallKind::Forward && prefixOf(m_table.dump().entryName(entry.dumpEntry)) == "Aten")
                calls.push_back(e);
        }
        auto opOf = [&](std::size_t k) {
            return k < calls.size() ? m_table.entries()[calls[k]].opNoNumber.substr(5) : std::string_view {};
        };
        auto nameOf = [&](std::size_t k) { return m_table.dump().entryName(m_table.entries()[calls[k]].dumpEntry); };
        auto sameParent = [&](std::size_t a, std::size_t b) { return b < calls.size() && parentOf(nameOf(a)) == parentOf(nameOf(b)); };
        for (std::size_t k = 0; k + 1 < calls.size(); ++k) {
            if (opOf(k) != "t" || !sameParent(k, k + 1))
                continue;
            const bool inLinear = isLinearModuleCall(parentOf(nameOf(k)));
            std::vector<CompositePart> parts;
            parts.push_back({ calls[k], "t", { "weight" }, false, false });
            if (opOf(k + 1) == "addmm") {
                parts.push_back({ calls[k], "addmm", { "bias", "input", "-", }, true, true });
            } else if (opOf(k + 1) == "matmul" && inLinear) {
                const bool bias = (opOf(k + 2) == "add_" || opOf(k + 2) == "add") && sameParent(k, k + 2);
                parts.push_back({ calls[k], "matmul", { "input", "-" }, !bias, !bias });
                if (bias)
                    parts.push_back({ calls[k], std::string(opOf(k + 2)), { "-", "bias" }, true, true });
            } else {
                continue;
            }
            if (m_parts.empty())
                m_parts.resize(m_table.entries().size());
            for (std::size_t p = 0; p < parts.size(); ++p)
                m_parts[calls[k + p]] = parts[p];
            k += parts.size() - 1;
        }
    }

    // The key of a part of a decomposed linear: "{scope}|linear.{k}.forward" for every part (made at the first).
    std::string compositeKey(const EntryInfo& entry, std::string_view name, const CompositePart& part, ArgumentNaming& naming)
    {
        const std::string_view callDirection = entry.callDirection;
        const std::string callId = std::string(entry.opNoNumber) + "." + std::string(callDirection.substr(0, callDirection.find('.')));
        if (entry.kind == CallKind::Backward) {
            auto it = m_forwardKey.find(callId);
            return it == m_forwardKey.end() ? std::string() : it->second + ".backward";
        }
        std::string& key = m_compositeKey[part.first];
        if (key.empty()) {
            const std::string scope = m_scoped ? moduleNameWithoutClass(parentOf(name)) : std::string();
            const std::string counter = scope + "|linear";
            key = counter + "." + std::to_string(m_counters[counter]++);
        }
        naming.atenOp = "linear";
        naming.known = true;
        naming.positional = part.positional;
        naming.keywords.clear(); // addmm's beta/alpha, add_'s alpha: "alpha"/"beta" meet nothing on the Python side
        // The backward of a part other than the main one pairs with nothing.
        m_forwardKey[callId] = part.main ? key : key + "." + part.op;
        return key + ".forward";
    }

    // The entry's key; empty when it cannot pair (an API that reaches no known aten operator).
    std::string keyOf(const EntryInfo& entry, std::string_view name, ArgumentNaming& naming)
    {
        if (isModuleName(name))
            return moduleNameWithoutClass(name);
        if (entry.kind == CallKind::ParametersGrad || entry.kind == CallKind::Debug)
            return std::string(name);
        // "{Prefix}.{api}.{n}.forward|backward"
        const std::string_view prefix = prefixOf(name);
        const std::string_view opNoNumber = entry.opNoNumber;
        if (opNoNumber.size() <= prefix.size() + 1)
            return {};
        const std::string_view api = opNoNumber.substr(prefix.size() + 1);
        const std::string_view callDirection = entry.callDirection; // "3.forward"
        const std::string_view number = callDirection.substr(0, callDirection.find('.'));
        const std::string callId = std::string(opNoNumber) + "." + std::string(number);
        if (entry.kind == CallKind::Backward) {
            auto it = m_forwardKey.find(callId);
            if (it == m_forwardKey.end())
                return {};
            return it->second + ".backward";
        }
        naming = pythonApiNaming(prefix, api);
        if (naming.atenOp.empty())
            return {};
        std::string scope;
        if (m_scoped)
            if (const ConstructInfo::Node* node = m_construct.find(std::string(name)); node && node->parent)
                scope = moduleNameWithoutClass(*node->parent);
        std::string key = scope + "|" + naming.atenOp;
        key += "." + std::to_string(m_counters[key]++);
        m_forwardKey[callId] = key;
        return key + ".forward";
    }

    const ItemTable& m_table;
    const ConstructInfo& m_construct;
    bool m_scoped;
    char m_mark;
    std::unordered_map<std::string, std::size_t> m_counters; // "{scope}|{aten op}" -> calls so far
    std::unordered_map<std::string, std::string> m_forwardKey; // "Functional.linear.0" -> its key without direction
    std::vector<std::optional<CompositePart>> m_parts; // per entry, when it is part of a decomposed linear
    std::unordered_map<std::size_t, std::string> m_compositeKey; // first part's entry -> the call's key
};

// Whether construct.json names a parent for some API entry (level mix); L1 dumps write "{}".
bool hasApiParents(const ConstructInfo& construct)
{
    for (const auto& node : construct.nodes)
        if (node.parent && !isModuleName(node.name))
            return true;
    return false;
}

bool isTensorItem(const ItemTable& table, const Item& item)
{
    return item.node != kNullNode && table.dump().nodes[item.node].kind == NodeKind::Tensor;
}

// Arguments present on one side only, when not tensors, of calls both sides made: an aten-only or Python-only
// argument at its default.
void ignoreOneSided(const ItemTable& table, const std::vector<std::string>& keys, const std::vector<std::uint8_t>& argument,
    const std::vector<std::string>& entryKeys, const std::unordered_set<std::string_view>& otherKeys,
    const std::unordered_set<std::string_view>& otherEntryKeys, std::vector<std::uint8_t>& ignored)
{
    for (std::size_t i = 0; i < keys.size(); ++i) {
        const Item& item = table.items()[i];
        if (argument[i] && !ignored[i] && !otherKeys.contains(keys[i]) && !isTensorItem(table, item)
            && otherEntryKeys.contains(entryKeys[item.entry]))
            ignored[i] = 1;
    }
}

} // namespace

std::string moduleNameWithoutClass(std::string_view name)
{
    std::size_t cut = std::string_view::npos;
    for (std::string_view marker : { ".forward", ".backward", ".parameters_grad" }) {
        const std::size_t at = name.find(marker);
        if (at != std::string_view::npos && (cut == std::string_view::npos || at < cut))
            cut = at;
    }
    if (cut == std::string_view::npos)
        return std::string(name);
    const std::string_view head = name.substr(0, cut);
    const std::size_t classDot = head.rfind('.');
    if (classDot == std::string_view::npos || head.find('.') == classDot) // "Module.Class": nothing to drop
        return std::string(name);
    return std::string(head.substr(0, classDot)) + std::string(name.substr(cut));
}

DumpRuntime detectRuntime(const DumpFile& dump)
{
    std::size_t aten = 0, python = 0;
    for (std::size_t e = 0; e < dump.entries.size(); ++e) {
        const std::string_view prefix = prefixOf(dump.entryName(e));
        if (prefix == "Aten")
            ++aten;
        else if (isPythonApiPrefix(prefix))
            ++python;
    }
    if (aten > 0 && python == 0)
        return DumpRuntime::Aten;
    if (python > 0 && python >= aten)
        return DumpRuntime::Python;
    return DumpRuntime::Unknown;
}

bool isCrossRuntimePair(const DumpFile& npu, const DumpFile& bench)
{
    const DumpRuntime a = detectRuntime(npu), b = detectRuntime(bench);
    return (a == DumpRuntime::Aten && b == DumpRuntime::Python) || (a == DumpRuntime::Python && b == DumpRuntime::Aten);
}

CrossRuntimeKeys crossRuntimeKeys(const ItemTable& npu, const ConstructInfo& npuConstruct, const ItemTable& bench,
    const ConstructInfo& benchConstruct)
{
    CrossRuntimeKeys keys;
    keys.scoped = hasApiParents(npuConstruct) && hasApiParents(benchConstruct);
    std::vector<std::uint8_t> npuArgument, benchArgument;
    std::vector<std::string>& npuEntries = keys.npuEntryKeys;
    std::vector<std::string>& benchEntries = keys.benchEntryKeys;
    SideKeyer(npu, npuConstruct, keys.scoped, '\x01').run(keys.npu, keys.npuIgnored, npuArgument, npuEntries);
    SideKeyer(bench, benchConstruct, keys.scoped, '\x02').run(keys.bench, keys.benchIgnored, benchArgument, benchEntries);
    const std::unordered_set<std::string_view> npuSet(keys.npu.begin(), keys.npu.end());
    const std::unordered_set<std::string_view> benchSet(keys.bench.begin(), keys.bench.end());
    std::unordered_set<std::string_view> npuEntrySet, benchEntrySet;
    for (const auto& key : npuEntries)
        if (!key.empty())
            npuEntrySet.insert(key);
    for (const auto& key : benchEntries)
        if (!key.empty())
            benchEntrySet.insert(key);
    ignoreOneSided(npu, keys.npu, npuArgument, npuEntries, benchSet, benchEntrySet, keys.npuIgnored);
    ignoreOneSided(bench, keys.bench, benchArgument, benchEntries, npuSet, npuEntrySet, keys.benchIgnored);
    return keys;
}

} // namespace msprobe
