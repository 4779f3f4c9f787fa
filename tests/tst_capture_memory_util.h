// SPDX-License-Identifier: Apache-2.0
// Reads the msMemScope dump CSV the memory capture writes, for the memory capture tests: rows as cells
// (quoted cells may hold commas and newlines) and Attr values by key.
#pragma once

#include <QtTest/QtTest>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace msprobe::test {

struct MemRow {
    std::vector<std::string> cells;
    std::uint64_t id() const { return std::stoull(cells[0]); }
    const std::string& event() const { return cells[1]; }
    const std::string& type() const { return cells[2]; }
    const std::string& name() const { return cells[3]; }
    const std::string& attr() const { return cells[9]; }
    const std::string& pyStack() const { return cells[10]; }
    // Value of an Attr key (values end at the next ",known_key:" or the closing brace).
    std::string value(const std::string& key) const
    {
        const std::string& a = attr();
        std::size_t pos = a.find("{" + key + ":");
        if (pos == std::string::npos)
            pos = a.find("," + key + ":");
        if (pos == std::string::npos)
            return {};
        pos += key.size() + 2;
        std::size_t end = a.size() - 1; // the closing brace
        for (const char* next : { ",allocation_id:", ",addr:", ",size:", ",total:", ",used:", ",owner:", ",step:",
                 ",type:", ",dtype:", ",shape:", ",free:" })
            if (auto at = a.find(next, pos); at != std::string::npos)
                end = std::min(end, at);
        return a.substr(pos, end - pos);
    }
    std::int64_t number(const std::string& key) const
    {
        const std::string v = value(key);
        return v.empty() ? -1 : std::stoll(v, nullptr, 0);
    }
};

struct MemCsv {
    std::string header;
    std::vector<MemRow> rows; // sorted by ID
};

inline MemCsv readMemCsv(const std::filesystem::path& file)
{
    std::ifstream in(file, std::ios::binary);
    std::stringstream buffer;
    buffer << in.rdbuf();
    const std::string text = buffer.str();
    MemCsv csv;
    const auto eol = text.find('\n');
    csv.header = text.substr(0, eol);
    std::vector<std::string> cells(1);
    bool quoted = false;
    for (std::size_t i = eol == std::string::npos ? text.size() : eol + 1; i < text.size(); ++i) {
        const char c = text[i];
        if (quoted) {
            if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
                cells.back() += '"';
                ++i;
            } else if (c == '"') {
                quoted = false;
            } else {
                cells.back() += c;
            }
        } else if (c == '"') {
            quoted = true;
        } else if (c == ',') {
            cells.emplace_back();
        } else if (c == '\n') {
            csv.rows.push_back({ cells });
            cells.assign(1, std::string());
        } else {
            cells.back() += c;
        }
    }
    std::sort(csv.rows.begin(), csv.rows.end(), [](const MemRow& a, const MemRow& b) { return a.id() < b.id(); });
    return csv;
}

inline std::vector<const MemRow*> rowsOf(const MemCsv& csv, const std::string& event, const std::string& type = {})
{
    std::vector<const MemRow*> out;
    for (const auto& row : csv.rows)
        if (row.event() == event && (type.empty() || row.type() == type))
            out.push_back(&row);
    return out;
}

// The outermost op open when a row was written (ATEN_START .. ATEN_END around it in ID order, same thread).
inline std::string opAround(const MemCsv& csv, const MemRow& row)
{
    std::string open;
    for (const auto& r : csv.rows) {
        if (r.id() >= row.id())
            break;
        if (r.event() == "OP_LAUNCH" && r.cells[6] == row.cells[6])
            open = r.type() == "ATEN_START" ? r.name() : std::string();
    }
    return open;
}

} // namespace msprobe::test
