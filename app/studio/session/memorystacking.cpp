// SPDX-License-Identifier: Apache-2.0
#include "memorystacking.h"

#include <algorithm>
#include <bit>
#include <limits>

namespace msprobe::studio {

namespace {

constexpr std::int64_t kLowest = std::numeric_limits<std::int64_t>::min();

// The key as one signed 128-bit number (the second half biased to sort unsigned), so that a comparison is two
// instructions and the searches below compile without branches on it.
__int128 packed(GapKey key)
{
    return (static_cast<__int128>(key.first) << 64) | static_cast<__int128>(static_cast<std::uint64_t>(key.second) ^ (std::uint64_t(1) << 63));
}

std::size_t lowerBoundIn(const GapKey* keys, std::size_t count, GapKey key)
{
    if (count == 0)
        return 0;
    const __int128 wanted = packed(key);
    const GapKey* base = keys;
    while (count > 1) {
        const std::size_t half = count / 2;
        base += static_cast<std::size_t>(packed(base[half - 1]) < wanted) * half;
        count -= half;
    }
    return static_cast<std::size_t>(base - keys) + (packed(*base) < wanted ? 1 : 0);
}

} // namespace

GapSet::Position GapSet::previous(Position at) const
{
    if (at.index > 0)
        return { at.chunk, at.index - 1 };
    return { at.chunk - 1, m_chunks[at.chunk - 1].size() - 1 };
}

bool GapSet::amongFirst(Position at, std::size_t count) const
{
    std::size_t before = at.index;
    for (std::size_t chunk = 0; chunk < at.chunk && before < count; ++chunk)
        before += m_chunks[chunk].size();
    return before < count;
}

GapSet::Position GapSet::lowerBound(GapKey key) const
{
    const std::size_t chunk = lowerBoundIn(m_last.data(), m_last.size(), key);
    if (chunk == m_chunks.size())
        return { chunk, 0 };
    return { chunk, lowerBoundIn(m_chunks[chunk].data(), m_chunks[chunk].size(), key) };
}

void GapSet::replace(Position at, GapKey key)
{
    auto& keys = m_chunks[at.chunk];
    keys[at.index] = key;
    if (at.index + 1 == keys.size())
        m_last[at.chunk] = key;
}

void GapSet::insert(GapKey key)
{
    if (m_chunks.empty()) {
        m_chunks.emplace_back().push_back(key);
        m_last.push_back(key);
        return;
    }
    const std::size_t chunk = std::min(lowerBoundIn(m_last.data(), m_last.size(), key), m_chunks.size() - 1);
    auto& keys = m_chunks[chunk];
    keys.insert(keys.begin() + static_cast<std::ptrdiff_t>(lowerBoundIn(keys.data(), keys.size(), key)), key);
    m_last[chunk] = keys.back();
    if (keys.size() > 2 * kChunk) {
        std::vector<GapKey> upper(keys.begin() + kChunk, keys.end());
        keys.resize(kChunk);
        m_last[chunk] = keys.back();
        m_last.insert(m_last.begin() + static_cast<std::ptrdiff_t>(chunk) + 1, upper.back());
        m_chunks.insert(m_chunks.begin() + static_cast<std::ptrdiff_t>(chunk) + 1, std::move(upper));
    }
}

void GapSet::erase(Position at)
{
    auto& keys = m_chunks[at.chunk];
    keys.erase(keys.begin() + static_cast<std::ptrdiff_t>(at.index));
    const auto chunk = static_cast<std::ptrdiff_t>(at.chunk);
    if (keys.empty()) {
        m_chunks.erase(m_chunks.begin() + chunk);
        m_last.erase(m_last.begin() + chunk);
    } else if (keys.size() < kChunk / 4 && at.chunk + 1 < m_chunks.size() && keys.size() + m_chunks[at.chunk + 1].size() <= 2 * kChunk) {
        // Keep chunks from thinning out: merge a small one into its successor.
        auto& following = m_chunks[at.chunk + 1];
        following.insert(following.begin(), keys.begin(), keys.end());
        m_chunks.erase(m_chunks.begin() + chunk);
        m_last.erase(m_last.begin() + chunk);
    } else {
        m_last[at.chunk] = keys.back();
    }
}

std::size_t GapsBySize::classOf(std::int64_t size)
{
    const auto bytes = static_cast<std::uint64_t>(size);
    if (bytes < 8)
        return static_cast<std::size_t>(bytes);
    const int log = 63 - std::countl_zero(bytes);
    return static_cast<std::size_t>(log - 2) * 8 + static_cast<std::size_t>((bytes >> (log - 3)) & 7);
}

void GapsBySize::insert(std::int64_t size, std::int64_t offset)
{
    const std::size_t sizeClass = classOf(size);
    m_classes[sizeClass].insert({ size, offset });
    m_held[sizeClass / 64] |= std::uint64_t(1) << (sizeClass % 64);
}

void GapsBySize::erase(std::int64_t size, std::int64_t offset)
{
    const std::size_t sizeClass = classOf(size);
    GapSet& gaps = m_classes[sizeClass];
    gaps.erase(gaps.lowerBound({ size, offset }));
    if (gaps.empty())
        m_held[sizeClass / 64] &= ~(std::uint64_t(1) << (sizeClass % 64));
}

GapKey GapsBySize::bestFit(std::int64_t size) const
{
    const std::size_t sizeClass = classOf(size);
    const GapSet& own = m_classes[sizeClass];
    if (const auto fit = own.lowerBound({ size, kLowest }); !own.atEnd(fit))
        return own.at(fit);
    // The first class above held by any gap.
    const std::size_t next = sizeClass + 1;
    for (std::size_t word = next / 64; word < kClasses / 64; ++word) {
        std::uint64_t bits = m_held[word];
        if (word == next / 64)
            bits &= ~std::uint64_t(0) << (next % 64);
        if (bits != 0) {
            const GapSet& above = m_classes[word * 64 + static_cast<std::size_t>(std::countr_zero(bits))];
            return above.at(above.begin());
        }
    }
    return { -1, 0 };
}

std::int64_t StackPacker::place(std::int64_t size)
{
    // First fit among the lowest gaps keeps the stack dense at the bottom; past them, best fit.
    if (!m_lowestLargestKnown || size <= m_lowestLargest) {
        std::size_t scanned = 0;
        std::int64_t largest = 0;
        const auto& chunks = m_byOffset.chunks();
        for (std::size_t chunk = 0; chunk < chunks.size() && scanned < kFirstFitGaps; ++chunk) {
            const auto& keys = chunks[chunk];
            const std::size_t end = std::min(keys.size(), kFirstFitGaps - scanned);
            for (std::size_t i = 0; i < end; ++i) {
                const GapKey gap = keys[i];
                if (gap.second >= size)
                    return take({ chunk, i }, size);
                largest = std::max(largest, gap.second);
            }
            scanned += end;
        }
        m_lowestLargest = largest;
        m_lowestLargestKnown = true;
    }
    if (const GapKey fit = m_bySize.bestFit(size); fit.first >= 0)
        return take(m_byOffset.lowerBound({ fit.second, kLowest }), size);
    const std::int64_t offset = m_top;
    m_top += size;
    m_highest = std::max(m_highest, m_top);
    return offset;
}

void StackPacker::touched(Position at)
{
    if (m_lowestLargestKnown && m_byOffset.amongFirst(at, kFirstFitGaps))
        m_lowestLargestKnown = false;
}

std::int64_t StackPacker::take(Position byOffset, std::int64_t size)
{
    const GapKey gap = m_byOffset.at(byOffset);
    touched(byOffset);
    m_bySize.erase(gap.second, gap.first);
    if (gap.second > size) {
        // What is left stays a gap in the same place by offset.
        m_byOffset.replace(byOffset, { gap.first + size, gap.second - size });
        m_bySize.insert(gap.second - size, gap.first + size);
    } else {
        m_byOffset.erase(byOffset);
    }
    return gap.first;
}

void StackPacker::resize(Position byOffset, std::int64_t offset, std::int64_t size)
{
    const GapKey old = m_byOffset.at(byOffset);
    touched(byOffset);
    m_bySize.erase(old.second, old.first);
    m_bySize.insert(size, offset);
    m_byOffset.replace(byOffset, { offset, size });
}

void StackPacker::release(std::int64_t offset, std::int64_t size)
{
    const auto next = m_byOffset.lowerBound({ offset, kLowest });
    const bool nextTouches = !m_byOffset.atEnd(next) && m_byOffset.at(next).first == offset + size;
    Position previous;
    bool previousTouches = false;
    if (!m_byOffset.atBegin(next)) {
        previous = m_byOffset.previous(next);
        const GapKey gap = m_byOffset.at(previous);
        previousTouches = gap.first + gap.second == offset;
    }
    // A gap always has a block above it, so only a run reaching no gap above can reach the top.
    if (nextTouches && previousTouches) {
        const GapKey below = m_byOffset.at(previous), above = m_byOffset.at(next);
        resize(previous, below.first, below.second + size + above.second);
        m_bySize.erase(above.second, above.first);
        touched(next);
        m_byOffset.erase(next);
    } else if (nextTouches) {
        resize(next, offset, size + m_byOffset.at(next).second);
    } else if (previousTouches) {
        const GapKey below = m_byOffset.at(previous);
        if (offset + size == m_top) {
            m_top = below.first;
            m_bySize.erase(below.second, below.first);
            touched(previous);
            m_byOffset.erase(previous);
        } else {
            resize(previous, below.first, below.second + size);
        }
    } else if (offset + size == m_top) {
        m_top = offset;
    } else {
        m_byOffset.insert({ offset, size });
        m_bySize.insert(size, offset);
        touched(m_byOffset.lowerBound({ offset, size }));
    }
}

} // namespace msprobe::studio
