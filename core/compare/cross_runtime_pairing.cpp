// SPDX-License-Identifier: Apache-2.0
#include "compare/cross_runtime_pairing.h"
#include "support/ascii_text.h"

#include "compare/cross_runtime_table.h"
#include "support/python_text.h"

#include <algorithm>
#include <array>
#include <optional>
#include <unordered_map>
#include <unordered_set>

namespace msprobe::compare {

namespace {

std::string_view prefixOf(std::string_view name) { return name.substr(0, name.find('.')); }

bool isModuleName(std::string_view name) { return name.starts_with("Module.") || name.starts_with("Cell."); }

// ".input.{k or key}{rest}" of a forward call named by naming -> ".input.{aten name}{rest}" (the left-out name
// keeps its own name after it, so that two of one call stay apart); empty when the suffix names no argument.
std::string argumentSuffix(const ArgumentNaming& naming, std::string_view suffix, bool& ignored)
{
    ignored = false;
    const auto parts = support::pythonSplit(suffix.substr(suffix.starts_with('.') ? 1 : 0), '.');
    if (parts.size() < 2)
        return {};
    const std::string canonical = support::isDigits(parts[1]) && parts[1].size() < 10
        ? naming.positionalName(static_cast<std::size_t>(std::stoul(std::string(parts[1]))))
        : naming.keywordName(parts[1]);
    ignored = canonical == kIgnoredArgument;
    std::string key = ".input." + canonical + (ignored ? std::string(parts[1]) : std::string());
    for (std::size_t p = 2; p < parts.size(); ++p)
        key.append(1, '.').append(parts[p]);
    return key;
}

// One call of a decomposed operator: libtorch's C++ torch::nn::functional::linear (what nn::Linear runs) calls
// t + addmm, or t + matmul (+ add_ for the bias), where Python's F.linear reaches aten linear. Each part names
// its arguments in linear's terms ("-": not compared); the main part is the node the graph pairs.
struct LinearPart {
    std::string op; // this part's aten op
    std::vector<std::string> positional;
    bool keepsOutput = false; // the part whose output is the whole call's
    bool main = false;
};

LinearPart linearPart(std::string_view op, bool withBias)
{
    if (op == "t")
        return { "t", { "weight" }, false, false };
    if (op == "addmm")
        return { "addmm", { "bias", "input", "-" }, true, true };
    if (op == "matmul")
        return { "matmul", { "input", "-" }, !withBias, !withBias };
    return { std::string(op), { "-", "bias" }, true, true }; // add_ / add of the bias
}

// The part of F.linear's decomposition an aten op of a node matched by hand to a linear can be; nullopt for others.
std::optional<LinearPart> linearPartOf(std::string_view op)
{
    if (op == "t" || op == "addmm" || op == "add_" || op == "add")
        return linearPart(op, true);
    if (op == "matmul")
        return linearPart(op, false);
    return std::nullopt;
}

// A backward item of a part (".input.k": the grad of its k-th output, ".output.k": the grad of its k-th tensor
// input) in the whole linear's backward terms (".input.0"; ".output.0/1/2" for input, weight, bias); empty: an
// intermediate gradient, not compared.
std::string linearBackwardSuffix(const LinearPart& part, std::string_view suffix)
{
    const auto parts = support::pythonSplit(suffix.substr(suffix.starts_with('.') ? 1 : 0), '.');
    if (parts.size() < 2 || !support::isDigits(parts[1]) || parts[1].size() > 9)
        return {};
    const std::size_t k = std::stoul(std::string(parts[1]));
    std::string rest;
    for (std::size_t p = 2; p < parts.size(); ++p)
        rest.append(1, '.').append(parts[p]);
    if (parts[0] == "input")
        return part.keepsOutput && k == 0 ? ".input.0" + rest : std::string();
    if (parts[0] != "output" || k >= part.positional.size())
        return {};
    static constexpr std::array<std::string_view, 3> kLinearInputs = { "input", "weight", "bias" };
    const auto at = std::find(kLinearInputs.begin(), kLinearInputs.end(), part.positional[k]);
    return at == kLinearInputs.end() ? std::string() : ".output." + std::to_string(at - kLinearInputs.begin()) + rest;
}

// Keys in aten terms: a forward API entry is "{scope}|{aten op}.{k}.forward" with k its order among the calls of
// that aten operator inside the same module call; its items name their argument by the aten schema.
class SideKeyer {
public:
    SideKeyer(const ItemTable& table, const dump::ConstructInfo& construct, bool scoped, char unpairableMark)
        : m_table(table)
        , m_construct(construct)
        , m_scoped(scoped)
        , m_mark(unpairableMark)
    {
    }

    // keys/ignored/argument per item; entryKeys per EntryInfo (empty: cannot pair).
    void run(std::vector<std::string>& keys, std::vector<std::uint8_t>& ignored, std::vector<std::uint8_t>& argumentItems,
        std::vector<std::string>& entryKeys, std::vector<std::uint8_t>& linearParts)
    {
        const auto& items = m_table.items();
        linearParts.assign(m_table.entries().size(), 0);
        keys.assign(items.size(), {});
        ignored.assign(items.size(), 0);
        argumentItems.assign(items.size(), 0);
        entryKeys.assign(m_table.entries().size(), {});
        findLinearDecompositions();
        for (std::size_t e = 0; e < m_table.entries().size(); ++e) {
            const EntryInfo& entry = m_table.entries()[e];
            const std::string_view name = m_table.dump().entryName(entry.dumpEntry);
            ArgumentNaming naming;
            const LinearPart* part = compositePartOf(e, entry);
            const std::string entryKey = part ? compositeKey(e, entry, name, *part, naming) : keyOf(entry, name, naming);
            entryKeys[e] = part && !part->main ? std::string() : entryKey;
            linearParts[e] = part != nullptr;
            for (std::uint32_t i = entry.firstItem; i < entry.firstItem + entry.itemCount; ++i) {
                const Item& item = items[i];
                if (entryKey.empty()) {
                    keys[i] = std::string(1, m_mark) + m_table.name(item);
                    continue;
                }
                std::string_view suffix = m_table.suffix(item);
                if (item.explicitName != support::kNoString) // tensor mode: the data_name stem, e.g. ".kwargs.bias"
                    suffix = std::string_view(m_table.text(item.explicitName)).substr(std::min(name.size(), m_table.text(item.explicitName).size()));
                if (part && entry.kind == CallKind::Forward && item.state == ItemState::Output && !part->keepsOutput) {
                    keys[i] = entryKey + "." + part->op + std::string(suffix); // an intermediate result: not compared
                    ignored[i] = 1;
                    continue;
                }
                if (part && entry.kind == CallKind::Backward) {
                    const std::string linear = linearBackwardSuffix(*part, suffix);
                    keys[i] = entryKey + (linear.empty() ? "." + part->op + std::string(suffix) : linear);
                    ignored[i] = linear.empty(); // the gradient of an intermediate result
                    continue;
                }
                if (naming.atenOp.empty() || item.state != ItemState::Input || entry.kind != CallKind::Forward) {
                    keys[i] = entryKey + std::string(suffix);
                    continue;
                }
                bool leftOut = false;
                const std::string argument = argumentSuffix(naming, suffix, leftOut);
                if (argument.empty()) {
                    keys[i] = entryKey + std::string(suffix);
                    continue;
                }
                argumentItems[i] = 1;
                ignored[i] = leftOut;
                keys[i] = entryKey + argument;
            }
        }
    }

private:
    // A decomposed linear's part: `first` is the entry of the call's first part (its key is made there).
    struct CompositePart {
        std::size_t first = 0;
        LinearPart part;
    };

    std::string parentOf(std::string_view name) const
    {
        const dump::ConstructInfo::Node* node = m_construct.find(std::string(name));
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
            parts.push_back({ calls[k], linearPart("t", false) });
            if (opOf(k + 1) == "addmm") {
                parts.push_back({ calls[k], linearPart("addmm", true) });
            } else if (opOf(k + 1) == "matmul" && inLinear) {
                const bool bias = (opOf(k + 2) == "add_" || opOf(k + 2) == "add") && sameParent(k, k + 2);
                parts.push_back({ calls[k], linearPart("matmul", bias) });
                if (bias)
                    parts.push_back({ calls[k], linearPart(opOf(k + 2), true) });
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

    // The part of a decomposed linear an entry is (its backward entry: the part its forward call was); else nullptr.
    const LinearPart* compositePartOf(std::size_t e, const EntryInfo& entry) const
    {
        if (entry.kind == CallKind::Forward)
            return m_parts.empty() || !m_parts[e] ? nullptr : &m_parts[e]->part;
        if (entry.kind != CallKind::Backward)
            return nullptr;
        auto it = m_backwardPart.find(callIdOf(entry));
        return it == m_backwardPart.end() ? nullptr : &it->second;
    }

    static std::string callIdOf(const EntryInfo& entry)
    {
        const std::string_view callDirection = entry.callDirection;
        return std::string(entry.opNoNumber) + "." + std::string(callDirection.substr(0, callDirection.find('.')));
    }

    // The key of a part of a decomposed linear: "{scope}|linear.{k}.forward" for every part (made at the first),
    // "{scope}|linear.{k}.backward" for the backward of every part.
    std::string compositeKey(std::size_t e, const EntryInfo& entry, std::string_view name, const LinearPart& part, ArgumentNaming& naming)
    {
        const std::string callId = callIdOf(entry);
        if (entry.kind == CallKind::Backward) {
            auto it = m_forwardKey.find(callId);
            return it == m_forwardKey.end() ? std::string() : it->second + ".backward";
        }
        std::string& key = m_compositeKey[m_parts[e]->first];
        if (key.empty()) {
            const std::string scope = m_scoped ? moduleNameWithoutClass(parentOf(name)) : std::string();
            const std::string counter = scope + "|linear";
            key = counter + "." + std::to_string(m_counters[counter]++);
        }
        naming.atenOp = "linear";
        naming.known = true;
        naming.positional = part.positional;
        naming.keywords.clear(); // addmm's beta/alpha, add_'s alpha: "alpha"/"beta" meet nothing on the Python side
        m_forwardKey[callId] = key;
        m_backwardPart.emplace(callId, part);
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
            if (const dump::ConstructInfo::Node* node = m_construct.find(std::string(name)); node && node->parent)
                scope = moduleNameWithoutClass(*node->parent);
        std::string key = scope + "|" + naming.atenOp;
        key += "." + std::to_string(m_counters[key]++);
        m_forwardKey[callId] = key;
        return key + ".forward";
    }

    const ItemTable& m_table;
    const dump::ConstructInfo& m_construct;
    bool m_scoped;
    char m_mark;
    std::unordered_map<std::string, std::size_t> m_counters; // "{scope}|{aten op}" -> calls so far
    std::unordered_map<std::string, std::string> m_forwardKey; // "Functional.linear.0" -> its key without direction
    std::vector<std::optional<CompositePart>> m_parts; // per entry, when it is part of a decomposed linear
    std::unordered_map<std::string, LinearPart> m_backwardPart; // "Aten.t.0" -> its part, for its backward entry
    std::unordered_map<std::size_t, std::string> m_compositeKey; // first part's entry -> the call's key
};

// Whether construct.json names a parent for some API entry (level mix); L1 dumps write "{}".
bool hasApiParents(const dump::ConstructInfo& construct)
{
    for (const auto& node : construct.nodes)
        if (node.parent && !isModuleName(node.name))
            return true;
    return false;
}

bool isTensorItem(const ItemTable& table, const Item& item)
{
    return item.node != kNullNode && table.dump().nodes[item.node].kind == dump::NodeKind::Tensor;
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

// "Prefix.api.N.direction" split; false for a name of another form (a module, parameters_grad).
struct OperatorName {
    std::string_view prefix, api, direction;
};

std::optional<OperatorName> operatorName(std::string_view node)
{
    if (isModuleName(node))
        return std::nullopt;
    const std::size_t first = node.find('.'), last = node.rfind('.');
    if (first == std::string_view::npos || last <= first)
        return std::nullopt;
    const std::size_t number = node.rfind('.', last - 1);
    if (number == std::string_view::npos || number <= first || !support::isDigits(node.substr(number + 1, last - number - 1)))
        return std::nullopt;
    OperatorName name { node.substr(0, first), node.substr(first + 1, number - first - 1), node.substr(last + 1) };
    if (name.direction != "forward" && name.direction != "backward")
        return std::nullopt;
    return name;
}

// The keys of one node's items (relative to the node); argumentItems marks forward arguments.
void keyNodeItems(const NodePairSide& side, const OperatorName& name, const ArgumentNaming& naming, const std::optional<LinearPart>& part,
    std::vector<std::string>& keys, std::vector<std::uint8_t>& ignored, std::vector<std::uint8_t>& argumentItems)
{
    keys.assign(side.items.size(), {});
    ignored.assign(side.items.size(), 0);
    argumentItems.assign(side.items.size(), 0);
    const bool forward = name.direction == "forward";
    for (std::size_t i = 0; i < side.items.size(); ++i) {
        const std::string_view item = side.items[i];
        const std::string_view suffix = item.starts_with(side.node) ? item.substr(side.node.size()) : item;
        if (part && !forward) {
            const std::string linear = linearBackwardSuffix(*part, suffix);
            keys[i] = linear.empty() ? "." + part->op + std::string(suffix) : linear;
            ignored[i] = linear.empty();
            continue;
        }
        if (part && suffix.starts_with(".output") && !part->keepsOutput) {
            keys[i] = "." + part->op + std::string(suffix);
            ignored[i] = 1;
            continue;
        }
        bool leftOut = false;
        const std::string argument = forward && !naming.atenOp.empty() && (suffix.starts_with(".input.") || suffix.starts_with(".kwargs."))
            ? argumentSuffix(naming, suffix, leftOut)
            : std::string();
        keys[i] = argument.empty() ? std::string(suffix) : argument;
        ignored[i] = leftOut;
        argumentItems[i] = !argument.empty();
    }
}

// The gradient items of one side of a backward call, by list ("input" / "output").
struct GradientLists {
    std::vector<std::size_t> input, output;
};

// Backward entries by their pairing key: the item indices of their gradient lists (the parts of a decomposed
// linear, keyed in linear's own terms, are left alone).
std::unordered_map<std::string, GradientLists> gradientLists(const ItemTable& table, const std::vector<std::string>& keys,
    const std::vector<std::string>& entryKeys, const std::vector<std::uint8_t>& linearParts)
{
    std::unordered_map<std::string, GradientLists> out;
    for (std::size_t i = 0; i < keys.size(); ++i) {
        const Item& item = table.items()[i];
        const std::string& entryKey = entryKeys[item.entry];
        if (entryKey.empty() || linearParts[item.entry] || table.entries()[item.entry].kind != CallKind::Backward)
            continue;
        const std::string_view suffix = table.suffix(item);
        if (keys[i].size() != entryKey.size() + suffix.size() || !keys[i].starts_with(entryKey) || !keys[i].ends_with(suffix))
            continue;
        if (suffix.starts_with(".input."))
            out[entryKey].input.push_back(i);
        else if (suffix.starts_with(".output."))
            out[entryKey].output.push_back(i);
    }
    return out;
}

// Python msprobe's backward lists are not one gradient per forward tensor: null for a non-tensor argument
// (Tensor.__mul__(x, 0.35) -> [grad, null]), fewer gradients than inputs ([] for an Embedding module fed indices,
// a single one for Functional.linear), gradients of an interior node (Torch.matmul's batched [4, 8, 8]). Our capture
// writes one per tensor. Where a call's two lists differ in length or hold nulls, each gradient pairs with the
// other side's first unpaired gradient of the same shape, in order; nulls and gradients without such a partner are
// left out (the other runtime did not record them).
void alignGradientList(const ItemTable& npu, const ItemTable& bench, const std::vector<std::size_t>& npuList,
    const std::vector<std::size_t>& benchList, const std::string& listKey, CrossRuntimeKeys& keys)
{
    auto isNull = [](const ItemTable& table, std::size_t i) { return table.items()[i].node == kNullNode; };
    const bool regular = npuList.size() == benchList.size()
        && std::none_of(npuList.begin(), npuList.end(), [&](std::size_t i) { return isNull(npu, i); })
        && std::none_of(benchList.begin(), benchList.end(), [&](std::size_t i) { return isNull(bench, i); });
    if (regular)
        return;
    std::vector<std::uint8_t> benchUsed(benchList.size(), 0);
    std::size_t paired = 0;
    for (std::size_t i : npuList) {
        keys.npu[i] = "\x01" + npu.name(npu.items()[i]);
        keys.npuIgnored[i] = 1;
        if (isNull(npu, i))
            continue;
        const std::string shape = npu.shape(npu.items()[i]);
        for (std::size_t b = 0; b < benchList.size(); ++b) {
            const std::size_t j = benchList[b];
            if (benchUsed[b] || isNull(bench, j) || bench.shape(bench.items()[j]) != shape)
                continue;
            benchUsed[b] = 1;
            keys.npu[i] = keys.bench[j] = listKey + std::to_string(paired++);
            keys.npuIgnored[i] = 0;
            break;
        }
    }
    for (std::size_t b = 0; b < benchList.size(); ++b)
        if (!benchUsed[b]) {
            keys.bench[benchList[b]] = "\x02" + bench.name(bench.items()[benchList[b]]);
            keys.benchIgnored[benchList[b]] = 1;
        }
}

void alignBackwardGradients(const ItemTable& npu, const ItemTable& bench, CrossRuntimeKeys& keys)
{
    const auto npuLists = gradientLists(npu, keys.npu, keys.npuEntryKeys, keys.npuLinearParts);
    const auto benchLists = gradientLists(bench, keys.bench, keys.benchEntryKeys, keys.benchLinearParts);
    for (const auto& [entryKey, lists] : npuLists) {
        auto other = benchLists.find(entryKey);
        if (other == benchLists.end())
            continue;
        alignGradientList(npu, bench, lists.input, other->second.input, entryKey + ".input.", keys);
        alignGradientList(npu, bench, lists.output, other->second.output, entryKey + ".output.", keys);
    }
}

} // namespace

NodePairKeys crossRuntimeNodePairKeys(const NodePairSide& npu, const NodePairSide& bench)
{
    NodePairKeys out;
    const auto npuName = operatorName(npu.node), benchName = operatorName(bench.node);
    if (!npuName || !benchName || npuName->direction != benchName->direction)
        return out;
    const bool npuAten = npuName->prefix == "Aten", benchAten = benchName->prefix == "Aten";
    if (!(npuAten && isPythonApiPrefix(benchName->prefix)) && !(benchAten && isPythonApiPrefix(npuName->prefix)))
        return out;
    out.active = true;
    const OperatorName& aten = npuAten ? *npuName : *benchName;
    const OperatorName& python = npuAten ? *benchName : *npuName;
    const ArgumentNaming pythonNaming = pythonApiNaming(python.prefix, python.api);
    ArgumentNaming atenSide = atenNaming(aten.api);
    std::optional<LinearPart> part;
    if (pythonNaming.atenOp == "linear" && aten.api != "linear")
        if ((part = linearPartOf(aten.api))) {
            atenSide.atenOp = "linear";
            atenSide.known = true;
            atenSide.positional = part->positional;
            atenSide.keywords.clear();
        }
    std::vector<std::uint8_t> npuArgument, benchArgument;
    keyNodeItems(npu, *npuName, npuAten ? atenSide : pythonNaming, npuAten ? part : std::nullopt, out.npu, out.npuIgnored, npuArgument);
    keyNodeItems(bench, *benchName, benchAten ? atenSide : pythonNaming, benchAten ? part : std::nullopt, out.bench, out.benchIgnored,
        benchArgument);
    // A non-tensor argument the other node lacks is one only this runtime passes (at its default): left out.
    auto leaveOutOneSided = [](const NodePairSide& side, const std::vector<std::string>& keys, const std::vector<std::uint8_t>& argument,
                                const std::vector<std::string>& otherKeys, std::vector<std::uint8_t>& ignored) {
        const std::unordered_set<std::string_view> other(otherKeys.begin(), otherKeys.end());
        for (std::size_t i = 0; i < keys.size(); ++i)
            if (argument[i] && !ignored[i] && !(i < side.tensor.size() && side.tensor[i]) && !other.contains(keys[i]))
                ignored[i] = 1;
    };
    leaveOutOneSided(npu, out.npu, npuArgument, out.bench, out.npuIgnored);
    leaveOutOneSided(bench, out.bench, benchArgument, out.npu, out.benchIgnored);
    return out;
}

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

DumpRuntime detectRuntime(const dump::DumpFile& dump)
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

bool isCrossRuntimePair(const dump::DumpFile& npu, const dump::DumpFile& bench)
{
    const DumpRuntime a = detectRuntime(npu), b = detectRuntime(bench);
    return (a == DumpRuntime::Aten && b == DumpRuntime::Python) || (a == DumpRuntime::Python && b == DumpRuntime::Aten);
}

std::string sameRuntimeNote(const dump::DumpFile& npu, const dump::DumpFile& bench)
{
    const DumpRuntime runtime = detectRuntime(npu);
    if (runtime == DumpRuntime::Unknown || runtime != detectRuntime(bench))
        return {};
    return std::string("--cross-runtime: both dumps are ")
        + (runtime == DumpRuntime::Aten ? "C++ libtorch captures (Aten.* entries only)" : "Python msprobe dumps (Functional/Tensor/Torch entries, no Aten.*)")
        + ": nothing to pair across runtimes, the ordinary compare by name was used";
}

CrossRuntimeKeys crossRuntimeKeys(const ItemTable& npu, const dump::ConstructInfo& npuConstruct, const ItemTable& bench,
    const dump::ConstructInfo& benchConstruct)
{
    CrossRuntimeKeys keys;
    keys.scoped = hasApiParents(npuConstruct) && hasApiParents(benchConstruct);
    std::vector<std::uint8_t> npuArgument, benchArgument;
    std::vector<std::string>& npuEntries = keys.npuEntryKeys;
    std::vector<std::string>& benchEntries = keys.benchEntryKeys;
    SideKeyer(npu, npuConstruct, keys.scoped, '\x01').run(keys.npu, keys.npuIgnored, npuArgument, npuEntries, keys.npuLinearParts);
    SideKeyer(bench, benchConstruct, keys.scoped, '\x02').run(keys.bench, keys.benchIgnored, benchArgument, benchEntries, keys.benchLinearParts);
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
    alignBackwardGradients(npu, bench, keys);
    return keys;
}

} // namespace msprobe::compare
