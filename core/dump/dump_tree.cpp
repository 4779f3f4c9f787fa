// SPDX-License-Identifier: Apache-2.0
#include "dump/dump_tree.h"

#include "support/error.h"
#include "support/input_file.h"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <tuple>

namespace fs = std::filesystem;

namespace msprobe {

namespace {

// prefix + 1 to 9 digits (leading zeros allowed): what msprobe writes as a step, rank or proc folder.
std::optional<long long> numberAfter(const std::string& name, DumpDirName::Kind kind)
{
    const DumpDirName parsed = parseDumpDirName(name);
    if (parsed.kind != kind || parsed.suffix.empty() || parsed.suffix.size() > 9 || !parsed.numeric())
        return std::nullopt;
    return parsed.number;
}

bool isDumpDirName(const std::string& name) { return isRankDirName(name) || stepNumberOf(name).has_value(); }

// A path that cannot be followed: a symlink loop, a dangling link, no permission.
[[noreturn]] void throwUnreadable(const fs::path& path, const std::error_code& error)
{
    if (error.value() == ELOOP)
        throw Error(path.string(), {}, "is a symbolic link loop (it leads back to itself)");
    if (error.value() == EACCES || error.value() == EPERM)
        throw Error(path.string(), {}, "permission denied");
    std::error_code ec;
    if (error.value() == ENOENT && fs::is_symlink(fs::symlink_status(path, ec)))
        throw Error(path.string(), {}, "is a symbolic link to a missing target");
    throw Error(path.string(), {}, "cannot be read: " + error.message());
}

// Sub-directories; one named like a step or rank directory that cannot be followed is an error naming it.
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
        else if (typeError && isDumpDirName(item.path().filename().string()))
            throwUnreadable(item.path(), typeError);
    }
    return result;
}

// dump.json / debug.json as found in a rank directory: a regular file, or nothing; anything else there
// (a FIFO, a device, a directory, a dangling link) is an error naming it.
bool regularDumpFile(const fs::path& file)
{
    std::error_code ec;
    const auto linkStatus = fs::symlink_status(file, ec);
    if (linkStatus.type() == fs::file_type::not_found)
        return false;
    const auto status = fs::status(file, ec);
    if (ec)
        throwUnreadable(file, ec);
    if (status.type() == fs::file_type::regular)
        return true;
    throw Error(file.string(), {}, "is " + describeFileType(file) + ", not a regular file; only regular files are read");
}

RankDump makeRankDump(const fs::path& dir)
{
    RankDump rank;
    rank.dir = dir;
    rank.label = dir.filename().string();
    if (auto number = numberAfter(rank.label, DumpDirName::Kind::Rank))
        rank.rank = static_cast<int>(*number);
    if (regularDumpFile(dir / "dump.json")) {
        rank.dumpJson = dir / "dump.json";
    } else if (regularDumpFile(dir / "debug.json")) {
        rank.dumpJson = dir / "debug.json";
        rank.isDebug = true;
    }
    return rank;
}

bool hasDumpFile(const fs::path& dir)
{
    return regularDumpFile(dir / "dump.json") || regularDumpFile(dir / "debug.json");
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
        [](const RankDump& a, const RankDump& b) { return dumpDirLess(a.label, b.label); });
    return step;
}

} // namespace

bool DumpDirName::numeric() const
{
    return std::all_of(suffix.begin(), suffix.end(), [](char c) { return c >= '0' && c <= '9'; });
}

DumpDirName parseDumpDirName(std::string_view name)
{
    DumpDirName parsed;
    if (name.starts_with("rank"))
        parsed.kind = DumpDirName::Kind::Rank;
    else if (name.starts_with("proc"))
        parsed.kind = DumpDirName::Kind::Proc;
    else if (name.starts_with("step"))
        parsed.kind = DumpDirName::Kind::Step;
    else
        return parsed;
    parsed.suffix = name.substr(4);
    if (!parsed.suffix.empty() && parsed.suffix.size() <= 18 && parsed.numeric()) {
        long long value = 0;
        std::from_chars(parsed.suffix.data(), parsed.suffix.data() + parsed.suffix.size(), value);
        parsed.number = value;
    }
    return parsed;
}

std::vector<std::string> dumpSubfolders(const fs::path& dir, bool (*accept)(const DumpDirName&))
{
    std::vector<std::string> names;
    std::error_code ec;
    for (const auto& item : fs::directory_iterator(dir, ec)) {
        std::error_code typeError;
        const std::string name = item.path().filename().string();
        if (item.is_directory(typeError) && accept(parseDumpDirName(name)))
            names.push_back(name);
    }
    if (ec)
        throw Error(dir.string(), {}, "cannot list the directory: " + ec.message());
    return names;
}

bool dumpDirLess(const std::string& a, const std::string& b)
{
    auto key = [](const std::string& name) {
        if (name == "rank")
            return std::make_tuple(0, -1LL, name);
        if (auto rank = numberAfter(name, DumpDirName::Kind::Rank))
            return std::make_tuple(1, *rank, name);
        if (auto pid = numberAfter(name, DumpDirName::Kind::Proc))
            return std::make_tuple(2, *pid, name);
        if (auto step = numberAfter(name, DumpDirName::Kind::Step))
            return std::make_tuple(3, *step, name);
        return std::make_tuple(4, 0LL, name);
    };
    return key(a) < key(b);
}

bool isRankDirName(const std::string& name)
{
    return name == "rank" || numberAfter(name, DumpDirName::Kind::Rank).has_value() || numberAfter(name, DumpDirName::Kind::Proc).has_value();
}

std::optional<int> stepNumberOf(const std::string& name)
{
    if (auto number = numberAfter(name, DumpDirName::Kind::Step))
        return static_cast<int>(*number);
    return std::nullopt;
}

DumpTree discoverDumpTree(const fs::path& path)
{
    DumpTree tree;
    tree.input = path;
    std::error_code ec;
    if (!fs::exists(path, ec)) {
        if (ec && ec.value() != ENOENT)
            throwUnreadable(path, ec);
        if (fs::is_symlink(fs::symlink_status(path, ec)))
            throw Error(path.string(), {}, "is a symbolic link to nothing (its target is missing)");
        throw Error(path.string(), {}, "no such file or directory");
    }

    if (fs::is_regular_file(path, ec)) {
        const std::string name = path.filename().string();
        if (name != "dump.json" && name != "debug.json" && path.extension() != ".json")
            throw Error(path.string(), {}, "not a dump file (expected dump.json or debug.json)");
        tree.kind = DumpRootKind::File;
        RankDump rank;
        rank.dir = path.parent_path();
        rank.label = rank.dir.filename().string();
        if (auto number = numberAfter(rank.label, DumpDirName::Kind::Rank))
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
        throw Error(path.string(), {}, "is " + describeFileType(path) + ": neither a dump directory nor a regular file");

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
