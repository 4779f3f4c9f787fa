// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "compare/compare_engine.h"
#include "compare/compare_inputs.h"
#include "compare/compare_options.h"
#include "compare/divergence.h"
#include "compare/result_rules.h"
#include "compare/tensor_metrics.h"

#include <atomic>
#include <functional>
#include <memory>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace msprobe::compare {

struct JobOptions {
    CompareOptions compare;
    bool xlsx = false; // .xlsx instead of .csv
    bool html = false; // also compare_report_{ts}.html
    bool json = false; // also compare_verdict_{ts}.json
    std::size_t threads = 0; // 0: hardware concurrency
    bool progress = true;
    bool progressTerminal = false;
    bool tensorLog = false; // -tensor_log: one line per tensor row on stderr
    DivergenceTolerance tolerance;
    std::filesystem::path outputRoot = "./output"; // where the HTML report and the verdict JSON go
    // A process that exits after the job (the CLI) leaves the finished tables to the OS: freeing the columns
    // of a 1M-entry pair takes ~0.2 s for nothing.
    bool leaveTablesToProcessExit = false;
};

struct FailedRow {
    std::string npuName, result, message;
};

struct PairOutcome {
    ComparePair pair;
    std::vector<std::filesystem::path> outputs; // files written for this pair
    std::string note; // why no file was written, when none was
    std::string mode;
    std::size_t rows = 0, pass = 0, warning = 0, error = 0;
    std::size_t unpaired = 0; // rows with no bench partner
    std::size_t unreadableFiles = 0; // distinct tensor files missing or unreadable (their rows are errors)
    std::vector<TensorFileProblem> unreadableExamples; // the first few of them
    std::optional<DivergencePoint> firstDivergence, firstNanInf;
    std::vector<FailedRow> failed; // the first non-pass rows
    std::string htmlSection; // rendered while the table was alive
    CrossRuntimeReport crossRuntime; // a C++ (Aten) dump paired with a Python one, when it was
};

struct JobOutcome {
    std::vector<PairOutcome> pairs;
    std::filesystem::path diffAnalyzeFile, htmlFile, jsonFile;
    std::string diffAnalyzeNote;
    ResultLevel worst = ResultLevel::Pass;
    std::size_t rows = 0, unpaired = 0, unreadableFiles = 0; // over all pairs
};

// Whether unpaired rows are so many (more than a tenth of the rows) that the counts mean little.
bool tooManyUnpaired(std::size_t unpaired, std::size_t rows);

// "N of M rows (P%) have no bench partner" for the summaries.
std::string unpairedText(std::size_t unpaired, std::size_t rows);

// The pair's warnings for the summaries (terminal, --json, HTML): its tensor files missing or unreadable (count
// and the first few), and its unpaired rows when they are more than a tenth.
std::vector<std::string> pairWarnings(const PairOutcome& outcome);

// "cross-runtime pairing (C++ Aten ops -> Python APIs): P rows paired, U unpaired, I one-runtime-only argument
// rows left out" for the summaries; CrossRuntimeReport::note when --cross-runtime found both dumps of one runtime;
// empty when the pair was not compared that way.
std::string crossRuntimeText(const CrossRuntimeReport& report);

// Runs every pair (in parallel), writing each output under a temporary name renamed into place when complete.
// Output files named by time never replace an existing file (a suffix is added; outcomes list the names used).
// Throws msprobe::Error on the first failing pair once the others are done (their finished files stay, nothing
// half-written remains).
JobOutcome runCompareJob(const std::vector<ComparePair>& pairs, const JobOptions& options, const std::atomic<bool>* cancel);

// One pair compared in memory with the pair's own debug.json setting; nothing is written.
std::unique_ptr<CompareTable> comparePair(const ComparePair& pair, const CompareOptions& options, const CompareHooks& hooks);

// The pairs compared one after another, each finished table handed to `finished` (the studio keeps them);
// `started` hears of each pair first. Throws msprobe::Error("cancelled") between pairs once cancel is set.
// hooks: the engine's hooks for every pair (e.g. where the dumps come from); cancel replaces theirs.
void compareEachPair(const std::vector<ComparePair>& pairs, const CompareOptions& options, const std::atomic<bool>* cancel,
    const std::function<void(std::size_t index, const ComparePair& pair)>& started,
    const std::function<void(const ComparePair& pair, std::unique_ptr<CompareTable> table)>& finished,
    CompareHooks hooks = {});

// A table compared elsewhere (the studio's) that a report is made of.
struct ComparedTable {
    ComparePair pair; // label and step name the pair in the report
    const CompareTable* table = nullptr;
};

// The job outcome of tables compared elsewhere: each summarized (with its HTML section when options.html) and
// the totals folded, as runCompareJob does for its own pairs; renderHtmlReport / renderVerdictJson take it.
JobOutcome outcomeOfTables(const std::vector<ComparedTable>& tables, const JobOptions& options);

// Rows, unpaired rows, unreadable files and the worst level over the job's pairs.
void foldJobTotals(JobOutcome& job);

// Fills the outcome's mode, counts, first divergence / NaN-Inf and first failed rows from a finished table (what
// the HTML report and the verdict JSON read); counts stay zero with -da.
void summarizePair(const CompareTable& table, PairOutcome& outcome, const JobOptions& options);

// time.strftime("%Y%m%d%H%M%S") of now, local time.
std::string compareTimestamp();

} // namespace msprobe::compare
