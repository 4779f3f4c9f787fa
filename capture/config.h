// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace msprobe::capture {

enum class Task { Statistics, Tensor, Structure };
enum class Level { L0, L1, Mix };
enum class SummaryMode { Statistics, Md5 };
enum class FileFormat { Npy, Pt };

// data_mode: which directions and which sides of an entry are written.
struct DataMode {
    bool forward = true, backward = true, input = true, output = true;
};

// config.json as the reference reads it (spec 1.13), restricted to what a libtorch capture can honour.
struct DumpConfig {
    std::string file; // where it was read from (error messages)
    Task task = Task::Statistics;
    std::string dumpPath = "./dump_path";
    std::vector<std::int64_t> ranks; // empty = all
    std::vector<std::int64_t> steps; // empty = all
    Level level = Level::L1;
    bool asyncDump = false;
    bool extraInfo = true;
    bool precisionHigh = false;
    std::vector<std::string> scope; // empty or exactly [start, end]
    std::vector<std::string> list; // substrings of entry names
    std::vector<std::string> tensorList; // statistics task: also save tensors of matching entries
    DataMode dataMode;
    SummaryMode summaryMode = SummaryMode::Statistics;
    FileFormat fileFormat = FileFormat::Npy;

    bool dumpsModules() const { return level != Level::L1; }
    bool dumpsApis() const { return level != Level::L0; }
    bool wantsStep(std::int64_t step) const;
    bool wantsRank(std::int64_t rank) const;
    // Steps past the last configured one are never dumped again.
    bool pastLastStep(std::int64_t step) const;
};

// Reads and validates config.json. Errors are msprobe::Error naming the file, the key and the allowed values.
DumpConfig readDumpConfig(const std::filesystem::path& file);
DumpConfig parseDumpConfig(const std::string& jsonText, const std::string& displayName);

std::string_view toString(Task task);
std::string_view toString(Level level);

} // namespace msprobe::capture
