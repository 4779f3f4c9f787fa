// SPDX-License-Identifier: Apache-2.0
#include "dump/dump_layout.h"

#include "support/error.h"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <tuple>

namespace fs = std::filesystem;

namespace msprobe::dump {

namespace {

} // namespace

std::optional<DumpFolder> readFolderName(const std::string& name, DumpFolderNames names)
{
    const DumpDirName parsed = parseDumpDirName(name);
    if (parsed.is(DumpDirName::Kind::Other) || !parsed.numeric() || parsed.suffix.size() > 9)
        return std::nullopt;
    if (names == DumpFolderNames::Reference && !parsed.canonical())
        return std::nullopt;
    DumpFolder folder;
    folder.bare = parsed.suffix.empty();
    if (folder.bare && !parsed.is(DumpDirName::Kind::Rank))
        return std::nullopt; // "step" and "proc" need a number
    folder.name = name;
    folder.kind = parsed.kind;
    folder.number = static_cast<int>(parsed.number.value_or(0));
    return folder;
}

namespace {

// prefix + 1 to 9 digits (leading zeros allowed): what msprobe writes as a step, rank or proc folder.
std::optional<long long> numberAfter(const std::string& name, DumpDirName::Kind kind)
{
    const DumpDirName parsed = parseDumpDirName(name);
    if (parsed.kind != kind || parsed.suffix.empty() || parsed.suffix.size() > 9 || !parsed.numeric())
        return std::nullopt;
    return parsed.number;
}

bool folderLess(const DumpFolder& a, const DumpFolder& b)
{
    return std::make_tuple(!a.bare, a.number, a.name) < std::make_tuple(!b.bare, b.number, b.name);
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

void throwUnreadablePath(const fs::path& path, const std::error_code& error)
{
    if (error.value() == ELOOP)
        throw support::Error(path.string(), {}, "is a symbolic link loop (it leads back to itself)");
    if (error.value() == EACCES || error.value() == EPERM)
        throw support::Error(path.string(), {}, "permission denied");
    std::error_code ec;
    if (error.value() == ENOENT && fs::is_symlink(fs::symlink_status(path, ec)))
        throw support::Error(path.string(), {}, "is a symbolic link to a missing target");
    throw support::Error(path.string(), {}, "cannot be read: " + error.message());
}

std::vector<DumpFolder> DumpFolders::rankAndProcFolders() const
{
    std::vector<DumpFolder> folders = ranks;
    folders.insert(folders.end(), procs.begin(), procs.end());
    return folders;
}

DumpFolders listDumpFolders(const fs::path& dir, DumpFolderNames names)
{
    std::error_code ec;
    fs::directory_iterator it(dir, ec);
    if (ec)
        throw support::Error(dir.string(), {}, "cannot list the directory: " + ec.message());
    DumpFolders found;
    for (; it != fs::directory_iterator(); it.increment(ec)) {
        const fs::directory_entry& item = *it;
        const std::string name = item.path().filename().string();
        std::error_code typeError;
        const auto status = item.status(typeError);
        auto folder = readFolderName(name, names);
        if (status.type() == fs::file_type::directory) {
            if (!folder) {
                ++found.otherFolders;
                continue;
            }
            folder->path = item.path();
            auto& list = folder->kind == DumpDirName::Kind::Step ? found.steps
                : folder->kind == DumpDirName::Kind::Rank        ? found.ranks
                                                                 : found.procs;
            list.push_back(std::move(*folder));
        } else if (typeError && readFolderName(name, DumpFolderNames::Written)) {
            throwUnreadablePath(item.path(), typeError); // a step/rank folder that cannot be followed
        } else if (status.type() == fs::file_type::regular) {
            ++found.files;
        } else {
            ++found.otherEntries;
        }
    }
    if (ec)
        throw support::Error(dir.string(), {}, "cannot list the directory: " + ec.message());
    for (auto* list : { &found.steps, &found.ranks, &found.procs })
        std::sort(list->begin(), list->end(), folderLess);
    return found;
}

fs::path dumpFileIn(const fs::path& rankDir)
{
    std::error_code ec;
    if (fs::is_regular_file(rankDir / "dump.json", ec))
        return rankDir / "dump.json";
    if (fs::is_regular_file(rankDir / "debug.json", ec))
        return rankDir / "debug.json";
    return {};
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
    const auto folder = readFolderName(name, DumpFolderNames::Written);
    return folder && (folder->kind == DumpDirName::Kind::Rank || folder->kind == DumpDirName::Kind::Proc);
}

std::optional<int> stepNumberOf(const std::string& name)
{
    const auto folder = readFolderName(name, DumpFolderNames::Written);
    if (folder && folder->kind == DumpDirName::Kind::Step)
        return folder->number;
    return std::nullopt;
}

} // namespace msprobe::dump
