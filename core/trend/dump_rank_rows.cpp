// SPDX-License-Identifier: Apache-2.0
#include "trend/dump_rank_rows.h"

#include "support/python_text.h"
#include "trend/monitor_import.h"
#include "trend/trend_db.h"

#include <algorithm>
#include <map>
#include <tuple>
#include <unordered_set>

namespace msprobe::trend {

namespace {

bool allDigits(std::string_view text)
{
    return !text.empty() && std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// Python int(): an optional sign, then digits.
std::optional<std::int64_t> integerPart(std::string_view text)
{
    std::string_view digits = text;
    if (!digits.empty() && (digits.front() == '-' || digits.front() == '+'))
        digits.remove_prefix(1);
    if (!allDigits(digits) || digits.size() > 18)
        return std::nullopt;
    return std::stoll(std::string(text));
}

std::string replaceAll(std::string text, std::string_view from, std::string_view to)
{
    std::string out;
    std::size_t pos = 0;
    for (std::size_t hit; (hit = text.find(from, pos)) != std::string::npos; pos = hit + from.size())
        out.append(text, pos, hit - pos).append(to);
    out.append(text, pos, std::string::npos);
    return out;
}

bool endsWith(std::string_view text, std::string_view tail)
{
    return text.size() >= tail.size() && text.substr(text.size() - tail.size()) == tail;
}

std::string asForward(const std::string& name)
{
    if (name.find(".backward") == std::string::npos && name.find(".parameters_grad") == std::string::npos)
        return name;
    return replaceAll(replaceAll(name, ".backward", ".forward"), ".parameters_grad", ".forward");
}

// The parts joined with '.', leaving out the part at `skip`.
std::string joinDots(const std::vector<std::string_view>& parts, std::size_t skip)
{
    std::string out;
    bool first = true;
    for (std::size_t k = 0; k < parts.size(); ++k) {
        if (k == skip)
            continue;
        out.append(first ? "" : ".").append(parts[k]);
        first = false;
    }
    return out;
}

const std::unordered_set<std::string_view>& tensorTypes()
{
    static const std::unordered_set<std::string_view> types = { "torch.Tensor", "mindspore.Tensor", "mindtorch.Tensor" };
    return types;
}

const std::unordered_set<std::string_view>& floatDtypes()
{
    static const std::unordered_set<std::string_view> dtypes
        = { "float16", "float32", "bfloat16", "torch.float16", "torch.float32", "torch.bfloat16" };
    return dtypes;
}

// A statistic as the reference stores it: float() of the value (strings such as "inf" included), clamped.
std::optional<double> statValue(const dump::DumpFile& dump, std::size_t row, const dump::StatValue& value, std::string_view key)
{
    switch (value.kind) {
    case dump::StatKind::Int:
    case dump::StatKind::Float: return clampTrendValue(value.asDouble());
    case dump::StatKind::Bool: return value.b ? 1.0 : 0.0;
    case dump::StatKind::Null: return std::nullopt;
    case dump::StatKind::Missing: break;
    }
    // A string statistic is kept as an extra holding its Python repr ('inf').
    for (const auto& extra : dump.extrasOf(dump.tensors.extras[row]))
        if (dump.text(extra.key) == key) {
            std::string_view text = dump.text(extra.text);
            if (text.size() >= 2 && (text.front() == '\'' || text.front() == '"') && text.back() == text.front())
                return clampTrendValue(text.substr(1, text.size() - 2));
            return std::nullopt;
        }
    return std::nullopt;
}

// The tensor row of a node when it is a floating tensor the trend view takes.
std::optional<std::uint32_t> floatTensor(const dump::DumpFile& dump, std::uint32_t node)
{
    const dump::ValueNode& value = dump.nodes[node];
    if (value.kind != dump::NodeKind::Tensor)
        return std::nullopt;
    const auto row = value.payload;
    if (!tensorTypes().contains(dump.text(dump.tensors.type[row])) || !floatDtypes().contains(dump.text(dump.tensors.dtype[row])))
        return std::nullopt;
    return row;
}

bool isRecomputeEntry(const dump::DumpFile& dump, std::uint32_t body)
{
    const auto node = dump.childByKey(body, "is_recompute");
    if (node < 0 || dump.nodes[static_cast<std::size_t>(node)].kind != dump::NodeKind::Raw)
        return false;
    const auto row = dump.nodes[static_cast<std::size_t>(node)].payload;
    return dump.scalars.valueKind[row] == dump::ScalarValueKind::Bool && dump.scalars.number[row].b;
}

class RowCollector {
public:
    RowCollector(const dump::DumpFile& dump, RankRows& out) : m_dump(dump), m_out(out) { }

    // The target named by m_name.
    void add(std::int64_t callIndex, DumpMetric metric, std::int64_t microStep, std::uint32_t row)
    {
        const std::size_t nameLength = m_name.size();
        m_name.append("\x1f").append(std::to_string(callIndex));
        auto [it, inserted] = m_index.try_emplace(m_name, static_cast<std::uint32_t>(m_out.targets.size()));
        m_name.resize(nameLength);
        if (inserted)
            m_out.targets.emplace_back(m_name, callIndex);
        const auto& t = m_dump.tensors;
        m_out.rows.push_back({ it->second, metric, microStep,
            { statValue(m_dump, row, t.norm[row], "Norm"), statValue(m_dump, row, t.max[row], "Max"),
                statValue(m_dump, row, t.min[row], "Min"), statValue(m_dump, row, t.mean[row], "Mean") } });
    }

    // Every floating tensor directly inside the list `key` of the entry body, as prefix.{label}.{i}.
    void addList(std::uint32_t body, std::string_view key, const std::string& prefix, const char* label,
        std::int64_t callIndex, DumpMetric metric, std::int64_t microStep)
    {
        const auto list = m_dump.childByKey(body, key);
        if (list < 0 || m_dump.nodes[static_cast<std::size_t>(list)].kind != dump::NodeKind::List)
            return;
        const auto end = static_cast<std::uint32_t>(list) + m_dump.nodes[static_cast<std::size_t>(list)].subtreeSize;
        std::size_t i = 0;
        for (auto child = static_cast<std::uint32_t>(list) + 1; child < end; child += m_dump.nodes[child].subtreeSize, ++i)
            if (const auto row = floatTensor(m_dump, child)) {
                m_name.assign(prefix).append(".").append(label).append(".").append(std::to_string(i));
                add(callIndex, metric, microStep, *row);
            }
    }

    // name: [tensor, ...] pairs of a dict: the first element when it is a floating tensor, as prefix.{name}.
    void addNamedLists(std::uint32_t dict, const std::string& prefix, std::int64_t callIndex, DumpMetric metric,
        std::int64_t microStep)
    {
        for (const auto child : m_dump.children(dict)) {
            if (m_dump.nodes[child].kind != dump::NodeKind::List || m_dump.nodes[child].subtreeSize < 2)
                continue;
            if (const auto row = floatTensor(m_dump, child + 1)) {
                m_name.assign(prefix).append(".").append(m_dump.text(m_dump.nodes[child].key));
                add(callIndex, metric, microStep, *row);
            }
        }
    }

private:
    const dump::DumpFile& m_dump;
    RankRows& m_out;
    std::unordered_map<std::string, std::uint32_t> m_index; // "name\x1fcall index" -> index into targets
    std::string m_name;
};

} // namespace

const std::vector<std::string>& dumpMetricNames()
{
    static const std::vector<std::string> names = { "forward", "backward", "recompute", "parameters_grad" };
    return names;
}

const std::vector<std::string>& dumpStatColumns()
{
    static const std::vector<std::string> columns = { "norm", "max", "min", "mean" };
    return columns;
}

MicroStepOfName microStepsOf(const dump::ConstructInfo& construct)
{
    std::unordered_map<std::string, std::int64_t> roots;
    std::int64_t next = 0;
    for (const auto& node : construct.nodes) {
        const std::string_view name = node.name;
        if (!node.parent && name.find(".backward") == std::string_view::npos
            && (name.starts_with("Module") || name.starts_with("Cell") || name.starts_with("optimizer")))
            roots.try_emplace(node.name, next++);
    }
    // A node's micro step is that of the node its parent names (read as forward), up to a root: each node's
    // answer is kept, so every chain is walked once (a parent cycle belongs to no root).
    constexpr std::int64_t kUnknown = -3, kVisiting = -2, kNone = -1;
    std::vector<std::int64_t> memo(construct.nodes.size(), kUnknown);
    std::vector<std::size_t> chain;
    const auto indexOf = [&](const std::string& name) -> std::optional<std::size_t> {
        const auto* found = construct.find(name);
        if (!found)
            return std::nullopt;
        return static_cast<std::size_t>(found - construct.nodes.data());
    };
    const auto resolve = [&](std::size_t at) {
        chain.clear();
        std::int64_t answer = kNone;
        for (;;) {
            if (memo[at] >= kNone) {
                answer = memo[at];
                break;
            }
            if (memo[at] == kVisiting)
                break; // a cycle
            const auto& node = construct.nodes[at];
            if (const auto root = roots.find(node.name); root != roots.end()) {
                answer = root->second;
                break;
            }
            memo[at] = kVisiting;
            chain.push_back(at);
            if (!node.parent)
                break;
            const std::string parent = asForward(*node.parent);
            if (const auto root = roots.find(parent); root != roots.end()) {
                answer = root->second;
                break;
            }
            const auto next = indexOf(parent);
            if (!next)
                break;
            at = *next;
        }
        for (const std::size_t c : chain)
            memo[c] = answer;
        return answer;
    };
    MicroStepOfName result;
    result.reserve(construct.nodes.size());
    for (const auto& node : construct.nodes) {
        const std::string name = asForward(node.name);
        std::int64_t micro = kNone;
        if (const auto root = roots.find(name); root != roots.end())
            micro = root->second;
        else if (const auto found = indexOf(name))
            micro = resolve(*found);
        if (micro >= 0)
            result.emplace(node.name, micro);
    }
    return result;
}

std::vector<std::string> rebaseCallIndices(const std::vector<std::pair<std::string_view, std::int64_t>>& keys)
{
    // "micro step, position of the index, group name" -> (original index, key position), hashed: the groups are
    // independent, so their order does not matter.
    struct Group {
        int position = -1;
        std::vector<std::pair<std::int64_t, std::size_t>> members;
    };
    std::unordered_map<std::string, Group> groups;
    std::vector<std::string> result;
    result.reserve(keys.size());
    std::string groupKey;
    for (std::size_t k = 0; k < keys.size(); ++k) {
        const auto& [name, micro] = keys[k];
        result.emplace_back(name);
        const auto parts = support::pythonSplit(name, '.');
        int position = 0;
        if (allDigits(parts.back()) && parts.back().size() <= 18)
            position = -1;
        else if (parts.size() >= 2 && allDigits(parts[parts.size() - 2]) && parts[parts.size() - 2].size() <= 18)
            position = -2;
        else
            continue;
        const std::string_view index = parts[parts.size() + static_cast<std::size_t>(position)];
        groupKey.assign(std::to_string(micro)).append(position == -1 ? "\x1f" "1\x1f" : "\x1f" "2\x1f");
        groupKey.append(joinDots(parts, parts.size() + static_cast<std::size_t>(position)));
        Group& group = groups[groupKey];
        group.position = position;
        group.members.emplace_back(std::stoll(std::string(index)), k);
    }
    for (auto& [unused, group] : groups) {
        auto& members = group.members;
        std::stable_sort(members.begin(), members.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
        for (std::size_t n = 0; n < members.size(); ++n) {
            auto parts = support::pythonSplit(keys[members[n].second].first, '.');
            const std::string index = std::to_string(n);
            parts[parts.size() + static_cast<std::size_t>(group.position)] = index;
            std::string joined;
            for (std::size_t p = 0; p < parts.size(); ++p)
                joined.append(p ? "." : "").append(parts[p]);
            result[members[n].second] = std::move(joined);
        }
    }
    return result;
}

std::optional<ClassifiedKey> classifyDumpKey(const std::string& key, bool isRecompute)
{
    ClassifiedKey out;
    if (key.find(".forward.") != std::string::npos || endsWith(key, ".forward")) {
        out.metric = isRecompute ? DumpMetric::Recompute : DumpMetric::Forward;
        out.prefix = replaceAll(replaceAll(key, ".forward.", "."), ".forward", "");
    } else if (key.find(".backward.") != std::string::npos || endsWith(key, ".backward")) {
        out.metric = DumpMetric::Backward;
        out.prefix = replaceAll(replaceAll(key, ".backward.", "."), ".backward", "");
    } else if (endsWith(key, "parameters_grad")) {
        out.metric = DumpMetric::ParametersGrad;
        out.prefix = replaceAll(key, ".parameters_grad", "");
    } else {
        const auto parts = support::pythonSplit(key, '.');
        if (parts.size() < 3 || parts[parts.size() - 2] != "parameters_grad")
            return std::nullopt;
        out.metric = DumpMetric::ParametersGrad;
        out.prefix = key.substr(0, key.size() - parts.back().size() - parts[parts.size() - 2].size() - 2);
    }
    const auto dot = out.prefix.rfind('.');
    const std::string_view last = dot == std::string::npos ? std::string_view(out.prefix) : std::string_view(out.prefix).substr(dot + 1);
    if (const auto index = integerPart(last)) {
        out.callIndex = *index;
        out.prefix.resize(dot == std::string::npos ? 0 : dot);
    }
    return out;
}

RankRows extractRankRows(const dump::DumpFile& dump, const dump::ConstructInfo* construct,
    const std::vector<std::pair<std::string, std::string>>& mapping)
{
    RankRows out;
    // (entry index, micro step) of the entries taken, and their renumbered names.
    std::vector<std::pair<std::size_t, std::int64_t>> taken;
    std::vector<std::string> names;
    if (construct) {
        const auto micro = microStepsOf(*construct);
        std::vector<std::pair<std::string_view, std::int64_t>> keys;
        for (std::size_t e = 0; e < dump.entries.size(); ++e) {
            const auto found = micro.find(dump.entryName(e));
            if (found == micro.end()) {
                ++out.droppedEntries;
                continue;
            }
            taken.emplace_back(e, found->second);
            keys.emplace_back(dump.entryName(e), found->second);
            out.microSteps = std::max(out.microSteps, found->second + 1);
        }
        names = rebaseCallIndices(keys);
    } else {
        for (std::size_t e = 0; e < dump.entries.size(); ++e) {
            taken.emplace_back(e, 0);
            names.emplace_back(dump.entryName(e));
        }
    }
    RowCollector collect(dump, out);
    for (std::size_t k = 0; k < taken.size(); ++k) {
        const auto [entry, microStep] = taken[k];
        const std::uint32_t body = dump.entries[entry].body;
        if (dump.nodes[body].kind != dump::NodeKind::Dict)
            continue;
        const auto key = classifyDumpKey(applyMapping(names[k], mapping), isRecomputeEntry(dump, body));
        if (!key)
            continue;
        switch (key->metric) {
        case DumpMetric::Forward:
        case DumpMetric::Recompute: {
            collect.addList(body, "input_args", key->prefix, "input", key->callIndex, key->metric, microStep);
            collect.addList(body, "output", key->prefix, "output", key->callIndex, key->metric, microStep);
            const auto parameters = dump.childByKey(body, "parameters");
            if (parameters >= 0 && dump.nodes[static_cast<std::size_t>(parameters)].kind == dump::NodeKind::Dict)
                collect.addNamedLists(static_cast<std::uint32_t>(parameters), key->prefix, key->callIndex, key->metric, microStep);
            break;
        }
        case DumpMetric::Backward:
            collect.addList(body, "input", key->prefix, "input", key->callIndex, key->metric, microStep);
            collect.addList(body, "output", key->prefix, "output", key->callIndex, key->metric, microStep);
            break;
        case DumpMetric::ParametersGrad:
            collect.addNamedLists(body, key->prefix, key->callIndex, key->metric, microStep);
            break;
        }
    }
    return out;
}

void sortRankRows(RankRows& rows)
{
    auto key = [](const DumpTrendRow& row) { return std::make_tuple(row.microStep, row.target, row.metric); };
    std::stable_sort(rows.rows.begin(), rows.rows.end(), [&](const DumpTrendRow& a, const DumpTrendRow& b) { return key(a) < key(b); });
    const auto end = std::unique(rows.rows.begin(), rows.rows.end(), [&](const DumpTrendRow& a, const DumpTrendRow& b) { return key(a) == key(b); });
    rows.repeatedRows += static_cast<std::size_t>(rows.rows.end() - end);
    rows.rows.erase(end, rows.rows.end());
}

} // namespace msprobe::trend
