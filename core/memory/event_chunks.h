// SPDX-License-Identifier: Apache-2.0
// The rows of a msMemScope CSV as the parallel reader parses them: each piece writes its events once, into
// fixed-size chunks that never move (no count of the rows beforehand, no vector grown, zero-filled or closed up
// between pieces), then the chunks are moved into the trace in (Process Id, ID) order, each chunk's pages handed
// to the trace's storage (or given back) as soon as its last row has moved, so the events are held about once
// rather than twice and most of the trace's pages are not zeroed afresh.
#pragma once

#include "memory/mem_event.h"

#include <cstdint>
#include <new>
#include <string>
#include <vector>

namespace msprobe::memory {

// (Process Id, ID) facts gathered while the rows are parsed, so that ordering them needs no pass of its own.
struct KeyStats {
    struct Range {
        std::int32_t pid;
        std::uint64_t min, max, count;
    };
    std::vector<Range> ranges; // per process, in the order first seen; empty with `manyProcesses`
    bool manyProcesses = false; // more than kMaxRanges processes: sorted rather than placed
    bool sorted = true; // the rows came in (pid, ID) order (repeats allowed: checked when moved)
    bool any = false;
    std::int32_t firstPid = 0, lastPid = 0;
    std::uint64_t firstId = 0, lastId = 0;

    void add(std::int32_t pid, std::uint64_t id);
    // `later`'s rows follow this one's.
    void append(const KeyStats& later);
};

class EventChunks {
public:
    static constexpr unsigned kShift = 16;
    static constexpr std::size_t kChunkEvents = std::size_t(1) << kShift; // 6 MiB of events
    static constexpr std::size_t kParallelEvents = std::size_t(1) << 18; // from this many the move reuses emptied chunks' pages for the trace

    EventChunks() = default;
    ~EventChunks() { clear(); }
    EventChunks(EventChunks&& other) noexcept;
    EventChunks& operator=(EventChunks&& other) noexcept;
    EventChunks(const EventChunks&) = delete;
    EventChunks& operator=(const EventChunks&) = delete;

    // A default event after the last one (one writer per EventChunks).
    MemEvent& append()
    {
        if (m_chunks.empty() || m_chunks.back().count == kChunkEvents) [[unlikely]]
            addChunk();
        Chunk& chunk = m_chunks.back();
        ++m_size;
        return *new (chunk.events + chunk.count++) MemEvent;
    }
    std::size_t size() const { return m_size; }
    void clear();
    // Takes `later`'s chunks after this one's; their rows are tagged with `piece` (the fix applied when moved).
    void splice(EventChunks&& later, std::uint32_t piece);

    // What moving a piece's rows into the trace changes: its string ids into the trace's pool, its line numbers
    // (counted from the piece's start) into the file's.
    struct PieceFix {
        std::vector<support::StringId> remap; // empty: ids kept
        std::uint64_t lineBase = 0;
    };
    // Moves every event into trace.events in (pid, ID) order and empties this. Throws msprobe::Error naming both
    // lines for a repeated (pid, ID).
    void moveInto(MemTrace& trace, const KeyStats& keys, const std::vector<PieceFix>& fixes);

private:
    struct Chunk {
        MemEvent* events = nullptr; // kChunkEvents slots, mapped on their own
        std::uint32_t count = 0;
        std::uint32_t piece = 0;
    };
    void addChunk();
    static void freeChunk(Chunk& chunk);
    const MemEvent& at(std::uint32_t handle) const { return m_chunks[handle >> kShift].events[handle & (kChunkEvents - 1)]; }
    MemEvent fixed(std::uint32_t handle, const std::vector<PieceFix>& fixes) const;
    std::vector<std::uint32_t> orderByDenseIds(const MemTrace& trace, const KeyStats& keys, const std::vector<PieceFix>& fixes) const;
    std::vector<std::uint32_t> orderBySort() const;
    // Writes the events `order` names into trace.events and gives every chunk back.
    void gather(MemTrace& trace, const std::vector<std::uint32_t>& order, const std::vector<PieceFix>& fixes);

    std::vector<Chunk> m_chunks;
    std::size_t m_size = 0;
};

// Throws the error of a repeated (Process Id, ID) naming both rows' lines.
[[noreturn]] void failRepeatedRow(const std::string& file, const MemEvent& a, const MemEvent& b);

} // namespace msprobe::memory
