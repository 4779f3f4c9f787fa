// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace msprobe {

// One dump.json pair to compare and where its results go.
struct ComparePair {
    std::filesystem::path npuJson, benchJson;
    std::string label; // output-name suffix without the underscore: "" (file inputs), "rank0", "proc1234"
    std::string step; // "step0" for dump_path inputs, else empty
    std::filesystem::path outputDir;
    bool debugFile = false; // debug.json pair
};

// Resolves -tp/-gp as the reference does (spec 2.2), plus two extensions: two rank directories (each holding a
// dump.json) and two dump_paths (step{N}/ folders, paired by step number, results in {out}/step{N}/).
// Throws msprobe::Error naming the path for: a missing path, a file paired with a directory, different rank
// counts, no rank directory, a file that is not dump.json/debug.json.
std::vector<ComparePair> resolveComparePairs(const std::filesystem::path& target, const std::filesystem::path& golden,
    const std::filesystem::path& outputDir, bool firstDiffAnalyze);

// "rank", "rank0", "rank12" (the reference's ^rank(?:0|[1-9][0-9]*)?$).
bool isRankDirectory(const std::string& name);

} // namespace msprobe
