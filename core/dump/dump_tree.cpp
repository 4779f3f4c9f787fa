// SPDX-License-Identifier: Apache-2.0
#include "dump/dump_tree.h"

#include "support/error.h"
#include "support/input_file.h"

#include <cerrno>

namespace fs = std::filesystem;

namespace msprobe::dump {

namespace {

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
        throwUnreadablePath(file, ec);
    if (status.type() == fs::file_type::regular)
        return true;
    throw support::Error(file.string(), {}, "is " + support::describeFileType(file) + ", not a regular file; only regular files are read");
}

// The N of rank{N}; none for "rank" alone, proc folders and other names.
std::optional<int> rankNumberOf(const std::string& name)
{
    const auto folder = readFolderName(name, DumpFolderNames::Written);
    if (folder && folder->kind == DumpDirName::Kind::Rank && !folder->bare)
        return folder->number;
    return std::nullopt;
}

RankDump makeRankDump(const DumpFolder& folder)
{
    RankDump rank;
    rank.dir = folder.path;
    rank.label = folder.name;
    rank.rank = rankNumberOf(folder.name);
    rank.isProc = folder.kind == DumpDirName::Kind::Proc;
    if (regularDumpFile(rank.dir / "dump.json")) {
        rank.dumpJson = rank.dir / "dump.json";
    } else if (regularDumpFile(rank.dir / "debug.json")) {
        rank.dumpJson = rank.dir / "debug.json";
        rank.isDebug = true;
    }
    return rank;
}

bool hasDumpFile(const fs::path& dir)
{
    return regularDumpFile(dir / "dump.json") || regularDumpFile(dir / "debug.json");
}

StepDump makeStepDump(const fs::path& dir, const DumpFolders& folders)
{
    StepDump step;
    step.dir = dir;
    step.label = dir.filename().string();
    step.step = stepNumberOf(step.label);
    for (const auto& folder : folders.rankAndProcFolders())
        step.ranks.push_back(makeRankDump(folder));
    return step;
}

} // namespace

DumpTree discoverDumpTree(const fs::path& path)
{
    DumpTree tree;
    tree.input = path;
    std::error_code ec;
    if (!fs::exists(path, ec)) {
        if (ec && ec.value() != ENOENT)
            throwUnreadablePath(path, ec);
        if (fs::is_symlink(fs::symlink_status(path, ec)))
            throw support::Error(path.string(), {}, "is a symbolic link to nothing (its target is missing)");
        throw support::Error(path.string(), {}, "no such file or directory");
    }

    if (fs::is_regular_file(path, ec)) {
        const std::string name = path.filename().string();
        if (name != "dump.json" && name != "debug.json" && path.extension() != ".json")
            throw support::Error(path.string(), {}, "not a dump file (expected dump.json or debug.json)");
        tree.kind = DumpRootKind::File;
        RankDump rank;
        rank.dir = path.parent_path();
        rank.label = rank.dir.filename().string();
        rank.rank = rankNumberOf(rank.label);
        rank.dumpJson = path;
        rank.isDebug = name == "debug.json";
        StepDump step;
        step.dir = rank.dir;
        step.ranks.push_back(std::move(rank));
        tree.steps.push_back(std::move(step));
        return tree;
    }
    if (!fs::is_directory(path, ec))
        throw support::Error(path.string(), {}, "is " + support::describeFileType(path) + ": neither a dump directory nor a regular file");

    if (hasDumpFile(path)) {
        tree.kind = DumpRootKind::RankDir;
        StepDump step;
        step.dir = path;
        DumpFolder folder = readFolderName(path.filename().string(), DumpFolderNames::Written).value_or(DumpFolder {});
        folder.name = path.filename().string();
        folder.path = path;
        step.ranks.push_back(makeRankDump(folder));
        tree.steps.push_back(std::move(step));
        return tree;
    }

    const DumpFolders folders = listDumpFolders(path, DumpFolderNames::Written);
    if (!folders.ranks.empty() || !folders.procs.empty()) {
        tree.kind = DumpRootKind::StepDir;
        tree.steps.push_back(makeStepDump(path, folders));
        return tree;
    }
    for (const auto& step : folders.steps)
        tree.steps.push_back(makeStepDump(step.path, listDumpFolders(step.path, DumpFolderNames::Written)));
    if (tree.steps.empty())
        throw support::Error(path.string(), {},
            "no msprobe dump found: expected step{N}/ or rank*/proc*/ sub-directories, or a dump.json file");
    tree.kind = DumpRootKind::DumpPath; // steps in number order, as listed
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

} // namespace msprobe::dump
