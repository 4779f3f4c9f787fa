// SPDX-License-Identifier: Apache-2.0
#include "trend/dump_key_names.h"

#include <algorithm>
#include <charconv>

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

// Appends `text` with every `from` replaced by `to` (plain, left to right, as Python's str.replace).
void appendReplaced(std::string& out, std::string_view text, std::string_view from, std::string_view to)
{
    std::size_t pos = 0;
    for (std::size_t hit; (hit = text.find(from, pos)) != std::string_view::npos; pos = hit + from.size())
        out.append(text.substr(pos, hit - pos)).append(to);
    out.append(text.substr(pos));
}

std::string replaceAll(std::string_view text, std::string_view from, std::string_view to)
{
    std::string out;
    appendReplaced(out, text, from, to);
    return out;
}

bool endsWith(std::string_view text, std::string_view tail)
{
    return text.size() >= tail.size() && text.substr(text.size() - tail.size()) == tail;
}

// The name with ".backward" and ".parameters_grad" read as ".forward": `name` itself when it has neither (no
// copy), else a view of `scratch` holding the renamed text.
std::string_view asForward(std::string_view name, std::string& scratch)
{
    if (name.find(".backward") == std::string_view::npos && name.find(".parameters_grad") == std::string_view::npos)
        return name;
    scratch = replaceAll(replaceAll(name, ".backward", ".forward"), ".parameters_grad", ".forward");
    return scratch;
}

} // namespace

void appendCount(std::string& out, std::size_t value)
{
    char digits[24];
    const auto end = std::to_chars(digits, digits + sizeof digits, value).ptr;
    out.append(digits, end);
}

ConstructNames constructNamesOf(const dump::ConstructInfo& construct)
{
    ConstructNames names;
    names.names.reserve(construct.nodes.size());
    names.parents.reserve(construct.nodes.size());
    for (const auto& node : construct.nodes) {
        names.names.emplace_back(node.name);
        names.parents.push_back(node.parent ? std::optional<std::string_view>(*node.parent) : std::nullopt);
    }
    return names;
}

NodeIndexByName::NodeIndexByName(const ConstructNames& construct) : m_names(construct.names)
{
    std::size_t slots = 16;
    while (slots < 2 * m_names.size())
        slots *= 2;
    m_slots.assign(slots, 0);
    const std::size_t mask = slots - 1;
    for (std::size_t i = 0; i < m_names.size(); ++i) {
        std::size_t slot = std::hash<std::string_view> {}(m_names[i]) & mask;
        for (; m_slots[slot]; slot = (slot + 1) & mask)
            m_repeats = m_repeats || m_names[m_slots[slot] - 1] == m_names[i];
        m_slots[slot] = static_cast<std::uint32_t>(i + 1);
    }
}

std::optional<std::size_t> NodeIndexByName::find(std::string_view name) const
{
    const std::size_t mask = m_slots.size() - 1;
    for (std::size_t slot = std::hash<std::string_view> {}(name) & mask; m_slots[slot]; slot = (slot + 1) & mask)
        if (m_names[m_slots[slot] - 1] == name)
            return m_slots[slot] - 1;
    return std::nullopt;
}

std::vector<std::int64_t> microStepsOf(const ConstructNames& construct, const NodeIndexByName& nodeOf)
{
    // Nodes are found by index (names are unique in construct.nodes): no table of names is built here.
    constexpr std::int64_t kUnknown = -3, kVisiting = -2, kNone = -1;
    const std::size_t count = construct.names.size();
    std::vector<std::int64_t> rootNumber(count, kNone);
    std::int64_t next = 0;
    for (std::size_t i = 0; i < count; ++i) {
        const std::string_view name = construct.names[i];
        if (!construct.parents[i] && name.find(".backward") == std::string_view::npos
            && (name.starts_with("Module") || name.starts_with("Cell") || name.starts_with("optimizer")))
            rootNumber[i] = next++;
    }
    // A node's micro step is that of the node its parent names (read as forward), up to a root: each node's
    // answer is kept, so every chain is walked once (a parent cycle belongs to no root).
    std::vector<std::int64_t> memo(count, kUnknown);
    std::vector<std::size_t> chain;
    std::string parentScratch, nameScratch;
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
            if (rootNumber[at] >= 0) {
                answer = rootNumber[at];
                break;
            }
            memo[at] = kVisiting;
            chain.push_back(at);
            if (!construct.parents[at])
                break;
            const auto parent = nodeOf.find(asForward(*construct.parents[at], parentScratch));
            if (!parent)
                break;
            at = *parent;
        }
        for (const std::size_t c : chain)
            memo[c] = answer;
        return answer;
    };
    std::vector<std::int64_t> result(count, kNone);
    for (std::size_t i = 0; i < count; ++i) {
        const std::string_view name = construct.names[i];
        const std::string_view forward = asForward(name, nameScratch);
        if (forward.data() == name.data())
            result[i] = resolve(i);
        else if (const auto twin = nodeOf.find(forward))
            result[i] = resolve(*twin);
    }
    return result;
}

std::vector<std::int64_t> microStepsOf(const dump::ConstructInfo& construct)
{
    const ConstructNames names = constructNamesOf(construct);
    return microStepsOf(names, NodeIndexByName(names));
}

// rebaseCallIndices without building a string per key: a key's group is (micro step, position of the index,
// the name around the index), found through an open-addressing table of groups that compares those parts of
// the name in place; the members are then gathered by group (a counting sort) and each group sorted by index.
std::vector<RebasedIndex> rebasedCallIndices(const std::vector<std::pair<std::string_view, std::int64_t>>& keys)
{
    constexpr std::uint32_t kNoGroup = ~std::uint32_t(0);
    struct Member {
        std::string_view head, tail; // the name before and after the index (tail: its last part, kind 2 only)
        std::int64_t micro = 0;
        std::uint64_t hash = 0;
        std::uint32_t group = kNoGroup;
        std::uint8_t kind = 0; // 1: "X.N" grouped by "X"; 2: "X.y.N.z" grouped by "X.y." + "z"
    };
    std::vector<RebasedIndex> result(keys.size());
    std::vector<Member> members(keys.size());
    std::vector<std::uint32_t> representative; // a key of each group
    std::size_t slots = 64;
    while (slots < 2 * keys.size())
        slots *= 2;
    std::vector<std::uint32_t> table(slots, 0); // 1 + group; 0: free
    const std::size_t mask = slots - 1;
    const auto isIndex = [](std::string_view part) { return allDigits(part) && part.size() <= 18; };
    const auto sameGroup = [](const Member& a, const Member& b) {
        return a.kind == b.kind && a.micro == b.micro && a.head == b.head && a.tail == b.tail;
    };
    for (std::size_t k = 0; k < keys.size(); ++k) {
        const auto& [name, micro] = keys[k];
        Member& member = members[k];
        const std::size_t lastDot = name.rfind('.');
        const std::size_t lastBegin = lastDot == std::string_view::npos ? 0 : lastDot + 1;
        RebasedIndex& at = result[k];
        if (isIndex(name.substr(lastBegin))) {
            at.begin = static_cast<std::uint32_t>(lastBegin);
            at.end = static_cast<std::uint32_t>(name.size());
            member.kind = 1;
            member.head = name.substr(0, lastDot == std::string_view::npos ? 0 : lastDot);
        } else if (lastDot != std::string_view::npos) {
            const std::size_t previousDot = lastDot == 0 ? std::string_view::npos : name.rfind('.', lastDot - 1);
            const std::size_t begin = previousDot == std::string_view::npos ? 0 : previousDot + 1;
            if (!isIndex(name.substr(begin, lastDot - begin)))
                continue;
            at.begin = static_cast<std::uint32_t>(begin);
            at.end = static_cast<std::uint32_t>(lastDot);
            member.kind = 2;
            member.head = name.substr(0, begin);
            member.tail = name.substr(lastDot + 1);
        } else
            continue;
        member.micro = micro;
        const std::hash<std::string_view> hash;
        member.hash = (hash(member.head) * 0x9e3779b97f4a7c15ull) ^ hash(member.tail)
            ^ (static_cast<std::uint64_t>(micro) * 0xc2b2ae3d27d4eb4full) ^ member.kind;
        for (std::size_t slot = member.hash & mask;; slot = (slot + 1) & mask) {
            if (table[slot] == 0) {
                member.group = static_cast<std::uint32_t>(representative.size());
                representative.push_back(static_cast<std::uint32_t>(k));
                table[slot] = member.group + 1;
                break;
            }
            const Member& first = members[representative[table[slot] - 1]];
            if (first.hash == member.hash && sameGroup(first, member)) {
                member.group = table[slot] - 1;
                break;
            }
        }
    }
    // Members by group, in key order within a group; then each group by ascending index (key order breaks ties,
    // as a stable sort would).
    std::vector<std::uint32_t> start(representative.size() + 1, 0);
    for (const Member& member : members)
        if (member.group != kNoGroup)
            ++start[member.group + 1];
    for (std::size_t g = 0; g < representative.size(); ++g)
        start[g + 1] += start[g];
    std::vector<std::pair<std::int64_t, std::uint32_t>> byGroup(start.back());
    std::vector<std::uint32_t> fill(start.begin(), start.end() - 1);
    for (std::uint32_t k = 0; k < members.size(); ++k)
        if (members[k].group != kNoGroup) {
            std::int64_t index = 0;
            const std::string_view name = keys[k].first;
            std::from_chars(name.data() + result[k].begin, name.data() + result[k].end, index);
            byGroup[fill[members[k].group]++] = { index, k };
        }
    char digits[24];
    for (std::size_t g = 0; g < representative.size(); ++g) {
        const auto first = byGroup.begin() + start[g], last = byGroup.begin() + start[g + 1];
        std::sort(first, last);
        std::int64_t n = 0;
        for (auto it = first; it != last; ++it, ++n) {
            RebasedIndex& at = result[it->second];
            const std::string_view written = keys[it->second].first.substr(at.begin, at.end - at.begin);
            const auto end = std::to_chars(digits, digits + sizeof digits, n).ptr;
            if (written != std::string_view(digits, static_cast<std::size_t>(end - digits)))
                at.number = n;
        }
    }
    return result;
}

// Writes `name` with its call index re-based into `out` (reusing its storage).
void assignRebased(std::string& out, std::string_view name, const RebasedIndex& at)
{
    if (at.number < 0) {
        out.assign(name);
        return;
    }
    out.assign(name.substr(0, at.begin));
    appendCount(out, static_cast<std::size_t>(at.number));
    out.append(name.substr(at.end));
}

// classifyDumpKey into `out`, whose prefix keeps its storage from key to key; scratch: a second buffer.
bool classifyDumpKeyInto(std::string_view key, bool isRecompute, ClassifiedKey& out, std::string& scratch)
{
    out.prefix.clear();
    out.callIndex = 0;
    const auto removeMarker = [&](std::string_view inner, std::string_view last) {
        scratch.clear();
        appendReplaced(scratch, key, inner, ".");
        appendReplaced(out.prefix, scratch, last, "");
    };
    if (key.find(".forward.") != std::string_view::npos || endsWith(key, ".forward")) {
        out.metric = isRecompute ? DumpMetric::Recompute : DumpMetric::Forward;
        removeMarker(".forward.", ".forward");
    } else if (key.find(".backward.") != std::string_view::npos || endsWith(key, ".backward")) {
        out.metric = DumpMetric::Backward;
        removeMarker(".backward.", ".backward");
    } else if (endsWith(key, "parameters_grad")) {
        out.metric = DumpMetric::ParametersGrad;
        appendReplaced(out.prefix, key, ".parameters_grad", "");
    } else {
        // At least three parts, the last but one "parameters_grad": the last two parts dropped.
        const std::size_t lastDot = key.rfind('.');
        if (lastDot == std::string_view::npos || lastDot == 0)
            return false;
        const std::size_t previousDot = key.rfind('.', lastDot - 1);
        if (previousDot == std::string_view::npos || key.substr(previousDot + 1, lastDot - previousDot - 1) != "parameters_grad")
            return false;
        out.metric = DumpMetric::ParametersGrad;
        out.prefix.assign(key.substr(0, previousDot));
    }
    const auto dot = out.prefix.rfind('.');
    const std::string_view last = dot == std::string::npos ? std::string_view(out.prefix) : std::string_view(out.prefix).substr(dot + 1);
    if (const auto index = integerPart(last)) {
        out.callIndex = *index;
        out.prefix.resize(dot == std::string::npos ? 0 : dot);
    }
    return true;
}

std::vector<std::string> rebaseCallIndices(const std::vector<std::pair<std::string_view, std::int64_t>>& keys)
{
    const auto rebased = rebasedCallIndices(keys);
    std::vector<std::string> result(keys.size());
    for (std::size_t k = 0; k < keys.size(); ++k)
        assignRebased(result[k], keys[k].first, rebased[k]);
    return result;
}

std::optional<ClassifiedKey> classifyDumpKey(const std::string& key, bool isRecompute)
{
    ClassifiedKey out;
    std::string scratch;
    if (!classifyDumpKeyInto(key, isRecompute, out, scratch))
        return std::nullopt;
    return out;
}

} // namespace msprobe::trend
