// SPDX-License-Identifier: Apache-2.0
// Internal to the dump.json reader: the bytes that make a text unreadable (a NUL, a raw control character
// in a string, invalid UTF-8, a bracket closed by the wrong kind), found and named for the message, and
// text from a file made safe to print.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace msprobe::dump::detail {

struct BadByte {
    std::uint64_t offset = 0;
    std::string message;
};

// The first bad byte of a JSON text, if any. A plain byte scan: only used to explain a failed parse.
std::optional<BadByte> findBadByte(std::string_view text);

// The message for a NUL byte (shared by the scan of a text and of a file).
std::string nulByteMessage();

// The offset of the first NUL byte of a file, read a block at a time; nullopt when there is none or the
// file cannot be read.
std::optional<std::uint64_t> firstNulInFile(const std::filesystem::path& file);

// "byte 1234 (line 56, column 7)" for an offset of a file, read a block at a time.
std::string describeFileOffset(const std::filesystem::path& file, std::uint64_t offset);

// Text from a file made safe for a terminal: control characters, DEL and bytes that are not valid
// UTF-8 become \xNN; valid UTF-8 is kept.
std::string printable(std::string_view text);

} // namespace msprobe::dump::detail
