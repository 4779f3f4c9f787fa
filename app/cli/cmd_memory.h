// SPDX-License-Identifier: Apache-2.0
// msprobe memory SUBVERB: the subverbs share this table and a few helpers. A subverb is one entry of
// memorySubverbs(); `capture` (cmd_memory_capture.cpp) runs the libtorch capture through the dump module.
#pragma once

#include "cli.h"
#include "memory/mem_model.h"

#include <nlohmann/json.hpp>

#include <cstdio>
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

// Options every analysis subverb takes (inputs, -o, --json); `extra(scan)` consumes a subverb's own option and
// returns true, or returns false for one it does not know.
struct Common {
    std::vector<std::string> inputs;
    std::string output;
    bool json = false;
};

template <class Extra>
Common scanOptions(const std::vector<std::string>& args, Extra extra)
{
    Common common;
    ArgScanner scan(args);
    while (!scan.done()) {
        if (auto o = scan.value({ "-o", "--output" }))
            common.output = *o;
        else if (scan.isFlag({ "--json" }))
            common.json = true;
        else if (extra(scan))
            continue;
        else if (scan.peek().starts_with("-"))
            throw UsageError { "unknown option " + scan.peek() };
        else
            common.inputs.push_back(scan.next());
    }
    return common;
}

// snprintf into a std::string (lines of a text report, at most 1 KiB).
std::string fmt(const char* pattern, auto... values)
{
    char text[1024];
    std::snprintf(text, sizeof text, pattern, values...);
    return text;
}

int runSummary(const std::vector<std::string>& args);
int runLeaks(const std::vector<std::string>& args);
int runCompareMemory(const std::vector<std::string>& args);
int runDecompose(const std::vector<std::string>& args);
int runInefficient(const std::vector<std::string>& args);
int runWatch(const std::vector<std::string>& args);
int runOom(const std::vector<std::string>& args);

} // namespace msprobe::cli::memory
