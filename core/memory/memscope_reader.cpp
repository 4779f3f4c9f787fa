// SPDX-License-Identifier: Apache-2.0
#include "memory/memscope_reader.h"
#include "memory/torch_snapshot.h"
#include "support/ascii_text.h"
#include "memory/event_chunks.h"
#include "memory/memscope_rows.h"

#include "memory/attr_parse.h"
#include "support/error.h"
#include "support/input_file.h"
#include "support/sqlite_util.h"

#include <sqlite3.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <limits>

namespace msprobe::memory {

namespace {

constexpr std::array<std::string_view, 10> kRequired = { "ID", "Event", "Event Type", "Name", "Timestamp(ns)",
    "Process Id", "Thread Id", "Device Id", "Ptr", "Attr" };

std::string_view trim(std::string_view text)
{
    if (!text.empty() && text.front() > ' ' && text.back() > ' ')
        return text;
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t' || text.front() == '\r'))
        text.remove_prefix(1);
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r'))
        text.remove_suffix(1);
    return text;
}

// `key == literal` with the length known at compile time, so the comparison is inlined (it runs for every Attr
// key of every row).
template<std::size_t N>
bool isKey(std::string_view key, const char (&literal)[N])
{
    return key.size() == N - 1 && std::memcmp(key.data(), literal, N - 1) == 0;
}

bool isNa(std::string_view text) { return text.empty() || isKey(text, "N/A") || isKey(text, "NA"); }

// Where a row is, built only when it is reported.
struct RowPlace {
    std::uint32_t line;
    bool database;
};
std::string describe(const RowPlace& place) { return (place.database ? "row " : "line ") + std::to_string(place.line); }

[[noreturn]] void failCell(const std::string& file, const RowPlace& place, int column, const std::string& message)
{
    throw support::Error(file, describe(place) + ", column " + std::to_string(column + 1) + " (" + std::string(kRequired[column]) + ")",
        message);
}

std::string quoted(std::string_view text)
{
    return "\"" + std::string(text.substr(0, 60)) + (text.size() > 60 ? "...\"" : "\"");
}

} // namespace

std::array<int, 10> mapHeader(const std::vector<std::string_view>& header, const std::string& file)
{
    std::array<int, 10> index {};
    for (std::size_t k = 0; k < kRequired.size(); ++k) {
        index[k] = -1;
        for (std::size_t c = 0; c < header.size(); ++c)
            if (support::asciiLower(trim(header[c])) == support::asciiLower(kRequired[k]))
                index[k] = static_cast<int>(c);
        if (index[k] < 0)
            throw support::Error(file, "line 1",
                "the header has no \"" + std::string(kRequired[k])
                    + "\" column (a msMemScope dump starts with ID,Event,Event Type,Name,Timestamp(ns),Process Id,"
                      "Thread Id,Device Id,Ptr,Attr,Call Stack(Python),Call Stack(C))");
    }
    return index;
}

bool parseEventKind(std::string_view text, EventKind& kind)
{
    static constexpr std::array<std::pair<std::string_view, EventKind>, 9> kNames = { { { "SYSTEM", EventKind::System },
        { "MALLOC", EventKind::Malloc }, { "FREE", EventKind::Free }, { "ACCESS", EventKind::Access },
        { "OP_LAUNCH", EventKind::OpLaunch }, { "KERNEL_LAUNCH", EventKind::KernelLaunch }, { "MSTX", EventKind::Mstx },
        { "SNAPSHOT", EventKind::Snapshot }, { "OOM_DETAIL", EventKind::OomDetail } } };
    for (const auto& [name, value] : kNames)
        if (name.size() == text.size() && name[0] == text[0] && name == text) {
            kind = value;
            return true;
        }
    return false;
}

std::string_view eventKindName(EventKind kind)
{
    static constexpr std::array<std::string_view, 9> kNames = { "SYSTEM", "MALLOC", "FREE", "ACCESS", "OP_LAUNCH",
        "KERNEL_LAUNCH", "MSTX", "SNAPSHOT", "OOM_DETAIL" };
    return kNames[static_cast<std::size_t>(kind)];
}

std::string deviceName(std::int32_t device)
{
    if (device == kDeviceCpu)
        return "cpu";
    if (device == kDeviceHost)
        return "host";
    if (device == kDeviceUnknown)
        return "N/A";
    return std::to_string(device);
}

std::string hexPtr(std::uint64_t ptr)
{
    char text[24];
    std::snprintf(text, sizeof text, "0x%016llx", static_cast<unsigned long long>(ptr));
    return text;
}

support::StringId RecentStrings::intern(std::string_view text)
{
    const std::uint32_t hash = hashOf(text);
    if (m_table.empty())
        m_table.resize(kFirstSlots);
    const std::size_t mask = m_table.size() - 1;
    for (std::size_t slot = hash & mask;; slot = (slot + 1) & mask) {
        const Entry& entry = m_table[slot];
        if (entry.id == support::kNoString)
            return internNew(text, hash, slot);
        if (entry.hash == hash && sameText(entry.text, text))
            return entry.id;
    }
}

std::size_t RecentStrings::freeSlot(std::uint32_t hash) const
{
    const std::size_t mask = m_table.size() - 1;
    std::size_t slot = hash & mask;
    while (m_table[slot].id != support::kNoString)
        slot = (slot + 1) & mask;
    return slot;
}

support::StringId RecentStrings::internNew(std::string_view text, std::uint32_t hash, std::size_t slot)
{
    const support::StringId id = m_pool.intern(text);
    if (2 * (m_used + 1) > m_table.size()) {
        // Grown up to kMaxSlots, then started afresh.
        std::vector<Entry> old(m_table.size() < kMaxSlots ? 2 * m_table.size() : kFirstSlots);
        old.swap(m_table);
        m_used = 0;
        if (m_table.size() > old.size())
            for (const Entry& entry : old)
                if (entry.id != support::kNoString) {
                    m_table[freeSlot(entry.hash)] = entry;
                    ++m_used;
                }
        slot = freeSlot(hash);
    }
    m_table[slot] = { m_pool.view(id), id, hash };
    ++m_used;
    return id;
}

void parseRow(const RowCells& row, std::uint32_t line, bool database, RecentStrings& strings, const std::string& file, MemEvent& event)
{
    const RowPlace place { line, database };
    // OOM_DETAIL keys (rare rows, so kept out of the common key chain).
    auto oomAttr = [&](std::string_view key, std::string_view value, MemEvent& into) {
        unsigned long long number = 0;
        if (isKey(key, "req_size")) {
            if (!parseUnsigned(value, number))
                failCell(file, place, 9, "Attr req_size " + quoted(value) + " is not a number");
            into.size = static_cast<std::int64_t>(number);
        } else if (isKey(key, "ptr") && !(into.flags & kFlagHasPtr) && !isNa(value)) {
            if (!parseUnsigned(value, number))
                failCell(file, place, 9, "Attr ptr " + quoted(value) + " is not an address");
            into.ptr = number;
            into.flags |= kFlagHasPtr;
        } else if (isKey(key, "timestamp") && !isNa(value)) {
            if (!parseUnsigned(value, number))
                failCell(file, place, 9, "Attr timestamp " + quoted(value) + " is not a number");
            into.allocationId = number;
        } else if ((isKey(key, "func") || isKey(key, "pool")) && !value.empty())
            into.detail = strings.intern(value);
    };
    const bool jsonAttr = database;
    event = MemEvent {};
    event.line = line;
    unsigned long long u = 0;
    long long s = 0;
    if (!parseUnsigned(trim(row.id), u))
        failCell(file, place, 0, "ID " + quoted(row.id) + " is not an unsigned integer");
    event.id = u;
    if (!parseEventKind(trim(row.event), event.kind))
        failCell(file, place, 1,
            "Event " + quoted(row.event)
                + " is not one of SYSTEM, MALLOC, FREE, ACCESS, OP_LAUNCH, KERNEL_LAUNCH, MSTX, SNAPSHOT, OOM_DETAIL");
    const auto subType = trim(row.eventType);
    if (subType.empty())
        failCell(file, place, 2, "Event Type is empty");
    event.subType = strings.intern(subType);
    std::string_view name = row.name;
    if (name.size() >= 2 && name.front() == '"' && name.back() == '"')
        name = name.substr(1, name.size() - 2); // MSTX messages are written quoted (§1.2)
    if (!isKey(name, "N/A") && !name.empty())
        event.name = strings.intern(name);
    if (!parseSigned(trim(row.timestamp), s) || s < 0)
        failCell(file, place, 4, "Timestamp(ns) " + quoted(row.timestamp) + " is not a non-negative integer");
    event.tsNs = s;
    const auto pid = trim(row.pid), tid = trim(row.tid);
    if (!strings.pid.find(pid, event.pid) && !isNa(pid)) {
        if (!parseSigned(pid, s) || s < 0 || s > 0x7fffffff)
            failCell(file, place, 5, "Process Id " + quoted(row.pid) + " is not a process id or N/A");
        event.pid = static_cast<std::int32_t>(s);
        strings.pid.remember(pid, event.pid);
    }
    if (!strings.tid.find(tid, event.tid) && !isNa(tid)) {
        if (!parseSigned(tid, s) || s < 0 || s > 0x7fffffff)
            failCell(file, place, 6, "Thread Id " + quoted(row.tid) + " is not a thread id or N/A");
        event.tid = static_cast<std::int32_t>(s);
        strings.tid.remember(tid, event.tid);
    }
    const auto device = trim(row.device);
    if (isKey(device, "cpu"))
        event.device = kDeviceCpu;
    else if (isKey(device, "host"))
        event.device = kDeviceHost;
    else if (isNa(device) || isKey(device, "9999"))
        event.device = kDeviceUnknown;
    else if (isKey(device, "10000"))
        event.device = kDeviceCpu;
    else {
        if (!parseSigned(device, s) || s < 0 || s > 0xffff)
            failCell(file, place, 7, "Device Id " + quoted(row.device) + " is not a device number, cpu, host or N/A");
        event.device = static_cast<std::int32_t>(s);
    }
    const auto ptr = trim(row.ptr);
    if (!isNa(ptr)) {
        if (!parseUnsigned(ptr, u))
            failCell(file, place, 8, "Ptr " + quoted(row.ptr) + " is not an address (0x... or decimal) or N/A");
        event.ptr = u;
        event.flags |= kFlagHasPtr;
    }
    thread_local AttrPairs pairs;
    thread_local std::vector<std::string> storage;
    std::string why;
    if (!(jsonAttr ? splitJsonAttr(row.attr, pairs, storage, why) : splitAttr(row.attr, pairs, why)))
        failCell(file, place, 9, why);
    for (const auto& pair : pairs) {
        const std::string_view key = pair.first, value = pair.second; // not a structured binding: lambdas use them
        auto number = [&](std::int64_t& into) {
            if (parseSigned(value, s) && s != std::numeric_limits<long long>::min())
                into = s;
            else if (parseUnsigned(value, u) && u <= static_cast<unsigned long long>(std::numeric_limits<long long>::max()))
                into = static_cast<std::int64_t>(u);
            else
                failCell(file, place, 9, "Attr " + std::string(key) + " " + quoted(value) + " is not a number");
        };
        if (isKey(key, "allocation_id")) {
            if (!parseUnsigned(value, u))
                failCell(file, place, 9, "Attr allocation_id " + quoted(value) + " is not a number");
            event.allocationId = u;
            event.flags |= kFlagHasAllocationId;
        } else if (isKey(key, "addr")) {
            if ((event.flags & kFlagHasPtr) && sameText(value, ptr))
                continue; // the Ptr column's text again (msMemScope writes both): parsed once
            if (!parseUnsigned(value, u))
                failCell(file, place, 9, "Attr addr " + quoted(value) + " is not an address");
            if (!(event.flags & kFlagHasPtr)) {
                event.ptr = u;
                event.flags |= kFlagHasPtr;
            }
        } else if (isKey(key, "size")) {
            number(event.size);
            if (event.size < 0)
                event.size = -event.size; // legacy files wrote frees as negative sizes
        } else if (isKey(key, "total"))
            number(event.total);
        else if (isKey(key, "used"))
            number(event.used);
        else if (isKey(key, "shadow") && isKey(value, "true"))
            event.flags |= kFlagShadow;
        else if (isKey(key, "owner") && !value.empty())
            event.owner = strings.intern(value);
        else if ((isKey(key, "inefficient_type") || isKey(key, "inefficient")) && !value.empty())
            event.inefficient = strings.intern(value);
        else if (event.kind == EventKind::OomDetail)
            oomAttr(key, value, event);
    }
    if (event.kind == EventKind::Malloc || event.kind == EventKind::Free) {
        if (event.size == kAbsent)
            failCell(file, place, 9, std::string(eventKindName(event.kind)) + " row has no size in its Attr");
        if (!(event.flags & kFlagHasPtr))
            failCell(file, place, 8, std::string(eventKindName(event.kind)) + " row has no address (Ptr or Attr addr)");
    }
}

void appendRow(MemTrace& trace, const RowCells& row, std::uint32_t line, bool database)
{
    RecentStrings strings(trace.strings);
    parseRow(row, line, database, strings, trace.file, trace.events.emplace_back());
    ++trace.rowsRead;
}

namespace {

void failRepeated(const MemTrace& trace, const MemEvent& a, const MemEvent& b) { failRepeatedRow(trace.file, a, b); }

// The event order as indexes (order[k] = the event that goes to place k) when every process's IDs are dense
// (their range at most a few times their count, as msMemScope's global counter gives): one pass places each row
// at its ID. Empty when they are not, and the caller sorts.
std::vector<std::uint32_t> orderByDenseIds(const MemTrace& trace)
{
    struct Range {
        std::int32_t pid;
        std::uint64_t min, max, count, base = 0;
    };
    std::vector<Range> ranges; // per process, in pid order
    const auto& events = trace.events;
    if (events.size() >= 0xffffffffu)
        return {};
    auto rangeOf = [&](std::int32_t pid) -> Range* {
        for (auto& range : ranges)
            if (range.pid == pid)
                return &range;
        if (ranges.size() >= 64)
            return nullptr;
        ranges.push_back({ pid, ~0ull, 0, 0 });
        return &ranges.back();
    };
    Range* last = nullptr;
    for (const auto& e : events) {
        if (!last || last->pid != e.pid)
            last = rangeOf(e.pid);
        if (!last)
            return {};
        last->min = std::min(last->min, e.id);
        last->max = std::max(last->max, e.id);
        ++last->count;
    }
    std::sort(ranges.begin(), ranges.end(), [](const Range& a, const Range& b) { return a.pid < b.pid; });
    std::uint64_t table = 0;
    for (auto& range : ranges) {
        if (range.max - range.min >= 4 * range.count + 1024)
            return {};
        range.base = table;
        table += range.max - range.min + 1;
    }
    constexpr std::uint32_t kEmpty = 0xffffffffu;
    std::vector<std::uint32_t> slots(table, kEmpty);
    last = nullptr;
    for (std::uint32_t i = 0; i < events.size(); ++i) {
        const auto& e = events[i];
        if (!last || last->pid != e.pid)
            last = &*std::find_if(ranges.begin(), ranges.end(), [&](const Range& r) { return r.pid == e.pid; });
        auto& slot = slots[last->base + (e.id - last->min)];
        if (slot != kEmpty)
            failRepeated(trace, events[slot], e);
        slot = i;
    }
    slots.erase(std::remove(slots.begin(), slots.end(), kEmpty), slots.end());
    return slots;
}

// Puts event order[k] at place k. A gather into a new vector: its reads are independent (a cycle-following
// permutation in place chases one cache miss after another, several times slower on a dump whose weights' rows
// all sit at the end), at the cost of one more copy of the events while it runs.
void permute(std::vector<MemEvent>& events, const std::vector<std::uint32_t>& order)
{
    std::vector<MemEvent> sorted;
    sorted.reserve(events.size());
    constexpr std::size_t kAhead = 16;
    for (std::size_t k = 0; k < order.size(); ++k) {
        if (k + kAhead < order.size())
            __builtin_prefetch(&events[order[k + kAhead]]);
        sorted.push_back(events[order[k]]);
    }
    events = std::move(sorted);
}

} // namespace

void finishTrace(MemTrace& trace)
{
    auto& events = trace.events;
    auto before = [](const MemEvent& a, const MemEvent& b) { return a.pid != b.pid ? a.pid < b.pid : a.id < b.id; };
    if (std::is_sorted(events.begin(), events.end(), before)) {
        // Sorted already (our own captures are written in ID order): only repeated keys remain to check.
    } else if (auto order = orderByDenseIds(trace); !order.empty() || events.empty()) {
        permute(events, order);
        return; // a repeated key was reported while placing
    } else {
        struct Key {
            std::int32_t pid;
            std::uint32_t index;
            std::uint64_t id;
        };
        std::vector<Key> keys(events.size());
        for (std::uint32_t i = 0; i < events.size(); ++i)
            keys[i] = { events[i].pid, i, events[i].id };
        std::sort(keys.begin(), keys.end(), [](const Key& a, const Key& b) {
            return a.pid != b.pid ? a.pid < b.pid : a.id != b.id ? a.id < b.id : a.index < b.index;
        });
        std::vector<std::uint32_t> sorted(events.size());
        for (std::size_t k = 0; k < keys.size(); ++k)
            sorted[k] = keys[k].index;
        keys = {};
        permute(events, sorted);
    }
    for (std::size_t i = 1; i < events.size(); ++i)
        if (events[i - 1].pid == events[i].pid && events[i - 1].id == events[i].id)
            failRepeated(trace, events[i - 1], events[i]);
}

MemTrace readMemScopeDb(const std::filesystem::path& file)
{
    support::checkRegularFile(file);
    MemTrace trace;
    trace.file = file.string();
    support::SqliteDb db(file, true);
    std::string select = "SELECT ";
    for (std::size_t k = 0; k < kRequired.size(); ++k)
        select += std::string(k ? ", " : "") + "\"" + std::string(kRequired[k]) + "\"";
    select += " FROM memscope_dump";
    sqlite3_stmt* statement = nullptr;
    if (sqlite3_prepare_v2(db.handle(), select.c_str(), -1, &statement, nullptr) != SQLITE_OK) {
        const std::string why = sqlite3_errmsg(db.handle());
        sqlite3_finalize(statement);
        throw support::Error(trace.file, {}, "is not a msMemScope dump database (table memscope_dump with the §1.2 columns): " + why);
    }
    std::array<std::string, 10> text;
    std::uint32_t rowNumber = 0;
    RecentStrings recent(trace.strings);
    int rc = SQLITE_ROW;
    try {
        while ((rc = sqlite3_step(statement)) == SQLITE_ROW) {
            ++rowNumber;
            for (int c = 0; c < 10; ++c) {
                const auto* value = sqlite3_column_text(statement, c);
                text[static_cast<std::size_t>(c)] = value ? reinterpret_cast<const char*>(value) : "N/A";
            }
            RowCells row { text[0], text[1], text[2], text[3], text[4], text[5], text[6], text[7], text[8], text[9] };
            parseRow(row, rowNumber, true, recent, trace.file, trace.events.emplace_back());
            ++trace.rowsRead;
        }
    } catch (...) {
        sqlite3_finalize(statement);
        throw;
    }
    const std::string why = rc == SQLITE_DONE ? "" : sqlite3_errmsg(db.handle());
    sqlite3_finalize(statement);
    if (rc != SQLITE_DONE)
        throw support::Error(trace.file, "row " + std::to_string(rowNumber + 1), "read error: " + why);
    finishTrace(trace);
    return trace;
}

MemTrace readMemScope(const std::filesystem::path& file)
{
    support::checkRegularFile(file);
    if (isTorchSnapshotFile(file))
        return readTorchSnapshot(file).trace;
    char magic[16] = {};
    {
        std::ifstream in(file, std::ios::binary);
        in.read(magic, sizeof magic);
    }
    if (file.extension() == ".db" || std::string_view(magic, 15) == "SQLite format 3")
        return readMemScopeDb(file);
    return readMemScopeCsv(file);
}

} // namespace msprobe::memory
