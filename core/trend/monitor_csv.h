// SPDX-License-Identifier: Apache-2.0
// A monitor CSV file as text cells (Python csv rules: quoted fields hold commas and doubled quotes).
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace msprobe::trend {

struct MonitorCsv {
    std::vector<std::string> header;
    std::vector<std::vector<std::string>> rows; // padded to the header's width
    int column(std::string_view title) const; // -1 when absent
};

// Throws msprobe::Error naming the file and line for an unterminated quote or a row longer than the header.
MonitorCsv readMonitorCsv(const std::filesystem::path& file);

} // namespace msprobe::trend
