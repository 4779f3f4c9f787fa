// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace msprobe::support {

// A CSV file (a compare result, ours or the reference's; a monitor CSV) as text cells: the header and the data rows.
struct CsvTable {
    std::vector<std::string> header;
    std::vector<std::vector<std::string>> rows;
    std::vector<std::size_t> lines; // per row: the line of the file it starts on (1 is the header's)
    // Index of a header cell, or -1.
    int column(std::string_view title) const;
};

// Python csv rules (RFC 4180: quoted fields hold commas, doubled quotes and line breaks). Rows shorter than the
// header are padded with empty cells. Throws msprobe::Error naming the file and line for an unterminated quote,
// a row longer than the header, or an empty file.
CsvTable parseCsvText(std::string_view text, const std::string& fileName);
CsvTable readCsvFile(const std::filesystem::path& file);

} // namespace msprobe::support
