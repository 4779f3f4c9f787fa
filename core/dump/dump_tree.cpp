// SPDX-License-Identifier: Apache-2.0
#include "dump/dump_tree.h"

#include "support/error.h"

#include <algorithm>
#include <charconv>
#include <tuple>

namespace fs = std::filesystem;

namespace msprobe {

namespace {

std::optional<long long> numberAfter(const std::string& name, std::string_view prefix)
{
    if (name.size() <= prefix.size() || name.compare(0, prefix.size(), prefix) != 0)
        return std::nullopt;
    const char* begin = name.data() + prefix.size();
    const char* end = name.data() + name.size();
    if (!std::all_of(begin, end, [](char c) { return c >= '0' && c <= '9'; }) || end - begin > 9)
        return std::nullopt;
    long long value = 0;
    std::from_chars(begin, end, value);
    return value;
}

std::vector<fs::path> subdirectories(const fs::path& dir)
{
    std::error_code ec;
    fs::directory_iterator it(dir, ec);
    if (ec)
        throw Error(dir.string(), {}, "cannot list the directory: " + ec.message());
    std::vector<fs::path> result;
    for (const auto& item : it) {
        std::error_code typeError;
        if (item.is_directory(typeError))
            result.push_back(item.path());
    }
    return result;
}

RankDump makeRankDump(const fs::path& dir)
{
    RankDump rank;
    rank.dir = dir;
    rank.label = dir.filename().string();
    if (auto number = numberAfter(rank.label, "rank"))
        rank.rank = static_cast<int>(*number);
    std::error_code ec;
    if (fs::is_regular_file(dir / "dump.json", ec)) {
        rank.dumpJson = dir / "dump.json";
    } else if (fs::is_regular_file(dir / "debug.json", ec)) {
        rank.dumpJson = dir / "debug.json";
        rank.isDebug = true;
    }
    return rank;
}

// "rank" < rank0 < rank1 < ... < proc dirs (by pid).
auto rankOrder(const RankDump& dump)
{
    if (dump.label == "rank")
        return std::make_tuple(0, -1LL, dump.label);
    if (dump.rank)
        return std::make_tuple(1, static_cast<long long>(*dump.rank), dump.label);
    if (auto pid = numberAfter(dump.label, "proc"))
        return std::make_tuple(2, *pid, dump.label);
    return std::make_tuple(3, 0LL, dump.label);
}

bool hasDumpFile(const fs::path& dir)
{
    std::error_code ec;
    return fs::is_regular_file(dir / "dump.json", ec) || fs::is_regular_file(dir / "debug.json", ec);
}

StepDump makeStepDump(const fs::path& dir)
{
    StepDump step;
    step.dir = dir;
    step.label = dir.filename().string();
    step.step = stepNumberOf(step.label);
    for (const auto& sub : subdirectories(dir))
        if (isRankDirName(sub.filename().string()))
            step.ranks.push_back(makeRankDump(sub));
    std::sort(step.ranks.begin(), step.ranks.end(),
        [](const RankDump& a, const RankDump& b) { return rankOrder(a) < rankOrder(b); });
    return step;
}

} // namespace

bool isRankDirName(const std::string& name)
{
    return name == "rank" || numberAfter(name, "rank").has_value() || numberAfter(name, "proc").has_value();
}

std::optional<int> stepNumberOf(const std::string& name)
{
    if (auto number = numberAfter(name, "step"))
        return static_cast<int>(*number);
    return std::nullopt;
}

DumpTree discoverDumpTree(const fs::path& path)
{
    DumpTree tree;
    tree.input = path;
    std::error_code ec;
    if (!fs::exists(path, ec))
        throw Error(path.string(), {}, "no such file or directory");

    if (fs::is_regular_file(path, ec)) {
        const std::string name = path.filename().string();
        if (name != "dump.json" && name != "debug.json" && path.extension() != ".json")
            throw Error(path.string(), {}, "not a dump file (expected dump.json or debug.json)");
        tree.kind = DumpRootKind::File;
        RankDump rank;
        rank.dir = path.parent_path();
        rank.label = rank.dir.filename().string();
        if (auto number = numberAfter(rank.label, "rank"))
            rank.rank = static_cast<int>(*number);
        rank.dumpJson = path;
        rank.isDebug = name == "debug.json";
        StepDump step;
        step.dir = rank.dir;
        step.ranks.push_back(std::move(rank));
        tree.steps.push_back(std::move(step));
        return tree;
    }
    if (!fs::is_directory(path, ec))
        throw Error(path.string(), {}, "neither a directory nor a regular file");

    if (hasDumpFile(path)) {
        tree.kind = DumpRootKind::RankDir;
        StepDump step;
        step.dir = path;
        step.ranks.push_back(makeRankDump(path));
        tree.steps.push_back(std::move(step));
        return tree;
    }

    const auto subs = subdirectories(path);
    const bool hasRankDirs = std::any_of(subs.begin(), subs.end(),
        [](const fs::path& sub) { return isRankDirName(sub.filename().string()); });
    if (hasRankDirs) {
        tree.kind = DumpRootKind::StepDir;
        tree.steps.push_back(makeStepDump(path));
        return tree;
    }
    for (const auto& sub : subs)
        if (stepNumberOf(sub.filename().string()))
            tree.steps.push_back(makeStepDump(sub));
    if (tree.steps.empty())
        throw Error(path.string(), {},
            "no msprobe dump found: expected step{N}/ or rank*/proc*/ sub-directories, or a dump.json file");
    tree.kind = DumpRootKind::DumpPath;
    std::sort(tree.steps.begin(), tree.steps.end(),
        [](const StepDump& a, const StepDump& b) { return a.step.value_or(-1) < b.step.value_or(-1); });
    return tree;
}

std::string_view toString(DumpRootKind kind)
{
    switch (kind) {
    case DumpRootKind::DumpPath: return "dump_path";
    case DumpRootKind::StepDir: return "step directory";
    case DumpRootKind::RankDir: return "rank directory";
    case DumpRootKind::File: return "dump file";
    }
    return "";
}

} // namespace msprobe
