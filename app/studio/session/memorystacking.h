// SPDX-License-Identifier: Apache-2.0
// Where each block of the memory timeline sits in the stacked picture. A block takes the lowest of the 64 lowest
// runs of free bytes that holds it, else the smallest run that does (the lowest of equal runs), else the top, so
// the picture stays about as tight as the live bytes allow without moving blocks once placed, at a bounded cost
// per block (a first-fit scan over every gap cost a second per million events).
// The free runs are kept twice, by offset and by size, each in short sorted arrays (GapSet): no block costs an
// allocation and a lookup reads contiguous memory, where tree nodes made the packing the larger half of opening
// a 10 M event dump.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace msprobe::studio {

// A pair of numbers ordered by the first, then the second: (offset, free bytes) or (free bytes, offset).
struct GapKey {
    std::int64_t first = 0, second = 0;
};

// A sorted set of unique GapKeys in consecutive arrays of at most 2 * kChunk keys: a lookup is a binary search over
// the chunks' last keys (one array) and one inside a chunk; an insert or erase moves at most a chunk.
class GapSet {
public:
    struct Position {
        std::size_t chunk = 0, index = 0;
    };

    bool empty() const { return m_chunks.empty(); }
    Position begin() const { return {}; }
    bool atEnd(Position at) const { return at.chunk >= m_chunks.size(); }
    bool atBegin(Position at) const { return at.chunk == 0 && at.index == 0; }
    const GapKey& at(Position at) const { return m_chunks[at.chunk][at.index]; }
    Position next(Position at) const { return ++at.index < m_chunks[at.chunk].size() ? at : Position { at.chunk + 1, 0 }; }
    // The position before `at` (which may be the end); `at` must not be the first.
    Position previous(Position at) const;
    // Whether fewer than `count` keys come before `at`.
    bool amongFirst(Position at, std::size_t count) const;
    // The first key not less than `key`, or the end.
    Position lowerBound(GapKey key) const;
    // Overwrites the key at `at` with one that sorts in the same place between its neighbours.
    void replace(Position at, GapKey key);
    void insert(GapKey key);
    void erase(Position at);

    // The chunks, for a scan from the lowest key.
    const std::vector<std::vector<GapKey>>& chunks() const { return m_chunks; }

private:
    static constexpr std::size_t kChunk = 32;
    std::vector<std::vector<GapKey>> m_chunks; // each sorted and non-empty, all of one before all of the next
    std::vector<GapKey> m_last; // the last key of each chunk
};

// The gaps by size for the best-fit search: size classes (eight per power of two) of GapSets of (free bytes, offset),
// and a bitmap of the classes holding any. Every gap of a class is larger than every gap of the classes below,
// so the smallest gap holding a block is the first fit in its own class or the first gap of the next class held:
// one short search where one set of every gap took two long ones.
class GapsBySize {
public:
    void insert(std::int64_t size, std::int64_t offset);
    void erase(std::int64_t size, std::int64_t offset);
    // The smallest gap of at least `size` bytes (the lowest of equal ones) as (free bytes, offset); first < 0: none.
    GapKey bestFit(std::int64_t size) const;

private:
    static constexpr std::size_t kClasses = 64 * 8;
    static std::size_t classOf(std::int64_t size);
    std::vector<GapSet> m_classes = std::vector<GapSet>(kClasses);
    std::uint64_t m_held[kClasses / 64] = {};
};

class StackPacker {
public:
    // The offset of a new block of `size` bytes.
    std::int64_t place(std::int64_t size);
    // Frees the block at `offset`, merging its bytes with the free runs beside it.
    void release(std::int64_t offset, std::int64_t size);
    // The highest byte any block has reached.
    std::int64_t highest() const { return m_highest; }

private:
    using Position = GapSet::Position;
    // Takes `size` bytes from the bottom of the gap at `byOffset`.
    std::int64_t take(Position byOffset, std::int64_t size);
    // Gives the gap at `byOffset` a new extent (in the same place among the gaps by offset).
    void resize(Position byOffset, std::int64_t offset, std::int64_t size);
    // A change to the gaps by offset at `at`: the lowest gaps' largest size is unknown if it is among them.
    void touched(Position at);

    static constexpr std::size_t kFirstFitGaps = 64;
    GapSet m_byOffset; // (offset, free bytes), all below m_top
    GapsBySize m_bySize; // the same gaps
    std::int64_t m_top = 0, m_highest = 0;
    // The largest of the kFirstFitGaps lowest gaps, once a scan found none holding a block, until they change:
    // most blocks fit none of them, and skip the scan.
    std::int64_t m_lowestLargest = 0;
    bool m_lowestLargestKnown = false;
};

} // namespace msprobe::studio
