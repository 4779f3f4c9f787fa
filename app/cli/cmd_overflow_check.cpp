// SPDX-License-Identifier: Apache-2.0
#include "cli.h"

#include "diagnose/anomaly_check.h"
#include "support/atomic_file.h"
#include "support/error.h"

#include <chrono>
#include <cstdio>

namespace msprobe::cli {

namespace {

const char* kOverflowHelp = "usage: msprobe overflow_check -i STEP_DIR [-o OUTPUT]\n\n"
                            "Find the first node whose inputs are finite while its output has NaN/Inf, following the\n"
                            "communication ops across ranks (spec 3.1). STEP_DIR holds rank{N}/ (or one proc{PID}/) folders\n"
                            "with dump.json, construct.json and stack.json. Writes OUTPUT/anomaly_analyze_{ns}.json.\n\n"
                            "options:\n"
                            "  -i, --input_path STEP_DIR  the step directory\n"
                            "  -o, --output_path DIR      output directory (default ./output)\n"
                            "  -h, --help                 show this help\n";

} // namespace

int runOverflowCheck(const std::vector<std::string>& args)
{
    if (wantsHelp(args)) {
        std::fputs(kOverflowHelp, stdout);
        return kExitOk;
    }
    std::string input, output = "./output";
    ArgScanner scan(args);
    while (!scan.done()) {
        if (auto i = scan.value({ "-i", "--input_path" }))
            input = *i;
        else if (auto o = scan.value({ "-o", "--output_path" }))
            output = *o;
        else
            throw UsageError { "unknown option " + scan.peek() };
    }
    if (input.empty())
        throw UsageError { "-i/--input_path is required" };
    const std::string text = diagnose::analyzeOverflow(input);
    if (text.empty()) {
        std::printf("Cannot find any anomaly node, no need to generate analyze file.\n");
        return kExitOk;
    }
    std::error_code ec;
    std::filesystem::create_directories(output, ec);
    if (ec)
        throw support::Error(output, {}, "cannot create the output directory: " + ec.message());
    const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
    support::AtomicFile file(std::filesystem::path(output) / ("anomaly_analyze_" + std::to_string(ns) + ".json"));
    file.write(text);
    file.commit();
    std::printf("The analyze result is saved in: %s\n", file.finalPath().string().c_str());
    return kExitOk;
}

} // namespace msprobe::cli
