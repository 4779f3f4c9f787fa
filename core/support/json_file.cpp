// SPDX-License-Identifier: Apache-2.0
#include "support/json_file.h"

#include "support/error.h"
#include "support/input_file.h"

namespace msprobe::support {

std::string readWholeFile(const std::filesystem::path& file)
{
    return readRegularFile(file);
}

nlohmann::ordered_json readSmallJsonFile(const std::filesystem::path& file)
{
    const std::string text = readRegularFile(file, kOptionFileLimit);
    if (text.find_first_not_of(" \t\r\n") == std::string::npos)
        throw Error(file.string(), {}, "the file is empty (expected a JSON document)");
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

} // namespace msprobe::support
