// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "graph/model/graph_model.h"
#include "support/python_text.h"

#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace msprobe::graph {

// What the builder noticed about its input that did not stop it.
struct BuildReport {
    std::size_t unreachableNodes = 0; // construct nodes whose parent chain never reaches the root (not exported)
    std::size_t droppedParameterGrads = 0; // parameters_grad entries without a backward module to hang on
    std::vector<std::string> warnings;
};

// Where a rank's dump.json comes from: the file read here, or a parse shared with a compare (the studio).
using DumpFileSource = std::function<std::shared_ptr<const dump::DumpFile>(const std::filesystem::path& dumpJson)>;

// Builds the graph of one rank directory (construct.json, dump.json, stack.json). Throws msprobe::Error
// naming the file for a missing file, malformed JSON, or an empty construct.json (L1 dumps). readDump, when
// set, gives the parsed dump.json instead of reading the file.
Graph buildGraph(const std::filesystem::path& rankDir, BuildReport* report = nullptr, const DumpFileSource& readDump = {});

// The same from data already loaded; rankDir decides where tensor files are looked for.
Graph buildGraph(dump::ConstructInfo construct, std::shared_ptr<const dump::DumpFile> dump, dump::StackInfo stack,
    const std::filesystem::path& rankDir, BuildReport* report = nullptr);

// Python's re.sub(r"\.backward\.(\d+)$", ".forward.\1") and friends; return false when the pattern is absent.
bool endsWithDirectionNumber(std::string_view name, std::string_view direction, std::size_t* directionStart = nullptr);
std::string swapDirectionNumber(std::string_view name, std::string_view from, std::string_view to);
std::string replaceAllText(std::string_view text, std::string_view what, std::string_view with);

} // namespace msprobe::graph
