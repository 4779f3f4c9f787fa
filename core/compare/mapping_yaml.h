// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "compare/compare_options.h"

#include <filesystem>

namespace msprobe {

// Reads the flat YAML mapping files of -dm / -cm: one "key: value" per line, keys and values plain or quoted
// ('...' / "..."), "#" comments and blank lines ignored. Anything else (nesting, lists) is an error naming the
// file and line. Order is kept; a repeated key keeps its last value (as a YAML loader does).
NameMapping readFlatYamlMapping(const std::filesystem::path& file);

// The same on text already in memory (displayName in errors).
NameMapping parseFlatYamlMapping(std::string_view text, const std::string& displayName);

} // namespace msprobe
