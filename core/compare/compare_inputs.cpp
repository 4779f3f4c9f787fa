// SPDX-License-Identifier: Apache-2.0
#include "compare/compare_inputs.h"

#include "dump/dump_tree.h"
#include "support/error.h"
#include "support/json_file.h"

#include <nlohmann/json.hpp>

#include <algorithm>

namespace fs = std::filesystem;

namespace msprobe::compare {

namespace {

// The label's numbers as the studio keys its results and -da its ranks.
void setNumbers(ComparePair& pair)
{
    const auto rank = dump::readFolderName(pair.label, dump::DumpFolderNames::Reference);
    pair.rankFolder = rank && rank->kind == dump::DumpDirName::Kind::Rank;
    if (pair.rankFolder)
        pair.rankNumber = rank->number;
    if (const auto step = dump::readFolderName(pair.step, dump::DumpFolderNames::Reference))
        pair.stepNumber = step->number;
}

std::vector<std::string> namesOf(const std::vector<dump::DumpFolder>& folders)
{
    std::vector<std::string> names;
    for (const auto& folder : folders)
        names.push_back(folder.name);
    return names;
}

// Pairs of one step directory per spec 2.2.
std::vector<ComparePair> stepPairs(const fs::path& npuStep, const fs::path& benchStep, const fs::path& outputDir,
    const std::string& step, bool firstDiff)
{
    const dump::DumpFolders npuFolders = dump::listDumpFolders(npuStep, dump::DumpFolderNames::Reference);
    const dump::DumpFolders benchFolders = dump::listDumpFolders(benchStep, dump::DumpFolderNames::Reference);
    auto npuRanks = namesOf(npuFolders.ranks); // rank2 before rank10, as discovery lists them
    auto benchRanks = namesOf(benchFolders.ranks);
    if (npuRanks.size() != benchRanks.size())
        throw support::Error(npuStep.string(), {}, "has " + std::to_string(npuRanks.size()) + " rank directories but " + benchStep.string()
                + " has " + std::to_string(benchRanks.size()) + ": the ranks of the two runs cannot be paired");
    if (npuRanks.empty()) {
        if (firstDiff)
            throw support::Error(npuStep.string(), {}, "no rank directory (rank, rank{N}) found: -da needs rank directories (a dump "
                "whose rank is unknown is written to proc{PID}; the libtorch capture writes rank{N} when RANK is set or "
                "PrecisionDebugger::setRank(N) is called)");
        auto npuProcs = namesOf(npuFolders.procs);
        auto benchProcs = namesOf(benchFolders.procs);
        if (npuProcs.size() != 1 || benchProcs.size() != 1)
            throw support::Error((npuProcs.size() != 1 ? npuStep : benchStep).string(), {},
                "no rank directory and not exactly one proc{PID} directory: nothing to compare");
        npuRanks = npuProcs;
        benchRanks = benchProcs;
    }
    // The reference reads rank 0's file to decide between dump.json and debug.json for every pair.
    const fs::path first = dump::dumpFileIn(npuStep / npuRanks.front());
    const bool debug = !first.empty() && first.filename() == "debug.json";
    std::vector<ComparePair> pairs;
    for (std::size_t i = 0; i < npuRanks.size(); ++i) {
        const char* fileName = debug ? "debug.json" : "dump.json";
        const fs::path npuJson = npuStep / npuRanks[i] / fileName;
        const fs::path benchJson = benchStep / benchRanks[i] / fileName;
        std::error_code ec;
        if (!fs::is_regular_file(npuJson, ec) || !fs::is_regular_file(benchJson, ec))
            continue; // the reference skips pairs without both files
        ComparePair pair;
        pair.npuJson = npuJson;
        pair.benchJson = benchJson;
        pair.label = npuRanks[i];
        pair.step = step;
        pair.outputDir = outputDir;
        pair.debugFile = debug;
        setNumbers(pair);
        pairs.push_back(std::move(pair));
    }
    return pairs;
}

} // namespace

std::vector<ComparePair> resolveComparePairs(const fs::path& target, const fs::path& golden, const fs::path& outputDir, bool firstDiff)
{
    std::error_code ec;
    for (const fs::path* path : { &target, &golden })
        if (!fs::exists(*path, ec))
            throw support::Error(path->string(), {}, "no such file or directory");
    const bool targetDir = fs::is_directory(target, ec), goldenDir = fs::is_directory(golden, ec);
    if (targetDir != goldenDir)
        throw support::Error(target.string(), {}, "the target and golden paths must both be files or both be directories ("
                + golden.string() + " is " + (goldenDir ? "a directory" : "a file") + ")");
    if (!targetDir) {
        auto kind = [](const fs::path& p) {
            const std::string name = p.filename().string();
            if (name.size() >= 9 && name.compare(name.size() - 9, 9, "dump.json") == 0)
                return 1;
            if (name.size() >= 10 && name.compare(name.size() - 10, 10, "debug.json") == 0)
                return 2;
            return 0;
        };
        const int t = kind(target), g = kind(golden);
        if (t == 0 || t != g)
            throw support::Error((t == 0 ? target : golden).string(), {},
                "compare takes two dump.json (or two debug.json) files, or two step directories");
        ComparePair pair;
        pair.npuJson = target;
        pair.benchJson = golden;
        pair.outputDir = outputDir;
        pair.debugFile = t == 2;
        return { pair };
    }
    // Two rank directories (each holding the dump file): one pair named after the NPU directory.
    const fs::path targetFile = dump::dumpFileIn(target), goldenFile = dump::dumpFileIn(golden);
    if (!targetFile.empty() || !goldenFile.empty()) {
        if (targetFile.empty() || goldenFile.empty())
            throw support::Error((targetFile.empty() ? target : golden).string(), {}, "has no dump.json or debug.json while the other side is a rank directory");
        ComparePair pair;
        pair.npuJson = targetFile;
        pair.benchJson = goldenFile;
        pair.label = fs::absolute(target).lexically_normal().filename().string();
        if (pair.label.empty())
            pair.label = fs::absolute(target).lexically_normal().parent_path().filename().string();
        pair.outputDir = outputDir;
        pair.debugFile = targetFile.filename() == "debug.json";
        setNumbers(pair);
        return { pair };
    }
    // Two dump_paths: pair step{N} folders by number.
    const dump::DumpFolders npuFolders = dump::listDumpFolders(target, dump::DumpFolderNames::Reference);
    if (!npuFolders.steps.empty() && npuFolders.ranks.empty() && npuFolders.procs.empty()) {
        const dump::DumpFolders benchFolders = dump::listDumpFolders(golden, dump::DumpFolderNames::Reference);
        std::vector<ComparePair> pairs;
        for (const auto& npuStep : npuFolders.steps) {
            auto bench = std::find_if(benchFolders.steps.begin(), benchFolders.steps.end(),
                [&](const dump::DumpFolder& b) { return b.number == npuStep.number; });
            if (bench == benchFolders.steps.end())
                continue;
            auto stepPairsList = stepPairs(npuStep.path, bench->path, outputDir / npuStep.name, npuStep.name, firstDiff);
            pairs.insert(pairs.end(), stepPairsList.begin(), stepPairsList.end());
        }
        if (pairs.empty())
            throw support::Error(target.string(), {}, "no step directory has a counterpart in " + golden.string());
        return pairs;
    }
    return stepPairs(target, golden, outputDir, {}, firstDiff);
}

LegacyCompareInput readLegacyCompareJson(const fs::path& file)
{
    const auto config = support::readSmallJsonFile(file); // a regular file, capped; errors give the line
    if (!config.is_object())
        throw support::Error(file.string(), {}, "compare.json must be a JSON object with \"npu_path\" and \"bench_path\"");
    LegacyCompareInput input;
    input.target = config.value("npu_path", std::string());
    input.golden = config.value("bench_path", std::string());
    input.printCompareLog = config.value("is_print_compare_log", false);
    return input;
}

} // namespace msprobe::compare
