// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace msprobe::capture {

enum class Task { Statistics, Tensor, Structure };
enum class Level { L0, L1, Mix };
enum class SummaryMode { Statistics, Md5, Xor };
// risk_level: which APIs are dumped when neither scope nor list is set (modules always are).
enum class RiskLevel { Focus, Core, All };
enum class FileFormat { Npy, Pt };

// data_mode: which directions and which sides of an entry are written.
struct DataMode {
    bool forward = true, backward = true, input = true, output = true;
};

// One "slice" item: tensor[begin:end] on dim, only where size is absent or equals that dimension's length.
struct SliceRule {
    std::int64_t dim = 0, begin = 0;
    std::optional<std::int64_t> end, size;
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
    RiskLevel riskLevel = RiskLevel::Focus;
    // Tensor files: .npy by default (numpy reads them; bfloat16 is written as float32), "pt" for
    // torch::pickle_save archives. The Python tool for PyTorch writes and reads only .pt (it ignores
    // file_format), so a dump its compare is to read, or that is compared with a Python dump, wants "pt".
    FileFormat fileFormat = FileFormat::Npy;
    std::vector<SliceRule> slices; // statistics, shape and tensor files describe the sliced tensor

    bool dumpsModules() const { return level != Level::L1; }
    bool dumpsApis() const { return level != Level::L0; }
    bool wantsStep(std::int64_t step) const;
    // The risk-level filter for an API entry name ("Aten.view.0.forward"); true when no scope/list is set
    // and the API's risk passes the configured level, or when scope/list decide instead.
    bool riskAllows(std::string_view apiEntryName) const;
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
