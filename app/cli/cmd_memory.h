// SPDX-License-Identifier: Apache-2.0
// msprobe memory SUBVERB: the subverbs share this table and a few helpers. A subverb is one entry of
// memorySubverbs(); `capture` (cmd_memory_capture.cpp) runs the libtorch capture through the dump module.
#pragma once

#include "cli.h"
#include "memory/mem_model.h"

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace msprobe::cli::memory {

struct Subverb {
    std::string_view name;
    std::string_view summary;
    int (*run)(const std::vector<std::string>& args);
};
const std::vector<Subverb>& memorySubverbs();

struct LoadedDump {
    msprobe::memory::MemTrace trace;
    msprobe::memory::MemModel model;
};
LoadedDump loadDump(const std::string& path);

// Writes `text` to stdout, or to `output` (replaced whole when complete) with a one-line note on stdout.
void emit(const std::string& text, const std::string& output, const char* what);
std::string jsonText(const nlohmann::ordered_json& json);
// A whole non-negative integer option value; UsageError otherwise.
std::uint64_t unsignedOption(const std::string& option, const std::string& value);
// "--fail-on X": the kind a subverb accepts; UsageError for another.
bool failOnOption(const std::string& value, std::string_view accepted);

int runSummary(const std::vector<std::string>& args);
int runLeaks(const std::vector<std::string>& args);
int runCompareMemory(const std::vector<std::string>& args);
int runDecompose(const std::vector<std::string>& args);
int runInefficient(const std::vector<std::string>& args);
int runWatch(const std::vector<std::string>& args);

} // namespace msprobe::cli::memory
