// SPDX-License-Identifier: Apache-2.0
#include "support/sqlite_util.h"

#include "support/error.h"

#include <sqlite3.h>

#include <sys/mman.h>

namespace msprobe::support {

SqliteDb::SqliteDb(const std::filesystem::path& file, bool readOnly)
    : m_file(file.string())
{
    const int flags = readOnly ? SQLITE_OPEN_READONLY : (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
    if (sqlite3_open_v2(m_file.c_str(), &m_db, flags | SQLITE_OPEN_NOMUTEX, nullptr) != SQLITE_OK) {
        std::string message = m_db ? sqlite3_errmsg(m_db) : "out of memory";
        sqlite3_close(m_db);
        m_db = nullptr;
        throw Error(m_file, {}, "cannot open the database: " + message);
    }
    sqlite3_busy_timeout(m_db, 30000);
}

std::unique_ptr<SqliteDb> SqliteDb::snapshot(const std::filesystem::path& file)
{
    std::unique_ptr<SqliteDb> db(new SqliteDb);
    db->m_file = file.string();
    // A URI path: '%', '?' and '#' (and bytes outside printable ASCII) percent-encoded.
    std::string uri = "file:";
    for (unsigned char c : std::filesystem::absolute(file).string()) {
        if (c == '%' || c == '?' || c == '#' || c <= ' ' || c >= 0x7f) {
            static const char* hex = "0123456789ABCDEF";
            uri += { '%', hex[c >> 4], hex[c & 15] };
        } else {
            uri += static_cast<char>(c);
        }
    }
    uri += "?mode=ro&immutable=1";
    if (sqlite3_open_v2(uri.c_str(), &db->m_db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX, nullptr) != SQLITE_OK) {
        std::string message = db->m_db ? sqlite3_errmsg(db->m_db) : "out of memory";
        throw Error(db->m_file, {}, "cannot open the database: " + message);
    }
    return db;
}

std::unique_ptr<SqliteDb> SqliteDb::inMemory(std::string label, std::int64_t maxBytes)
{
    std::unique_ptr<SqliteDb> db(new SqliteDb);
    db->m_file = std::move(label);
    // A name without a leading '/' keeps the memdb private to this connection.
    const int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX;
    if (sqlite3_open_v2("file:msprobe_memory_db?vfs=memdb", &db->m_db, flags, nullptr) != SQLITE_OK) {
        std::string message = db->m_db ? sqlite3_errmsg(db->m_db) : "out of memory";
        throw Error(db->m_file, {}, "cannot create the in-memory database: " + message);
    }
    // The whole size limit as one reserved, untouched mapping: pages cost memory only once written, the image
    // never moves (so it can be written out while SQLite still appends to it) and is page-aligned (so it can be
    // written with O_DIRECT straight from here). Where the address space cannot be reserved (strict overcommit,
    // ulimit -v), the memdb grows by reallocation as usual.
    void* reserved = maxBytes > 0
        ? ::mmap(nullptr, static_cast<std::size_t>(maxBytes), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0)
        : MAP_FAILED;
    if (reserved != MAP_FAILED) {
        if (sqlite3_deserialize(db->m_db, "main", static_cast<unsigned char*>(reserved), 0, maxBytes, 0) != SQLITE_OK) {
            ::munmap(reserved, static_cast<std::size_t>(maxBytes));
            db->fail("reserve memory");
        }
        db->m_fixedImage = reserved;
        db->m_fixedImageBytes = static_cast<std::size_t>(maxBytes);
    }
    sqlite3_int64 limit = maxBytes;
    if (sqlite3_file_control(db->m_db, "main", SQLITE_FCNTL_SIZE_LIMIT, &limit) != SQLITE_OK)
        db->fail("size limit");
    return db;
}

std::string_view SqliteDb::memoryImage() const
{
    sqlite3_int64 size = 0;
    const unsigned char* data = sqlite3_serialize(m_db, "main", &size, SQLITE_SERIALIZE_NOCOPY);
    return data ? std::string_view(reinterpret_cast<const char*>(data), static_cast<std::size_t>(size)) : std::string_view {};
}

SqliteDb::~SqliteDb()
{
    sqlite3_close(m_db);
    if (m_fixedImage)
        ::munmap(m_fixedImage, m_fixedImageBytes);
}

void SqliteDb::fail(std::string_view what) const
{
    throw Error(m_file, std::string(what), std::string("SQLite: ") + sqlite3_errmsg(m_db));
}

void SqliteDb::exec(std::string_view sql)
{
    char* message = nullptr;
    if (sqlite3_exec(m_db, std::string(sql).c_str(), nullptr, nullptr, &message) != SQLITE_OK) {
        std::string text = message ? message : "error";
        sqlite3_free(message);
        throw Error(m_file, std::string(sql.substr(0, 60)), "SQLite: " + text);
    }
}

SqliteStatement::SqliteStatement(SqliteDb& db, std::string_view sql)
    : m_db(db)
{
    if (sqlite3_prepare_v2(db.handle(), sql.data(), static_cast<int>(sql.size()), &m_stmt, nullptr) != SQLITE_OK)
        db.fail(sql.substr(0, 60));
}

SqliteStatement::~SqliteStatement() { sqlite3_finalize(m_stmt); }

// A null data pointer would bind SQL NULL; an empty text must stay ''.
void SqliteStatement::bindText(int index, std::string_view text)
{
    sqlite3_bind_text(m_stmt, index, text.data() ? text.data() : "", static_cast<int>(text.size()), SQLITE_TRANSIENT);
}

void SqliteStatement::bindStaticText(int index, std::string_view text)
{
    sqlite3_bind_text(m_stmt, index, text.data() ? text.data() : "", static_cast<int>(text.size()), SQLITE_STATIC);
}

void SqliteStatement::bindInt(int index, std::int64_t value) { sqlite3_bind_int64(m_stmt, index, value); }
void SqliteStatement::bindDouble(int index, double value) { sqlite3_bind_double(m_stmt, index, value); }
void SqliteStatement::bindNull(int index) { sqlite3_bind_null(m_stmt, index); }

void SqliteStatement::run()
{
    const int rc = sqlite3_step(m_stmt);
    sqlite3_reset(m_stmt);
    if (rc != SQLITE_DONE && rc != SQLITE_ROW)
        m_db.fail("insert");
}

bool SqliteStatement::step()
{
    const int rc = sqlite3_step(m_stmt);
    if (rc == SQLITE_ROW)
        return true;
    if (rc != SQLITE_DONE)
        m_db.fail("query");
    return false;
}

void SqliteStatement::reset()
{
    sqlite3_reset(m_stmt);
    sqlite3_clear_bindings(m_stmt);
}

bool SqliteStatement::isNull(int column) const { return sqlite3_column_type(m_stmt, column) == SQLITE_NULL; }
std::int64_t SqliteStatement::columnInt(int column) const { return sqlite3_column_int64(m_stmt, column); }
double SqliteStatement::columnDouble(int column) const { return sqlite3_column_double(m_stmt, column); }
int SqliteStatement::columnType(int column) const { return sqlite3_column_type(m_stmt, column); }
int SqliteStatement::columnCount() const { return sqlite3_column_count(m_stmt); }
std::string_view SqliteStatement::columnName(int column) const
{
    const char* name = sqlite3_column_name(m_stmt, column);
    return name ? std::string_view(name) : std::string_view {};
}

std::string_view SqliteStatement::columnText(int column) const
{
    const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(m_stmt, column));
    return text ? std::string_view(text, static_cast<std::size_t>(sqlite3_column_bytes(m_stmt, column))) : std::string_view {};
}

std::optional<std::string> SqliteStatement::columnOptionalText(int column) const
{
    if (isNull(column))
        return std::nullopt;
    return std::string(columnText(column));
}

} // namespace msprobe::support
