// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>

namespace msprobe::support {

// The one error type the core throws. It always names the file and, where known,
// the place inside it (byte offset, line:column, or the entry/key path).
class Error : public std::runtime_error {
public:
    Error(std::string file, std::string place, const std::string& message);
    explicit Error(const std::string& message);

    const std::string& file() const { return m_file; }
    const std::string& place() const { return m_place; }
    const std::string& detail() const { return m_detail; }

private:
    std::string m_file;
    std::string m_place;
    std::string m_detail;
};

// "byte 1234 (line 56, column 7)" for a position inside an in-memory text.
std::string describeOffset(const char* begin, std::size_t size, std::size_t offset);

} // namespace msprobe::support
