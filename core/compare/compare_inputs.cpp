// SPDX-License-Identifier: Apache-2.0
#include "compare/compare_inputs.h"

#include "dump/dump_tree.h"
#include "support/error.h"

#include <algorithm>
#include <map>

namespace fs = std::filesystem;

namespace msprobe {

bool isRankDirectory(const std::string& name)
{
    if (name.rfind("rank", 0) != 0)
        return false;
    const std::string digits = name.substr(4);
    if (digits.empty())
        return true;
    if (!std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }))
        return false;
    return digits == "0" || digits[0] != '0';
}

namespace {

bool isProcDirectory(const std::string& name)
{
    return name.size() > 4 && name.rfind("proc", 0) == 0
        && std::all_of(name.begin() + 4, name.end(), [](char c) { return c >= '0' && c <= '9'; });
}

std::vector<std::string> subdirectories(const fs::path& dir, bool (*accept)(const std::string&))
{
    std::vector<std::string> names;
    std::error_code ec;
    for (const auto& item : fs::directory_iterator(dir, ec)) {
        std::error_code typeError;
        if (item.is_directory(typeError) && accept(item.path().filename().string()))
            names.push_back(item.path().filename().string());
    }
    if (ec)
        throw Error(dir.string(), {}, "cannot list the directory: " + ec.message());
    return names;
}

fs::path dumpFileIn(const fs::path& dir)
{
    std::error_code ec;
    if (fs::is_regular_file(dir / "dump.json", ec))
        return dir / "dump.json";
    if (fs::is_regular_file(dir / "debug.json", ec))
        return dir / "debug.json";
    return {};
}

bool isStepDirectory(const std::string& name)
{
    return name.size() > 4 && name.rfind("step", 0) == 0
        && std::all_of(name.begin() + 4, name.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// Pairs of one step directory per spec 2.2.
std::vector<ComparePair> stepPairs(const fs::path& npuStep, const fs::path& benchStep, const fs::path& outputDir,
    const std::string& step, bool firstDiff)
{
    auto npuRanks = subdirectories(npuStep, [](const std::string& n) { return isRankDirectory(n); });
    auto benchRanks = subdirectories(benchStep, [](const std::string& n) { return isRankDirectory(n); });
    std::sort(npuRanks.begin(), npuRanks.end(), dumpDirLess); // rank2 before rank10, as discovery lists them
    std::sort(benchRanks.begin(), benchRanks.end(), dumpDirLess);
    if (npuRanks.size() != benchRanks.size())
        throw Error(npuStep.string(), {}, "has " + std::to_string(npuRanks.size()) + " rank directories but " + benchStep.string()
                + " has " + std::to_string(benchRanks.size()) + ": the ranks of the two runs cannot be paired");
    if (npuRanks.empty()) {
        if (firstDiff)
            throw Error(npuStep.string(), {}, "no rank directory (rank, rank{N}) found: -da needs rank directories");
        auto npuProcs = subdirectories(npuStep, [](const std::string& n) { return isProcDirectory(n); });
        auto benchProcs = subdirectories(benchStep, [](const std::string& n) { return isProcDirectory(n); });
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
        return { pair };
    }
    // Two dump_paths: pair step{N} folders by number.
    auto npuSteps = subdirectories(target, [](const std::string& n) { return isStepDirectory(n); });
    auto benchSteps = subdirectories(golden, [](const std::string& n) { return isStepDirectory(n); });
    const bool hasRanks = !subdirectories(target, [](const std::string& n) { return isRankDirectory(n) || isProcDirectory(n); }).empty();
    if (!npuSteps.empty() && !hasRanks) {
        std::map<long, std::string> benchByNumber;
        for (const auto& s : benchSteps)
            benchByNumber[std::stol(s.substr(4))] = s;
        std::map<long, std::string> npuByNumber;
        for (const auto& s : npuSteps)
            npuByNumber[std::stol(s.substr(4))] = s;
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

} // namespace msprobe
