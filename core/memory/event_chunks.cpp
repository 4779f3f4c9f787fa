// SPDX-License-Identifier: Apache-2.0
#include "memory/event_chunks.h"

#include "support/error.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <limits>
#include <cstring>
#include <new>
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

// Gives the trace's pages to the copy just ahead of it: the pages of chunks it has already emptied, moved into
// place by mremap (no page zeroed, none freed), else fresh pages populated in one call. Zeroing fresh pages for
// the trace and unmapping the chunks were a third of a large read's kernel time. Only whole pages inside the
// trace's storage and past everything the copy has written are replaced, so nothing written is lost; the pages
// at either end are left to ordinary faults.
class PageRecycler {
public:
    PageRecycler(MemEvent* events, std::size_t count, bool recycle)
        : m_next(pageUp(reinterpret_cast<std::uintptr_t>(events)))
        , m_end(std::max(m_next, pageDown(reinterpret_cast<std::uintptr_t>(events + count))))
        , m_recycle(recycle)
    {
    }
    ~PageRecycler()
    {
        for (MemEvent* chunk : m_free)
            ::munmap(chunk, kChunkBytes);
    }
    PageRecycler(const PageRecycler&) = delete;
    PageRecycler& operator=(const PageRecycler&) = delete;

    // The copy is about to write the events before `upTo`.
    void prepare(const MemEvent* upTo)
    {
        const std::uintptr_t wanted = std::min(pageUp(reinterpret_cast<std::uintptr_t>(upTo)), m_end);
        while (m_next < wanted) {
            const std::size_t bytes = std::min<std::size_t>(kChunkBytes, m_end - m_next);
            if (!m_free.empty() && moveChunk(bytes))
                continue;
            populateForWriting(reinterpret_cast<void*>(m_next), bytes);
            m_next += bytes;
        }
    }
    // A chunk whose rows have all moved.
    void release(MemEvent* chunk)
    {
        if (m_recycle && m_next < m_end && m_free.size() < kMaxFree)
            m_free.push_back(chunk);
        else
            ::munmap(chunk, kChunkBytes);
    }

private:
    static constexpr std::size_t kMaxFree = 4; // chunks held for later pages: bounds what they add to the peak

    static std::uintptr_t pageSize()
    {
        static const auto page = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
        return page;
    }
    static std::uintptr_t pageUp(std::uintptr_t at) { return (at + pageSize() - 1) / pageSize() * pageSize(); }
    static std::uintptr_t pageDown(std::uintptr_t at) { return at / pageSize() * pageSize(); }

    // Moves the pages of a free chunk to m_next; false (the chunk unmapped) when the kernel refuses.
    bool moveChunk(std::size_t bytes)
    {
        char* chunk = reinterpret_cast<char*>(m_free.back());
        m_free.pop_back();
        if (bytes < kChunkBytes)
            ::munmap(chunk + bytes, kChunkBytes - bytes);
#ifdef MREMAP_FIXED
        if (::mremap(chunk, bytes, bytes, MREMAP_MAYMOVE | MREMAP_FIXED, reinterpret_cast<void*>(m_next)) != MAP_FAILED) {
            m_next += bytes;
            return true;
        }
#endif
        ::munmap(chunk, bytes);
        m_recycle = false;
        return false;
    }

    std::uintptr_t m_next; // the pages from here to m_end are not given yet
    const std::uintptr_t m_end;
    bool m_recycle;
    std::vector<MemEvent*> m_free;
};

// A piece's string ids and line numbers made the trace's.
void applyFix(MemEvent& e, const EventChunks::PieceFix& fix)
{
    if (!fix.remap.empty()) {
        for (support::StringId* id : { &e.subType, &e.name, &e.owner, &e.inefficient, &e.detail })
            if (*id != support::kNoString)
                *id = fix.remap[*id];
    }
    if (fix.lineBase)
        e.line = static_cast<std::uint32_t>(std::min<std::uint64_t>(e.line + fix.lineBase, 0xffffffffu));
}

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
    applyFix(e, fixes[m_chunks[handle >> kShift].piece]);
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
    PageRecycler pages(trace.events.data(), count, count >= kParallelEvents);
    std::vector<std::uint32_t> pending(m_chunks.size());
    for (std::size_t c = 0; c < m_chunks.size(); ++c)
        pending[c] = m_chunks[c].count;
    // A gather: its reads are independent (a permutation in place chases one cache miss after another).
    constexpr std::size_t kAhead = 16;
    for (std::size_t k = 0; k < count; ++k) {
        if (k + kAhead < count)
            __builtin_prefetch(&at(order[k + kAhead]));
        if (k % kChunkEvents == 0)
            pages.prepare(trace.events.data() + std::min(count, k + kChunkEvents));
        MemEvent& event = trace.events.emplace_back(at(order[k]));
        const PieceFix& fix = fixes[m_chunks[order[k] >> kShift].piece];
        if (!fix.remap.empty() || fix.lineBase)
            applyFix(event, fix);
        const std::uint32_t c = order[k] >> kShift;
        if (--pending[c] == 0) {
            pages.release(m_chunks[c].events);
            m_chunks[c].events = nullptr;
        }
    }
    clear();
}

} // namespace msprobe::memory
