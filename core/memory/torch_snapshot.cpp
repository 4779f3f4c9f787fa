// SPDX-License-Identifier: Apache-2.0
#include "memory/torch_snapshot.h"

#include "memory/memscope_reader.h"
#include "support/error.h"
#include "support/input_file.h"
#include "support/pickle_value.h"

#include <algorithm>
#include <array>
#include <fstream>
#include <unordered_map>

namespace msprobe::memory {

namespace {

using support::PickleValue;

// memory_viz's frame filter (_memory_viz.py _frame_filter): the unwinder's, the dispatcher's and CPython's own frames.
bool snapshotFrameShown(std::string_view name, std::string_view filename)
{
    static constexpr std::array<std::string_view, 8> omitFunctions = { "unwind::unwind", "CapturedTraceback::gather",
        "gather_with_cpp", "_start", "__libc_start_main", "PyEval_", "PyObject_", "PyFunction_" };
    static constexpr std::array<std::string_view, 10> omitFiles = { "core/boxing", "/Register", "/Redispatch", "pythonrun.c",
        "Modules/main.c", "Objects/call.c", "Objects/methodobject.c", "pycore_ceval.h", "ceval.c", "cpython/abstract.h" };
    for (std::string_view omit : omitFunctions)
        if (name.find(omit) != std::string_view::npos)
            return false;
    for (std::string_view omit : omitFiles)
        if (filename.find(omit) != std::string_view::npos)
            return false;
    return true;
}

struct RawEvent {
    std::int64_t ts = 0;
    int phase = 1; // 0: allocated before recording (sorts first at the device's first time)
    std::uint32_t order = 0;
    MemEvent event;
};

class SnapshotReader {
public:
    explicit SnapshotReader(const std::filesystem::path& file)
        : m_file(file.string())
    {
        m_out.trace.file = m_file;
    }

    TorchSnapshot read()
    {
        const std::string bytes = support::readRegularFile(m_file);
        const auto* data = reinterpret_cast<const unsigned char*>(bytes.data());
        if (!support::looksLikePickle(data, bytes.size()))
            throw support::Error(m_file, "byte 0", "not a PyTorch memory snapshot: not a pickle (protocol 2 to 5)");
        const PickleValue root = support::readPickle(data, bytes.size(), m_file);
        const PickleValue* segments = nullptr;
        const PickleValue* traces = nullptr;
        if (root.kind == PickleValue::Kind::Dict) {
            segments = root.find("segments");
            traces = root.find("device_traces");
        } else if (root.kind == PickleValue::Kind::List) {
            segments = &root; // torch.cuda.memory_snapshot(): the segments alone
        }
        if (!segments || (root.kind == PickleValue::Kind::Dict && !traces))
            throw support::Error(m_file, "pickle",
                "not a PyTorch memory snapshot: holds " + std::string(support::pickleKindName(root.kind))
                    + (root.kind == PickleValue::Kind::Dict ? " without 'segments' and 'device_traces'" : ""));
        expect(*segments, PickleValue::Kind::List, "segments");
        if (traces) {
            expect(*traces, PickleValue::Kind::List, "device_traces");
            for (std::size_t d = 0; d < traces->items().size(); ++d)
                readDeviceTrace(traces->items()[d], static_cast<std::int32_t>(d));
        }
        readSegments(*segments);
        finish();
        return std::move(m_out);
    }

private:
    [[noreturn]] void fail(const std::string& place, const std::string& message) const
    {
        throw support::Error(m_file, place, message);
    }

    void expect(const PickleValue& value, PickleValue::Kind kind, const std::string& place) const
    {
        if (value.kind != kind)
            fail(place, "expected " + std::string(support::pickleKindName(kind)) + ", found " + std::string(support::pickleKindName(value.kind)));
    }

    const PickleValue* field(const PickleValue& dict, std::string_view key) const { return dict.find(key); }

    std::int64_t integer(const PickleValue& dict, std::string_view key, const std::string& place, bool required = true,
        std::int64_t fallback = kAbsent) const
    {
        const PickleValue* value = dict.find(key);
        if (!value || value->kind == PickleValue::Kind::None) {
            if (required)
                fail(place, "no '" + std::string(key) + "'");
            return fallback;
        }
        if (!value->isInt())
            fail(place + "." + std::string(key), "expected an int, found " + std::string(support::pickleKindName(value->kind)));
        return value->integer;
    }

    std::string text(const PickleValue& dict, std::string_view key) const
    {
        const PickleValue* value = dict.find(key);
        return value && value->isText() ? value->str() : std::string();
    }

    // The frames list of an entry as an interned stack; kNoSnapshotStack when it has none.
    std::uint32_t stackOf(const PickleValue& dict, const std::string& place, std::string_view note = {})
    {
        const PickleValue* frames = dict.find("frames");
        if (!frames || frames->kind == PickleValue::Kind::None)
            return TorchSnapshot::kNoSnapshotStack;
        expect(*frames, PickleValue::Kind::List, place + ".frames");
        SnapshotStack stack;
        if (!note.empty())
            stack.python = std::string(note);
        for (const PickleValue& frame : frames->items()) {
            if (frame.kind != PickleValue::Kind::Dict)
                continue;
            const std::string filename = text(frame, "filename");
            const std::string name = text(frame, "name");
            const PickleValue* lineValue = frame.find("line");
            const std::string line = lineValue && lineValue->isInt() ? std::to_string(lineValue->integer) : "?";
            if (!snapshotFrameShown(name, filename))
                continue;
            std::string& cell = filename.ends_with(".py") ? stack.python : stack.c;
            if (!cell.empty())
                cell += '\n';
            if (filename.ends_with(".py"))
                cell += filename + "(" + line + "): " + name;
            else if (filename.empty() || filename.starts_with("??"))
                cell += "(" + name + ")"; // no file: no module for the hover to name
            else
                cell += filename + "(" + name + "):" + line; // as backtrace_symbols: the module before the parenthesis
        }
        if (stack.python.empty() && stack.c.empty())
            return TorchSnapshot::kNoSnapshotStack;
        std::string key = stack.python + '\x1f' + stack.c;
        const auto [it, added] = m_stackIds.try_emplace(std::move(key), static_cast<std::uint32_t>(m_out.stacks.size()));
        if (added)
            m_out.stacks.push_back(std::move(stack));
        return it->second;
    }

    MemEvent& add(std::int32_t device, std::int64_t ts, int phase, EventKind kind, std::string_view pool, std::uint32_t stack)
    {
        RawEvent raw;
        raw.ts = ts;
        raw.phase = phase;
        raw.order = static_cast<std::uint32_t>(m_raw.size());
        raw.event.kind = kind;
        raw.event.pid = 0;
        raw.event.tid = 0;
        raw.event.device = device;
        raw.event.subType = pool.empty() ? support::kNoString : m_out.trace.strings.intern(pool);
        raw.event.line = static_cast<std::uint32_t>(m_out.stackOfLine.size() + 1);
        m_out.stackOfLine.push_back(stack);
        m_raw.push_back(raw);
        return m_raw.back().event;
    }

    MemEvent& addBlockEvent(std::int32_t device, std::int64_t ts, int phase, bool malloc, std::string_view pool, std::uint64_t addr,
        std::int64_t size, std::uint64_t allocationId, std::int64_t stream, std::uint32_t stack)
    {
        MemEvent& e = add(device, ts, phase, malloc ? EventKind::Malloc : EventKind::Free, pool, stack);
        e.ptr = addr;
        e.size = size;
        e.allocationId = allocationId;
        e.flags = kFlagHasAllocationId | kFlagHasPtr;
        if (stream >= 0)
            e.detail = m_out.trace.strings.intern("stream " + std::to_string(stream));
        return e;
    }

    struct Open {
        std::uint64_t allocationId;
        std::int64_t size;
    };
    struct DeviceState {
        std::int64_t firstTs = 0;
        bool anyTs = false;
        std::unordered_map<std::uint64_t, Open> blocks, segments; // live at the end of the trace, by address
    };

    void readDeviceTrace(const PickleValue& trace, std::int32_t device)
    {
        const std::string place = "device_traces[" + std::to_string(device) + "]";
        expect(trace, PickleValue::Kind::List, place);
        DeviceState& state = m_devices[device];
        const auto& entries = trace.items();
        bool timed = !entries.empty();
        for (const PickleValue& entry : entries) {
            const PickleValue* time = entry.kind == PickleValue::Kind::Dict ? entry.find("time_us") : nullptr;
            timed = timed && time && time->isInt();
        }
        for (std::size_t i = 0; i < entries.size(); ++i) {
            const PickleValue& entry = entries[i];
            const std::string at = place + "[" + std::to_string(i) + "]";
            expect(entry, PickleValue::Kind::Dict, at);
            ++m_out.traceEntries;
            const std::string action = text(entry, "action");
            const std::int64_t ts = timed ? integer(entry, "time_us", at) * 1000 : static_cast<std::int64_t>(i) * 1000;
            if (!state.anyTs || ts < state.firstTs)
                state.firstTs = ts;
            state.anyTs = true;
            const std::int64_t stream = integer(entry, "stream", at, false);
            if (action == "alloc" || action == "segment_alloc" || action == "segment_map") {
                const bool segment = action != "alloc";
                const auto addr = static_cast<std::uint64_t>(integer(entry, "addr", at));
                const std::int64_t size = integer(entry, "size", at);
                const std::uint64_t id = ++m_nextAllocationId;
                addBlockEvent(device, ts, 1, true, segment ? "HAL" : "PTA", addr, size, id, stream, stackOf(entry, at));
                (segment ? state.segments : state.blocks)[addr] = { id, size };
            } else if (action == "free_completed" || action == "segment_free" || action == "segment_unmap") {
                const bool segment = action != "free_completed";
                const auto addr = static_cast<std::uint64_t>(integer(entry, "addr", at));
                const std::int64_t size = integer(entry, "size", at);
                auto& live = segment ? state.segments : state.blocks;
                const std::uint32_t stack = stackOf(entry, at);
                std::uint64_t id;
                if (auto it = live.find(addr); it != live.end()) {
                    id = it->second.allocationId;
                    live.erase(it);
                } else {
                    // Allocated before recording started: memory_viz shows the free's stack for it.
                    id = ++m_nextAllocationId;
                    m_preexisting.push_back({ device, segment, addr, size, id, stream,
                        stackOf(entry, at, "(allocated before recording; stack of its free)") });
                }
                addBlockEvent(device, ts, 1, false, segment ? "HAL" : "PTA", addr, size, id, stream, stack);
            } else if (action == "oom") {
                const std::int64_t size = integer(entry, "size", at, false, 0);
                const std::int64_t deviceFree = integer(entry, "device_free", at, false);
                std::string label = "out of memory: " + std::to_string(size) + " B requested";
                if (deviceFree >= 0)
                    label += ", " + std::to_string(deviceFree) + " B free on the device";
                mark(device, ts, label, stackOf(entry, at));
            } else if (action == "snapshot") {
                mark(device, ts, "snapshot", TorchSnapshot::kNoSnapshotStack);
            } else if (action != "free_requested" && action != "free") {
                fail(at + ".action", "unknown action '" + action + "'");
            }
        }
    }

    void mark(std::int32_t device, std::int64_t ts, const std::string& label, std::uint32_t stack)
    {
        MemEvent& e = add(device, ts, 1, EventKind::Mstx, "Mark", stack);
        e.name = m_out.trace.strings.intern(label);
    }

    void readSegments(const PickleValue& segments)
    {
        for (std::size_t s = 0; s < segments.items().size(); ++s) {
            const PickleValue& segment = segments.items()[s];
            const std::string at = "segments[" + std::to_string(s) + "]";
            expect(segment, PickleValue::Kind::Dict, at);
            ++m_out.segments;
            const auto device = static_cast<std::int32_t>(integer(segment, "device", at, false, 0));
            DeviceState& state = m_devices[device];
            const auto address = static_cast<std::uint64_t>(integer(segment, "address", at));
            const std::int64_t total = integer(segment, "total_size", at);
            const std::int64_t stream = integer(segment, "stream", at, false);
            if (!state.segments.contains(address))
                m_preexisting.push_back({ device, true, address, total, ++m_nextAllocationId, stream, stackOf(segment, at) });
            const PickleValue* blocks = field(segment, "blocks");
            if (!blocks)
                continue;
            expect(*blocks, PickleValue::Kind::List, at + ".blocks");
            std::uint64_t addr = address;
            for (std::size_t b = 0; b < blocks->items().size(); ++b) {
                const PickleValue& block = blocks->items()[b];
                const std::string blockAt = at + ".blocks[" + std::to_string(b) + "]";
                expect(block, PickleValue::Kind::Dict, blockAt);
                ++m_out.blocks;
                const std::int64_t size = integer(block, "size", blockAt);
                const auto blockAddr = static_cast<std::uint64_t>(integer(block, "address", blockAt, false, static_cast<std::int64_t>(addr)));
                addr = blockAddr + static_cast<std::uint64_t>(size);
                if (!text(block, "state").starts_with("active") || state.blocks.contains(blockAddr))
                    continue;
                m_preexisting.push_back({ device, false, blockAddr, size, ++m_nextAllocationId, stream, stackOf(block, blockAt) });
            }
        }
    }

    // Sorts the events in time, numbers them and fills used (PTA bytes allocated) and total (HAL bytes reserved)
    // per device.
    void finish()
    {
        for (const Preexisting& p : m_preexisting) {
            const DeviceState& state = m_devices[p.device];
            addBlockEvent(p.device, state.anyTs ? state.firstTs : 0, 0, true, p.segment ? "HAL" : "PTA", p.addr, p.size, p.allocationId,
                p.stream, p.stack);
        }
        // A snapshot without history still needs a moment after the blocks it shows.
        if (std::none_of(m_raw.begin(), m_raw.end(), [](const RawEvent& raw) { return raw.phase == 1; }) && !m_raw.empty())
            mark(m_raw.front().event.device, 1000, "snapshot", TorchSnapshot::kNoSnapshotStack);
        std::sort(m_raw.begin(), m_raw.end(), [](const RawEvent& a, const RawEvent& b) {
            return a.ts != b.ts ? a.ts < b.ts : a.phase != b.phase ? a.phase < b.phase : a.order < b.order;
        });
        std::unordered_map<std::int32_t, std::pair<std::int64_t, std::int64_t>> totals; // device -> (used, reserved)
        const support::StringId hal = m_out.trace.strings.intern("HAL");
        auto& events = m_out.trace.events;
        events.reserve(m_raw.size());
        for (RawEvent& raw : m_raw) {
            MemEvent e = raw.event;
            e.id = events.size() + 1;
            e.tsNs = raw.ts;
            if (e.kind == EventKind::Malloc || e.kind == EventKind::Free) {
                auto& [used, reserved] = totals[e.device];
                const std::int64_t delta = e.kind == EventKind::Malloc ? e.size : -e.size;
                (e.subType == hal ? reserved : used) += delta;
                e.used = used;
                e.total = reserved;
            }
            events.push_back(e);
        }
        m_out.trace.rowsRead = events.size();
        m_raw.clear();
        finishTrace(m_out.trace);
    }

    struct Preexisting {
        std::int32_t device;
        bool segment;
        std::uint64_t addr;
        std::int64_t size;
        std::uint64_t allocationId;
        std::int64_t stream;
        std::uint32_t stack;
    };

    std::string m_file;
    TorchSnapshot m_out;
    std::vector<RawEvent> m_raw;
    std::vector<Preexisting> m_preexisting;
    std::unordered_map<std::int32_t, DeviceState> m_devices;
    std::unordered_map<std::string, std::uint32_t> m_stackIds;
    std::uint64_t m_nextAllocationId = 0;
};

} // namespace

bool isTorchSnapshotFile(const std::filesystem::path& file)
{
    const auto extension = file.extension();
    if (extension == ".pickle" || extension == ".pkl")
        return true;
    unsigned char magic[2] = {};
    std::ifstream in(file, std::ios::binary);
    in.read(reinterpret_cast<char*>(magic), sizeof magic);
    return in.gcount() == 2 && support::looksLikePickle(magic, 2);
}

TorchSnapshot readTorchSnapshot(const std::filesystem::path& file)
{
    support::checkRegularFile(file);
    return SnapshotReader(file).read();
}

} // namespace msprobe::memory
