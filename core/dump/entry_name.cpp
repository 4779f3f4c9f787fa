// SPDX-License-Identifier: Apache-2.0
#include "dump/entry_name.h"

#include <algorithm>
#include <bit>
#include <charconv>
#include <cstring>

namespace msprobe::dump {

namespace {

bool isNumber(std::string_view text, std::int64_t& out)
{
    if (text.empty() || text.size() > 18 || !std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; }))
        return false;
    std::from_chars(text.data(), text.data() + text.size(), out);
    return true;
}

// The dot-separated parts of a name that the grammar looks at: the first, the last four, and how many there
// are. Without a list of every part: this runs for each entry of every dump read, twice on a large file.
class DottedName {
public:
    explicit DottedName(std::string_view name)
        : m_name(name)
    {
        // One pass, eight bytes at a time, for the first dot, the last four and their count: a search for each
        // (find, four rfind, count) read a name up to six times, ~700 instructions an entry.
        std::size_t ring[kKept] {}; // the last dots, at dots % kKept
        std::size_t dots = 0;
        m_first = std::string_view::npos;
        const auto note = [&](std::size_t at) {
            if (dots == 0)
                m_first = at;
            ring[dots++ % kKept] = at;
        };
        constexpr std::uint64_t kLow7 = 0x7F7F7F7F7F7F7F7Full, kDots = 0x2E2E2E2E2E2E2E2Eull;
        std::size_t at = 0;
        for (; at + 8 <= name.size(); at += 8) {
            std::uint64_t word;
            std::memcpy(&word, name.data() + at, sizeof word);
            word ^= kDots; // a dot is now a zero byte
            std::uint64_t zeros = ~(((word & kLow7) + kLow7) | word | kLow7); // exactly the zero bytes' top bits
            for (; zeros != 0; zeros &= zeros - 1)
                note(at + static_cast<std::size_t>(std::countr_zero(zeros)) / 8);
        }
        for (; at < name.size(); ++at)
            if (name[at] == '.')
                note(at);
        m_found = std::min(dots, kKept);
        for (std::size_t k = 0; k < m_found; ++k)
            m_lastDots[k] = ring[(dots - 1 - k) % kKept];
        m_count = dots + 1;
    }

    std::size_t count() const { return m_count; }
    std::string_view first() const { return m_name.substr(0, m_first); }
    // parts[count - 1 - k], for k < 4 and k < count.
    std::string_view fromEnd(std::size_t k) const
    {
        const std::size_t begin = k < m_found ? m_lastDots[k] + 1 : 0;
        return m_name.substr(begin, endOfFromEnd(k) - begin);
    }
    // The text from the start of parts[firstPart] (0 or 1) to the end of parts[count - 1 - k] inclusive.
    std::string_view join(std::size_t firstPart, std::size_t k) const
    {
        const std::size_t begin = firstPart == 0 ? 0 : m_first + 1;
        return m_name.substr(begin, endOfFromEnd(k) - begin);
    }

private:
    static constexpr std::size_t kKept = 4;
    std::size_t endOfFromEnd(std::size_t k) const { return k == 0 ? m_name.size() : m_lastDots[k - 1]; }

    std::string_view m_name;
    std::size_t m_first = 0;
    std::size_t m_lastDots[kKept] {}; // the last dot first
    std::size_t m_found = 0;
    std::size_t m_count = 0;
};

Direction directionOf(std::string_view word)
{
    if (word == "forward")
        return Direction::Forward;
    if (word == "backward")
        return Direction::Backward;
    return Direction::None;
}

} // namespace

EntryName parseEntryName(std::string_view name)
{
    EntryName result;
    const DottedName parts(name);
    const std::size_t count = parts.count();
    if (count < 2)
        return result;
    result.prefix = parts.first();
    const bool moduleLike = result.prefix == "Module" || result.prefix == "Cell";

    // parameters_grad: last or second-to-last segment.
    std::int64_t number = -1;
    if (moduleLike && count >= 3) {
        std::size_t pgFromEnd = count; // parameters_grad as parts[count - 1 - pgFromEnd]; count when absent
        if (parts.fromEnd(0) == "parameters_grad")
            pgFromEnd = 0;
        else if (count >= 4 && parts.fromEnd(1) == "parameters_grad" && isNumber(parts.fromEnd(0), number))
            pgFromEnd = 1;
        if (pgFromEnd < count) {
            const std::size_t pgIndex = count - 1 - pgFromEnd;
            result.kind = EntryKind::ParametersGrad;
            result.callIndex = pgFromEnd == 1 ? number : -1;
            result.moduleClass = parts.fromEnd(pgFromEnd + 1);
            result.modulePath = pgIndex >= 3 ? parts.join(1, pgFromEnd + 2) : std::string_view {};
            return result;
        }
    }
    if (parts.fromEnd(0) == "debug" && count >= 3 && isNumber(parts.fromEnd(1), number)) {
        result.kind = EntryKind::Debug;
        result.callIndex = number;
        result.prefix = {};
        result.api = parts.join(0, 2);
        return result;
    }
    if (moduleLike && count >= 4 && isNumber(parts.fromEnd(0), number) && directionOf(parts.fromEnd(1)) != Direction::None) {
        result.kind = EntryKind::Module;
        result.direction = directionOf(parts.fromEnd(1));
        result.callIndex = number;
        result.moduleClass = parts.fromEnd(2);
        result.modulePath = count >= 5 ? parts.join(1, 3) : std::string_view {};
        return result;
    }
    if (count >= 4 && directionOf(parts.fromEnd(0)) != Direction::None && isNumber(parts.fromEnd(1), number)) {
        result.kind = EntryKind::Api;
        result.direction = directionOf(parts.fromEnd(0));
        result.callIndex = number;
        result.api = parts.join(1, 2);
        return result;
    }
    result.prefix = {};
    return result;
}

std::string_view toString(EntryKind kind)
{
    switch (kind) {
    case EntryKind::Api: return "api";
    case EntryKind::Module: return "module";
    case EntryKind::ParametersGrad: return "parameters_grad";
    case EntryKind::Debug: return "debug";
    case EntryKind::Unknown: break;
    }
    return "unknown";
}

std::string_view toString(Direction direction)
{
    switch (direction) {
    case Direction::Forward: return "forward";
    case Direction::Backward: return "backward";
    case Direction::None: break;
    }
    return "";
}

} // namespace msprobe::dump
