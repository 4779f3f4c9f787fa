// SPDX-License-Identifier: Apache-2.0
#include "compare/compare_inputs.h"

#include "dump/dump_tree.h"
#include "support/error.h"
#include "support/json_file.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>

namespace fs = std::filesystem;

namespace msprobe {

namespace {

// "rank", "rank0", "rank12" (the reference's ^rank(?:0|[1-9][0-9]*)?$).
bool isRankDirectory(const DumpDirName& name) { return name.is(DumpDirName::Kind::Rank) && name.canonical(); }
bool isProcDirectory(const DumpDirName& name) { return name.is(DumpDirName::Kind::Proc) && !name.suffix.empty() && name.numeric(); }
bool isStepDirectory(const DumpDirName& name) { return name.is(DumpDirName::Kind::Step) && !name.suffix.empty() && name.numeric(); }

fs::path dumpFileIn(const fs::path& dir)
{
    std::error_code ec;
    if (fs::is_regular_file(dir / "dump.json", ec))
        return dir / "dump.json";
    if (fs::is_regular_file(dir / "debug.json", ec))
        return dir / "debug.json";
    return {};
}

// The label's numbers as the studio keys its results and -da its ranks.
void setNumbers(ComparePair& pair)
{
    const DumpDirName rank = parseDumpDirName(pair.label);
    pair.rankFolder = isRankDirectory(rank);
    if (rank.is(DumpDirName::Kind::Rank) && rank.number)
        pair.rankNumber = static_cast<int>(*rank.number);
    if (auto step = parseDumpDirName(pair.step).number)
        pair.stepNumber = static_cast<int>(*step);
}

// Pairs of one step directory per spec 2.2.
std::vector<ComparePair> stepPairs(const fs::path& npuStep, const fs::path& benchStep, const fs::path& outputDir,
    const std::string& step, bool firstDiff)
{
    auto npuRanks = dumpSubfolders(npuStep, isRankDirectory);
    auto benchRanks = dumpSubfolders(benchStep, isRankDirectory);
    std::sort(npuRanks.begin(), npuRanks.end(), dumpDirLess); // rank2 before rank10, as discovery lists them
    std::sort(benchRanks.begin(), benchRanks.end(), dumpDirLess);
    if (npuRanks.size() != benchRanks.size())
        throw Error(npuStep.string(), {}, "has " + std::to_string(npuRanks.size()) + " rank directories but " + benchStep.string()
                + " has " + std::to_string(benchRanks.size()) + ": the ranks of the two runs cannot be paired");
    if (npuRanks.empty()) {
        if (firstDiff)
            throw Error(npuStep.string(), {}, "no rank directory (rank, rank{N}) found: -da needs rank directories (a dump "
                "whose rank is unknown is written to proc{PID}; the libtorch capture writes rank{N} when RANK is set or "
                "PrecisionDebugger::setRank(N) is called)");
        auto npuProcs = dumpSubfolders(npuStep, isProcDirectory);
        auto benchProcs = dumpSubfolders(benchStep, isProcDirectory);
        if (npuProcs.size() != 1 || benchProcs.size() != 1)
            throw Error((npuProcs.size() != 1 ? npuStep : benchStep).string(), {},
                "no rank directory and not exactly one proc{PID} directory: nothing to compare");
        npuRanks = npuProcs;
        benchRanks = benchProcs;
    }
    // The reference reads rank 0's file to decide between dump.json and debug.json for every pair.
    const fs::path first = dumpFileIn(npuStep / npuRanks.front());
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
            throw Error(path->string(), {}, "no such file or directory");
    const bool targetDir = fs::is_directory(target, ec), goldenDir = fs::is_directory(golden, ec);
    if (targetDir != goldenDir)
        throw Error(target.string(), {}, "the target and golden paths must both be files or both be directories ("
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
            throw Error((t == 0 ? target : golden).string(), {},
                "compare takes two dump.json (or two debug.json) files, or two step directories");
        ComparePair pair;
        pair.npuJson = target;
        pair.benchJson = golden;
        pair.outputDir = outputDir;
        pair.debugFile = t == 2;
        return { pair };
    }
    // Two rank directories (each holding the dump file): one pair named after the NPU directory.
    const fs::path targetFile = dumpFileIn(target), goldenFile = dumpFileIn(golden);
    if (!targetFile.empty() || !goldenFile.empty()) {
        if (targetFile.empty() || goldenFile.empty())
            throw Error((targetFile.empty() ? target : golden).string(), {}, "has no dump.json or debug.json while the other side is a rank directory");
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
    auto npuSteps = dumpSubfolders(target, isStepDirectory);
    auto benchSteps = dumpSubfolders(golden, isStepDirectory);
    const bool hasRanks = !dumpSubfolders(target, [](const DumpDirName& n) { return isRankDirectory(n) || isProcDirectory(n); }).empty();
    if (!npuSteps.empty() && !hasRanks) {
        auto byNumber = [](const std::vector<std::string>& names) {
            std::map<long long, std::string> sorted;
            for (const auto& name : names)
                sorted[parseDumpDirName(name).number.value_or(-1)] = name;
            return sorted;
        };
        const auto benchByNumber = byNumber(benchSteps);
        const auto npuByNumber = byNumber(npuSteps);
        std::vector<ComparePair> pairs;
        for (const auto& [number, name] : npuByNumber) {
            auto bench = benchByNumber.find(number);
            if (bench == benchByNumber.end())
                continue;
            auto stepPairsList = stepPairs(target / name, golden / bench->second, outputDir / name, name, firstDiff);
            pairs.insert(pairs.end(), stepPairsList.begin(), stepPairsList.end());
        }
        if (pairs.empty())
            throw Error(target.string(), {}, "no step directory has a counterpart in " + golden.string());
        return pairs;
    }
    return stepPairs(target, golden, outputDir, {}, firstDiff);
}

LegacyCompareInput readLegacyCompareJson(const fs::path& file)
{
    const auto config = readSmallJsonFile(file); // a regular file, capped; errors give the line
    if (!config.is_object())
        throw Error(file.string(), {}, "compare.json must be a JSON object with \"npu_path\" and \"bench_path\"");
    LegacyCompareInput input;
    input.target = config.value("npu_path", std::string());
    input.golden = config.value("bench_path", std::string());
    input.printCompareLog = config.value("is_print_compare_log", false);
    return input;
}

} // namespace msprobe
