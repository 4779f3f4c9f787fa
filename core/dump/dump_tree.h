// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace msprobe {

// One rank's (or process's) dump directory.
struct RankDump {
    std::string label; // "rank0", "rank", "proc1234", or the directory name for a bare rank dir
    std::optional<int> rank; // the number after "rank" (none for "rank" and proc dirs)
    std::filesystem::path dir;
    std::filesystem::path dumpJson; // dump.json or debug.json; empty when the directory has neither
    bool isDebug = false;
    std::filesystem::path constructJson() const { return dir / "construct.json"; }
    std::filesystem::path stackJson() const { return dir / "stack.json"; }
    std::filesystem::path tensorDataDir() const { return dir / "dump_tensor_data"; }
};

struct StepDump {
    std::string label; // "step0", or empty when the input had no step level
    std::optional<int> step;
    std::filesystem::path dir;
    std::vector<RankDump> ranks; // sorted: "rank" first, then rank numbers, then proc ids
};

enum class DumpRootKind { DumpPath, StepDir, RankDir, File };

struct DumpTree {
    std::filesystem::path input;
    DumpRootKind kind = DumpRootKind::RankDir;
    std::vector<StepDump> steps; // sorted by step number
};

// Finds the dumps below any of: a dump_path (step{N}/ ...), a step directory (rank/, rank{R}/, proc{PID}/),
// a rank directory, or a dump.json / debug.json file. Throws msprobe::Error when the path holds no dump, and
// naming the path and the cause when a step or rank directory cannot be followed (a symlink loop, a dangling
// link, no permission) or a dump.json is not a regular file (a FIFO, a device).
DumpTree discoverDumpTree(const std::filesystem::path& path);

// A dump folder name read once for every verb: which kind its prefix names and what follows it. Discovery,
// compare pairing, graph_visualize, overflow_check and the studio all ask this instead of parsing names.
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

// The folders directly inside `dir` whose names `accept` takes, by name; throws msprobe::Error naming the
// folder when it cannot be listed.
std::vector<std::string> dumpSubfolders(const std::filesystem::path& dir, bool (*accept)(const DumpDirName&));

// "rank", "rank12", "proc345" (what msprobe writes below a step directory).
bool isRankDirName(const std::string& name);
std::optional<int> stepNumberOf(const std::string& name); // "step7" -> 7

// The order every listing of dump directories follows: "rank" first, then rank{N} by number (rank2 before
// rank10), proc{PID} by number, step{N} by number, anything else by name.
bool dumpDirLess(const std::string& a, const std::string& b);

std::string_view toString(DumpRootKind kind);

} // namespace msprobe
