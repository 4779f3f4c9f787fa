// SPDX-License-Identifier: Apache-2.0
// The dump layout: the one reader of step/rank/proc folder names and the one walker of a dump's folders.
// Every verb (compare, graph_visualize, info, data2db, trend_compare) and the studio ask this module which
// folders a dump holds; none of them lists a folder or parses a folder name itself. discoverDumpTree
// (dump_tree.h) builds the whole step/rank tree of a dump from it.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace msprobe::dump {

// A dump folder name read once: which kind its prefix names and what follows it.
struct DumpDirName {
    enum class Kind : std::uint8_t { Other, Rank, Proc, Step };
    Kind kind = Kind::Other; // by the prefix alone: "rank...", "proc...", "step..."
    std::string_view suffix; // what follows the prefix ("" for "rank", "12" for "rank12", "x" for "stepx")
    std::optional<long long> number; // the suffix as a number when it is 1 to 18 digits
    // Nothing but digits after the prefix (none at all counts: "rank").
    bool numeric() const;
    // numeric() with no leading zero: the reference's prefix(?:0|[1-9][0-9]*)?.
    bool canonical() const { return numeric() && (suffix.size() < 2 || suffix[0] != '0'); }
    bool is(Kind k) const { return kind == k; }
};
DumpDirName parseDumpDirName(std::string_view name);

// Which folder names count as step, rank and proc folders. Both take "rank" alone (number 0) and at most 9
// digits after the prefix; "step" and "proc" need at least one digit.
enum class DumpFolderNames : std::uint8_t {
    Written, // leading zeros allowed ("rank01"): whatever msprobe or a capture wrote (info, data2db, the studio)
    Reference, // no leading zero ("rank0", "rank12", not "rank012"): the reference's regexes (compare, graph_visualize)
};

// One step, rank or proc folder of a dump.
struct DumpFolder {
    std::string name; // "step3", "rank", "rank12", "proc4711"
    std::filesystem::path path;
    DumpDirName::Kind kind = DumpDirName::Kind::Other;
    int number = 0; // the number after the prefix; 0 for "rank" alone
    bool bare = false; // "rank" with no number
};

// A step, rank or proc folder name under the rule (path left empty); nullopt for any other name.
std::optional<DumpFolder> readFolderName(const std::string& name, DumpFolderNames names);

// The folders directly inside one directory, sorted: steps by number, ranks "rank" first and then by number
// (rank2 before rank10), procs by number (proc2 before proc10); by name among equal numbers ("rank1",
// "rank01"). Links are followed.
struct DumpFolders {
    std::vector<DumpFolder> steps, ranks, procs;
    std::size_t otherFolders = 0; // sub-directories with any other name
    std::size_t files = 0; // regular files (dump.json, construct.json, ...)
    std::size_t otherEntries = 0; // neither (a FIFO, a socket, a dangling link)
    std::size_t entries() const { return steps.size() + ranks.size() + procs.size() + otherFolders + files + otherEntries; }
    // ranks, then procs: every folder that holds one process's dump
    std::vector<DumpFolder> rankAndProcFolders() const;
};

// Throws msprobe::Error naming the directory when it cannot be listed, and naming the entry when an entry named
// like a step, rank or proc folder cannot be followed (a symbolic link loop, no permission, a dangling link).
DumpFolders listDumpFolders(const std::filesystem::path& dir, DumpFolderNames names);

// dump.json, else debug.json, in a rank folder when it is a regular file (following links); empty when neither.
std::filesystem::path dumpFileIn(const std::filesystem::path& rankDir);

// "rank", "rank12", "proc345" (what msprobe writes below a step directory; leading zeros allowed).
bool isRankDirName(const std::string& name);
std::optional<int> stepNumberOf(const std::string& name); // "step7" -> 7

// The order every listing of dump directories follows: "rank" first, then rank{N} by number (rank2 before
// rank10), proc{PID} by number, step{N} by number, anything else by name.
bool dumpDirLess(const std::string& a, const std::string& b);

// A symbolic link loop, a dangling link, no permission: an error naming the path and the cause.
[[noreturn]] void throwUnreadablePath(const std::filesystem::path& path, const std::error_code& error);

} // namespace msprobe::dump
