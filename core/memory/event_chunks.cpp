// SPDX-License-Identifier: Apache-2.0
#include "memory/event_chunks.h"

#include "support/error.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <condition_variable>
#include <limits>
#include <mutex>
#include <cstring>
#include <new>
#include <thread>
#include <utility>

namespace msprobe::memory {

namespace {

constexpr std::size_t kMaxRanges = 64; // processes placed by ID; more are sorted
constexpr std::size_t kChunkBytes = EventChunks::kChunkEvents * sizeof(MemEvent);

bool keyBefore(std::int32_t pidA, std::uint64_t idA, std::int32_t pidB, std::uint64_t idB)
{
    return pidA != pidB ? pidA < pidB : idA < idB;
}

// Maps the pages of [from, from + bytes) for writing in one call rather than one fault per page (best effort).
void populateForWriting(void* from, std::size_t bytes)
{
#ifdef MADV_POPULATE_WRITE
    static const auto page = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
    const auto begin = (reinterpret_cast<std::uintptr_t>(from) + page - 1) / page * page;
    const auto end = (reinterpret_cast<std::uintptr_t>(from) + bytes) / page * page;
    if (end > begin)
        ::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_POPULATE_WRITE);
#else
    (void)from;
    (void)bytes;
#endif
}

// Maps the pages of an event array ahead of the thread that fills it and unmaps the chunks it has emptied, on a
// thread of its own when `threaded` (else inline): page zeroing and unmapping were a fifth of the move's time.
class PageKeeper {
public:
    PageKeeper(MemEvent* events, std::size_t count, bool threaded)
        : m_events(events)
        , m_count(count)
    {
        if (threaded)
            m_thread = std::thread([this] { run(); });
    }
    ~PageKeeper() { finish(); }
    PageKeeper(const PageKeeper&) = delete;
    PageKeeper& operator=(const PageKeeper&) = delete;

    // The filling thread is at event `next` (a multiple of the step).
    void copying(std::size_t next)
    {
        if (!m_thread.joinable()) {
            populate(next);
            return;
        }
        std::lock_guard lock(m_mutex);
        m_copying = next;
        m_wake.notify_one();
    }
    void release(MemEvent* chunk)
    {
        if (!m_thread.joinable()) {
            ::munmap(chunk, kChunkBytes);
            return;
        }
        std::lock_guard lock(m_mutex);
        m_released.push_back(chunk);
        m_wake.notify_one();
    }
    void finish()
    {
        if (!m_thread.joinable())
            return;
        {
            std::lock_guard lock(m_mutex);
            m_done = true;
            m_wake.notify_one();
        }
        m_thread.join();
    }

private:
    static constexpr std::size_t kStep = EventChunks::kChunkEvents;
    static constexpr std::size_t kStepsAhead = 2;

    void populate(std::size_t from)
    {
        if (from < m_count)
            populateForWriting(m_events + from, std::min(kStep, m_count - from) * sizeof(MemEvent));
    }
    void run()
    {
        std::size_t mapped = 0; // events [0, mapped) are mapped
        std::vector<MemEvent*> released;
        while (true) {
            std::size_t copying = 0;
            bool done = false;
            {
                std::unique_lock lock(m_mutex);
                m_wake.wait(lock, [&] { return m_done || !m_released.empty() || m_copying + kStepsAhead * kStep > mapped; });
                released.swap(m_released);
                copying = m_copying;
                done = m_done;
            }
            for (MemEvent* chunk : released)
                ::munmap(chunk, kChunkBytes);
            released.clear();
            if (done)
                return;
            for (mapped = std::max(mapped, copying); mapped < std::min(m_count, copying + kStepsAhead * kStep); mapped += kStep)
                populate(mapped);
            if (mapped >= m_count)
                mapped = std::numeric_limits<std::size_t>::max() / 2; // nothing more to map: wait for chunks only
        }
    }

    MemEvent* const m_events;
    const std::size_t m_count;
    std::mutex m_mutex;
    std::condition_variable m_wake;
    std::size_t m_copying = 0;
    std::vector<MemEvent*> m_released;
    bool m_done = false;
    std::thread m_thread;
};

} // namespace

void KeyStats::add(std::int32_t pid, std::uint64_t id)
{
    if (!any) {
        any = true;
        firstPid = pid;
        firstId = id;
    } else if (sorted && keyBefore(pid, id, lastPid, lastId))
        sorted = false;
    lastPid = pid;
    lastId = id;
    if (manyProcesses)
        return;
    // Rows of one process come in runs: the last range is the likely one.
    Range* range = !ranges.empty() && ranges.back().pid == pid ? &ranges.back() : nullptr;
    if (!range) {
        const auto found = std::find_if(ranges.begin(), ranges.end(), [pid](const Range& r) { return r.pid == pid; });
        if (found != ranges.end()) {
            std::iter_swap(found, ranges.end() - 1);
            range = &ranges.back();
        } else if (ranges.size() == kMaxRanges) {
            manyProcesses = true;
            ranges.clear();
            return;
        } else
            range = &ranges.emplace_back(Range { pid, id, id, 0 });
    }
    range->min = std::min(range->min, id);
    range->max = std::max(range->max, id);
    ++range->count;
}

void KeyStats::append(const KeyStats& later)
{
    if (!later.any)
        return;
    if (!any) {
        *this = later;
        return;
    }
    sorted = sorted && later.sorted && !keyBefore(later.firstPid, later.firstId, lastPid, lastId);
    lastPid = later.lastPid;
    lastId = later.lastId;
    if (manyProcesses || later.manyProcesses) {
        manyProcesses = true;
        ranges.clear();
        return;
    }
    for (const auto& range : later.ranges) {
        const auto found = std::find_if(ranges.begin(), ranges.end(), [&](const Range& r) { return r.pid == range.pid; });
        if (found != ranges.end()) {
            found->min = std::min(found->min, range.min);
            found->max = std::max(found->max, range.max);
            found->count += range.count;
        } else if (ranges.size() == kMaxRanges) {
            manyProcesses = true;
            ranges.clear();
            return;
        } else
            ranges.push_back(range);
    }
}

EventChunks::EventChunks(EventChunks&& other) noexcept
    : m_chunks(std::move(other.m_chunks))
    , m_size(other.m_size)
{
    other.m_chunks.clear();
    other.m_size = 0;
}

EventChunks& EventChunks::operator=(EventChunks&& other) noexcept
{
    if (this != &other) {
        clear();
        m_chunks = std::move(other.m_chunks);
        m_size = other.m_size;
        other.m_chunks.clear();
        other.m_size = 0;
    }
    return *this;
}

void EventChunks::addChunk()
{
    // Mapped on its own (not from the heap) so that giving it back returns its pages at once.
    void* memory = ::mmap(nullptr, kChunkBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (memory == MAP_FAILED)
        throw std::bad_alloc();
    populateForWriting(memory, kChunkBytes);
    Chunk chunk;
    chunk.events = static_cast<MemEvent*>(memory);
    try {
        m_chunks.push_back(chunk);
    } catch (...) {
        ::munmap(memory, kChunkBytes);
        throw;
    }
}

void EventChunks::freeChunk(Chunk& chunk)
{
    if (chunk.events)
        ::munmap(chunk.events, kChunkBytes);
    chunk.events = nullptr;
}

void EventChunks::clear()
{
    for (auto& chunk : m_chunks)
        freeChunk(chunk);
    m_chunks.clear();
    m_size = 0;
}

void EventChunks::splice(EventChunks&& later, std::uint32_t piece)
{
    for (auto& chunk : later.m_chunks) {
        chunk.piece = piece;
        m_chunks.push_back(chunk);
        chunk.events = nullptr;
    }
    m_size += later.m_size;
    later.m_chunks.clear();
    later.m_size = 0;
}

MemEvent EventChunks::fixed(std::uint32_t handle, const std::vector<PieceFix>& fixes) const
{
    MemEvent e = at(handle);
    const PieceFix& fix = fixes[m_chunks[handle >> kShift].piece];
    if (!fix.remap.empty()) {
        for (support::StringId* id : { &e.subType, &e.name, &e.owner, &e.inefficient, &e.detail })
            if (*id != support::kNoString)
                *id = fix.remap[*id];
    }
    if (fix.lineBase)
        e.line = static_cast<std::uint32_t>(std::min<std::uint64_t>(e.line + fix.lineBase, 0xffffffffu));
    return e;
}

void failRepeatedRow(const std::string& file, const MemEvent& a, const MemEvent& b)
{
    throw support::Error(file, "line " + std::to_string(std::max(a.line, b.line)),
        "ID " + std::to_string(b.id) + " of process " + std::to_string(b.pid) + " repeats the row on line "
            + std::to_string(std::min(a.line, b.line)) + " (rows are keyed by (Process Id, ID))");
}

// The handles in (pid, ID) order when every process's IDs are dense (their range at most a few times their
// count, as msMemScope's global counter gives): one pass places each row at its ID. Empty when they are not.
std::vector<std::uint32_t> EventChunks::orderByDenseIds(const MemTrace& trace, const KeyStats& keys, const std::vector<PieceFix>& fixes) const
{
    if (keys.manyProcesses)
        return {};
    struct Range {
        std::int32_t pid;
        std::uint64_t min, base;
    };
    std::vector<Range> ranges;
    for (const auto& r : keys.ranges) {
        if (r.max - r.min >= 4 * r.count + 1024)
            return {};
        ranges.push_back({ r.pid, r.min, r.max - r.min + 1 }); // base: the range's length until summed below
    }
    std::sort(ranges.begin(), ranges.end(), [](const Range& a, const Range& b) { return a.pid < b.pid; });
    std::uint64_t table = 0;
    for (auto& range : ranges)
        table += std::exchange(range.base, table);
    constexpr std::uint32_t kEmpty = 0xffffffffu;
    std::vector<std::uint32_t> slots(table, kEmpty);
    const Range* last = nullptr;
    for (std::uint32_t c = 0; c < m_chunks.size(); ++c) {
        const Chunk& chunk = m_chunks[c];
        for (std::uint32_t k = 0; k < chunk.count; ++k) {
            const MemEvent& e = chunk.events[k];
            if (!last || last->pid != e.pid)
                last = &*std::find_if(ranges.begin(), ranges.end(), [&](const Range& r) { return r.pid == e.pid; });
            auto& slot = slots[last->base + (e.id - last->min)];
            const std::uint32_t handle = c << kShift | k;
            if (slot != kEmpty)
                failRepeatedRow(trace.file, fixed(slot, fixes), fixed(handle, fixes));
            slot = handle;
        }
    }
    if (table != m_size)
        slots.erase(std::remove(slots.begin(), slots.end(), kEmpty), slots.end());
    return slots;
}

// The handles in (pid, ID, file) order, by sorting.
std::vector<std::uint32_t> EventChunks::orderBySort() const
{
    struct Key {
        std::int32_t pid;
        std::uint32_t handle;
        std::uint64_t id;
    };
    std::vector<Key> keys;
    keys.reserve(m_size);
    for (std::uint32_t c = 0; c < m_chunks.size(); ++c)
        for (std::uint32_t k = 0; k < m_chunks[c].count; ++k) {
            const MemEvent& e = m_chunks[c].events[k];
            keys.push_back({ e.pid, c << kShift | k, e.id });
        }
    std::sort(keys.begin(), keys.end(), [](const Key& a, const Key& b) {
        return a.pid != b.pid ? a.pid < b.pid : a.id != b.id ? a.id < b.id : a.handle < b.handle;
    });
    std::vector<std::uint32_t> order(keys.size());
    for (std::size_t k = 0; k < keys.size(); ++k)
        order[k] = keys[k].handle;
    return order;
}

void EventChunks::moveInto(MemTrace& trace, const KeyStats& keys, const std::vector<PieceFix>& fixes)
{
    if (m_chunks.size() >= (std::size_t(1) << (32 - kShift)))
        throw support::Error(trace.file, {}, "has more rows than this reader can index (about 4 billion)");
    std::vector<std::uint32_t> order;
    bool checked = false; // repeated keys already reported while placing
    if (keys.sorted) {
        // In order already (our own captures are written in ID order).
        order.reserve(m_size);
        for (std::uint32_t c = 0; c < m_chunks.size(); ++c)
            for (std::uint32_t k = 0; k < m_chunks[c].count; ++k)
                order.push_back(c << kShift | k);
    } else {
        order = orderByDenseIds(trace, keys, fixes);
        checked = !order.empty() || m_size == 0;
        if (!checked)
            order = orderBySort();
    }
    gather(trace, order, fixes);
    if (checked)
        return;
    for (std::size_t i = 1; i < trace.events.size(); ++i)
        if (trace.events[i - 1].pid == trace.events[i].pid && trace.events[i - 1].id == trace.events[i].id)
            failRepeatedRow(trace.file, trace.events[i - 1], trace.events[i]);
}

void EventChunks::gather(MemTrace& trace, const std::vector<std::uint32_t>& order, const std::vector<PieceFix>& fixes)
{
    trace.events.clear();
    trace.events.shrink_to_fit();
    const std::size_t count = order.size();
    trace.events.reserve(count);
    // The copy runs on this thread; the kernel's share (mapping the trace's pages ahead of the copy, a chunk's
    // worth at a time, and giving back each chunk once its last row has moved) on a second one for large traces.
    // Mapped ahead rather than all at once: the chunks given back meanwhile keep the peak near one copy.
    PageKeeper keeper(trace.events.data(), count, count >= kParallelEvents && std::thread::hardware_concurrency() > 1);
    std::vector<std::uint32_t> pending(m_chunks.size());
    for (std::size_t c = 0; c < m_chunks.size(); ++c)
        pending[c] = m_chunks[c].count;
    // A gather: its reads are independent (a permutation in place chases one cache miss after another).
    constexpr std::size_t kAhead = 16;
    for (std::size_t k = 0; k < count; ++k) {
        if (k + kAhead < count)
            __builtin_prefetch(&at(order[k + kAhead]));
        if (k % kChunkEvents == 0)
            keeper.copying(k);
        trace.events.push_back(fixed(order[k], fixes));
        const std::uint32_t c = order[k] >> kShift;
        if (--pending[c] == 0) {
            keeper.release(m_chunks[c].events);
            m_chunks[c].events = nullptr;
        }
    }
    keeper.finish();
    clear();
}

} // namespace msprobe::memory
