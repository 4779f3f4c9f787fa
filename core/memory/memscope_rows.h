// SPDX-License-Identifier: Apache-2.0
// The pieces the CSV and database readers of a msMemScope dump share: the header map and the row parser that
// writes one event into a caller-owned record (so the parallel CSV reader can fill its slots in place).
#pragma once

#include "memory/memscope_reader.h"

#include <array>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

namespace msprobe::memory {

// Column indexes of the ten §1.2 columns in a header row (titles matched case-insensitively, §1.9). Throws
// msprobe::Error naming `file`, line 1 and the missing title.
std::array<int, 10> mapHeader(const std::vector<std::string_view>& header, const std::string& file);

// A pool with a small cache of the texts it interned last, by length and a few bytes: a dump repeats its Event
// Types, op names and owners row after row, and a hit costs one comparison instead of a hash of the whole text
// and a probe of the pool's large table. The cached views point into the pool, which never moves its texts. It
// also keeps the last Process Id and Thread Id cells, which repeat as much.
class RecentStrings {
public:
    explicit RecentStrings(support::StringPool& pool)
        : m_pool(pool)
    {
    }
    support::StringId intern(std::string_view text);
    support::StringPool& pool() { return m_pool; }

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
    };
    support::StringPool& m_pool;
    std::array<Entry, 256> m_entries {};
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
