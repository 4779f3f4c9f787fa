// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace msprobe::compare {

// One dump.json pair to compare and where its results go.
struct ComparePair {
    std::filesystem::path npuJson, benchJson;
    std::string label; // output-name suffix without the underscore: "" (file inputs), "rank0", "proc1234"
    std::string step; // "step0" for dump_path inputs, else empty
    int stepNumber = 0; // 0 when there is no step level
    int rankNumber = 0; // the N of a rank{N} label; 0 for "rank", proc{PID} and file inputs
    bool rankFolder = false; // the label is a rank folder ("rank", "rank{N}"): -da analyses these
    std::filesystem::path outputDir;
    bool debugFile = false; // debug.json pair
};

// Resolves -tp/-gp as the reference does (spec 2.2), plus two extensions: two rank directories (each holding a
// dump.json) and two dump_paths (step{N}/ folders, paired by step number, results in {out}/step{N}/).
// Throws msprobe::Error naming the path for: a missing path, a file paired with a directory, different rank
// counts, no rank directory, a file that is not dump.json/debug.json.
std::vector<ComparePair> resolveComparePairs(const std::filesystem::path& target, const std::filesystem::path& golden,
    const std::filesystem::path& outputDir, bool firstDiffAnalyze);

// The legacy -i compare.json: {"npu_path": ..., "bench_path": ..., "is_print_compare_log": true|false}; missing
// paths come back empty. Throws msprobe::Error naming the file (and the line) when it is not such an object.
struct LegacyCompareInput {
    std::string target, golden;
    bool printCompareLog = false;
};
LegacyCompareInput readLegacyCompareJson(const std::filesystem::path& file);

} // namespace msprobe::compare
