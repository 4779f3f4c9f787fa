// SPDX-License-Identifier: Apache-2.0
// The SQLite variant of a msMemScope dump (memscope_dump_*.db, spec §1.5) written from rows in the CSV layout:
// table memscope_dump with msMemScope's column types, Attr turned into a JSON object of strings. The capture's
// writer thread builds CSV rows either way and hands them here in db mode, so both files hold the same rows.
#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <string_view>

namespace msprobe::support {
class SqliteDb;
class SqliteStatement;
}

namespace msprobe::memory {

class DumpDatabaseWriter {
public:
    // Creates `file` (journal_mode WAL as msMemScope's) with an empty memscope_dump table. Throws msprobe::Error
    // naming the file when it cannot.
    explicit DumpDatabaseWriter(const std::filesystem::path& file);
    ~DumpDatabaseWriter();
    DumpDatabaseWriter(const DumpDatabaseWriter&) = delete;
    DumpDatabaseWriter& operator=(const DumpDatabaseWriter&) = delete;

    // Inserts the whole records of `csvRows` (the 12 §1.2 columns, no header), in one transaction. Throws
    // msprobe::Error naming the file for a record that is not 12 cells.
    void append(std::string_view csvRows);

private:
    std::unique_ptr<support::SqliteDb> m_db;
    std::unique_ptr<support::SqliteStatement> m_insert;
    std::string m_file;
};

// "{allocation_id:4,shape:torch.Size([2, 3])}" -> {"allocation_id":"4","shape":"torch.Size([2, 3])"} (§1.5: every
// value a string; values with commas kept whole by the §1.7 split). Empty for an empty cell.
std::string attrToJson(std::string_view attr);

} // namespace msprobe::memory
