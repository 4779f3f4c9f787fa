// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <vector>

namespace msprobe::support {

using StringId = std::uint32_t;
inline constexpr StringId kNoString = 0xFFFFFFFFu;

// Interns strings: every distinct text is stored once; ids are dense and stable,
// string_views returned by view() stay valid for the pool's lifetime.
class StringPool {
public:
    StringId intern(std::string_view text) { return intern(text, hashOf(text)); }
    // The same, for a text whose hashOf() is known (another pool's hashAt()).
    StringId intern(std::string_view text, std::uint32_t hash);
    static std::uint32_t hashOf(std::string_view text);
    std::uint32_t hashAt(StringId id) const { return m_hashes[id]; }
    std::string_view view(StringId id) const { return id == kNoString ? std::string_view {} : m_views[id]; }
    std::size_t size() const { return m_views.size(); }
    std::size_t bytesStored() const { return m_bytes; }
    // Makes room for about `count` distinct strings without rehashing.
    void reserve(std::size_t count);
    // Starts loading the table slot of `text` into the cache, so that interning it a little later
    // does not wait on memory (names of a large dump are mostly new, and the table is large).
    void prefetch(std::string_view text) const { prefetchHash(hashOf(text)); }
    void prefetchHash(std::uint32_t hash) const; // (out of line: GCC 12 drops the prefetch of an inline member)

private:
    // Open addressing with the hash kept beside the id: a lookup touches one slot array, and
    // growing never rehashes a string.
    struct Slot {
        StringId id = kNoString;
        std::uint32_t hash = 0;
    };

    char* store(std::string_view text);
    void rehash(std::size_t slotCount);

    std::deque<std::string> m_blocks; // append-only arenas; never reallocated once created
    std::deque<std::string> m_largeStrings;
    std::size_t m_blockUsed = 0;
    std::vector<std::string_view> m_views;
    std::vector<std::uint32_t> m_hashes; // by id
    std::vector<Slot> m_slots; // a power of two in size, at most half full
    std::size_t m_bytes = 0;
};

} // namespace msprobe::support
