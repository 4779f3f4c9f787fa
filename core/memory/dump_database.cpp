// SPDX-License-Identifier: Apache-2.0
#include "memory/dump_database.h"

#include "memory/attr_parse.h"
#include "support/error.h"
#include "support/sqlite_util.h"

#include <nlohmann/json.hpp>

#include <array>
#include <vector>

namespace msprobe::memory {

namespace {

constexpr std::size_t kColumns = 12;

// The cells of the record at `p` (RFC 4180 quoting); false at the end of `text`.
bool nextRecord(std::string_view text, std::size_t& p, std::vector<std::string>& cells)
{
    cells.clear();
    while (p < text.size() && (text[p] == '\n' || text[p] == '\r'))
        ++p;
    if (p >= text.size())
        return false;
    while (true) {
        std::string& cell = cells.emplace_back();
        if (p < text.size() && text[p] == '"') {
            ++p;
            while (p < text.size()) {
                if (text[p] == '"') {
                    if (p + 1 < text.size() && text[p + 1] == '"') {
                        cell += '"';
                        p += 2;
                        continue;
                    }
                    ++p;
                    break;
                }
                cell += text[p++];
            }
        }
        while (p < text.size() && text[p] != ',' && text[p] != '\n' && text[p] != '\r')
            cell += text[p++];
        if (p >= text.size() || text[p] != ',') {
            if (p < text.size())
                ++p;
            return true;
        }
        ++p;
    }
}

} // namespace

std::string attrToJson(std::string_view attr)
{
    AttrPairs pairs;
    std::string why;
    if (attr.empty() || !splitAttr(attr, pairs, why))
        return std::string(attr);
    nlohmann::ordered_json object = nlohmann::ordered_json::object();
    for (const auto& [key, value] : pairs)
        object[std::string(key)] = std::string(value);
    return object.dump();
}

DumpDatabaseWriter::DumpDatabaseWriter(const std::filesystem::path& file)
    : m_file(file.string())
{
    std::error_code ignored;
    std::filesystem::remove(file, ignored);
    m_db = std::make_unique<support::SqliteDb>(file, false);
    m_db->exec("PRAGMA journal_mode=WAL");
    m_db->exec("CREATE TABLE memscope_dump (\"ID\" INTEGER, \"Event\" TEXT, \"Event Type\" TEXT, \"Name\" TEXT, "
               "\"Timestamp(ns)\" INTEGER, \"Process Id\" INTEGER, \"Thread Id\" INTEGER, \"Device Id\" TEXT, \"Ptr\" TEXT, "
               "\"Attr\" TEXT, \"Call Stack(Python)\" TEXT, \"Call Stack(C)\" TEXT)");
    m_insert = std::make_unique<support::SqliteStatement>(*m_db, "INSERT INTO memscope_dump VALUES (?,?,?,?,?,?,?,?,?,?,?,?)");
}

DumpDatabaseWriter::~DumpDatabaseWriter()
{
    m_insert.reset();
    m_db.reset();
}

void DumpDatabaseWriter::append(std::string_view csvRows)
{
    std::vector<std::string> cells;
    std::size_t p = 0;
    m_db->exec("BEGIN");
    try {
        std::size_t record = 0;
        while (nextRecord(csvRows, p, cells)) {
            ++record;
            if (cells.size() != kColumns)
                throw support::Error(m_file, "record " + std::to_string(record) + " of a batch",
                    "has " + std::to_string(cells.size()) + " cells where a dump row has 12");
            for (std::size_t c = 0; c < kColumns; ++c) {
                const int index = static_cast<int>(c) + 1;
                const std::string& cell = cells[c];
                const bool integer = c == 0 || c == 4 || c == 5 || c == 6;
                long long number = 0;
                if (integer && parseSigned(cell, number))
                    m_insert->bindInt(index, number);
                else if (c == 9)
                    m_insert->bindText(index, attrToJson(cell));
                else
                    m_insert->bindText(index, cell);
            }
            m_insert->run();
        }
    } catch (...) {
        m_db->exec("ROLLBACK");
        throw;
    }
    m_db->exec("COMMIT");
}

} // namespace msprobe::memory
