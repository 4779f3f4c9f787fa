// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace msprobe::cli {

// Exit codes shared by every verb.
inline constexpr int kExitOk = 0;
inline constexpr int kExitFailure = 1; // bad input data, I/O errors, failed checks
inline constexpr int kExitUsage = 2; // bad command line

struct Verb {
    std::string_view name;
    std::string_view summary;
    int (*run)(const std::vector<std::string>& args);
};

const std::vector<Verb>& verbs();

// Minimal argv scanner: flags with aliases ("-tp", "--target_path"), values, positionals.
class ArgScanner {
public:
    explicit ArgScanner(std::vector<std::string> args)
        : m_args(std::move(args))
    {
    }
    bool done() const { return m_pos >= m_args.size(); }
    const std::string& peek() const { return m_args[m_pos]; }
    bool isFlag(std::initializer_list<std::string_view> names);
    // Consumes "--name value" or "--name=value"; throws UsageError when the value is missing.
    std::optional<std::string> value(std::initializer_list<std::string_view> names);
    std::string next() { return m_args[m_pos++]; }

private:
    std::vector<std::string> m_args;
    std::size_t m_pos = 0;
};

struct UsageError {
    std::string message;
};

bool wantsHelp(const std::vector<std::string>& args);
std::string humanBytes(unsigned long long bytes);

int runInfo(const std::vector<std::string>& args);
int runDump(const std::vector<std::string>& args);
int runGraphVisualize(const std::vector<std::string>& args);
int runCompare(const std::vector<std::string>& args);
int runOverflowCheck(const std::vector<std::string>& args);
int runData2db(const std::vector<std::string>& args);
int runParallelPlot(const std::vector<std::string>& args);
int runTrendCompare(const std::vector<std::string>& args);
int runMemory(const std::vector<std::string>& args);

} // namespace msprobe::cli
