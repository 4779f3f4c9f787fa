// SPDX-License-Identifier: Apache-2.0
#include "cli.h"
#include "interrupt.h"

#include "support/error.h"
#include "support/json_file.h"
#include "trend/dump_import.h"
#include "trend/monitor_import.h"

#include <nlohmann/json.hpp>

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>

namespace msprobe::cli {

namespace {

const char* kData2dbHelp
    = "usage: msprobe data2db --db DIR --data DIR [--format auto|dump|monitor] [--mapping FILE.json]\n"
      "                       [--micro_step true|false] [--process_num N]\n\n"
      "Import the statistics of a dump folder (step{S}/rank{R}|proc{P}/dump.json, level L0 or mix) into\n"
      "DIR/dump_data.trend.db, and training-state monitor CSVs ({time}-rank{N}-{hash}/{metric}_{a}-{b}.csv or the\n"
      "v2 layout rank_{N}/{slug}_step{a}-{b}.csv, written by the reference's monitor or by msprobe::TrainerMonitor)\n"
      "into DIR/monitor_data.trend.db, for the trend view and trend_compare.\n\n"
      "options:\n"
      "  --db DIR            output directory (created; an existing database file is replaced once the new one is\n"
      "                      complete: on an error, a full disk or Ctrl-C the earlier file is left as it was)\n"
      "  --data DIR          input directory\n"
      "  --format FORMAT     auto (default: the dump steps if any, then the monitor CSVs if any), dump or monitor\n"
      "  --mapping FILE      JSON object of \"from\": \"to\" substring replacements applied to target names\n"
      "  --micro_step BOOL   number the steps by micro step (default true); for dumps, the micro steps come from\n"
      "                      construct.json and entries outside every module root (parameter grads, top-level\n"
      "                      APIs) are left out, as the reference does\n"
      "  --process_num N     ranks read at the same time, 1..128 (default 1; one more thread writes the database)\n"
      "  -h, --help          show this help\n\n"
      "Rows that cannot be imported (a step, vpp_stage or micro_step that is not an integer, an empty name) are\n"
      "skipped and statistic cells that are not numbers are stored as NULL, as the reference does; both are\n"
      "reported per file on stderr with their first lines. Progress goes to stderr. Exit status: 0 done, 1 bad input or I/O error,\n"
      "2 bad command line, 130 interrupted.\n";

std::vector<std::pair<std::string, std::string>> readMapping(const std::string& file)
{
    const nlohmann::ordered_json json = support::readSmallJsonFile(file); // a regular file, capped; errors give the line
    if (!json.is_object())
        throw support::Error(file, {}, "the mapping must be a JSON object of \"from\": \"to\" strings");
    std::vector<std::pair<std::string, std::string>> mapping;
    for (const auto& [key, value] : json.items()) {
        if (!value.is_string())
            throw support::Error(file, "key \"" + key + "\"", "the replacement must be a string");
        mapping.emplace_back(key, value.get<std::string>());
    }
    return mapping;
}

void reportProblems(const std::vector<trend::FileProblems>& problems)
{
    auto list = [](const std::vector<std::string>& items, std::size_t total) {
        std::string text;
        for (const auto& item : items)
            text += "\n    " + item;
        if (total > items.size())
            text += "\n    ... and " + std::to_string(total - items.size()) + " more";
        return text;
    };
    for (const auto& file : problems) {
        if (file.skippedRows)
            std::fprintf(stderr, "msprobe data2db: warning: %s: %zu row%s skipped:%s\n", file.file.string().c_str(),
                file.skippedRows, file.skippedRows == 1 ? "" : "s", list(file.firstSkipped, file.skippedRows).c_str());
        if (file.nonNumeric)
            std::fprintf(stderr, "msprobe data2db: warning: %s: %zu statistic value%s not a number, stored as NULL:%s\n",
                file.file.string().c_str(), file.nonNumeric, file.nonNumeric == 1 ? " is" : "s are",
                list(file.firstNonNumeric, file.nonNumeric).c_str());
    }
}

// "data2db: 12/64" on stderr: redrawn on a terminal, otherwise a line every few seconds and at the end.
std::function<void(std::size_t, std::size_t)> progressPrinter()
{
    const bool terminal = ::isatty(STDERR_FILENO) != 0;
    auto last = std::make_shared<std::chrono::steady_clock::time_point>(std::chrono::steady_clock::now());
    return [terminal, last](std::size_t done, std::size_t total) {
        const auto now = std::chrono::steady_clock::now();
        if (terminal) {
            std::fprintf(stderr, "\rdata2db: %zu/%zu%s", done, total, done == total ? "\n" : "");
        } else if (now - *last > std::chrono::seconds(5) || (done == total && total > 1 && now - *last > std::chrono::seconds(1))) {
            std::fprintf(stderr, "data2db: %zu/%zu\n", done, total);
            *last = now;
        }
    };
}

void importDump(const std::filesystem::path& dataDir, const std::filesystem::path& file, trend::ImportOptions options)
{
    const auto summary = trend::importDumpData(dataDir, file, options);
    for (const auto& warning : summary.warnings)
        std::fprintf(stderr, "msprobe data2db: warning: %s\n", warning.c_str());
    std::printf("Dump data import completed: %zu dump.json files (%.1f MB), %zu rows, ranks 0-%lld, steps %lld-%lld. DB: %s\n",
        summary.files, static_cast<double>(summary.bytes) / 1e6, summary.rows, static_cast<long long>(summary.maxRank),
        static_cast<long long>(summary.minStep), static_cast<long long>(summary.maxStep), file.string().c_str());
    if (summary.droppedEntries)
        std::printf("%zu entries outside every micro-step root (parameter grads, top-level APIs) left out; "
                    "--micro_step false keeps them\n",
            summary.droppedEntries);
}

void importMonitor(const std::filesystem::path& dataDir, const std::filesystem::path& file, const trend::ImportOptions& options)
{
    const auto summary = trend::importMonitorData(dataDir, file, options);
    reportProblems(summary.problems);
    std::size_t skipped = 0, nonNumeric = 0;
    for (const auto& problem : summary.problems) {
        skipped += problem.skippedRows;
        nonNumeric += problem.nonNumeric;
    }
    std::printf("Monitor data import completed: %zu files, %zu rows, ranks 0-%lld, steps %lld-%lld. DB: %s\n",
        summary.files, summary.rows, static_cast<long long>(summary.maxRank), static_cast<long long>(summary.minStep),
        static_cast<long long>(summary.maxStep), file.string().c_str());
    if (skipped || nonNumeric)
        std::printf("%zu rows skipped, %zu non-numeric statistic values stored as NULL (see the warnings above)\n", skipped,
            nonNumeric);
}

} // namespace

int runData2db(const std::vector<std::string>& args)
{
    if (wantsHelp(args)) {
        std::fputs(kData2dbHelp, stdout);
        return kExitOk;
    }
    std::string db, data, format = "auto", mapping;
    trend::ImportOptions options;
    ArgScanner scan(args);
    while (!scan.done()) {
        if (auto v = scan.value({ "--db" }))
            db = *v;
        else if (auto d = scan.value({ "--data" }))
            data = *d;
        else if (auto f = scan.value({ "--format" }))
            format = *f;
        else if (auto m = scan.value({ "--mapping" }))
            mapping = *m;
        else if (auto micro = scan.value({ "--micro_step" })) {
            if (*micro == "true" || *micro == "True")
                options.microStep = true;
            else if (*micro == "false" || *micro == "False")
                options.microStep = false;
            else
                throw UsageError { "--micro_step must be one of true, false, True, False" };
        } else if (auto n = scan.value({ "--process_num" })) {
            const int count = std::atoi(n->c_str());
            if (count < 1 || count > 128 || std::to_string(count) != *n)
                throw UsageError { "--process_num must be an integer from 1 to 128" };
            options.threads = static_cast<std::size_t>(count);
        } else
            throw UsageError { "unknown option " + scan.peek() };
    }
    if (db.empty() || data.empty())
        throw UsageError { "--db and --data are required" };
    if (format != "auto" && format != "dump" && format != "monitor")
        throw UsageError { "--format must be one of auto, dump, monitor" };
    if (!mapping.empty())
        options.mapping = readMapping(mapping);
    const std::filesystem::path dataDir(data);
    const bool dumpWanted = format == "dump" || (format == "auto" && trend::hasDumpSteps(dataDir));
    const bool monitorWanted = format == "monitor" || (format == "auto" && (!dumpWanted || trend::hasMonitorData(dataDir)));
    // Ctrl-C: the unfinished database removed, an earlier one untouched, a --db folder this run made removed; exit 130
    InterruptGuard guard("data2db", db);
    std::error_code ec;
    std::filesystem::create_directories(db, ec);
    if (ec)
        throw support::Error(db, {}, "cannot create the output directory: " + ec.message());
    options.progress = progressPrinter();
    if (dumpWanted)
        importDump(dataDir, std::filesystem::path(db) / "dump_data.trend.db", options);
    if (monitorWanted)
        importMonitor(dataDir, std::filesystem::path(db) / "monitor_data.trend.db", options);
    return kExitOk;
}

} // namespace msprobe::cli
