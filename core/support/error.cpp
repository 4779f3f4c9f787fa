// SPDX-License-Identifier: Apache-2.0
#include "support/error.h"

#include <algorithm>

namespace msprobe::support {

namespace {
std::string compose(const std::string& file, const std::string& place, const std::string& message)
{
    std::string text;
    if (!file.empty())
        text += file;
    if (!place.empty())
        text += (text.empty() ? "" : ": ") + place;
    if (!text.empty())
        text += ": ";
    return text + message;
}
} // namespace

Error::Error(std::string file, std::string place, const std::string& message)
    : std::runtime_error(compose(file, place, message))
    , m_file(std::move(file))
    , m_place(std::move(place))
    , m_detail(message)
{
}

Error::Error(const std::string& message)
    : std::runtime_error(message)
    , m_detail(message)
{
}

std::string describeOffset(const char* begin, std::size_t size, std::size_t offset)
{
    offset = std::min(offset, size);
    std::size_t line = 1 + static_cast<std::size_t>(std::count(begin, begin + offset, '\n'));
    std::size_t lineStart = offset;
    while (lineStart > 0 && begin[lineStart - 1] != '\n')
        --lineStart;
    return "byte " + std::to_string(offset) + " (line " + std::to_string(line) + ", column "
        + std::to_string(offset - lineStart + 1) + ")";
}

} // namespace msprobe::support
