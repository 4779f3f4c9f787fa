// SPDX-License-Identifier: Apache-2.0
#include "cli.h"
#include "interrupt.h"

#include "support/atomic_file.h"
#include "compare/compare_job.h"
#include "compare/mapping_yaml.h"
#include "compare/tensor_metrics_files.h"
#include "support/error.h"

#include <malloc.h>
#include <unistd.h>

#include <cstdio>

namespace msprobe::cli {

namespace {

const char* kCompareHelp
    = "usage: msprobe compare -tp TARGET -gp GOLDEN [-o OUTPUT] [options]\n\n"
      "Compare a problem dump (target, \"NPU\") with a benchmark dump (golden, \"Bench\") as MindStudio Probe does:\n"
      "statistics, md5 or tensor mode is detected from the dumps. TARGET and GOLDEN are two dump.json (or debug.json)\n"
      "files, two step directories (rank dirs paired by position), two rank directories, or two dump_paths (every\n"
      "step{N} present on both sides, results in OUTPUT/step{N}/).\n\n"
      "options:\n"
      "  -tp, --target_path PATH     problem-side dump\n"
      "  -gp, --golden_path PATH     benchmark-side dump\n"
      "  -o, --output_path DIR       output directory (default ./output)\n"
      "  --xlsx                      write .xlsx (coloured rows, frozen header, autofilter) instead of .csv\n"
      "  --html                      also write compare_report_{ts}.html (summary, per-rank table, first divergences)\n"
      "  --json                      also write compare_verdict_{ts}.json (machine-readable verdicts for CI)\n"
      "  --fail-on error|warning     exit with status 3 when any row is at least that bad (a row whose tensor file\n"
      "                              is missing or unreadable is an error)\n"
      "  --cross-runtime             pair a C++ libtorch capture (Aten.*) with a Python msprobe dump (Functional/\n"
      "                              Tensor/Torch.*) by the built-in aten table; automatic when the dumps show it\n"
      "  --no-cross-runtime          never pair that way (plain name matching)\n"
      "  -fm, --fuzzy_match          match ignoring call counters\n"
      "  -dm, --data_mapping FILE    YAML {npu item name: bench item name}\n"
      "  -cm, --cell_mapping [FILE]  module-name mapping (alone: only Cell. -> Module.)\n"
      "  -lm, --layer_mapping [FILE] accepted and ignored for PyTorch dumps (as the reference)\n"
      "  -am, --api_mapping [FILE]   MindSpore only: an error for PyTorch dumps\n"
      "  -da, --diff_analyze         first-diff analysis (directory inputs): compare_result_{rank}_{ts}.json and\n"
      "                              diff_analyze_{ns}.json\n"
      "  -tensor_log, --is_print_compare_log  one log line per tensor row (tensor mode)\n"
      "  --consistent_check --backend fsdp|megatron  training (target) vs inference (golden) dumps\n"
      "  --legacy                    old result semantics: \"Accuracy Reached or Not\" (tensor), statistics warnings,\n"
      "                              red/yellow highlight in --xlsx\n"
      "  --tolerance REL             first-divergence tolerance: statistic diffs as a fraction of the tensor's\n"
      "                              max(|Max|, |Min|) (Norm: of the Norm); default 1e-5, about 1e-2 for bf16\n"
      "  -j, --jobs N                worker threads (default: all cores)\n"
      "  --no-progress               no progress on stderr\n"
      "  -m, --mode auto             only the auto mode is implemented\n"
      "  -h, --help                  show this help\n\n"
      "exit status: 0 done, 1 bad input or I/O error, 2 bad command line, 3 --fail-on threshold reached,\n"
      "130 interrupted (SIGINT/SIGTERM). Each result file appears whole or not at all: an interrupted or failed run\n"
      "removes what it had not finished, keeps the results it finished and lists them on stderr. Time-stamped names\n"
      "never replace an existing file (a second run in the same second writes name_1.csv).\n";

// argparse nargs='?': the next argument is the value unless it looks like an option.
std::optional<std::string> optionalValue(ArgScanner& scan)
{
    if (scan.done() || scan.peek().starts_with("-"))
        return std::nullopt;
    return scan.next();
}

// "first divergence: ENTRY (row N): REASON"; `none` (when given) is printed when there is no such point.
void printPoint(const char* what, const std::optional<compare::DivergencePoint>& point, const char* none = nullptr)
{
    if (point)
        std::printf("  %s: %s (row %zu): %s\n", what, point->entry.c_str(), point->row + 2, point->reason.c_str());
    else if (none)
        std::printf("  %s: %s\n", what, none);
}

} // namespace

int runCompare(const std::vector<std::string>& args)
{
    // The two sides are read and flattened on two threads: one malloc arena per thread would keep each
    // thread's freed parse buffers (40 MB of RSS on the 100k pair); two arenas cost no measurable time.
    mallopt(M_ARENA_MAX, 2);
    if (wantsHelp(args)) {
        std::fputs(kCompareHelp, stdout);
        return kExitOk;
    }
    std::string target, golden, output = "./output", failOn, backend, legacyInput;
    std::optional<std::string> dataMapping, cellMapping;
    bool cellMappingFlag = false, apiMapping = false, consistent = false;
    compare::JobOptions options;
    ArgScanner scan(args);
    while (!scan.done()) {
        if (auto v = scan.value({ "-tp", "--target_path" }))
            target = *v;
        else if (auto g = scan.value({ "-gp", "--golden_path" }))
            golden = *g;
        else if (auto o = scan.value({ "-o", "--output_path" }))
            output = *o;
        else if (auto m = scan.value({ "-m", "--mode" })) {
            if (*m != "auto")
                throw UsageError { "mode '" + *m + "' is not supported (only auto)" };
        } else if (scan.isFlag({ "--xlsx" }))
            options.xlsx = true;
        else if (scan.isFlag({ "--html" }))
            options.html = true;
        else if (scan.isFlag({ "--json" }))
            options.json = true;
        else if (auto f = scan.value({ "--fail-on", "--fail_on" })) {
            if (*f != "error" && *f != "warning")
                throw UsageError { "--fail-on takes error or warning" };
            failOn = *f;
        } else if (scan.isFlag({ "-fm", "--fuzzy_match", "-f" }))
            options.compare.fuzzyMatch = true;
        else if (scan.isFlag({ "--cross-runtime", "--cross_runtime" }))
            options.compare.crossRuntime = compare::CrossRuntime::On;
        else if (scan.isFlag({ "--no-cross-runtime", "--no_cross_runtime" }))
            options.compare.crossRuntime = compare::CrossRuntime::Off;
        else if (auto d = scan.value({ "-dm", "--data_mapping" }))
            dataMapping = *d;
        else if (scan.isFlag({ "-cm", "--cell_mapping" })) {
            cellMappingFlag = true;
            cellMapping = optionalValue(scan);
        } else if (scan.isFlag({ "-am", "--api_mapping" })) {
            apiMapping = true;
            optionalValue(scan);
        } else if (scan.isFlag({ "-lm", "--layer_mapping" })) {
            optionalValue(scan);
        } else if (scan.isFlag({ "-da", "--diff_analyze" }))
            options.compare.firstDiffAnalyze = true;
        else if (scan.isFlag({ "-tensor_log", "--is_print_compare_log" }))
            options.tensorLog = true;
        else if (scan.isFlag({ "--consistent_check" }))
            consistent = true;
        else if (auto b = scan.value({ "--backend" })) {
            if (*b != "fsdp" && *b != "megatron")
                throw UsageError { "--backend takes fsdp or megatron" };
            backend = *b;
        } else if (scan.isFlag({ "--legacy", "-hl", "--highlight" }))
            options.compare.legacyResult = true;
        else if (auto t = scan.value({ "--tolerance" })) {
            try {
                options.tolerance.relative = std::stod(*t);
            } catch (...) {
                throw UsageError { "--tolerance takes a number" };
            }
        } else if (auto j = scan.value({ "-j", "--jobs" })) {
            try {
                options.threads = static_cast<std::size_t>(std::stoul(*j));
            } catch (...) {
                throw UsageError { "--jobs takes a number" };
            }
        } else if (scan.isFlag({ "--no-progress" }))
            options.progress = false;
        else if (auto i = scan.value({ "-i", "--input_path" }))
            legacyInput = *i; // LEGACY: compare.json with npu_path / bench_path
        else if (scan.isFlag({ "-s", "--stack_mode", "-c", "--compare_only" }))
            continue; // LEGACY flags: stack output is automatic, there is no advisor
        else if (auto r = scan.value({ "--rank", "--step" }))
            throw UsageError { "--rank/--step apply to MindSpore graph-mode dumps, which are not supported" };
        else
            throw UsageError { "unknown or unsupported option " + scan.peek() };
    }
    if (!legacyInput.empty()) {
        const compare::LegacyCompareInput config = compare::readLegacyCompareJson(legacyInput);
        target = config.target;
        golden = config.golden;
        options.tensorLog = options.tensorLog || config.printCompareLog;
    }
    if (target.empty() || golden.empty())
        throw UsageError { "both -tp/--target_path and -gp/--golden_path are required" };
    if (apiMapping)
        throw support::Error("Argument -am is not supported in PyTorch framework");
    if (consistent != !backend.empty())
        throw UsageError { "--consistent_check needs --backend fsdp|megatron (and --backend needs --consistent_check)" };
    if (dataMapping && options.compare.fuzzyMatch)
        throw UsageError { "-dm and -fm cannot be combined" };
    if (options.compare.crossRuntime == compare::CrossRuntime::On && (dataMapping || cellMappingFlag || options.compare.fuzzyMatch || consistent))
        throw UsageError { "--cross-runtime cannot be combined with -dm, -cm, -fm or --consistent_check" };
    options.compare.consistentBackend = backend;
    if (dataMapping) {
        options.compare.useDataMapping = true;
        options.compare.dataMapping = compare::readFlatYamlMapping(*dataMapping);
        for (const auto& shared : compare::sharedMappingTargets(options.compare.dataMapping))
            std::fprintf(stderr, "msprobe compare: warning: %s: %s (each of them is compared with that one bench item)\n",
                dataMapping->c_str(), shared.c_str());
    }
    if (cellMappingFlag) {
        options.compare.useCellMapping = true;
        if (cellMapping)
            options.compare.cellMapping = compare::readFlatYamlMapping(*cellMapping);
    }
    options.outputRoot = output;
    options.progressTerminal = ::isatty(STDERR_FILENO) != 0;

    std::error_code ec;
    const bool files = std::filesystem::is_regular_file(target, ec);
    if (options.compare.firstDiffAnalyze && files) {
        std::fprintf(stderr, "msprobe compare: note: -da works on directory inputs only; comparing the files normally "
                             "(as the reference does)\n");
        options.compare.firstDiffAnalyze = false;
    }
    const auto pairs = compare::resolveComparePairs(target, golden, output, options.compare.firstDiffAnalyze);
    options.leaveTablesToProcessExit = pairs.size() == 1; // with many pairs each table is freed to make room

    InterruptGuard guard("compare", output); // a new -o left empty by a stopped run goes too
    compare::JobOutcome job;
    try {
        job = compare::runCompareJob(pairs, options, nullptr);
    } catch (const support::Error& error) {
        // Pairs that finished before (or beside) the failing one keep their files: say which (or that none did).
        if (pairs.size() > 1 || !support::committedOutputs().empty()) {
            std::fprintf(stderr, "msprobe compare: error: %s\nmsprobe compare: the run stopped; %s\n", error.what(),
                describeKeptOutputs().c_str());
            return kExitFailure;
        }
        throw;
    }

    for (const auto& pair : job.pairs) {
        const std::string title = (pair.pair.step.empty() ? "" : pair.pair.step + "/") + (pair.pair.label.empty() ? "" : pair.pair.label);
        if (!pair.note.empty()) {
            std::fprintf(stderr, "msprobe compare: warning: %s%s%s\n", title.c_str(), title.empty() ? "" : ": ", pair.note.c_str());
            continue;
        }
        for (const auto& file : pair.outputs)
            std::printf("%s%scompare result: %s\n", title.c_str(), title.empty() ? "" : ": ", file.string().c_str());
        if (!options.compare.firstDiffAnalyze) {
            std::printf("  %s mode, %zu rows: %zu pass, %zu warning, %zu error; %zu unpaired (no bench partner)%s%s\n",
                pair.mode.c_str(), pair.rows, pair.pass, pair.warning, pair.error, pair.unpaired,
                pair.mode == "tensor" ? "; " : "", pair.mode == "tensor" ? compare::tensorFileProblemCount(pair.unreadableFiles).c_str() : "");
            if (const std::string cross = compare::crossRuntimeText(pair.crossRuntime); !cross.empty())
                std::printf("  %s\n", cross.c_str());
            for (const std::string& warning : compare::pairWarnings(pair))
                std::fprintf(stderr, "msprobe compare: warning: %s%s%s\n", title.c_str(), title.empty() ? "" : ": ", warning.c_str());
            printPoint("first divergence", pair.firstDivergence, "none");
            printPoint("first NaN/Inf", pair.firstNanInf);
        }
    }
    if (!job.diffAnalyzeFile.empty())
        std::printf("diff analysis: %s\n", job.diffAnalyzeFile.string().c_str());
    else if (!job.diffAnalyzeNote.empty())
        std::printf("%s\n", job.diffAnalyzeNote.c_str());
    if (!job.htmlFile.empty())
        std::printf("html report: %s\n", job.htmlFile.string().c_str());
    if (!job.jsonFile.empty())
        std::printf("verdicts: %s\n", job.jsonFile.string().c_str());
    std::printf("msprobe compare ends successfully.\n");
    if (failOn == "error" && job.worst == compare::ResultLevel::Error)
        return 3;
    if (failOn == "warning" && job.worst != compare::ResultLevel::Pass)
        return 3;
    return kExitOk;
}

} // namespace msprobe::cli
