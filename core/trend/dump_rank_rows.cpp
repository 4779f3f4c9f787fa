// SPDX-License-Identifier: Apache-2.0
#include "trend/dump_rank_rows.h"

#include "support/error.h"
#include "trend/dump_key_names.h"
#include "trend/monitor_import.h"
#include "trend/trend_db.h"

#include <algorithm>
#include <bit>
#include <charconv>
#include <map>
#include <tuple>
#include <utility>
#include <unordered_set>

namespace msprobe::trend {

namespace {

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
    RowCollector(const dump::DumpFile& dump, RankRows& out) : m_dump(dump), m_out(out)
    {
        m_typeTaken.assign(dump.strings.size(), kUnknown);
        m_dtypeTaken.assign(dump.strings.size(), kUnknown);
        std::size_t slots = 64;
        while (slots < 2 * dump.tensors.type.size())
            slots *= 2;
        m_slots.assign(slots, 0);
        m_out.rows.reserve(dump.tensors.type.size());
    }

    // The target named by m_name. Targets are found through an open-addressing table of their indices (the
    // names live in m_out.targets): no key string is built or allocated per tensor.
    void add(std::int64_t callIndex, DumpMetric metric, std::int64_t microStep, std::uint32_t row)
    {
        const std::size_t mask = m_slots.size() - 1;
        const std::uint64_t hash = targetKeyHash(m_name, callIndex);
        std::size_t slot = hash & mask;
        std::uint32_t index = 0;
        for (;; slot = (slot + 1) & mask) {
            if (m_slots[slot] == 0) {
                if (m_out.targets.size() * 2 >= m_slots.size()) {
                    grow();
                    add(callIndex, metric, microStep, row);
                    return;
                }
                index = static_cast<std::uint32_t>(m_out.targets.size());
                m_slots[slot] = index + 1;
                m_out.targets.emplace_back(m_name, callIndex);
                m_out.targetHashes.push_back(hash);
                break;
            }
            const auto& target = m_out.targets[m_slots[slot] - 1];
            if (target.second == callIndex && target.first == m_name) {
                index = m_slots[slot] - 1;
                break;
            }
        }
        const auto& t = m_dump.tensors;
        m_out.rows.push_back({ index, metric, microStep,
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
        m_name.assign(prefix).append(".").append(label).append(".");
        const std::size_t stem = m_name.size();
        std::size_t i = 0;
        for (auto child = static_cast<std::uint32_t>(list) + 1; child < end; child += m_dump.nodes[child].subtreeSize, ++i)
            if (const auto row = floatTensor(child)) {
                m_name.resize(stem);
                appendCount(m_name, i);
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
            if (const auto row = floatTensor(child + 1)) {
                m_name.assign(prefix).append(".").append(m_dump.text(m_dump.nodes[child].key));
                add(callIndex, metric, microStep, *row);
            }
        }
    }

private:
    // The tensor row of a node when it is a floating tensor the trend view takes. Whether a type or dtype is
    // taken is decided once per distinct string of the dump (they are interned), not hashed per tensor.
    std::optional<std::uint32_t> floatTensor(std::uint32_t node)
    {
        const dump::ValueNode& value = m_dump.nodes[node];
        if (value.kind != dump::NodeKind::Tensor)
            return std::nullopt;
        const auto row = value.payload;
        if (!taken(m_typeTaken, m_dump.tensors.type[row], tensorTypes()) || !taken(m_dtypeTaken, m_dump.tensors.dtype[row], floatDtypes()))
            return std::nullopt;
        return row;
    }

    bool taken(std::vector<std::int8_t>& verdicts, support::StringId id, const std::unordered_set<std::string_view>& accepted)
    {
        if (id >= verdicts.size())
            return accepted.contains(m_dump.text(id));
        if (verdicts[id] == kUnknown)
            verdicts[id] = accepted.contains(m_dump.text(id)) ? 1 : 0;
        return verdicts[id] == 1;
    }

    void grow()
    {
        std::vector<std::uint32_t> slots(m_slots.size() * 2, 0);
        const std::size_t mask = slots.size() - 1;
        for (std::uint32_t k = 0; k < m_out.targets.size(); ++k) {
            std::size_t slot = m_out.targetHashes[k] & mask;
            while (slots[slot])
                slot = (slot + 1) & mask;
            slots[slot] = k + 1;
        }
        m_slots = std::move(slots);
    }

    const dump::DumpFile& m_dump;
    RankRows& m_out;
    static constexpr std::int8_t kUnknown = -1;
    std::vector<std::int8_t> m_typeTaken, m_dtypeTaken; // by string id: 1 taken, 0 not, kUnknown not yet seen
    std::vector<std::uint32_t> m_slots; // 1 + index into m_out.targets; 0: free
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

RankRows extractRankRows(const dump::DumpFile& dump, const dump::ConstructInfo* construct,
    const std::vector<std::pair<std::string, std::string>>& mapping)
{
    if (!construct)
        return extractRankRows(dump, nullptr, nullptr, mapping);
    const ConstructNames names = constructNamesOf(*construct);
    return extractRankRows(dump, &names, mapping);
}

RankRows extractRankRows(const dump::DumpFile& dump, const ConstructNames* construct,
    const std::vector<std::pair<std::string, std::string>>& mapping)
{
    if (!construct)
        return extractRankRows(dump, nullptr, nullptr, mapping);
    const NodeIndexByName nodeOf(*construct);
    return extractRankRows(dump, construct, &nodeOf, mapping);
}

RankRows extractRankRows(const dump::DumpFile& dump, const ConstructNames* construct, const NodeIndexByName* nodeIndex,
    const std::vector<std::pair<std::string, std::string>>& mapping, const std::vector<std::int64_t>* microSteps)
{
    RankRows out;
    // (entry index, micro step) of the entries taken, and where their call indices are re-based.
    std::vector<std::pair<std::size_t, std::int64_t>> taken;
    std::vector<RebasedIndex> rebased;
    if (construct) {
        const NodeIndexByName& nodeOf = *nodeIndex;
        std::vector<std::int64_t> ownMicro;
        if (!microSteps)
            ownMicro = microStepsOf(*construct, nodeOf);
        const std::vector<std::int64_t>& micro = microSteps ? *microSteps : ownMicro;
        std::vector<std::pair<std::string_view, std::int64_t>> keys;
        for (std::size_t e = 0; e < dump.entries.size(); ++e) {
            const auto node = nodeOf.find(dump.entryName(e));
            if (!node || micro[*node] < 0) {
                ++out.droppedEntries;
                continue;
            }
            taken.emplace_back(e, micro[*node]);
            keys.emplace_back(dump.entryName(e), micro[*node]);
            out.microSteps = std::max(out.microSteps, micro[*node] + 1);
        }
        rebased = rebasedCallIndices(keys);
    } else {
        for (std::size_t e = 0; e < dump.entries.size(); ++e)
            taken.emplace_back(e, 0);
        rebased.resize(taken.size());
    }
    RowCollector collect(dump, out);
    // One name, one classified key and one scratch buffer for every entry: no string allocated per entry.
    std::string name, scratch;
    ClassifiedKey classified;
    const ClassifiedKey* key = &classified;
    for (std::size_t k = 0; k < taken.size(); ++k) {
        const auto [entry, microStep] = taken[k];
        const std::uint32_t body = dump.entries[entry].body;
        if (dump.nodes[body].kind != dump::NodeKind::Dict)
            continue;
        assignRebased(name, dump.entryName(entry), rebased[k]);
        if (!mapping.empty())
            name = applyMapping(std::move(name), mapping);
        if (!classifyDumpKeyInto(name, isRecomputeEntry(dump, body), classified, scratch))
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
    // (key, position) pairs sorted, then the rows moved once, in place: cheaper than moving the rows themselves
    // (88 bytes each) through a stable merge sort, and than gathering them into a new vector (fresh pages, a
    // page fault per 46 rows). The position breaks ties, so the first of a key stays.
    struct Order {
        std::int64_t microStep;
        std::uint64_t targetMetricPosition; // target << 36 | metric << 32 | position
    };
    thread_local std::vector<Order> order; // reused from rank to rank: no allocation per dump
    thread_local std::vector<std::uint32_t> from; // where row k of the result comes from
    thread_local std::vector<std::uint8_t> kept;
    const std::size_t count = rows.rows.size();
    order.clear();
    order.reserve(count);
    bool sorted = true;
    for (std::size_t k = 0; k < count; ++k) {
        const auto& row = rows.rows[k];
        order.push_back({ row.microStep,
            (std::uint64_t(row.target) << 36) | (std::uint64_t(row.metric) << 32) | std::uint64_t(k) });
        sorted = sorted && (k == 0 || std::tie(order[k - 1].microStep, order[k - 1].targetMetricPosition)
                < std::tie(order[k].microStep, order[k].targetMetricPosition));
    }
    // The packing holds 2^28 targets and 2^32 rows per dump file, far beyond a dump.json's size.
    if (rows.targets.size() >= (std::size_t(1) << 28) || count >= (std::size_t(1) << 32))
        throw support::Error("sortRankRows: more targets or rows in one dump than the trend import handles");
    if (!sorted) {
        std::int64_t maxMicroStep = 0;
        std::uint64_t maxTargetMetric = 0; // target << 4 | metric
        bool nonNegative = true;
        for (const auto& item : order) {
            maxMicroStep = std::max(maxMicroStep, item.microStep);
            maxTargetMetric = std::max(maxTargetMetric, item.targetMetricPosition >> 32);
            nonNegative = nonNegative && item.microStep >= 0;
        }
        const int lowBits = std::bit_width(maxTargetMetric);
        const int keyBits = lowBits + std::bit_width(static_cast<std::uint64_t>(maxMicroStep));
        if (nonNegative && keyBits <= 64) {
            // A stable LSD radix sort of (micro step, target, metric) packed in one integer, 11 bits a pass: the
            // input is in position order, so ties keep it. A few linear passes instead of std::sort's ~16
            // two-field compares per row (4% of the import's instructions).
            thread_local std::vector<Order> scratch;
            thread_local std::vector<std::uint32_t> counts;
            constexpr int kDigitBits = 11;
            constexpr std::uint64_t kDigitMask = (std::uint64_t(1) << kDigitBits) - 1;
            auto keyOf = [lowBits](const Order& item) {
                return (static_cast<std::uint64_t>(item.microStep) << lowBits) | (item.targetMetricPosition >> 32);
            };
            scratch.resize(count);
            for (int shift = 0; shift < keyBits; shift += kDigitBits) {
                counts.assign(kDigitMask + 1, 0);
                for (const auto& item : order)
                    ++counts[(keyOf(item) >> shift) & kDigitMask];
                if (std::find(counts.begin(), counts.end(), count) != counts.end())
                    continue; // every row has this digit: the pass would move nothing
                std::uint32_t next = 0;
                for (auto& slot : counts)
                    next += std::exchange(slot, next);
                for (const auto& item : order)
                    scratch[counts[(keyOf(item) >> shift) & kDigitMask]++] = item;
                order.swap(scratch);
            }
        } else {
            std::sort(order.begin(), order.end(), [](const Order& a, const Order& b) {
                return std::tie(a.microStep, a.targetMetricPosition) < std::tie(b.microStep, b.targetMetricPosition);
            });
        }
    }
    constexpr std::uint64_t kKeyBits = ~std::uint64_t(0xffffffff);
    from.clear();
    kept.assign(count, 0);
    for (std::size_t k = 0; k < count; ++k) {
        if (k && order[k].microStep == order[k - 1].microStep
            && (order[k].targetMetricPosition & kKeyBits) == (order[k - 1].targetMetricPosition & kKeyBits)) {
            ++rows.repeatedRows;
            continue;
        }
        const auto position = static_cast<std::uint32_t>(order[k].targetMetricPosition & 0xffffffff);
        from.push_back(position);
        kept[position] = 1;
    }
    const std::size_t keptCount = from.size();
    if (sorted && keptCount == count)
        return; // in key order already, no key repeated: nothing moves
    // The repeated rows fill the tail, so that `from` is a permutation; each of its cycles is then moved once.
    for (std::uint32_t k = 0; k < count; ++k)
        if (!kept[k])
            from.push_back(k);
    for (std::uint32_t start = 0; start < count; ++start) {
        if (from[start] == start)
            continue; // in place, or moved already
        const DumpTrendRow first = rows.rows[start];
        std::uint32_t at = start;
        for (;;) {
            const std::uint32_t source = from[at];
            from[at] = at;
            if (source == start) {
                rows.rows[at] = first;
                break;
            }
            rows.rows[at] = rows.rows[source];
            at = source;
        }
    }
    rows.rows.resize(keptCount);
}

} // namespace msprobe::trend
