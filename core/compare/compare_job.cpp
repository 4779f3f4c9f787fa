// SPDX-License-Identifier: Apache-2.0
#include "compare/compare_job.h"

#include "compare/csv_writer.h"
#include "compare/html_report.h"
#include "compare/tensor_metrics_files.h"
#include "compare/verdict_json.h"
#include "compare/xlsx_writer.h"
#include "diagnose/first_diff.h"
#include "support/atomic_file.h"
#include "support/error.h"
#include "support/phase_times.h"
#include "support/progress.h"
#include "support/thread_pool.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <map>
#include <mutex>
#include <thread>
#include <utility>

namespace fs = std::filesystem;

namespace msprobe::compare {

namespace {

constexpr std::size_t kMaxCsvRows = 1000000;
constexpr std::size_t kFailedRowsKept = 20;

void ensureDirectory(const fs::path& dir)
{
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec || !fs::is_directory(dir))
        throw support::Error(dir.string(), {}, "cannot create the output directory: " + (ec ? ec.message() : std::string("not a directory")));
}

std::string baseName(const ComparePair& pair, const char* prefix)
{
    std::string name = pair.debugFile ? std::string("debug_") + prefix : std::string(prefix);
    if (!pair.label.empty())
        name += "_" + pair.label;
    return name + "_" + compareTimestamp();
}

std::vector<fs::path> writeCsvFiles(const CompareTable& table, const fs::path& dir, const std::string& base,
    std::size_t threads, const std::atomic<bool>* cancel)
{
    const std::size_t rows = table.rows.size();
    const std::size_t parts = std::max<std::size_t>(1, (rows + kMaxCsvRows - 1) / kMaxCsvRows);
    std::vector<std::unique_ptr<support::AtomicFile>> files;
    for (std::size_t p = 0; p < parts; ++p) {
        const std::string name = parts == 1 ? base + ".csv" : base + "_part_" + std::to_string(p + 1) + ".csv";
        files.push_back(std::make_unique<support::AtomicFile>(dir / name, support::AtomicFile::OnClash::PickFreeName));
        support::AtomicFile& file = *files.back();
        file.useDirectWrites();
        streamCsv(table, p * kMaxCsvRows, std::min(rows, (p + 1) * kMaxCsvRows), threads,
            [&](std::string_view block) { file.write(block); }, cancel);
    }
    // The parts of one result appear together or not at all.
    std::vector<support::AtomicFile*> group;
    for (auto& file : files)
        group.push_back(file.get());
    support::AtomicFile::commitTogether(group);
    std::vector<fs::path> written;
    for (auto& file : files)
        written.push_back(file->finalPath());
    return written;
}

// {dir}/{prefix}{timestamp}{extension}, never replacing an existing file; returns the name used.
fs::path writeReport(const fs::path& dir, const std::string& prefix, const std::string& extension, const std::string& text)
{
    ensureDirectory(dir);
    support::AtomicFile file(dir / (prefix + compareTimestamp() + extension), support::AtomicFile::OnClash::PickFreeName);
    file.write(text);
    file.commit();
    return file.finalPath();
}

void logTensorRows(const CompareTable& table, const std::string& label)
{
    Cell cell;
    for (std::size_t r = 0; r < table.rows.size(); ++r) {
        table.cell(r, Column::NpuName, cell);
        const TensorMetrics& m = table.tensorMetrics[table.rows[r].metrics];
        std::string line = (label.empty() ? std::string() : "[" + label + "]") + "[" + cell.text + "] Compare result: ";
        if (m.message.find("does not have data file") != std::string::npos || m.message.find("unmatched") != std::string::npos) {
            line += m.message;
        } else {
            static const char* names[] = { "cosine", "euc_dist", "max_abs_err", "max_relative_err", "one_thousand_err_ratio",
                "five_thousand_err_ratio" };
            for (std::size_t k = 0; k < 6; ++k) {
                line += names[k];
                line += ' ';
                appendPyText(line, m.cells[k]);
                line += ", ";
            }
            line += m.message;
        }
        std::fprintf(stderr, "%s\n", line.c_str());
    }
}

} // namespace

void summarizePair(const CompareTable& table, PairOutcome& outcome, const JobOptions& options)
{
    outcome.mode = std::string(toString(table.mode));
    outcome.rows = table.rows.size();
    outcome.crossRuntime = table.crossRuntime;
    if (options.compare.firstDiffAnalyze)
        return;
    outcome.unpaired = 0;
    for (std::size_t r = 0; r < table.rows.size(); ++r)
        outcome.unpaired += table.consistent() ? !table.consistentRows[r].bench.present() : table.rows[r].bench == kUnmatched;
    if (table.mode == CompareMode::Tensor) {
        TensorFileProblemLog problems;
        for (const TensorMetrics& metrics : table.tensorMetrics)
            problems.add(metrics.fileProblems);
        outcome.unreadableFiles = problems.count();
        outcome.unreadableExamples = problems.examples();
    }
    outcome.pass = table.countLevel(ResultLevel::Pass);
    outcome.warning = table.countLevel(ResultLevel::Warning);
    outcome.error = table.countLevel(ResultLevel::Error);
    // A consistent check's rows are aggregated across entries: the per-entry divergence search does not apply.
    if (!table.consistent()) {
        outcome.firstDivergence = firstDivergence(table, options.tolerance, outcome.pair.npuJson);
        outcome.firstNanInf = firstNanInf(table);
    }
    Cell cell;
    for (std::size_t r = 0; r < table.rows.size() && outcome.failed.size() < kFailedRowsKept; ++r) {
        if (table.rows[r].level == ResultLevel::Pass)
            continue;
        FailedRow failed;
        table.cell(r, Column::NpuName, cell);
        failed.npuName = cell.text;
        failed.result = std::string(toString(table.rows[r].level));
        table.cell(r, Column::ErrMessage, cell);
        failed.message = cell.text;
        outcome.failed.push_back(std::move(failed));
    }
}

bool tooManyUnpaired(std::size_t unpaired, std::size_t rows)
{
    return unpaired * 10 > rows;
}

std::string unpairedText(std::size_t unpaired, std::size_t rows)
{
    const double percent = rows ? 100.0 * static_cast<double>(unpaired) / static_cast<double>(rows) : 0.0;
    char share[32];
    std::snprintf(share, sizeof share, "%.1f%%", percent);
    return std::to_string(unpaired) + " of " + std::to_string(rows) + " rows (" + share + ") have no bench partner";
}

std::vector<std::string> pairWarnings(const PairOutcome& outcome)
{
    std::vector<std::string> warnings;
    if (outcome.unreadableFiles) {
        std::string text = tensorFileProblemCount(outcome.unreadableFiles) + " (their rows are errors; first: ";
        for (std::size_t i = 0; i < outcome.unreadableExamples.size(); ++i)
            text += (i ? "; " : "") + outcome.unreadableExamples[i].file + ": " + outcome.unreadableExamples[i].reason;
        warnings.push_back(text + (outcome.unreadableFiles > outcome.unreadableExamples.size() ? "; ...)" : ")"));
    }
    const CrossRuntimeReport& cross = outcome.crossRuntime;
    if (cross.active && (!cross.unpairedNpuEntries.empty() || !cross.unpairedBenchEntries.empty())) {
        auto names = [](const std::vector<std::string>& list) {
            std::string text;
            for (const auto& name : list)
                text += (text.empty() ? "" : ", ") + name;
            return list.empty() ? std::string("none") : text;
        };
        warnings.push_back("cross-runtime pairing found no counterpart for target entries: " + names(cross.unpairedNpuEntries)
            + "; golden entries: " + names(cross.unpairedBenchEntries));
    }
    if (tooManyUnpaired(outcome.unpaired, outcome.rows))
        warnings.push_back(unpairedText(outcome.unpaired, outcome.rows)
            + ": more than a tenth of the rows were not compared with anything (different models or steps, or names "
              "that need -fm/-dm?)");
    return warnings;
}

std::string crossRuntimeText(const CrossRuntimeReport& report)
{
    if (!report.active)
        return report.note;
    return std::string("cross-runtime pairing (") + (report.npuIsAten ? "target: C++ Aten ops, golden: Python APIs" : "target: Python APIs, golden: C++ Aten ops")
        + (report.scoped ? ", counted per module call" : ", counted over the whole dump") + "): " + std::to_string(report.pairedRows)
        + " rows paired, " + std::to_string(report.unpairedRows) + " unpaired (warnings), " + std::to_string(report.ignoredRows)
        + " one-runtime-only argument rows left out";
}

std::string compareTimestamp()
{
    const std::time_t now = std::time(nullptr);
    std::tm local {};
    localtime_r(&now, &local);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y%m%d%H%M%S", &local);
    return buf;
}

std::unique_ptr<CompareTable> comparePair(const ComparePair& pair, const CompareOptions& options, const CompareHooks& hooks)
{
    CompareOptions pairOptions = options;
    pairOptions.debugFile = pair.debugFile;
    return compareDumpFiles(pair.npuJson, pair.benchJson, pairOptions, hooks);
}

void compareEachPair(const std::vector<ComparePair>& pairs, const CompareOptions& options, const std::atomic<bool>* cancel,
    const std::function<void(std::size_t index, const ComparePair& pair)>& started,
    const std::function<void(const ComparePair& pair, std::unique_ptr<CompareTable> table)>& finished, CompareHooks hooks)
{
    hooks.cancel = cancel;
    for (std::size_t i = 0; i < pairs.size(); ++i) {
        if (cancel && cancel->load())
            throw support::Error("cancelled");
        if (started)
            started(i, pairs[i]);
        finished(pairs[i], comparePair(pairs[i], options, hooks));
    }
}

void foldJobTotals(JobOutcome& job)
{
    job.rows = job.unpaired = job.unreadableFiles = 0;
    job.worst = ResultLevel::Pass;
    for (const auto& outcome : job.pairs) {
        job.rows += outcome.rows;
        job.unpaired += outcome.unpaired;
        job.unreadableFiles += outcome.unreadableFiles;
        if (outcome.error)
            job.worst = ResultLevel::Error;
        else if (outcome.warning && job.worst == ResultLevel::Pass)
            job.worst = ResultLevel::Warning;
    }
}

JobOutcome outcomeOfTables(const std::vector<ComparedTable>& tables, const JobOptions& options)
{
    JobOutcome job;
    for (const ComparedTable& compared : tables) {
        PairOutcome outcome;
        outcome.pair = compared.pair;
        summarizePair(*compared.table, outcome, options);
        if (options.html)
            outcome.htmlSection = renderHtmlSection(*compared.table, outcome);
        job.pairs.push_back(std::move(outcome));
    }
    foldJobTotals(job);
    return job;
}

JobOutcome runCompareJob(const std::vector<ComparePair>& pairs, const JobOptions& options, const std::atomic<bool>* cancel)
{
    JobOutcome job;
    job.pairs.resize(pairs.size());
    const std::size_t threads = options.threads ? options.threads : support::defaultThreadCount();
    support::ProgressReporter progress(pairs.size(), options.progress, options.progressTerminal);
    std::vector<std::unique_ptr<CompareTable>> keptTables(pairs.size()); // -da needs every rank at the end
    std::mutex keepMutex;

    auto runPair = [&](std::size_t index) {
        const ComparePair& pair = pairs[index];
        PairOutcome& outcome = job.pairs[index];
        outcome.pair = pair;
        progress.pairStarted(pair.label);
        CompareOptions compareOptions = options.compare;
        compareOptions.debugFile = pair.debugFile;
        compareOptions.xlsxLayout = options.xlsx;
        CompareHooks hooks;
        hooks.cancel = cancel;
        hooks.threads = std::max<std::size_t>(1, threads / std::max<std::size_t>(1, std::min(threads, pairs.size())));
        hooks.rowProgress = [&](std::size_t done, std::size_t total) { progress.rows(pair.label, done, total); };
        auto table = comparePair(pair, compareOptions, hooks);
        support::PhaseTimes phases;
        // The summary (counts, first divergence, failed rows) only reads the table: it runs beside the writing.
        std::exception_ptr summaryFailure;
        std::thread summary([&, finished = table.get()] { // -da moves the unique_ptr away meanwhile
            try {
                summarizePair(*finished, outcome, options);
            } catch (...) {
                summaryFailure = std::current_exception();
            }
        });
        auto joinSummary = [&] {
            if (summary.joinable())
                summary.join();
            if (summaryFailure)
                std::rethrow_exception(std::exchange(summaryFailure, nullptr));
        };
        struct JoinOnExit {
            std::thread& thread;
            ~JoinOnExit()
            {
                if (thread.joinable())
                    thread.join();
            }
        } joinOnExit { summary };
        if (table->npu.dump->entries.empty() || table->bench.dump->entries.empty()) {
            outcome.note = "No valid data found. No compare result file generated. Please check input json.";
        } else if (table->rows.empty()) {
            outcome.note = "Can`t match any op. No compare result file generated.";
        } else {
            ensureDirectory(pair.outputDir);
            if (options.tensorLog && table->mode == CompareMode::Tensor)
                logTensorRows(*table, pair.label);
            if (compareOptions.firstDiffAnalyze) {
                const auto checks = diagnose::firstDiffChecks(*table);
                support::AtomicFile file(pair.outputDir / (baseName(pair, "compare_result") + ".json"), support::AtomicFile::OnClash::PickFreeName);
                file.write(diagnose::firstDiffCompareJson(*table, checks));
                file.commit();
                outcome.outputs.push_back(file.finalPath());
                std::lock_guard lock(keepMutex);
                keptTables[index] = std::move(table);
            } else if (options.xlsx) {
                const fs::path path = pair.outputDir / (baseName(pair, "compare_result") + ".xlsx");
                outcome.outputs.push_back(writeXlsx(*table, path, cancel, support::AtomicFile::OnClash::PickFreeName));
            } else {
                outcome.outputs = writeCsvFiles(*table, pair.outputDir, baseName(pair, "compare_result"), hooks.threads, cancel);
            }
            joinSummary();
            if (options.html && !compareOptions.firstDiffAnalyze)
                outcome.htmlSection = renderHtmlSection(*table, outcome);
        }
        joinSummary();
        phases.mark("write+summary");
        progress.pairFinished(pair.label, outcome.note.empty() ? std::to_string(outcome.rows) + " rows" : outcome.note);
        if (options.leaveTablesToProcessExit && table) {
            static std::mutex retiredMutex;
            static auto* retired = new std::vector<std::unique_ptr<CompareTable>>(); // reachable until exit, never freed
            std::lock_guard lock(retiredMutex);
            retired->push_back(std::move(table));
        }
        table.reset();
        phases.mark("release");
    };

    if (pairs.size() == 1) {
        runPair(0);
    } else {
        support::ThreadPool pool(std::min(threads, pairs.size()));
        for (std::size_t i = 0; i < pairs.size(); ++i)
            pool.submit([&, i] {
                if (cancel && cancel->load())
                    throw support::Error("cancelled");
                runPair(i);
            });
        pool.wait();
    }
    progress.finish();

    foldJobTotals(job);
    const fs::path& outputRoot = options.outputRoot;
    if (options.compare.firstDiffAnalyze) {
        // Group by output folder (one analysis per step) as the reference analyses one step directory.
        std::map<fs::path, std::vector<diagnose::RankChecks>> byFolder;
        std::string notRankFolder;
        for (std::size_t i = 0; i < pairs.size(); ++i) {
            if (keptTables[i] && !pairs[i].rankFolder && notRankFolder.empty())
                notRankFolder = pairs[i].label.empty() ? pairs[i].npuJson.parent_path().string() : pairs[i].label;
            if (!keptTables[i] || !pairs[i].rankFolder)
                continue;
            diagnose::RankChecks rc;
            rc.rank = pairs[i].rankNumber;
            rc.table = keptTables[i].get();
            rc.checks = diagnose::firstDiffChecks(*rc.table);
            byFolder[pairs[i].outputDir].push_back(std::move(rc));
        }
        for (auto& [folder, ranks] : byFolder) {
            std::sort(ranks.begin(), ranks.end(), [](const diagnose::RankChecks& a, const diagnose::RankChecks& b) { return a.rank < b.rank; });
            const std::string text = diagnose::analyzeFirstDiff(ranks);
            if (text.empty()) {
                job.diffAnalyzeNote = "Cannot find any diff node, no need to generate analyze file.";
                continue;
            }
            const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
            support::AtomicFile file(folder / ("diff_analyze_" + std::to_string(ns) + ".json"), support::AtomicFile::OnClash::PickFreeName);
            file.write(text);
            file.commit();
            job.diffAnalyzeFile = file.finalPath();
        }
        // The reference says only "Cannot find any diff node" here, which reads as "no difference".
        if (byFolder.empty() && !notRankFolder.empty())
            job.diffAnalyzeNote = "Cannot find any diff node: no analysis was made, because -da analyses rank folders "
                                  "(rank, rank{N}) and "
                + notRankFolder + " is not one. A dump is written to proc{PID} when its rank is unknown: the "
                "libtorch capture writes rank{N} when the RANK environment variable is set or "
                "PrecisionDebugger::setRank(N) is called before start(), the Python tool once torch.distributed "
                "is initialised; or rename the folders rank0 on both sides.";
    }
    if (options.html)
        job.htmlFile = writeReport(outputRoot, "compare_report_", ".html", renderHtmlReport(job));
    if (options.json)
        job.jsonFile = writeReport(outputRoot, "compare_verdict_", ".json", renderVerdictJson(job));
    return job;
}

} // namespace msprobe::compare
