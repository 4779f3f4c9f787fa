// SPDX-License-Identifier: Apache-2.0
// The common msMemScope CSV row parsed in one pass over its bytes: cells cut and converted as they are found,
// Attr keys matched as they are split, no cell or key/value vectors and no row-wide trimming. It yields (returns
// false, having interned nothing) on anything it does not handle exactly as parseRow does: a quoted cell other
// than Attr, a doubled quote, a line break inside a cell, \r, a cell with spaces around it, an OOM_DETAIL row, a
// value that is not a number where one is expected. parseRow then reads the row again and reports what is wrong,
// so messages and results are the same whichever path read a row.
#include "memory/attr_parse.h"
#include "memory/memscope_rows.h"

#include <array>
#include <cstdint>
#include <cstring>
#include <limits>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

namespace msprobe::memory {

namespace {

// The first of `,` `\n` `\r` `"` at or after `p` (`end` if none).
[[gnu::always_inline]] inline const char* unquotedCellEnd(const char* p, const char* end)
{
#ifdef __SSE2__
    const __m128i comma = _mm_set1_epi8(','), newline = _mm_set1_epi8('\n'), ret = _mm_set1_epi8('\r'), quote = _mm_set1_epi8('"');
    for (; end - p >= 16; p += 16) {
        const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
        const __m128i hits = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(bytes, comma), _mm_cmpeq_epi8(bytes, newline)),
            _mm_or_si128(_mm_cmpeq_epi8(bytes, ret), _mm_cmpeq_epi8(bytes, quote)));
        if (const int mask = _mm_movemask_epi8(hits))
            return p + __builtin_ctz(static_cast<unsigned>(mask));
    }
#endif
    while (p < end && *p != ',' && *p != '\n' && *p != '\r' && *p != '"')
        ++p;
    return p;
}

// The first of `"` `\n` `\r` at or after `p` (`end` if none): the end of a quoted cell without line breaks, or
// of the call stack cells after Attr.
const char* quoteOrBreak(const char* p, const char* end)
{
#ifdef __SSE2__
    const __m128i newline = _mm_set1_epi8('\n'), ret = _mm_set1_epi8('\r'), quote = _mm_set1_epi8('"');
    for (; end - p >= 16; p += 16) {
        const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
        const __m128i hits = _mm_or_si128(_mm_cmpeq_epi8(bytes, newline), _mm_or_si128(_mm_cmpeq_epi8(bytes, ret), _mm_cmpeq_epi8(bytes, quote)));
        if (const int mask = _mm_movemask_epi8(hits))
            return p + __builtin_ctz(static_cast<unsigned>(mask));
    }
#endif
    while (p < end && *p != '\n' && *p != '\r' && *p != '"')
        ++p;
    return p;
}

// The first ',' in data[from, size), or `size`: sixteen bytes a step, never reading past `size` (a byte loop over
// the Attr cell, the longest of a row, was a fifth of the row's time).
[[gnu::always_inline]] inline std::size_t commaIn(const char* data, std::size_t from, std::size_t size)
{
#ifdef __SSE2__
    const __m128i comma = _mm_set1_epi8(',');
    for (; from + 16 <= size; from += 16) {
        const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(data + from));
        if (const int mask = _mm_movemask_epi8(_mm_cmpeq_epi8(bytes, comma)))
            return from + static_cast<std::size_t>(__builtin_ctz(static_cast<unsigned>(mask)));
    }
#endif
    for (; from + 8 <= size; from += 8) {
        std::uint64_t word;
        std::memcpy(&word, data + from, sizeof word);
        word ^= 0x2C2C2C2C2C2C2C2Cull; // a zero byte marks a comma; the lowest one found is exact
        if (const std::uint64_t zero = (word - 0x0101010101010101ull) & ~word & 0x8080808080808080ull)
            return from + static_cast<std::size_t>(__builtin_ctzll(zero) / 8);
    }
    while (from < size && data[from] != ',')
        ++from;
    return from;
}

// An exact compare with a literal, unrolled (a memcmp call costs more than these few bytes).
template<std::size_t N>
[[gnu::always_inline]] inline bool isText(std::string_view text, const char (&literal)[N])
{
    if (text.size() != N - 1)
        return false;
    for (std::size_t i = 0; i + 1 < N; ++i)
        if (text[i] != literal[i])
            return false;
    return true;
}

bool isNaCell(std::string_view text) { return text.empty() || isText(text, "N/A") || isText(text, "NA"); }

// No space, tab or \r at either end: what parseRow trims is left to it.
bool noSpaceAround(std::string_view text) { return !text.empty() && text.front() > ' ' && text.back() > ' '; }

bool eventKindOf(std::string_view text, EventKind& kind)
{
    switch (text.size()) {
    case 4:
        kind = text[0] == 'F' ? EventKind::Free : EventKind::Mstx;
        return isText(text, "FREE") || isText(text, "MSTX");
    case 6:
        kind = text[0] == 'M' ? EventKind::Malloc : text[0] == 'A' ? EventKind::Access : EventKind::System;
        return isText(text, "MALLOC") || isText(text, "ACCESS") || isText(text, "SYSTEM");
    case 8:
        kind = EventKind::Snapshot;
        return isText(text, "SNAPSHOT");
    case 9:
        kind = EventKind::OpLaunch;
        return isText(text, "OP_LAUNCH");
    case 13:
        kind = EventKind::KernelLaunch;
        return isText(text, "KERNEL_LAUNCH");
    default:
        return false;
    }
}

// parseRow's Attr numbers: signed decimal, or an unsigned (hex) value that fits.
bool attrNumberOf(std::string_view value, std::int64_t& into)
{
    long long s = 0;
    unsigned long long u = 0;
    if (parseSigned(value, s) && s != std::numeric_limits<long long>::min())
        into = s;
    else if (parseUnsigned(value, u) && u <= static_cast<unsigned long long>(std::numeric_limits<long long>::max()))
        into = static_cast<std::int64_t>(u);
    else
        return false;
    return true;
}

// One cell up to its comma: false (a row for parseRow) when it is quoted or the row ends first.
[[gnu::always_inline]] inline bool nextUnquotedCell(const char*& p, const char* end, std::string_view& cell)
{
    const char* cellEnd = unquotedCellEnd(p, end);
    if (cellEnd >= end || *cellEnd != ',')
        return false;
    cell = std::string_view(p, static_cast<std::size_t>(cellEnd - p));
    p = cellEnd + 1;
    return true;
}

#ifdef __SSE2__
// Bit i set where p[i] is one of `,` `"` `\n` `\r`, for the 64 bytes at p.
[[gnu::always_inline]] inline std::uint64_t delimitersIn64(const char* p)
{
    const __m128i comma = _mm_set1_epi8(','), newline = _mm_set1_epi8('\n'), ret = _mm_set1_epi8('\r'), quote = _mm_set1_epi8('"');
    std::uint64_t mask = 0;
    for (int k = 0; k < 4; ++k) {
        const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16 * k));
        const __m128i hits = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(bytes, comma), _mm_cmpeq_epi8(bytes, newline)),
            _mm_or_si128(_mm_cmpeq_epi8(bytes, ret), _mm_cmpeq_epi8(bytes, quote)));
        mask |= static_cast<std::uint64_t>(static_cast<unsigned>(_mm_movemask_epi8(hits))) << (16 * k);
    }
    return mask;
}
#endif

enum class Cut { Done, NotFast, NearEnd };

// The first nine cells, each ended by a comma, cut from the bit masks of the 64-byte blocks from `p`: each
// cell's end is a bit of a mask found at once, not a scan that waits on the previous cell's end. NearEnd when a
// block would pass `end` (`p` unchanged).
[[gnu::always_inline]] inline Cut nineCellsByMask(const char*& p, const char* end, std::array<std::string_view, 9>& cells)
{
#ifdef __SSE2__
    const char* block = p;
    if (end - block < 64)
        return Cut::NearEnd;
    std::uint64_t mask = delimitersIn64(block);
    const char* cellStart = p;
    for (auto& cell : cells) {
        while (mask == 0) {
            block += 64;
            if (end - block < 64)
                return Cut::NearEnd;
            mask = delimitersIn64(block);
        }
        const char* delimiter = block + __builtin_ctzll(mask);
        mask &= mask - 1;
        if (*delimiter != ',')
            return Cut::NotFast;
        cell = std::string_view(cellStart, static_cast<std::size_t>(delimiter - cellStart));
        cellStart = delimiter + 1;
    }
    p = cellStart;
    return Cut::Done;
#else
    (void)p, (void)end, (void)cells;
    return Cut::NearEnd;
#endif
}

// The first nine cells, each ended by a comma: false (a row for parseRow) when one is quoted or the row ends
// first.
[[gnu::always_inline]] inline bool firstNineCells(const char*& p, const char* end, std::array<std::string_view, 9>& cells)
{
    const Cut cut = nineCellsByMask(p, end, cells);
    if (cut != Cut::NearEnd)
        return cut == Cut::Done;
    for (auto& cell : cells)
        if (!nextUnquotedCell(p, end, cell))
            return false;
    return true;
}

} // namespace

bool parseRowFast(const char*& at, const char* end, RecentStrings& strings, MemEvent& event)
{
    const char* p = at;
    std::array<std::string_view, 9> cells;
    if (!firstNineCells(p, end, cells))
        return false;
    const auto [id, kind, subType, name, timestamp, pid, tid, device, ptr] = cells;
    unsigned long long u = 0;
    long long s = 0;
    if (!parseUnsigned(id, u))
        return false;
    event.id = u;
    if (!eventKindOf(kind, event.kind) || event.kind == EventKind::OomDetail || !noSpaceAround(subType))
        return false;
    if (!parseSigned(timestamp, s) || s < 0)
        return false;
    event.tsNs = s;
    if (!strings.pid.find(pid, event.pid) && !isNaCell(pid)) {
        if (!parseSigned(pid, s) || s < 0 || s > 0x7fffffff)
            return false;
        event.pid = static_cast<std::int32_t>(s);
        strings.pid.remember(pid, event.pid);
    }
    if (!strings.tid.find(tid, event.tid) && !isNaCell(tid)) {
        if (!parseSigned(tid, s) || s < 0 || s > 0x7fffffff)
            return false;
        event.tid = static_cast<std::int32_t>(s);
        strings.tid.remember(tid, event.tid);
    }
    if (isText(device, "0"))
        event.device = 0;
    else if (isText(device, "cpu") || isText(device, "10000"))
        event.device = kDeviceCpu;
    else if (isText(device, "host"))
        event.device = kDeviceHost;
    else if (isNaCell(device) || isText(device, "9999"))
        event.device = kDeviceUnknown;
    else if (parseSigned(device, s) && s >= 0 && s <= 0xffff)
        event.device = static_cast<std::int32_t>(s);
    else
        return false;
    if (!isNaCell(ptr)) {
        if (!parseUnsigned(ptr, u))
            return false;
        event.ptr = u;
        event.flags |= kFlagHasPtr;
    }

    // Attr: empty, unquoted without commas, or quoted without quotes or line breaks inside.
    std::string_view attr;
    if (p < end && *p == '"') {
        const char* close = quoteOrBreak(p + 1, end);
        if (close >= end || *close != '"' || (close + 1 < end && close[1] == '"'))
            return false;
        attr = std::string_view(p + 1, static_cast<std::size_t>(close - p - 1));
        p = close + 1;
    } else {
        const char* cellEnd = unquotedCellEnd(p, end);
        attr = std::string_view(p, static_cast<std::size_t>(cellEnd - p));
        p = cellEnd;
    }
    // The row's end: the call stack cells after Attr may not be quoted (a quoted stack may hold line breaks).
    if (p < end && *p == ',')
        p = quoteOrBreak(p + 1, end);
    if (p >= end || *p != '\n')
        return false;

    // Attr texts to intern once the row is known good, in the order parseRow interns them.
    struct Interned {
        support::StringId MemEvent::*field;
        std::string_view text;
    };
    std::array<Interned, 4> texts;
    std::size_t textCount = 0;
    if (!attr.empty()) {
        if (attr.size() < 2 || attr.front() != '{' || attr.back() != '}')
            return false;
        // §1.7 as splitAttr reads it: a comma starts a new pair only when a known key and ':' follow it.
        const char* const data = attr.data() + 1;
        const std::size_t size = attr.size() - 2;
        std::string_view key = size ? knownKeyAt(std::string_view(data, size)) : std::string_view {};
        if (size && key.empty())
            return false; // a first key splitAttr may take or refuse: parseRow decides
        for (std::size_t pos = 0; !key.empty();) {
            const std::size_t valueStart = pos + key.size() + 1;
            std::size_t valueEnd = size;
            std::string_view nextKey;
            for (std::size_t c = commaIn(data, valueStart, size); c < size; c = commaIn(data, c + 1, size))
                if (!(nextKey = knownKeyAt(std::string_view(data + c + 1, size - c - 1))).empty()) {
                    valueEnd = c;
                    break;
                }
            const std::string_view value(data + valueStart, valueEnd - valueStart);
            const std::string_view thisKey = key;
            pos = valueEnd + 1;
            key = nextKey;
            switch (thisKey.size()) {
            case 13:
                if (isText(thisKey, "allocation_id")) {
                    if (!parseUnsigned(value, u))
                        return false;
                    event.allocationId = u;
                    event.flags |= kFlagHasAllocationId;
                    continue;
                }
                break;
            case 4:
                if (isText(thisKey, "addr")) {
                    if ((event.flags & kFlagHasPtr) && sameText(value, ptr))
                        continue;
                    if (!parseUnsigned(value, u))
                        return false;
                    if (!(event.flags & kFlagHasPtr)) {
                        event.ptr = u;
                        event.flags |= kFlagHasPtr;
                    }
                    continue;
                }
                if (isText(thisKey, "size")) {
                    if (!attrNumberOf(value, event.size))
                        return false;
                    if (event.size < 0)
                        event.size = -event.size;
                    continue;
                }
                if (isText(thisKey, "used")) {
                    if (!attrNumberOf(value, event.used))
                        return false;
                    continue;
                }
                break;
            case 5:
                if (isText(thisKey, "total")) {
                    if (!attrNumberOf(value, event.total))
                        return false;
                    continue;
                }
                if (isText(thisKey, "owner") && !value.empty()) {
                    if (textCount == texts.size())
                        return false;
                    texts[textCount++] = { &MemEvent::owner, value };
                }
                continue;
            case 6:
                if (isText(thisKey, "shadow") && isText(value, "true"))
                    event.flags |= kFlagShadow;
                continue;
            case 11:
            case 16:
                if ((isText(thisKey, "inefficient_type") || isText(thisKey, "inefficient")) && !value.empty()) {
                    if (textCount == texts.size())
                        return false;
                    texts[textCount++] = { &MemEvent::inefficient, value };
                }
                continue;
            default:
                break;
            }
        }
    }
    if (event.kind == EventKind::Malloc || event.kind == EventKind::Free) {
        if (event.size == kAbsent || !(event.flags & kFlagHasPtr))
            return false;
    }
    // Every check passed: the texts interned in the order parseRow interns them.
    event.subType = strings.intern(subType, strings.subTypeByKind[static_cast<std::size_t>(event.kind)]);
    if (!isText(name, "N/A") && !name.empty())
        event.name = strings.intern(name, strings.names[event.kind == EventKind::KernelLaunch]);
    for (std::size_t k = 0; k < textCount; ++k)
        event.*texts[k].field = strings.intern(texts[k].text);
    at = p + 1;
    return true;
}

} // namespace msprobe::memory
