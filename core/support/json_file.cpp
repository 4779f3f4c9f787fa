// SPDX-License-Identifier: Apache-2.0
#include "support/json_file.h"

#include "support/error.h"

#include <fstream>
#include <sstream>

namespace msprobe {

std::string readWholeFile(const std::filesystem::path& file)
{
    std::error_code ec;
    if (std::filesystem::is_directory(file, ec))
        throw Error(file.string(), {}, "is a directory, not a file");
    std::ifstream in(file, std::ios::binary);
    if (!in)
        throw Error(file.string(), {}, "cannot open the file");
    std::ostringstream text;
    text << in.rdbuf();
    if (in.bad())
        throw Error(file.string(), {}, "read error");
    return std::move(text).str();
}

nlohmann::ordered_json readSmallJsonFile(const std::filesystem::path& file)
{
    const std::string text = readWholeFile(file);
    try {
        return nlohmann::ordered_json::parse(text);
    } catch (const nlohmann::json::parse_error& error) {
        const std::size_t offset = error.byte > 0 ? error.byte - 1 : 0;
        std::string message = error.what();
        if (auto pos = message.find("parse error"); pos != std::string::npos)
            message = message.substr(pos);
        throw Error(file.string(), describeOffset(text.data(), text.size(), offset), "invalid JSON: " + message);
    }
}

} // namespace msprobe
