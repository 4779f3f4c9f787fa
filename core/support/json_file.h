// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

namespace msprobe::support {

// Reads a small JSON file (configs, mappings) with nlohmann_json: a regular file of at most
// kOptionFileLimit bytes (support/input_file.h). Errors name the file and the byte offset (line, column);
// an empty file is an error of its own. NaN/Infinity tokens are not accepted here.
nlohmann::ordered_json readSmallJsonFile(const std::filesystem::path& file);
// A whole regular file, any size (refuses FIFOs, devices, directories and /proc files with a message).
std::string readWholeFile(const std::filesystem::path& file);

} // namespace msprobe::support
