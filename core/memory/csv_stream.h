// SPDX-License-Identifier: Apache-2.0
// CSV records read from a file a block at a time (RFC 4180: quoted fields hold commas, doubled quotes and line
// breaks), so a multi-GB dump never has to be in memory whole.
#pragma once

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace msprobe::memory {

class CsvStream {
public:
    // Throws msprobe::Error naming the file unless it is a readable regular file (a FIFO never blocks).
    explicit CsvStream(const std::filesystem::path& file);

    // The next record's cells; false at the end of the file. A blank line is skipped. Throws msprobe::Error
    // naming the file and line for a quote left open at the end of the file or text after a closing quote.
    bool next(std::vector<std::string>& cells);
    // The line the last record returned starts on (1-based).
    std::uint64_t recordLine() const { return m_recordLine; }
    std::uint64_t bytesRead() const { return m_bytesRead; }
    const std::string& fileName() const { return m_name; }

private:
    bool fill();

    std::string m_name;
    std::ifstream m_in;
    std::vector<char> m_buffer;
    std::size_t m_pos = 0, m_end = 0;
    std::uint64_t m_line = 1, m_recordLine = 0, m_bytesRead = 0;
    bool m_eof = false, m_bomChecked = false;
};

} // namespace msprobe::memory
