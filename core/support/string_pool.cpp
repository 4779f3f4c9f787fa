// SPDX-License-Identifier: Apache-2.0
#include "support/string_pool.h"

#include "support/huge_pages.h"

#include <algorithm>
#include <bit>
#include <cstring>

namespace msprobe::support {

namespace {

constexpr std::size_t kBlockSize = 1 << 20;
constexpr std::size_t kMinSlots = 64;

std::uint64_t load64(const char* p)
{
    std::uint64_t word;
    std::memcpy(&word, p, sizeof word);
    return word;
}

std::uint64_t mix(std::uint64_t a, std::uint64_t b)
{
    const unsigned __int128 product = static_cast<unsigned __int128>(a) * b;
    return static_cast<std::uint64_t>(product) ^ static_cast<std::uint64_t>(product >> 64);
}

} // namespace

// A multiply-fold hash over 8-byte words: names of a dump differ anywhere (counters at the end,
// module paths in the middle), so every byte counts.
std::uint32_t StringPool::hashOf(std::string_view text)
{
    constexpr std::uint64_t k0 = 0xa0761d6478bd642full, k1 = 0xe7037ed1a0b428dbull;
    const char* p = text.data();
    std::size_t left = text.size();
    std::uint64_t h = k0 ^ left;
    for (; left >= 8; left -= 8, p += 8)
        h = mix(h ^ load64(p), k1);
    if (left > 0) {
        std::uint64_t tail = 0;
        std::memcpy(&tail, p, left);
        h = mix(h ^ tail, k1);
    }
    return static_cast<std::uint32_t>(mix(h, k0) >> 32);
}

char* StringPool::store(std::string_view text)
{
    if (text.size() > kBlockSize / 4) {
        // Large strings get their own block so the arena stays dense.
        m_largeStrings.emplace_back(text);
        return m_largeStrings.back().data();
    }
    if (m_blocks.empty() || m_blockUsed + text.size() > kBlockSize) {
        // Reserved, not sized: a zero-filled 1 MiB arena per piece of a large dump.json cost ~5% of a read.
        // Appends stay within the capacity, so the arena never moves and the views into it stay valid.
        m_blocks.emplace_back().reserve(kBlockSize);
        m_blockUsed = 0;
    }
    std::string& block = m_blocks.back();
    block.append(text);
    char* dest = block.data() + m_blockUsed;
    m_blockUsed += text.size();
    return dest;
}

void StringPool::reserve(std::size_t count)
{
    m_views.reserve(count);
    m_hashes.reserve(count);
    adviseHugePages(m_views.data(), m_views.capacity() * sizeof(std::string_view));
    const std::size_t wanted = std::bit_ceil(std::max(kMinSlots, 2 * count));
    if (wanted > m_slots.size())
        rehash(wanted);
}

void StringPool::prefetchHash(std::uint32_t hash) const
{
    if (!m_slots.empty())
        __builtin_prefetch(&m_slots[hash & (m_slots.size() - 1)]);
}

void StringPool::rehash(std::size_t slotCount)
{
    std::vector<Slot> slots;
    slots.reserve(slotCount);
    adviseHugePages(slots.data(), slotCount * sizeof(Slot));
    slots.resize(slotCount);
    const std::size_t mask = slotCount - 1;
    for (const Slot& slot : m_slots) {
        if (slot.id == kNoString)
            continue;
        std::size_t at = slot.hash & mask;
        while (slots[at].id != kNoString)
            at = (at + 1) & mask;
        slots[at] = slot;
    }
    m_slots = std::move(slots);
}

StringId StringPool::intern(std::string_view text, std::uint32_t hash)
{
    if (2 * (m_views.size() + 1) > m_slots.size())
        rehash(std::max(kMinSlots, 2 * m_slots.size()));
    const std::size_t mask = m_slots.size() - 1;
    std::size_t at = hash & mask;
    for (; m_slots[at].id != kNoString; at = (at + 1) & mask)
        if (m_slots[at].hash == hash && m_views[m_slots[at].id] == text)
            return m_slots[at].id;
    const char* stored = store(text);
    const auto id = static_cast<StringId>(m_views.size());
    m_views.emplace_back(stored, text.size());
    m_hashes.push_back(hash);
    m_slots[at] = { id, hash };
    m_bytes += text.size();
    return id;
}

} // namespace msprobe::support
