// SPDX-License-Identifier: Apache-2.0
#include "support/csv_text.h"

#include "support/error.h"

#include <algorithm>
#include <fstream>
#include <sstream>

namespace msprobe::support {

int CsvTable::column(std::string_view title) const
{
    const auto it = std::find(header.begin(), header.end(), title);
    return it == header.end() ? -1 : static_cast<int>(it - header.begin());
}

CsvTable parseCsvText(std::string_view text, const std::string& fileName)
{
    if (text.starts_with("\xEF\xBB\xBF"))
        text.remove_prefix(3);
    std::vector<std::vector<std::string>> records;
    std::vector<std::size_t> startLines; // the line each record starts on
    std::vector<std::string> record;
    std::string field;
    std::size_t line = 1, recordLine = 1;
    bool quoted = false, fieldStarted = false;
    auto endRecord = [&] {
        record.push_back(std::move(field));
        field.clear();
        fieldStarted = false;
        records.push_back(std::move(record));
        startLines.push_back(recordLine);
        record.clear();
    };
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (quoted) {
            if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
                field += '"';
                ++i;
            } else if (c == '"') {
                quoted = false;
            } else {
                line += c == '\n';
                field += c;
            }
        } else if (c == '"' && !fieldStarted) {
            quoted = fieldStarted = true;
        } else if (c == ',') {
            record.push_back(std::move(field));
            field.clear();
            fieldStarted = false;
        } else if (c == '\n' || c == '\r') {
            if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n')
                ++i;
            endRecord();
            recordLine = ++line;
        } else {
            field += c;
            fieldStarted = true;
        }
    }
    if (quoted)
        throw Error(fileName, "line " + std::to_string(recordLine), "unterminated quoted field");
    if (fieldStarted || !record.empty())
        endRecord();
    if (records.empty() || (records.size() == 1 && records[0].size() == 1 && records[0][0].empty()))
        throw Error(fileName, {}, "the CSV file is empty");

    CsvTable table;
    table.header = std::move(records.front());
    table.rows.reserve(records.size() - 1);
    for (std::size_t r = 1; r < records.size(); ++r) {
        auto& row = records[r];
        if (row.size() == 1 && row[0].empty())
            continue; // blank line
        if (row.size() > table.header.size())
            throw Error(fileName, "line " + std::to_string(startLines[r]),
                "has " + std::to_string(row.size()) + " fields, the header has " + std::to_string(table.header.size()));
        row.resize(table.header.size());
        table.rows.push_back(std::move(row));
        table.lines.push_back(startLines[r]);
    }
    return table;
}

CsvTable readCsvFile(const std::filesystem::path& file)
{
    std::ifstream in(file, std::ios::binary);
    if (!in)
        throw Error(file.string(), {}, "cannot open the CSV file");
    std::ostringstream buffer;
    buffer << in.rdbuf();
    return parseCsvText(buffer.str(), file.string());
}

} // namespace msprobe::support
