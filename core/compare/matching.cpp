// SPDX-License-Identifier: Apache-2.0
#include "compare/matching.h"
#include "support/ascii_text.h"

#include "support/thread_pool.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <thread>
#include <deque>
#include <optional>
#include <unordered_map>

namespace msprobe::compare {

std::string_view toString(CompareMode mode)
{
    switch (mode) {
    case CompareMode::Statistics: return "statistics";
    case CompareMode::Md5: return "md5";
    case CompareMode::Tensor: return "tensor";
    }
    return "statistics";
}

namespace {

// Hash of the concatenation a + b (any split of the same text hashes alike).
std::uint64_t concatenationHash(std::string_view a, std::string_view b)
{
    if (b.empty())
        return std::hash<std::string_view> {}(a);
    if (a.empty())
        return std::hash<std::string_view> {}(b);
    char stackBuffer[512];
    std::string heap;
    char* joined = stackBuffer;
    if (a.size() + b.size() > sizeof stackBuffer) {
        heap.resize(a.size() + b.size());
        joined = heap.data();
    }
    std::memcpy(joined, a.data(), a.size());
    std::memcpy(joined + a.size(), b.data(), b.size());
    return std::hash<std::string_view> {}(std::string_view(joined, a.size() + b.size()));
}

// Open-addressing map from key hash to the first Bench item with that hash; items chain in Bench order.
// Items must be added in descending order (each one goes to the front of its chain).
class KeyIndex {
public:
    explicit KeyIndex(std::size_t items)
    {
        std::size_t capacity = 16;
        while (capacity < items + items / 2)
            capacity <<= 1;
        m_slots.assign(capacity, Slot {});
        m_mask = capacity - 1;
        m_next.assign(items, -1);
    }

    void addInFront(std::uint64_t hash, std::int32_t item)
    {
        std::size_t pos = hash & m_mask;
        while (m_slots[pos].head >= 0 && m_slots[pos].hash != hash)
            pos = (pos + 1) & m_mask;
        Slot& slot = m_slots[pos];
        if (slot.head < 0)
            slot.hash = hash;
        else
            m_next[static_cast<std::size_t>(item)] = slot.head;
        slot.head = item;
    }

    std::int32_t find(std::uint64_t hash) const
    {
        std::size_t pos = hash & m_mask;
        while (m_slots[pos].head >= 0) {
            if (m_slots[pos].hash == hash)
                return m_slots[pos].head;
            pos = (pos + 1) & m_mask;
        }
        return -1;
    }

    std::int32_t next(std::int32_t item) const { return m_next[static_cast<std::size_t>(item)]; }

private:
    struct Slot {
        std::uint64_t hash = 0;
        std::int32_t head = -1;
    };
    std::vector<Slot> m_slots;
    std::vector<std::int32_t> m_next;
    std::size_t m_mask = 0;
};

// A key as two pieces whose concatenation is the text; avoids building a string per item.
struct KeyText {
    std::string_view a, b;
    std::uint64_t hash() const { return concatenationHash(a, b); }
    bool operator==(const KeyText& o) const
    {
        if (a.size() + b.size() != o.a.size() + o.b.size())
            return false;
        // Compare the concatenations run by run: each run lies inside one piece of each key.
        std::string_view mine[2] = { a, b }, theirs[2] = { o.a, o.b };
        int p = 0, q = 0;
        while (true) {
            while (p < 2 && mine[p].empty())
                ++p;
            while (q < 2 && theirs[q].empty())
                ++q;
            if (p == 2 || q == 2)
                return p == q;
            const std::size_t run = std::min(mine[p].size(), theirs[q].size());
            if (std::memcmp(mine[p].data(), theirs[q].data(), run) != 0)
                return false;
            mine[p].remove_prefix(run);
            theirs[q].remove_prefix(run);
        }
    }
};

// Keys of every item of a side: (entry part, suffix part), with renumbered backward entry parts kept alive here.
class SideKeys {
public:
    SideKeys(const ItemTable& table, bool renumberBackward)
    {
        const auto& entries = table.entries();
        m_entryKey.resize(entries.size());
        for (std::size_t e = 0; e < entries.size(); ++e) {
            const EntryInfo& info = entries[e];
            const std::string_view name = table.dump().entryName(info.dumpEntry);
            m_entryKey[e] = name;
            if (!renumberBackward || info.kind != CallKind::Backward)
                continue;
            const std::size_t dot = info.callDirection.rfind('.');
            std::string_view head = dot == std::string_view::npos ? info.callDirection : info.callDirection.substr(0, dot);
            std::string_view tail = dot == std::string_view::npos ? std::string_view {} : info.callDirection.substr(dot + 1);
            if (dot == std::string_view::npos || (!support::isDigits(head) && !support::isDigits(tail)))
                continue;
            const std::string order = std::to_string(info.backwardOrder);
            std::string key(info.opNoNumber);
            key += '.';
            key += support::isDigits(head) ? std::string_view(order) : head;
            key += '.';
            key += support::isDigits(tail) ? std::string_view(order) : tail;
            m_store.push_back(std::move(key));
            m_entryKey[e] = m_store.back();
        }
        m_table = &table;
        m_renumberBackward = renumberBackward;
    }

    // The key of an item, built from the entry's key and the item's suffix (no per-item storage).
    KeyText operator[](std::size_t index) const
    {
        if (!m_override.empty() && m_override[index].data())
            return { m_override[index], {} };
        const Item& item = m_table->items()[index];
        if (item.explicitName != support::kNoString && !(m_renumberBackward && m_table->entries()[item.entry].kind == CallKind::Backward))
            return { m_table->text(item.explicitName), {} };
        return { m_entryKey[item.entry], m_table->suffix(item) };
    }
    void replace(std::size_t item, std::string key)
    {
        if (m_override.empty())
            m_override.resize(m_table->items().size());
        m_store.push_back(std::move(key));
        m_override[item] = m_store.back();
    }
    // Every key's hash, computed on `threads` threads; call after the last replace().
    void computeHashes(std::size_t threads)
    {
        const std::size_t n = m_table->items().size();
        m_hashes.resize(n);
        support::parallelFor(n, n < 65536 ? 1 : threads, [&](std::size_t begin, std::size_t end) {
            for (std::size_t i = begin; i < end; ++i)
                m_hashes[i] = (*this)[i].hash();
        });
    }
    std::uint64_t hash(std::size_t item) const { return m_hashes[item]; }

private:
    const ItemTable* m_table = nullptr;
    bool m_renumberBackward = false;
    std::vector<std::string_view> m_entryKey;
    std::deque<std::string> m_store;
    std::vector<std::string_view> m_override; // mapped keys (-dm/-cm), when any
    std::vector<std::uint64_t> m_hashes;
};

bool inHalfGroup(std::string_view dtype)
{
    return dtype == "torch.float16" || dtype == "torch.float32" || dtype == "torch.bfloat16";
}

bool inMsHalfGroup(std::string_view dtype) { return dtype == "Float16" || dtype == "Float32" || dtype == "BFloat16"; }

std::vector<MatchedRow> fuzzyMatch(const ItemTable& npu, const ItemTable& bench, const SideKeys& npuKeys, const SideKeys& benchKeys)
{
    const std::size_t n = npu.items().size(), b = bench.items().size();
    auto fuzzyKey = [](const KeyText& key) { return fuzzyName(std::string(key.a) + std::string(key.b)); };
    std::vector<std::string> npuNames(n), benchNames(b);
    for (std::size_t i = 0; i < n; ++i)
        npuNames[i] = fuzzyKey(npuKeys[i]);
    for (std::size_t i = 0; i < b; ++i)
        benchNames[i] = fuzzyKey(benchKeys[i]);

    std::vector<MatchedRow> rows;
    std::vector<std::uint32_t> npuQueue, benchQueue;
    const std::size_t maxLen = std::max(n, b);
    for (std::size_t i = 0; i < maxLen; ++i) {
        if (i < n)
            npuQueue.push_back(static_cast<std::uint32_t>(i));
        if (i < b)
            benchQueue.push_back(static_cast<std::uint32_t>(i));
        if (npuQueue.empty() != benchQueue.empty())
            break;
        std::int64_t npuPoint = -1, benchPoint = -1;
        const std::uint32_t lastNpu = npuQueue.back();
        for (std::size_t k = 0; k + 1 < benchQueue.size(); ++k)
            if (npuNames[lastNpu] == benchNames[benchQueue[k]]) {
                npuPoint = static_cast<std::int64_t>(npuQueue.size()) - 1;
                benchPoint = static_cast<std::int64_t>(k);
                break;
            }
        if (npuPoint < 0 && npuNames[lastNpu] == benchNames[benchQueue.back()]) {
            npuPoint = static_cast<std::int64_t>(npuQueue.size()) - 1;
            benchPoint = static_cast<std::int64_t>(benchQueue.size()) - 1;
        }
        if (npuPoint < 0)
            for (std::size_t k = 0; k + 1 < npuQueue.size(); ++k)
                if (npuNames[npuQueue[k]] == benchNames[benchQueue.back()]) {
                    npuPoint = static_cast<std::int64_t>(k);
                    benchPoint = static_cast<std::int64_t>(benchQueue.size()) - 1;
                    break;
                }
        if (npuPoint < 0)
            continue;
        for (std::int64_t k = 0; k < npuPoint; ++k)
            rows.push_back({ npuQueue[static_cast<std::size_t>(k)], kUnmatched });
        rows.push_back({ npuQueue[static_cast<std::size_t>(npuPoint)], static_cast<std::int32_t>(benchQueue[static_cast<std::size_t>(benchPoint)]) });
        npuQueue.erase(npuQueue.begin(), npuQueue.begin() + npuPoint + 1);
        benchQueue.erase(benchQueue.begin(), benchQueue.begin() + benchPoint + 1);
    }
    for (std::uint32_t item : npuQueue)
        rows.push_back({ item, kUnmatched });
    return rows;
}

} // namespace

std::string compareKey(const ItemTable& table, const Item& item, bool renumberBackward)
{
    const std::size_t index = static_cast<std::size_t>(&item - table.items().data());
    SideKeys keys(table, renumberBackward);
    return std::string(keys[index].a) + std::string(keys[index].b);
}

std::string fuzzyName(std::string_view name)
{
    std::string_view process;
    if (name.find("forward") != std::string_view::npos)
        process = "forward";
    else if (name.find("backward") != std::string_view::npos)
        process = "backward";
    else
        return std::string(name);
    const std::size_t first = name.find(process);
    const std::string_view before = name.substr(0, first);
    const std::size_t second = name.find(process, first + process.size());
    const std::string_view between = name.substr(first + process.size(),
        second == std::string_view::npos ? std::string_view::npos : second - first - process.size());
    // before.rsplit('.', 2)[0]
    std::string_view head = before;
    for (int k = 0; k < 2; ++k) {
        const std::size_t dot = head.rfind('.');
        if (dot == std::string_view::npos)
            break;
        head = head.substr(0, dot);
    }
    std::string out(head);
    out += '.';
    out += process;
    out += between;
    return out;
}

std::string cellMappedName(std::string_view name, const NameMapping& mapping)
{
    if (name.empty())
        return "N/A";
    const bool paramsGrad = [&] {
        std::size_t start = 0;
        while (true) {
            const std::size_t dot = name.find('.', start);
            if (name.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start) == "parameters_grad")
                return true;
            if (dot == std::string_view::npos)
                return false;
            start = dot + 1;
        }
    }();
    if (!paramsGrad && name.find(".forward.") == std::string_view::npos && name.find(".backward.") == std::string_view::npos)
        return "N/A";
    std::string out(name);
    if (const std::size_t cell = out.find("Cell"); cell != std::string::npos)
        out.replace(cell, 4, "Module");
    if (mapping.empty())
        return out;
    // The part after the first segment, up to the first ".forward." / ".backward." / ".parameters_grad.".
    const std::size_t firstDot = out.find('.');
    const std::string rest = firstDot == std::string::npos ? out : out.substr(firstDot + 1);
    std::size_t cut = std::string::npos;
    for (std::string_view marker : { ".forward.", ".backward.", ".parameters_grad." })
        cut = std::min(cut, rest.find(marker));
    const std::string cellName = rest.substr(0, cut);
    std::string newName = cellName;
    bool exact = false;
    for (const auto& [from, to] : mapping)
        if (from == cellName) {
            newName = to;
            exact = true;
            break;
        }
    if (!exact)
        for (const auto& [from, to] : mapping)
            if (const std::size_t hit = newName.find(from); !from.empty() && hit != std::string::npos)
                newName.replace(hit, from.size(), to);
    if (newName != cellName)
        if (const std::size_t hit = out.find(cellName); hit != std::string::npos)
            out.replace(hit, cellName.size(), newName);
    return out;
}

bool dtypesMatch(std::string_view npu, std::string_view bench)
{
    return npu == bench || (inHalfGroup(npu) && inHalfGroup(bench)) || (inMsHalfGroup(npu) && inMsHalfGroup(bench));
}

std::vector<MatchedRow> matchItems(const ItemTable& npu, const ItemTable& bench, const CompareOptions& options,
    const CrossRuntimeKeys* crossRuntime)
{
    const bool renumber = !options.fuzzyMatch && !options.debugFile;
    std::optional<SideKeys> benchSlot, npuSlot;
    support::runConcurrently([&] { npuSlot.emplace(npu, renumber); }, [&] { benchSlot.emplace(bench, renumber); });
    SideKeys& npuKeys = *npuSlot;
    SideKeys& benchKeys = *benchSlot;
    const auto& npuItems = npu.items();
    const auto& benchItems = bench.items();

    if (crossRuntime) {
        for (std::size_t i = 0; i < npuItems.size(); ++i)
            npuKeys.replace(i, crossRuntime->npu[i]);
        for (std::size_t j = 0; j < benchItems.size(); ++j)
            benchKeys.replace(j, crossRuntime->bench[j]);
    }
    // NPU-side mappings apply to the plain item name (before renumbering).
    else if (options.useCellMapping || options.useDataMapping) {
        std::unordered_map<std::string_view, std::string_view> data;
        for (const auto& [from, to] : options.dataMapping)
            data.emplace(from, to);
        for (std::size_t i = 0; i < npuItems.size(); ++i) {
            const std::string name = npu.name(npuItems[i]);
            if (options.useCellMapping) {
                npuKeys.replace(i, cellMappedName(name, options.cellMapping));
            } else {
                auto hit = data.find(name);
                npuKeys.replace(i, hit == data.end() ? name : std::string(hit->second));
            }
        }
    }

    std::vector<MatchedRow> rows;
    if (options.fuzzyMatch && !options.useDataMapping && !crossRuntime) {
        rows = fuzzyMatch(npu, bench, npuKeys, benchKeys);
    } else {
        const std::size_t threads = npuItems.size() < 65536 ? 1 : support::defaultThreadCount();
        npuKeys.computeHashes(threads);
        benchKeys.computeHashes(threads);
        KeyIndex index(benchItems.size());
        for (std::size_t j = benchItems.size(); j-- > 0;)
            index.addInFront(benchKeys.hash(j), static_cast<std::int32_t>(j));
        // The look-ups run on contiguous NPU ranges in parallel; the ranges' rows are joined in NPU order.
        const std::size_t chunk = (npuItems.size() + threads - 1) / threads; // parallelFor's split
        std::vector<std::vector<MatchedRow>> parts(threads);
        support::parallelFor(npuItems.size(), threads, [&](std::size_t begin, std::size_t end) {
            std::vector<MatchedRow>& part = parts[begin / std::max<std::size_t>(chunk, 1)];
            part.reserve(end - begin);
            for (std::size_t i = begin; i < end; ++i) {
                const KeyText key = npuKeys[i];
                bool any = false;
                for (std::int32_t j = index.find(npuKeys.hash(i)); j >= 0; j = index.next(j)) {
                    if (!(benchKeys[static_cast<std::size_t>(j)] == key))
                        continue;
                    part.push_back({ static_cast<std::uint32_t>(i), j });
                    any = true;
                }
                if (!any)
                    part.push_back({ static_cast<std::uint32_t>(i), kUnmatched });
            }
        });
        rows = std::move(parts[0]);
        for (std::size_t t = 1; t < threads; ++t)
            rows.insert(rows.end(), parts[t].begin(), parts[t].end());
    }
    if (!options.useDataMapping)
        support::parallelFor(rows.size(), rows.size() < 65536 ? 1 : support::defaultThreadCount(), [&](std::size_t begin, std::size_t end) {
            for (std::size_t r = begin; r < end; ++r) {
                MatchedRow& row = rows[r];
                if (row.bench != kUnmatched
                    && !dtypesMatch(npu.dtype(npuItems[row.npu]), bench.dtype(benchItems[static_cast<std::size_t>(row.bench)])))
                    row.bench = kUnmatched;
            }
        });
    return rows;
}

} // namespace msprobe::compare
