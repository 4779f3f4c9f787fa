// SPDX-License-Identifier: Apache-2.0
// Thin RAII wrappers over the SQLite C API for the vis.db writer and reader.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

struct sqlite3;
struct sqlite3_stmt;

namespace msprobe::support {

class SqliteDb {
public:
    // Throws msprobe::Error naming the file when it cannot be opened.
    SqliteDb(const std::filesystem::path& file, bool readOnly);
    // Read-only, for a file nothing changes while it is open (one this process has just written): SQLite then
    // takes no locks and creates no -wal/-shm files beside it, so nothing is left there when the process ends
    // abruptly (Ctrl-C) or when a read-only connection cannot remove them on close.
    static std::unique_ptr<SqliteDb> snapshot(const std::filesystem::path& file);
    // A private database in this process's memory (SQLite's memdb VFS) that may grow to maxBytes; `label` names
    // it in error messages (the file it will become).
    static std::unique_ptr<SqliteDb> inMemory(std::string label, std::int64_t maxBytes);
    ~SqliteDb();
    SqliteDb(const SqliteDb&) = delete;
    SqliteDb& operator=(const SqliteDb&) = delete;

    void exec(std::string_view sql);
    // The memdb database's bytes, valid until the next change or close (no copy); empty for a file database.
    std::string_view memoryImage() const;
    // True when the memdb image stays at one page-aligned address for the connection's life: bytes SQLite no
    // longer changes may then be read from memoryImage() on another thread while it works.
    bool hasFixedImage() const { return m_fixedImage != nullptr; }
    sqlite3* handle() const { return m_db; }
    const std::string& file() const { return m_file; }
    [[noreturn]] void fail(std::string_view what) const;

private:
    SqliteDb() = default;
    sqlite3* m_db = nullptr;
    std::string m_file;
    void* m_fixedImage = nullptr;
    std::size_t m_fixedImageBytes = 0;
};

class SqliteStatement {
public:
    SqliteStatement(SqliteDb& db, std::string_view sql);
    ~SqliteStatement();
    SqliteStatement(const SqliteStatement&) = delete;
    SqliteStatement& operator=(const SqliteStatement&) = delete;

    // Binders take 1-based indexes; text is copied unless stated otherwise.
    void bindText(int index, std::string_view text);
    void bindStaticText(int index, std::string_view text); // must outlive step()
    void bindInt(int index, std::int64_t value);
    void bindDouble(int index, double value);
    void bindNull(int index);
    // Runs a statement that returns no rows, then resets it for the next binding.
    void run();
    // Row iteration.
    bool step();
    void reset();
    bool isNull(int column) const;
    std::int64_t columnInt(int column) const;
    double columnDouble(int column) const;
    std::string_view columnText(int column) const;
    std::optional<std::string> columnOptionalText(int column) const;
    int columnType(int column) const; // SQLITE_INTEGER 1, FLOAT 2, TEXT 3, BLOB 4, NULL 5
    int columnCount() const;
    std::string_view columnName(int column) const;

private:
    SqliteDb& m_db;
    sqlite3_stmt* m_stmt = nullptr;
};

} // namespace msprobe::support
