// SPDX-License-Identifier: Apache-2.0
#include "memory/write_back.h"

#include "memory/attr_parse.h"
#include "support/atomic_file.h"
#include "support/error.h"
#include "support/input_file.h"
#include "support/sqlite_util.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <sstream>

namespace msprobe::memory {

namespace {

std::string mergedValue(std::string_view existing, const AttrUpdate& update)
{
    if (!update.mergeList)
        return update.value;
    std::string out(existing);
    auto has = [&](std::string_view item) {
        std::size_t start = 0;
        while (start <= existing.size()) {
            const auto comma = existing.find(',', start);
            if (existing.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start) == item)
                return true;
            if (comma == std::string_view::npos)
                return false;
            start = comma + 1;
        }
        return false;
    };
    std::size_t start = 0;
    const std::string_view add = update.value;
    while (start <= add.size()) {
        const auto comma = add.find(',', start);
        const auto item = add.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start);
        if (!item.empty() && !has(item))
            out += (out.empty() ? "" : ",") + std::string(item);
        if (comma == std::string_view::npos)
            break;
        start = comma + 1;
    }
    return out;
}

struct Span {
    std::size_t begin, end; // the cell's bytes, quotes included
};

// The record at `p` (not a blank line): its cells' spans; returns where the next record may start. `line` (the
// line at `p`) comes back as the line after the record, counting '\n' as the reader does.
std::size_t scanRecord(std::string_view s, std::size_t p, std::uint64_t& line, std::vector<Span>& cells, const std::string& file)
{
    cells.clear();
    const auto recordLine = line;
    while (true) {
        const std::size_t begin = p;
        if (p < s.size() && s[p] == '"') {
            ++p;
            while (true) {
                const auto quote = s.find('"', p);
                if (quote == std::string_view::npos)
                    throw support::Error(file, "line " + std::to_string(recordLine), "a quoted cell is not closed before the end of the file");
                line += static_cast<std::uint64_t>(std::count(s.begin() + static_cast<std::ptrdiff_t>(p), s.begin() + static_cast<std::ptrdiff_t>(quote), '\n'));
                p = quote + 1;
                if (p < s.size() && s[p] == '"') {
                    ++p;
                    continue;
                }
                break;
            }
        } else
            while (p < s.size() && s[p] != ',' && s[p] != '\n' && s[p] != '\r')
                ++p;
        cells.push_back({ begin, p });
        if (p >= s.size())
            return p;
        const char c = s[p++];
        if (c == ',')
            continue;
        if (c == '\r' && p < s.size() && s[p] == '\n')
            ++p;
        line += c != '\r' || s[p - 1] == '\n';
        return p;
    }
}

std::string unquoted(std::string_view cell)
{
    if (cell.size() < 2 || cell.front() != '"')
        return std::string(cell);
    std::string out;
    for (std::size_t i = 1; i + 1 < cell.size(); ++i) {
        out += cell[i];
        if (cell[i] == '"')
            ++i;
    }
    return out;
}

std::string quotedCell(std::string_view text)
{
    std::string out = "\"";
    for (const char c : text)
        out += c == '"' ? std::string("\"\"") : std::string(1, c);
    return out + "\"";
}

// A header cell as compared: lower case, without blanks.
std::string headerKey(std::string_view text)
{
    std::string out;
    for (const char c : text)
        if (c != ' ' && c != '\t' && c != '\r')
            out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

void writeBackCsv(const std::filesystem::path& path, std::vector<AttrUpdate>& updates)
{
    const std::string file = path.string();
    std::string content;
    {
        std::ifstream in(path, std::ios::binary);
        std::ostringstream buffer;
        buffer << in.rdbuf();
        if (!in)
            throw support::Error(file, {}, "cannot be read");
        content = std::move(buffer).str();
    }
    const std::string_view s = content;
    std::size_t p = s.starts_with("\xEF\xBB\xBF") ? 3 : 0;
    std::uint64_t line = 1;
    std::vector<Span> cells;
    p = scanRecord(s, p, line, cells, file);
    int idColumn = -1, attrColumn = -1;
    for (std::size_t c = 0; c < cells.size(); ++c) {
        const auto title = headerKey(unquoted(s.substr(cells[c].begin, cells[c].end - cells[c].begin)));
        if (title == "id")
            idColumn = static_cast<int>(c);
        else if (title == "attr")
            attrColumn = static_cast<int>(c);
    }
    if (idColumn < 0 || attrColumn < 0)
        throw support::Error(file, "line 1", "the header has no ID or Attr column");
    support::AtomicFile out(path);
    std::size_t copied = 0, next = 0;
    while (next < updates.size()) {
        while (p < s.size() && (s[p] == '\n' || s[p] == '\r'))
            line += s[p++] == '\n';
        if (p >= s.size())
            break;
        const auto recordLine = line;
        p = scanRecord(s, p, line, cells, file);
        if (recordLine < updates[next].line)
            continue;
        if (recordLine > updates[next].line)
            break; // the update's line is not where a row starts
        const auto place = "line " + std::to_string(recordLine);
        if (cells.size() <= static_cast<std::size_t>(std::max(idColumn, attrColumn)))
            throw support::Error(file, place, "the row has no Attr cell");
        const auto idText = unquoted(s.substr(cells[idColumn].begin, cells[idColumn].end - cells[idColumn].begin));
        if (idText != std::to_string(updates[next].id))
            throw support::Error(file, place, "the row's ID is " + idText + ", not " + std::to_string(updates[next].id)
                    + " (the dump changed since it was read?)");
        const Span attr = cells[attrColumn];
        std::string text = unquoted(s.substr(attr.begin, attr.end - attr.begin));
        try {
            for (; next < updates.size() && updates[next].line == recordLine; ++next)
                text = updatedAttr(text, updates[next]);
        } catch (const support::Error& error) {
            throw support::Error(file, place + ", column " + std::to_string(attrColumn + 1) + " (Attr)", error.what());
        }
        out.write(s.substr(copied, attr.begin - copied));
        out.write(quotedCell(text));
        copied = attr.end;
    }
    if (next < updates.size())
        throw support::Error(file, "line " + std::to_string(updates[next].line),
            "no row starts on this line (the dump changed since it was read?)");
    out.write(s.substr(copied));
    const auto permissions = std::filesystem::status(path).permissions();
    out.commit();
    std::error_code ignored;
    std::filesystem::permissions(path, permissions, ignored);
}

std::string sqlQuoted(const std::string& text)
{
    std::string out = "'";
    for (const char c : text)
        out += c == '\'' ? std::string("''") : std::string(1, c);
    return out + "'";
}

void writeBackDb(const std::filesystem::path& path, std::vector<AttrUpdate>& updates)
{
    const std::string file = path.string();
    support::AtomicFile out(path);
    std::string journalMode = "delete";
    {
        // A consistent copy, WAL contents included, under the temporary name.
        support::SqliteDb source(path, true);
        {
            support::SqliteStatement mode(source, "PRAGMA journal_mode");
            if (mode.step())
                journalMode = std::string(mode.columnText(0));
        } // finished before the VACUUM, which refuses to run beside an open statement
        source.exec("VACUUM INTO " + sqlQuoted(out.temporaryPath().string()));
    }
    {
        support::SqliteDb copy(out.temporaryPath(), false);
        copy.exec("BEGIN");
        {
            support::SqliteStatement select(copy, "SELECT rowid, Attr FROM memscope_dump WHERE ID = ? AND \"Process Id\" = ?");
            support::SqliteStatement update(copy, "UPDATE memscope_dump SET Attr = ? WHERE rowid = ?");
            for (const auto& item : updates) {
                const auto place = "row ID " + std::to_string(item.id) + " of process " + std::to_string(item.pid);
                select.reset();
                select.bindInt(1, static_cast<std::int64_t>(item.id));
                select.bindInt(2, item.pid);
                if (!select.step())
                    throw support::Error(file, place, "no such row in memscope_dump (the dump changed since it was read?)");
                const auto rowid = select.columnInt(0);
                const auto text = select.columnOptionalText(1).value_or("");
                auto json = text.empty() ? nlohmann::ordered_json::object() : nlohmann::ordered_json::parse(text, nullptr, false);
                if (json.is_discarded() || !json.is_object())
                    throw support::Error(file, place + ", column Attr", "Attr is not a JSON object");
                const auto existing = json.contains(item.key) && json[item.key].is_string() ? json[item.key].get<std::string>() : std::string();
                json[item.key] = mergedValue(existing, item);
                update.reset();
                update.bindText(1, json.dump());
                update.bindInt(2, rowid);
                update.run();
            }
        } // statements finished: journal_mode cannot change while one holds a read open
        copy.exec("COMMIT");
        copy.exec("PRAGMA journal_mode=" + journalMode);
    }
    out.commit();
}

} // namespace

std::string updatedAttr(std::string_view attr, const AttrUpdate& update)
{
    AttrPairs pairs;
    std::string why;
    if (!splitAttr(attr, pairs, why))
        throw support::Error(why);
    if (attr.size() >= 2 && attr.front() == '"' && attr.back() == '"')
        attr = attr.substr(1, attr.size() - 2);
    for (const auto& [key, value] : pairs)
        if (key == update.key) {
            const auto begin = static_cast<std::size_t>(value.data() - attr.data());
            return std::string(attr.substr(0, begin)) + mergedValue(value, update) + std::string(attr.substr(begin + value.size()));
        }
    const std::string item = update.key + ":" + mergedValue({}, update);
    if (attr.empty())
        return "{" + item + "}";
    return std::string(attr.substr(0, attr.size() - 1)) + (pairs.empty() ? "" : ",") + item + "}";
}

void writeBackAttrs(const std::filesystem::path& file, std::vector<AttrUpdate> updates)
{
    support::checkRegularFile(file);
    if (updates.empty())
        return;
    std::stable_sort(updates.begin(), updates.end(), [](const AttrUpdate& a, const AttrUpdate& b) { return a.line < b.line; });
    char magic[16] = {};
    {
        std::ifstream in(file, std::ios::binary);
        in.read(magic, sizeof magic);
    }
    if (file.extension() == ".db" || std::string_view(magic, 15) == "SQLite format 3")
        writeBackDb(file, updates);
    else
        writeBackCsv(file, updates);
}

} // namespace msprobe::memory
