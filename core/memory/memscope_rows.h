// SPDX-License-Identifier: Apache-2.0
// The pieces the CSV and database readers of a msMemScope dump share: the header map and the row parser that
// writes one event into a caller-owned record (so the parallel CSV reader can fill its slots in place).
#pragma once

#include "memory/attr_parse.h"
#include "memory/memscope_reader.h"

#include <array>
#include <cstring>
#include <string>
#include <utility>
#include <string_view>
#include <vector>

namespace msprobe::memory {

// Column indexes of the ten §1.2 columns in a header row (titles matched case-insensitively, §1.9). Throws
// msprobe::Error naming `file`, line 1 and the missing title.
std::array<int, 10> mapHeader(const std::vector<std::string_view>& header, const std::string& file);

// A pool with a table of its own of the texts this reader has interned: a dump repeats a few thousand Event
// Types, op and kernel names and owners over millions of rows, and a hit costs a short hash and one comparison
// in a small table instead of a probe of the pool's large one. The table is bounded (started afresh when full)
// so that a dump of mostly distinct names does not hold a second index of them. Its views point into the pool,
// which never moves its texts. It also keeps the last Process Id and Thread Id cells, which repeat as much.
class RecentStrings {
public:
    explicit RecentStrings(support::StringPool& pool)
        : m_pool(pool)
    {
    }
    support::StringId intern(std::string_view text);
    support::StringPool& pool() { return m_pool; }

    // The last two texts one column gave and their ids: an Event Type repeats with its Event (OP_LAUNCH rows
    // alternate ATEN_START and ATEN_END), an op's name on the rows between its ATEN_START and ATEN_END, so most
    // cells are a short comparison away from their id.
    struct Memo {
        std::array<std::string_view, 2> texts; // in the pool; texts[0] the latest
        std::array<support::StringId, 2> ids { support::kNoString, support::kNoString };
    };
    support::StringId intern(std::string_view text, Memo& memo)
    {
        if (memo.ids[0] != support::kNoString && sameText(memo.texts[0], text))
            return memo.ids[0];
        if (memo.ids[1] != support::kNoString && sameText(memo.texts[1], text)) {
            std::swap(memo.texts[0], memo.texts[1]);
            std::swap(memo.ids[0], memo.ids[1]);
            return memo.ids[0];
        }
        memo.texts[1] = memo.texts[0];
        memo.ids[1] = memo.ids[0];
        memo.ids[0] = intern(text);
        memo.texts[0] = m_pool.view(memo.ids[0]);
        return memo.ids[0];
    }
    std::array<Memo, 9> subTypeByKind; // by EventKind
    std::array<Memo, 2> names; // kernel names (each launch its own), every other Name

    // The id a Process Id or Thread Id cell gave on an earlier row when its text is the same (rows of one thread
    // follow each other), copied rather than viewed since the database reader reuses its cell buffers.
    struct RecentId {
        std::array<char, 16> text {};
        std::size_t size = 0;
        std::int32_t value = -1;
        bool find(std::string_view cell, std::int32_t& id) const
        {
            if (cell.size() != size || std::memcmp(cell.data(), text.data(), size) != 0)
                return false;
            id = value;
            return true;
        }
        void remember(std::string_view cell, std::int32_t id)
        {
            if (cell.size() > text.size())
                return;
            std::memcpy(text.data(), cell.data(), cell.size());
            size = cell.size();
            value = id;
        }
    };
    RecentId pid, tid;

private:
    struct Entry {
        std::string_view text;
        support::StringId id = support::kNoString;
        std::uint32_t hash = 0;
    };
    static constexpr std::size_t kFirstSlots = 1024, kMaxSlots = 1 << 16;
    // Every byte counts: names of a dump often differ only in the middle (model.layers.12.mlp.weight).
    static std::uint32_t hashOf(std::string_view text)
    {
        const char* p = text.data();
        std::size_t left = text.size();
        std::uint64_t hash = left * 0x9E3779B97F4A7C15ull;
        for (; left >= 8; left -= 8, p += 8) {
            std::uint64_t word;
            std::memcpy(&word, p, 8);
            hash = (hash ^ word) * 0xC2B2AE3D27D4EB4Full;
            hash ^= hash >> 29;
        }
        if (left > 0) {
            std::uint64_t word = 0;
            std::memcpy(&word, p, left);
            hash = (hash ^ word) * 0xC2B2AE3D27D4EB4Full;
        }
        return static_cast<std::uint32_t>((hash ^ (hash >> 32)) * 0x9E3779B97F4A7C15ull >> 32);
    }
    support::StringId internNew(std::string_view text, std::uint32_t hash, std::size_t slot);
    std::size_t freeSlot(std::uint32_t hash) const;
    support::StringPool& m_pool;
    std::vector<Entry> m_table; // open addressing, a power of two in size, at most half full
    std::size_t m_used = 0;
};

// appendRow without the push: interns into `strings`, errors name `file`.
void parseRow(const RowCells& row, std::uint32_t line, bool database, RecentStrings& strings, const std::string& file, MemEvent& event);

// parseRow for the common CSV row at `at` (a header in §1.2 column order): cut, converted and interned in one
// pass. True with `event` filled (over a default event) and `at` just after the row's \n; false, with nothing
// interned and `at` unchanged, for any row it does not read exactly as parseRow would (parseRow reads those).
bool parseRowFast(const char*& at, const char* end, RecentStrings& strings, MemEvent& event);

// readMemScopeCsv with the data cut into `pieces` parts read in parallel (0: one per core, none under 8 MiB), so
// the tests can cut small files; `fastRows` false reads every row with parseRow (the tests compare the two).
MemTrace readMemScopeCsvInPieces(const std::filesystem::path& file, unsigned pieces, bool fastRows = true);

} // namespace msprobe::memory
