// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "compare/compare_options.h"

#include <filesystem>
#include <string>
#include <vector>

namespace msprobe::compare {

// Reads the flat YAML mapping files of -dm / -cm with yaml-cpp: a mapping of names to names, in block
// ("key: value" lines) or flow ({key: value}) style, with anchors, aliases and "<<" merge keys. A value that
// is not a name (a nested mapping, a list, null), a file that is not a mapping, an empty file or invalid YAML
// is an msprobe::Error naming the file and the line. Only regular files of at most kOptionFileLimit bytes are
// read. Order is kept; a repeated key keeps its first position and its last value (as a YAML loader does).
NameMapping readFlatYamlMapping(const std::filesystem::path& file);

// The same on text already in memory (displayName in errors).
NameMapping parseFlatYamlMapping(const std::string& text, const std::string& displayName);

// "'a' and 'b' both map to 'c'" for every target named by more than one key (a data mapping pairs two
// NPU items with one bench item: legal, but seldom what was meant).
std::vector<std::string> sharedMappingTargets(const NameMapping& mapping);

} // namespace msprobe::compare
