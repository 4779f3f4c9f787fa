// SPDX-License-Identifier: Apache-2.0
#include "memory/compare.h"

#include "support/error.h"

#include <algorithm>
#include <map>

namespace msprobe::memory {

namespace {

struct Item {
    std::string_view name;
    std::uint32_t event; // MemTrace::events index of the END / KERNEL_LAUNCH row
    std::int64_t memory;
    std::int64_t peak;
};

struct Prepared {
    std::string framework;
    std::map<std::int32_t, std::vector<Item>> items; // per device
};

std::string frameworkOf(const MemTrace& trace)
{
    std::string framework;
    for (const auto& e : trace.events) {
        const auto type = trace.text(e.subType);
        if (e.kind != EventKind::Malloc && e.kind != EventKind::Free)
            continue;
        if (type != "PTA" && type != "MINDSPORE" && type != "TORCH_CPU")
            continue;
        if (framework.empty())
            framework = type;
        else if ((framework == "MINDSPORE") != (type == "MINDSPORE"))
            throw support::Error(trace.file, "line " + std::to_string(e.line), "the dump mixes PTA and MINDSPORE memory rows");
    }
    return framework;
}

Prepared prepare(const CompareSide& side, CompareLevel level, CompareMode mode)
{
    const MemTrace& trace = *side.trace;
    const MemModel& model = *side.model;
    if (side.step && (side.step > model.stepCount))
        throw support::Error(trace.file, {}, "has no step " + std::to_string(side.step) + " (" + std::to_string(model.stepCount) + " step(s) marked)");
    Prepared out;
    out.framework = frameworkOf(trace);
    if (level == CompareLevel::Op && out.framework == "MINDSPORE")
        throw support::Error(trace.file, {}, "is a MindSpore dump: compare it at kernel level (--level kernel)");
    std::map<std::int32_t, std::vector<std::uint32_t>> rows; // per numeric device, in timestamp order
    std::int32_t lastDevice = kDeviceUnknown;
    std::vector<std::uint32_t>* lastList = nullptr; // rows of one device come in runs: one map lookup a run
    const bool cpuRows = out.framework == "TORCH_CPU";
    for (std::uint32_t i = 0; i < trace.events.size(); ++i) {
        const auto& e = trace.events[i];
        if (e.device < 0 && !(e.device == kDeviceCpu && cpuRows))
            continue;
        if (side.step && model.stepOf[i] != side.step)
            continue;
        if (!lastList || e.device != lastDevice) {
            lastDevice = e.device;
            lastList = &rows[e.device];
        }
        lastList->push_back(i);
    }
    // What each Event Type string is, looked up once rather than compared as text on every row.
    enum : std::uint8_t { kFrameworkPool = 1, kWanted = 2 };
    std::vector<std::uint8_t> typeBits(trace.strings.size(), 0);
    for (support::StringId id = 0; id < typeBits.size(); ++id) {
        const auto type = trace.text(id);
        if (type == out.framework)
            typeBits[id] |= kFrameworkPool;
        if (level == CompareLevel::Op ? (type == "ATEN_END" || type == "ATB_END") : type == "KERNEL_LAUNCH")
            typeBits[id] |= kWanted;
    }
    auto typeIs = [&](support::StringId id, std::uint8_t bit) { return id != support::kNoString && (typeBits[id] & bit); };
    for (auto& [device, list] : rows) {
        auto byTime = [&](std::uint32_t a, std::uint32_t b) { return trace.events[a].tsNs < trace.events[b].tsNs; };
        if (!std::is_sorted(list.begin(), list.end(), byTime)) // ID order is time order in most dumps
            std::stable_sort(list.begin(), list.end(), byTime);
        std::vector<std::int64_t> nextSize(list.size() + 1, 0);
        for (std::size_t p = list.size(); p-- > 0;) {
            const auto& e = trace.events[list[p]];
            const bool pool = (e.kind == EventKind::Malloc || e.kind == EventKind::Free) && typeIs(e.subType, kFrameworkPool);
            nextSize[p] = pool ? e.size : nextSize[p + 1];
        }
        auto& items = out.items[device];
        for (std::size_t p = 0; p < list.size(); ++p) {
            const auto& e = trace.events[list[p]];
            if (!typeIs(e.subType, kWanted))
                continue;
            Item item { trace.text(e.name), list[p], nextSize[p], 0 };
            if (mode == CompareMode::Net) {
                item.memory = 0;
                const auto op = model.opOf[list[p]];
                if (op != kNone && model.ops[op].startEvent != kNone) {
                    std::int64_t net = 0;
                    for (auto k = model.ops[op].startEvent + 1; k < list[p]; ++k) {
                        const auto& m = trace.events[k];
                        if (m.tid != e.tid || m.shadow() || !typeIs(m.subType, kFrameworkPool))
                            continue;
                        if (m.kind == EventKind::Malloc)
                            net += m.size;
                        else if (m.kind == EventKind::Free)
                            net -= m.size;
                        item.peak = std::max(item.peak, net);
                    }
                    item.memory = net;
                }
            }
            items.push_back(item);
        }
    }
    return out;
}

} // namespace

std::vector<std::pair<std::size_t, std::size_t>> myersMatches(const std::vector<std::string_view>& a, const std::vector<std::string_view>& b)
{
    const long n = static_cast<long>(a.size()), m = static_cast<long>(b.size());
    const long max = n + m;
    std::vector<long> v(static_cast<std::size_t>(2 * max + 3), 0);
    const long offset = max + 1;
    std::vector<std::vector<long>> history; // per d: v[offset-d .. offset+d] before round d
    long found = -1;
    for (long d = 0; d <= max && found < 0; ++d) {
        history.emplace_back(v.begin() + (offset - d - 1), v.begin() + (offset + d + 2));
        for (long k = -d; k <= d; k += 2) {
            long x = (k == -d || (k != d && v[static_cast<std::size_t>(offset + k - 1)] < v[static_cast<std::size_t>(offset + k + 1)]))
                ? v[static_cast<std::size_t>(offset + k + 1)]
                : v[static_cast<std::size_t>(offset + k - 1)] + 1;
            long y = x - k;
            while (x < n && y < m && a[static_cast<std::size_t>(x)] == b[static_cast<std::size_t>(y)]) {
                ++x;
                ++y;
            }
            v[static_cast<std::size_t>(offset + k)] = x;
            if (x >= n && y >= m) {
                found = d;
                break;
            }
        }
    }
    std::vector<std::pair<std::size_t, std::size_t>> matches;
    long x = n, y = m;
    for (long d = found; d >= 0; --d) {
        const auto& hv = history[static_cast<std::size_t>(d)];
        auto at = [&](long k) { return hv[static_cast<std::size_t>(k + d + 1)]; };
        const long k = x - y;
        const long prevK = (k == -d || (k != d && at(k - 1) < at(k + 1))) ? k + 1 : k - 1;
        const long prevX = d == 0 ? 0 : at(prevK);
        const long prevY = d == 0 ? 0 : prevX - prevK;
        while (x > prevX && y > prevY) {
            matches.emplace_back(static_cast<std::size_t>(x - 1), static_cast<std::size_t>(y - 1));
            --x;
            --y;
        }
        x = prevX;
        y = prevY;
    }
    std::reverse(matches.begin(), matches.end());
    return matches;
}

CompareResult compareMemory(const CompareSide& base, const CompareSide& compare, CompareLevel level, CompareMode mode)
{
    if (mode == CompareMode::Net && level == CompareLevel::Kernel)
        throw support::Error("net mode needs op level: a kernel launch has no START/END to attribute memory to");
    const Prepared a = prepare(base, level, mode);
    const Prepared b = prepare(compare, level, mode);
    CompareResult result;
    result.framework = a.framework.empty() ? b.framework : a.framework;
    std::map<std::int32_t, bool> devices;
    for (const auto& [d, items] : a.items)
        devices[d] = true;
    for (const auto& [d, items] : b.items)
        devices[d] = true;
    static const std::vector<Item> kEmpty;
    const std::string event = level == CompareLevel::Op ? "OP_LAUNCH" : "KERNEL_LAUNCH";
    for (const auto& entry : devices) {
        const std::int32_t device = entry.first;
        const auto& left = a.items.count(device) ? a.items.at(device) : kEmpty;
        const auto& right = b.items.count(device) ? b.items.at(device) : kEmpty;
        std::vector<std::string_view> ln, rn;
        for (const auto& item : left)
            ln.push_back(item.name);
        for (const auto& item : right)
            rn.push_back(item.name);
        auto matches = myersMatches(ln, rn);
        matches.emplace_back(left.size(), right.size()); // sentinel
        std::size_t i = 0, j = 0;
        auto row = [&](const Item* l, const Item* r) {
            CompareRow out;
            out.event = event;
            out.name = std::string(l ? l->name : r->name);
            out.device = device;
            if (l) {
                out.base = l->memory;
                out.basePeak = l->peak;
            }
            if (r) {
                out.compare = r->memory;
                out.comparePeak = r->peak;
            }
            out.diff = out.compare.value_or(0) - out.base.value_or(0);
            result.rows.push_back(out);
        };
        for (const auto& [mi, mj] : matches) {
            for (; i < mi; ++i)
                row(&left[i], nullptr);
            for (; j < mj; ++j)
                row(nullptr, &right[j]);
            if (mi < left.size() && mj < right.size())
                row(&left[i++], &right[j++]);
        }
    }
    return result;
}

std::string compareCsv(const CompareResult& result)
{
    std::string out = ",,,Base,Compare\nEvent,Name,Device Id,Allocated Memory(byte),Allocated Memory(byte),Diff Memory(byte)\n";
    for (const auto& row : result.rows) {
        std::string name = row.name;
        if (name.find_first_of(",\"\n") != std::string::npos) {
            std::string quoted = "\"";
            for (char c : name)
                quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
            name = quoted + "\"";
        }
        out += row.event + "," + name + "," + deviceName(row.device) + ","
            + (row.base ? std::to_string(*row.base) : "N/A") + "," + (row.compare ? std::to_string(*row.compare) : "N/A")
            + "," + std::to_string(row.diff) + "\n";
    }
    return out;
}

} // namespace msprobe::memory
