// SPDX-License-Identifier: Apache-2.0
#include "memorydbstacks.h"

#include "memorystacks.h"

#include "support/sqlite_util.h"

#include <fstream>
#include <string_view>

namespace msprobe::studio {

namespace {

constexpr std::string_view kStackColumns = "\"Call Stack(Python)\", \"Call Stack(C)\"";

bool hasFrame(std::string_view cell) { return !cell.empty() && cell != "NA" && cell != "N/A"; }

std::string cellAt(const support::SqliteStatement& statement, int column)
{
    if (statement.isNull(column))
        return {};
    const std::string_view text = statement.columnText(column);
    return hasFrame(text) ? std::string(text) : std::string();
}

} // namespace

bool DatabaseStackRows::isDatabase(const std::filesystem::path& file)
{
    char magic[16] = {};
    std::ifstream in(file, std::ios::binary);
    in.read(magic, sizeof magic);
    return std::string_view(magic, 15) == "SQLite format 3";
}

std::shared_ptr<const DatabaseStackRows> DatabaseStackRows::build(const std::filesystem::path& file, const std::atomic<bool>* cancel)
{
    if (!isDatabase(file))
        return nullptr;
    try {
        support::SqliteDb db(file, true);
        // Stacks are on or off for a whole capture: the first thousand rows tell (a table without the columns
        // fails to prepare, and has none).
        bool stacks = false;
        {
            support::SqliteStatement first(db, "SELECT " + std::string(kStackColumns) + " FROM memscope_dump ORDER BY rowid LIMIT 1000");
            while (!stacks && first.step())
                stacks = !cellAt(first, 0).empty() || !cellAt(first, 1).empty();
        }
        if (!stacks)
            return nullptr;
        auto rows = std::make_shared<DatabaseStackRows>();
        rows->m_file = file;
        support::SqliteStatement rowids(db, "SELECT rowid FROM memscope_dump ORDER BY rowid");
        for (std::uint64_t row = 0; rowids.step(); ++row) {
            if (row % kStride == 0) {
                if (cancel && cancel->load())
                    return nullptr;
                rows->m_rowids.push_back(rowids.columnInt(0));
            }
        }
        return rows;
    } catch (const std::exception&) {
        return nullptr; // not a dump database with stacks (core's reader says what is wrong with it, if anything)
    }
}

CallStacks DatabaseStackRows::stacksAt(std::uint64_t row) const
{
    CallStacks out;
    if (row == 0 || (row - 1) / kStride >= m_rowids.size())
        return out;
    try {
        support::SqliteDb db(m_file, true);
        support::SqliteStatement statement(db,
            "SELECT " + std::string(kStackColumns) + " FROM memscope_dump WHERE rowid >= ?1 ORDER BY rowid LIMIT 1 OFFSET ?2");
        statement.bindInt(1, m_rowids[(row - 1) / kStride]);
        statement.bindInt(2, static_cast<std::int64_t>((row - 1) % kStride));
        if (statement.step()) {
            out.python = cellAt(statement, 0);
            out.c = cellAt(statement, 1);
        }
    } catch (const std::exception&) {
        // the file changed or went away since it was opened: no stacks to show
    }
    return out;
}

} // namespace msprobe::studio
