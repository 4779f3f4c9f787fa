// SPDX-License-Identifier: Apache-2.0
#include "trend/monitor_csv.h"

#include "support/error.h"
#include "support/json_file.h"

namespace msprobe::trend {

int MonitorCsv::column(std::string_view title) const
{
    for (std::size_t k = 0; k < header.size(); ++k)
        if (header[k] == title)
            return static_cast<int>(k);
    return -1;
}

MonitorCsv readMonitorCsv(const std::filesystem::path& file)
{
    const std::string text = readWholeFile(file);
    MonitorCsv csv;
    std::vector<std::string> row;
    std::string cell;
    bool quoted = false, rowHasData = false;
    std::size_t line = 1;
    auto endRow = [&] {
        row.push_back(std::move(cell));
        cell.clear();
        if (csv.header.empty()) {
            csv.header = std::move(row);
        } else {
            if (row.size() > csv.header.size())
                throw Error(file.string(), "line " + std::to_string(line), "more cells than the header has");
            row.resize(csv.header.size());
            csv.rows.push_back(std::move(row));
        }
        row.clear();
        rowHasData = false;
    };
    for (std::size_t k = 0; k < text.size(); ++k) {
        const char c = text[k];
        if (quoted) {
            if (c == '"' && k + 1 < text.size() && text[k + 1] == '"') {
                cell += '"';
                ++k;
            } else if (c == '"') {
                quoted = false;
            } else {
                line += c == '\n';
                cell += c;
            }
        } else if (c == '"') {
            quoted = rowHasData = true;
        } else if (c == ',') {
            row.push_back(std::move(cell));
            cell.clear();
            rowHasData = true;
        } else if (c == '\n' || c == '\r') {
            if (c == '\r' && k + 1 < text.size() && text[k + 1] == '\n')
                ++k;
            if (rowHasData || !cell.empty())
                endRow();
            ++line;
        } else {
            cell += c;
            rowHasData = true;
        }
    }
    if (quoted)
        throw Error(file.string(), "line " + std::to_string(line), "unterminated quoted field");
    if (rowHasData || !cell.empty())
        endRow();
    if (csv.header.empty())
        throw Error(file.string(), {}, "empty file: expected a header line");
    return csv;
}

} // namespace msprobe::trend
