// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "dump/dump_layout.h"

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace msprobe::dump {

// One rank's (or process's) dump directory.
struct RankDump {
    std::string label; // "rank0", "rank", "proc1234", or the directory name for a bare rank dir
    std::optional<int> rank; // the number after "rank" (none for "rank" and proc dirs)
    bool isProc = false; // a proc{PID} folder: a process whose rank was unknown
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

// Finds the dumps below any of: a dump_path (step{N}/ ...), a step directory (rank/, rank{R}/, proc{PID}/), a
// rank directory (folders as listDumpFolders reads them with DumpFolderNames::Written), or a dump.json / debug.json file. Throws msprobe::Error when the path holds no dump, and
// naming the path and the cause when a step or rank directory cannot be followed (a symlink loop, a dangling
// link, no permission) or a dump.json is not a regular file (a FIFO, a device).
DumpTree discoverDumpTree(const std::filesystem::path& path);

std::string_view toString(DumpRootKind kind);

} // namespace msprobe::dump
