// SPDX-License-Identifier: Apache-2.0
#include "dump/dump_json_bytes.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <memory>
#include <vector>

namespace msprobe::dump::detail {

namespace {

std::string hexByte(unsigned char byte)
{
    static constexpr char kDigits[] = "0123456789abcdef";
    return std::string("0x") + kDigits[byte >> 4] + kDigits[byte & 15];
}

// Length of the valid UTF-8 sequence at `at` (1 to 4), or 0 when it is not one (RFC 3629: no overlong
// forms, no surrogates, nothing above U+10FFFF).
std::size_t utf8Length(std::string_view text, std::size_t at)
{
    const auto byte = [&](std::size_t i) { return at + i < text.size() ? static_cast<unsigned char>(text[at + i]) : 0u; };
    const unsigned lead = byte(0);
    const auto continuation = [&](std::size_t i) { return (byte(i) & 0xC0u) == 0x80u; };
    if (lead < 0x80)
        return 1;
    if (lead >= 0xC2 && lead <= 0xDF)
        return continuation(1) ? 2 : 0;
    if (lead >= 0xE0 && lead <= 0xEF) {
        const unsigned second = byte(1);
        if ((lead == 0xE0 && second < 0xA0) || (lead == 0xED && second > 0x9F))
            return 0;
        return continuation(1) && continuation(2) ? 3 : 0;
    }
    if (lead >= 0xF0 && lead <= 0xF4) {
        const unsigned second = byte(1);
        if ((lead == 0xF0 && second < 0x90) || (lead == 0xF4 && second > 0x8F))
            return 0;
        return continuation(1) && continuation(2) && continuation(3) ? 4 : 0;
    }
    return 0;
}

using File = std::unique_ptr<std::FILE, int (*)(std::FILE*)>;

File openFile(const std::filesystem::path& file) { return { std::fopen(file.string().c_str(), "rb"), &std::fclose }; }

constexpr std::size_t kBlock = std::size_t(1) << 20;

} // namespace

std::string nulByteMessage()
{
    return "a NUL byte (0x00), which JSON text never has: the file is not a complete dump.json (zero-filled after a crash?)";
}

std::optional<BadByte> findBadByte(std::string_view text)
{
    std::vector<std::pair<char, std::size_t>> open; // brackets not yet closed, and where they opened
    bool inString = false;
    for (std::size_t at = 0; at < text.size(); ++at) {
        const auto c = static_cast<unsigned char>(text[at]);
        if (c == 0)
            return BadByte { at, nulByteMessage() };
        if (c >= 0x80) {
            const std::size_t length = utf8Length(text, at);
            if (length == 0 && at + 4 > text.size())
                return std::nullopt; // a sequence cut by the end of the text: a truncated file, said so elsewhere
            if (length == 0)
                return BadByte { at, "invalid UTF-8 (byte " + hexByte(c) + ")" };
            at += length - 1;
            continue;
        }
        if (inString) {
            if (c < 0x20)
                return BadByte { at, "a raw control character (" + hexByte(c) + ") in a string: JSON needs it escaped" };
            if (c == '\\')
                ++at;
            else if (c == '"')
                inString = false;
            continue;
        }
        if (c < 0x20 && c != '\n' && c != '\r' && c != '\t')
            return BadByte { at, "a control character (" + hexByte(c) + ") outside any string" };
        if (c == '"') {
            inString = true;
        } else if (c == '[' || c == '{') {
            open.emplace_back(static_cast<char>(c), at);
        } else if (c == ']' || c == '}') {
            if (open.empty())
                return BadByte { at, std::string("'") + static_cast<char>(c) + "' closes nothing" };
            const char expected = open.back().first == '[' ? ']' : '}';
            if (c != static_cast<unsigned char>(expected))
                return BadByte { at, std::string("'") + open.back().first + "' closed by '" + static_cast<char>(c) + "' (opened at byte "
                                         + std::to_string(open.back().second) + ")" };
            open.pop_back();
        }
    }
    return std::nullopt;
}

std::optional<std::uint64_t> firstNulInFile(const std::filesystem::path& file)
{
    const File in = openFile(file);
    if (!in)
        return std::nullopt;
    std::vector<char> block(kBlock);
    std::uint64_t offset = 0;
    for (;;) {
        const std::size_t got = std::fread(block.data(), 1, block.size(), in.get());
        if (got == 0)
            return std::nullopt;
        if (const void* nul = std::memchr(block.data(), '\0', got))
            return offset + static_cast<std::uint64_t>(static_cast<const char*>(nul) - block.data());
        offset += got;
    }
}

std::string describeFileOffset(const std::filesystem::path& file, std::uint64_t offset)
{
    std::uint64_t line = 1, lineStart = 0, done = 0;
    if (const File in = openFile(file)) {
        std::vector<char> block(kBlock);
        while (done < offset) {
            const std::size_t want = static_cast<std::size_t>(std::min<std::uint64_t>(block.size(), offset - done));
            const std::size_t got = std::fread(block.data(), 1, want, in.get());
            if (got == 0)
                break;
            for (std::size_t i = 0; i < got; ++i)
                if (block[i] == '\n') {
                    ++line;
                    lineStart = done + i + 1;
                }
            done += got;
        }
    }
    return "byte " + std::to_string(offset) + " (line " + std::to_string(line) + ", column " + std::to_string(offset - lineStart + 1) + ")";
}

std::string printable(std::string_view text)
{
    std::string out;
    out.reserve(text.size());
    for (std::size_t at = 0; at < text.size(); ++at) {
        const auto c = static_cast<unsigned char>(text[at]);
        const std::size_t length = c >= 0x80 ? utf8Length(text, at) : 1;
        if (c < 0x20 || c == 0x7f || length == 0) {
            out += "\\x";
            out += hexByte(c).substr(2);
        } else {
            out.append(text, at, length);
            at += length - 1;
        }
    }
    return out;
}

} // namespace msprobe::dump::detail
