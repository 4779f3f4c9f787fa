// SPDX-License-Identifier: Apache-2.0
#include "memory/memscope_reader.h"

#include "memory/attr_parse.h"
#include "memory/csv_stream.h"
#include "support/error.h"
#include "support/input_file.h"
#include "support/sqlite_util.h"

#include <sqlite3.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdio>
#include <fstream>
#include <limits>

namespace msprobe::memory {

namespace {

constexpr std::array<std::string_view, 10> kRequired = { "ID", "Event", "Event Type", "Name", "Timestamp(ns)",
    "Process Id", "Thread Id", "Device Id", "Ptr", "Attr" };

std::string lower(std::string_view text)
{
    std::string out(text);
    for (auto& c : out)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

std::string_view trim(std::string_view text)
{
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t' || text.front() == '\r'))
        text.remove_prefix(1);
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r'))
        text.remove_suffix(1);
    return text;
}

bool isNa(std::string_view text) { return text == "N/A" || text == "NA" || text.empty(); }

// Where a row is, built only when it is reported.
struct RowPlace {
    std::uint32_t line;
    bool database;
};
std::string describe(const RowPlace& place) { return (place.database ? "row " : "line ") + std::to_string(place.line); }

[[noreturn]] void failCell(const MemTrace& trace, const RowPlace& place, int column, const std::string& message)
{
    throw Error(trace.file, describe(place) + ", column " + std::to_string(column + 1) + " (" + std::string(kRequired[column]) + ")",
        message);
}

std::string quoted(std::string_view text)
{
    return "\"" + std::string(text.substr(0, 60)) + (text.size() > 60 ? "...\"" : "\"");
}

// Column indexes of the required titles in a header row (case-insensitive, §1.9).
std::array<int, 10> mapHeader(const std::vector<std::string>& header, const std::string& file)
{
    std::array<int, 10> index {};
    for (std::size_t k = 0; k < kRequired.size(); ++k) {
        index[k] = -1;
        for (std::size_t c = 0; c < header.size(); ++c)
            if (lower(trim(header[c])) == lower(kRequired[k]))
                index[k] = static_cast<int>(c);
        if (index[k] < 0)
            throw Error(file, "line 1",
                "the header has no \"" + std::string(kRequired[k])
                    + "\" column (a msMemScope dump starts with ID,Event,Event Type,Name,Timestamp(ns),Process Id,"
                      "Thread Id,Device Id,Ptr,Attr,Call Stack(Python),Call Stack(C))");
    }
    return index;
}

} // namespace

bool parseEventKind(std::string_view text, EventKind& kind)
{
    static constexpr std::array<std::pair<std::string_view, EventKind>, 9> kNames = { { { "SYSTEM", EventKind::System },
        { "MALLOC", EventKind::Malloc }, { "FREE", EventKind::Free }, { "ACCESS", EventKind::Access },
        { "OP_LAUNCH", EventKind::OpLaunch }, { "KERNEL_LAUNCH", EventKind::KernelLaunch }, { "MSTX", EventKind::Mstx },
        { "SNAPSHOT", EventKind::Snapshot }, { "OOM_DETAIL", EventKind::OomDetail } } };
    for (const auto& [name, value] : kNames)
        if (name == text) {
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

void appendRow(MemTrace& trace, const RowCells& row, std::uint32_t line, bool database)
{
    const RowPlace place { line, database };
    const bool jsonAttr = database;
    MemEvent event;
    event.line = line;
    unsigned long long u = 0;
    long long s = 0;
    if (!parseUnsigned(trim(row.id), u))
        failCell(trace, place, 0, "ID " + quoted(row.id) + " is not an unsigned integer");
    event.id = u;
    if (!parseEventKind(trim(row.event), event.kind))
        failCell(trace, place, 1,
            "Event " + quoted(row.event)
                + " is not one of SYSTEM, MALLOC, FREE, ACCESS, OP_LAUNCH, KERNEL_LAUNCH, MSTX, SNAPSHOT, OOM_DETAIL");
    const auto subType = trim(row.eventType);
    if (subType.empty())
        failCell(trace, place, 2, "Event Type is empty");
    event.subType = trace.strings.intern(subType);
    std::string_view name = row.name;
    if (name.size() >= 2 && name.front() == '"' && name.back() == '"')
        name = name.substr(1, name.size() - 2); // MSTX messages are written quoted (§1.2)
    if (name != "N/A" && !name.empty())
        event.name = trace.strings.intern(name);
    if (!parseSigned(trim(row.timestamp), s) || s < 0)
        failCell(trace, place, 4, "Timestamp(ns) " + quoted(row.timestamp) + " is not a non-negative integer");
    event.tsNs = s;
    const auto pid = trim(row.pid), tid = trim(row.tid);
    if (!isNa(pid)) {
        if (!parseSigned(pid, s) || s < 0 || s > 0x7fffffff)
            failCell(trace, place, 5, "Process Id " + quoted(row.pid) + " is not a process id or N/A");
        event.pid = static_cast<std::int32_t>(s);
    }
    if (!isNa(tid)) {
        if (!parseSigned(tid, s) || s < 0 || s > 0x7fffffff)
            failCell(trace, place, 6, "Thread Id " + quoted(row.tid) + " is not a thread id or N/A");
        event.tid = static_cast<std::int32_t>(s);
    }
    const auto device = trim(row.device);
    if (device == "cpu")
        event.device = kDeviceCpu;
    else if (device == "host")
        event.device = kDeviceHost;
    else if (isNa(device) || device == "9999")
        event.device = kDeviceUnknown;
    else if (device == "10000")
        event.device = kDeviceCpu;
    else {
        if (!parseSigned(device, s) || s < 0 || s > 0xffff)
            failCell(trace, place, 7, "Device Id " + quoted(row.device) + " is not a device number, cpu, host or N/A");
        event.device = static_cast<std::int32_t>(s);
    }
    const auto ptr = trim(row.ptr);
    if (!isNa(ptr)) {
        if (!parseUnsigned(ptr, u))
            failCell(trace, place, 8, "Ptr " + quoted(row.ptr) + " is not an address (0x... or decimal) or N/A");
        event.ptr = u;
        event.flags |= kFlagHasPtr;
    }
    thread_local AttrPairs pairs;
    thread_local std::vector<std::string> storage;
    std::string why;
    if (!(jsonAttr ? splitJsonAttr(row.attr, pairs, storage, why) : splitAttr(row.attr, pairs, why)))
        failCell(trace, place, 9, why);
    for (const auto& pair : pairs) {
        const std::string_view key = pair.first, value = pair.second; // not a structured binding: lambdas use them
        auto number = [&](std::int64_t& into) {
            if (parseSigned(value, s) && s != std::numeric_limits<long long>::min())
                into = s;
            else if (parseUnsigned(value, u) && u <= static_cast<unsigned long long>(std::numeric_limits<long long>::max()))
                into = static_cast<std::int64_t>(u);
            else
                failCell(trace, place, 9, "Attr " + std::string(key) + " " + quoted(value) + " is not a number");
        };
        if (key == "allocation_id") {
            if (!parseUnsigned(value, u))
                failCell(trace, place, 9, "Attr allocation_id " + quoted(value) + " is not a number");
            event.allocationId = u;
            event.flags |= kFlagHasAllocationId;
        } else if (key == "addr") {
            if (!parseUnsigned(value, u))
                failCell(trace, place, 9, "Attr addr " + quoted(value) + " is not an address");
            if (!(event.flags & kFlagHasPtr)) {
                event.ptr = u;
                event.flags |= kFlagHasPtr;
            }
        } else if (key == "size") {
            number(event.size);
            if (event.size < 0)
                event.size = -event.size; // legacy files wrote frees as negative sizes
        } else if (key == "total")
            number(event.total);
        else if (key == "used")
            number(event.used);
        else if (key == "shadow" && value == "true")
            event.flags |= kFlagShadow;
        else if (key == "owner" && !value.empty())
            event.owner = trace.strings.intern(value);
        else if ((key == "inefficient_type" || key == "inefficient") && !value.empty())
            event.inefficient = trace.strings.intern(value);
    }
    if (event.kind == EventKind::Malloc || event.kind == EventKind::Free) {
        if (event.size == kAbsent)
            failCell(trace, place, 9, std::string(eventKindName(event.kind)) + " row has no size in its Attr");
        if (!(event.flags & kFlagHasPtr))
            failCell(trace, place, 8, std::string(eventKindName(event.kind)) + " row has no address (Ptr or Attr addr)");
    }
    trace.events.push_back(event);
    ++trace.rowsRead;
}

void finishTrace(MemTrace& trace)
{
    std::stable_sort(trace.events.begin(), trace.events.end(), [](const MemEvent& a, const MemEvent& b) {
        return a.pid != b.pid ? a.pid < b.pid : a.id < b.id;
    });
    for (std::size_t i = 1; i < trace.events.size(); ++i) {
        const auto& a = trace.events[i - 1];
        const auto& b = trace.events[i];
        if (a.pid == b.pid && a.id == b.id)
            throw Error(trace.file, "line " + std::to_string(std::max(a.line, b.line)),
                "ID " + std::to_string(b.id) + " of process " + std::to_string(b.pid) + " repeats the row on line "
                    + std::to_string(std::min(a.line, b.line)) + " (rows are keyed by (Process Id, ID))");
    }
}

MemTrace readMemScopeCsv(const std::filesystem::path& file)
{
    MemTrace trace;
    trace.file = file.string();
    CsvStream csv(file);
    std::vector<std::string> cells;
    if (!csv.next(cells))
        throw Error(trace.file, {}, "is empty (a msMemScope dump starts with its header line)");
    const auto index = mapHeader(cells, trace.file);
    const int needed = *std::max_element(index.begin(), index.end()) + 1;
    while (csv.next(cells)) {
        const auto line = csv.recordLine();
        if (static_cast<int>(cells.size()) < needed)
            throw Error(trace.file, "line " + std::to_string(line),
                "row has " + std::to_string(cells.size()) + " cells, the header names at least " + std::to_string(needed)
                    + " (a truncated row?)");
        RowCells row { cells[index[0]], cells[index[1]], cells[index[2]], cells[index[3]], cells[index[4]],
            cells[index[5]], cells[index[6]], cells[index[7]], cells[index[8]], cells[index[9]] };
        appendRow(trace, row, static_cast<std::uint32_t>(std::min<std::uint64_t>(line, 0xffffffffu)), false);
    }
    finishTrace(trace);
    return trace;
}

MemTrace readMemScopeDb(const std::filesystem::path& file)
{
    checkRegularFile(file);
    MemTrace trace;
    trace.file = file.string();
    SqliteDb db(file, true);
    std::string select = "SELECT ";
    for (std::size_t k = 0; k < kRequired.size(); ++k)
        select += std::string(k ? ", " : "") + "\"" + std::string(kRequired[k]) + "\"";
    select += " FROM memscope_dump";
    sqlite3_stmt* statement = nullptr;
    if (sqlite3_prepare_v2(db.handle(), select.c_str(), -1, &statement, nullptr) != SQLITE_OK) {
        const std::string why = sqlite3_errmsg(db.handle());
        sqlite3_finalize(statement);
        throw Error(trace.file, {}, "is not a msMemScope dump database (table memscope_dump with the §1.2 columns): " + why);
    }
    std::array<std::string, 10> text;
    std::uint32_t rowNumber = 0;
    int rc = SQLITE_ROW;
    try {
        while ((rc = sqlite3_step(statement)) == SQLITE_ROW) {
            ++rowNumber;
            for (int c = 0; c < 10; ++c) {
                const auto* value = sqlite3_column_text(statement, c);
                text[static_cast<std::size_t>(c)] = value ? reinterpret_cast<const char*>(value) : "N/A";
            }
            RowCells row { text[0], text[1], text[2], text[3], text[4], text[5], text[6], text[7], text[8], text[9] };
            appendRow(trace, row, rowNumber, true);
        }
    } catch (...) {
        sqlite3_finalize(statement);
        throw;
    }
    const std::string why = rc == SQLITE_DONE ? "" : sqlite3_errmsg(db.handle());
    sqlite3_finalize(statement);
    if (rc != SQLITE_DONE)
        throw Error(trace.file, "row " + std::to_string(rowNumber + 1), "read error: " + why);
    finishTrace(trace);
    return trace;
}

MemTrace readMemScope(const std::filesystem::path& file)
{
    checkRegularFile(file);
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
