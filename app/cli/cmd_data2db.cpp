// SPDX-License-Identifier: Apache-2.0
#include "cli.h"
#include "interrupt.h"

#include "support/error.h"
#include "support/json_file.h"
#include "trend/monitor_import.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <cstdlib>

namespace msprobe::cli {

namespace {

const char* kData2dbHelp
    = "usage: msprobe data2db --db DIR --data DIR [--format auto|dump|monitor] [--mapping FILE.json]\n"
      "                       [--micro_step true|false] [--process_num N]\n\n"
      "Import training-state monitor CSVs ({time}-rank{N}-{hash}/{metric}_{a}-{b}.csv, written by the reference's\n"
      "monitor or by msprobe::TrainerMonitor) into DIR/monitor_data.trend.db for the trend view.\n\n"
      "options:\n"
      "  --db DIR            output directory (created; an existing database file is replaced once the new one is\n"
      "                      complete: on an error, a full disk or Ctrl-C the earlier file is left as it was)\n"
      "  --data DIR          input directory\n"
      "  --format FORMAT     auto (default), dump or monitor\n"
      "  --mapping FILE      JSON object of \"from\": \"to\" substring replacements applied to target names\n"
      "  --micro_step BOOL   number the steps by micro step (default true)\n"
      "  --process_num N     worker count, 1..128 (accepted for compatibility; the import runs in one thread)\n"
      "  -h, --help          show this help\n\n"
      "Rows that cannot be imported (a step, vpp_stage or micro_step that is not an integer, an empty name) are\n"
      "skipped and statistic cells that are not numbers are stored as NULL, as the reference does; both are\n"
      "reported per file on stderr with their first lines. Exit status: 0 done, 1 bad input or I/O error,\n"
      "2 bad command line, 130 interrupted.\n";

std::vector<std::pair<std::string, std::string>> readMapping(const std::string& file)
{
    const nlohmann::ordered_json json = readSmallJsonFile(file); // a regular file, capped; errors give the line
    if (!json.is_object())
        throw Error(file, {}, "the mapping must be a JSON object of \"from\": \"to\" strings");
    std::vector<std::pair<std::string, std::string>> mapping;
    for (const auto& [key, value] : json.items()) {
        if (!value.is_string())
            throw Error(file, "key \"" + key + "\"", "the replacement must be a string");
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
    if (format == "dump")
        throw Error(data, {}, "importing dump data (step*/rank*/dump.json) is not supported yet; use --format monitor");
    if (format == "auto" && std::filesystem::is_directory(dataDir)) {
        for (const auto& entry : std::filesystem::directory_iterator(dataDir))
            if (entry.is_directory() && entry.path().filename().string().rfind("step", 0) == 0) {
                std::fprintf(stderr, "msprobe data2db: %s holds dump step directories; importing dump data is not "
                                     "supported yet, only monitor CSVs are imported\n",
                    data.c_str());
                break;
            }
    }
    // Ctrl-C: the unfinished database removed, an earlier one untouched, a --db folder this run made removed; exit 130
    InterruptGuard guard("data2db", db);
    std::error_code ec;
    std::filesystem::create_directories(db, ec);
    if (ec)
        throw Error(db, {}, "cannot create the output directory: " + ec.message());
    const auto file = std::filesystem::path(db) / "monitor_data.trend.db";
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
    return kExitOk;
}

} // namespace msprobe::cli
