// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

namespace msprobe {

// Reads a small JSON file (configs, construct.json, stack.json, mappings) with nlohmann_json.
// Errors name the file and the byte offset. NaN/Infinity tokens are not accepted here.
nlohmann::ordered_json readSmallJsonFile(const std::filesystem::path& file);
std::string readWholeFile(const std::filesystem::path& file);

} // namespace msprobe
