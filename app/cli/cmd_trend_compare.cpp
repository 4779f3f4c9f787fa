// SPDX-License-Identifier: Apache-2.0
#include "cli.h"

#include "support/atomic_file.h"
#include "support/error.h"
#include "trend/dump_import.h"
#include "trend/monitor_import.h"
#include "trend/trend_compare.h"

#include <nlohmann/json.hpp>

#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <random>

namespace msprobe::cli {

namespace {

namespace fs = std::filesystem;

const char* kTrendCompareHelp
    = "usage: msprobe trend_compare -tp PROBLEM -gp BENCH [-o OUT] [--json] [--tolerance F] [--stat NAME]\n\n"
      "Compare the trends of two training runs and name the first step where they part. Each side is a monitor\n"
      "output folder, a dump folder (step{S}/rank{R}/dump.json) or a *.trend.db (folders are imported as data2db\n"
      "does, with micro steps, into a temporary database). Points are joined by (metric, target, rank, step); per\n"
      "target the first step whose relative difference |problem - bench| / |bench| is above the tolerance is a\n"
      "divergence. Divergences are ranked by step, then by execution order within the step (parameters entering\n"
      "the step, forward activations, gradients, optimizer state, updated parameters), then by the target's order\n"
      "in the problem run: the first line is where the runs first part. A value that is NaN (NULL) on one side\n"
      "only, or non-zero against a bench 0, is an infinite difference.\n\n"
      "options:\n"
      "  -tp, --target_path PATH   the problem run\n"
      "  -gp, --golden_path PATH   the bench run\n"
      "  -o, --output_path FILE    write the report to FILE instead of stdout (replaced whole when complete)\n"
      "  --json                    JSON: first_divergence {metric, target, rank, step, problem, bench, rel_diff}\n"
      "                            (null when none), divergences (the ranked list), counts and one-sided targets\n"
      "  --tolerance F             relative difference allowed (default 1e-6)\n"
      "  --stat NAME               the statistic compared (default norm; min, max, mean, ... where both have it)\n"
      "  -h, --help                show this help\n\n"
      "Exit status: 0 done (whether or not the runs part), 1 bad input or I/O error, 2 bad command line.\n";

// A temporary folder removed with everything in it when the object goes.
class TemporaryDir {
public:
    TemporaryDir()
    {
        std::random_device random;
        m_path = fs::temp_directory_path() / ("msprobe-trend-compare-" + std::to_string(::getpid()) + "-"
            + std::to_string(random()));
        fs::create_directories(m_path);
    }
    ~TemporaryDir()
    {
        std::error_code ec;
        fs::remove_all(m_path, ec);
    }
    const fs::path& path() const { return m_path; }

private:
    fs::path m_path;
};

// The trend.db of one side: the file itself, or a folder imported into `scratch`.
fs::path trendDatabase(const std::string& input, const fs::path& scratch, const char* side)
{
    const fs::path path(input);
    std::error_code ec;
    if (fs::is_regular_file(path, ec))
        return path;
    if (!fs::is_directory(path, ec))
        throw support::Error(input, {}, "no such file or folder");
    trend::ImportOptions options;
    if (trend::hasDumpSteps(path)) {
        const fs::path db = scratch / (std::string(side) + "_dump_data.trend.db");
        trend::importDumpData(path, db, options);
        return db;
    }
    if (trend::hasMonitorData(path)) {
        const fs::path db = scratch / (std::string(side) + "_monitor_data.trend.db");
        trend::importMonitorData(path, db, options);
        return db;
    }
    std::vector<fs::path> databases;
    for (const auto& entry : fs::directory_iterator(path, ec))
        if (entry.path().filename().string().ends_with(".trend.db"))
            databases.push_back(entry.path());
    if (databases.size() == 1)
        return databases.front();
    throw support::Error(input, {},
        databases.empty() ? "neither a dump folder (step{S}/...), a monitor folder ({time}-rank{N}-{hash}/ or rank_{N}/) "
                            "nor a folder with a *.trend.db"
                          : "holds several *.trend.db files: name the one to compare");
}

nlohmann::ordered_json number(const std::optional<double>& value)
{
    return value && std::isfinite(*value) ? nlohmann::ordered_json(*value) : nlohmann::ordered_json(nullptr);
}

nlohmann::ordered_json divergenceJson(const trend::Divergence& d)
{
    nlohmann::ordered_json item;
    item["metric"] = d.metric;
    item["target"] = d.target;
    item["rank"] = d.rank;
    item["step"] = d.step;
    item["problem"] = number(d.problem);
    item["bench"] = number(d.bench);
    item["rel_diff"] = std::isfinite(d.relDiff) ? nlohmann::ordered_json(d.relDiff) : nlohmann::ordered_json("inf");
    return item;
}

std::string reportJson(const trend::TrendCompareResult& result, const std::string& problem, const std::string& bench,
    const std::string& stat, double tolerance)
{
    nlohmann::ordered_json json;
    json["problem"] = problem;
    json["bench"] = bench;
    json["stat"] = stat;
    json["tolerance"] = tolerance;
    json["first_divergence"] = result.divergences.empty() ? nlohmann::ordered_json(nullptr) : divergenceJson(result.divergences.front());
    json["divergences"] = nlohmann::ordered_json::array();
    for (const auto& d : result.divergences)
        json["divergences"].push_back(divergenceJson(d));
    json["compared_series"] = result.comparedSeries;
    json["compared_points"] = result.comparedPoints;
    json["only_in_problem"] = result.onlyInProblem;
    json["only_in_bench"] = result.onlyInBench;
    return json.dump(2) + "\n";
}

std::string valueText(const std::optional<double>& value)
{
    if (!value)
        return "NaN";
    char text[32];
    std::snprintf(text, sizeof text, "%.6g", *value);
    return text;
}

std::string reportText(const trend::TrendCompareResult& result, const std::string& stat, double tolerance)
{
    std::string out;
    char line[512];
    std::snprintf(line, sizeof line, "Compared %zu series (%zu points) of %s, tolerance %g.\n", result.comparedSeries,
        result.comparedPoints, stat.c_str(), tolerance);
    out += line;
    if (result.divergences.empty())
        out += "No divergence: every joined point is within tolerance.\n";
    else {
        const auto& d = result.divergences.front();
        out += "First divergence: " + d.metric + " " + d.target + ", rank " + std::to_string(d.rank) + ", step "
            + std::to_string(d.step) + "\n\n";
        std::snprintf(line, sizeof line, "%5s  %6s  %-15s  %5s  %-14s  %-14s  %-10s  %s\n", "#", "step", "metric", "rank",
            "problem", "bench", "rel_diff", "target");
        out += line;
        std::size_t n = 0;
        for (const auto& item : result.divergences) {
            const std::string rel = std::isfinite(item.relDiff) ? valueText(item.relDiff) : "inf";
            std::snprintf(line, sizeof line, "%5zu  %6lld  %-15s  %5lld  %-14s  %-14s  %-10s  ", ++n,
                static_cast<long long>(item.step), item.metric.c_str(), static_cast<long long>(item.rank),
                valueText(item.problem).c_str(), valueText(item.bench).c_str(), rel.c_str());
            out += line + item.target + "\n";
        }
    }
    auto oneSided = [&](const std::vector<std::string>& targets, const char* side) {
        if (targets.empty())
            return;
        out += "\n" + std::to_string(targets.size()) + " target(s) only in the " + side + " run:";
        for (std::size_t k = 0; k < targets.size() && k < 10; ++k)
            out += "\n  " + targets[k];
        if (targets.size() > 10)
            out += "\n  ... and " + std::to_string(targets.size() - 10) + " more";
        out += "\n";
    };
    oneSided(result.onlyInProblem, "problem");
    oneSided(result.onlyInBench, "bench");
    return out;
}

} // namespace

int runTrendCompare(const std::vector<std::string>& args)
{
    if (wantsHelp(args)) {
        std::fputs(kTrendCompareHelp, stdout);
        return kExitOk;
    }
    std::string problem, bench, output, stat = "norm";
    double tolerance = 1e-6;
    bool json = false;
    ArgScanner scan(args);
    while (!scan.done()) {
        if (auto p = scan.value({ "-tp", "--target_path" }))
            problem = *p;
        else if (auto b = scan.value({ "-gp", "--golden_path" }))
            bench = *b;
        else if (auto o = scan.value({ "-o", "--output_path" }))
            output = *o;
        else if (auto s = scan.value({ "--stat" }))
            stat = *s;
        else if (auto t = scan.value({ "--tolerance" })) {
            char* end = nullptr;
            tolerance = std::strtod(t->c_str(), &end);
            if (t->empty() || *end != '\0' || !std::isfinite(tolerance) || tolerance < 0)
                throw UsageError { "--tolerance must be a number >= 0, not \"" + *t + "\"" };
        } else if (scan.isFlag({ "--json" }))
            json = true;
        else
            throw UsageError { "unknown option " + scan.peek() };
    }
    if (problem.empty() || bench.empty())
        throw UsageError { "-tp and -gp are required" };
    TemporaryDir scratch;
    const auto problemDb = trendDatabase(problem, scratch.path(), "problem");
    const auto benchDb = trendDatabase(bench, scratch.path(), "bench");
    const auto result = trend::compareTrends(
        trend::readTrendPoints(problemDb, stat), trend::readTrendPoints(benchDb, stat), tolerance);
    const std::string report = json ? reportJson(result, problem, bench, stat, tolerance) : reportText(result, stat, tolerance);
    if (output.empty()) {
        std::fputs(report.c_str(), stdout);
        return kExitOk;
    }
    support::AtomicFile file(output);
    file.write(report);
    file.commit();
    std::printf("Trend compare written: %s\n", output.c_str());
    return kExitOk;
}

} // namespace msprobe::cli
