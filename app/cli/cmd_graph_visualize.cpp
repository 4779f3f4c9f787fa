// SPDX-License-Identifier: Apache-2.0
#include "cli.h"
#include "interrupt.h"

#include "graph/layout/graph_export.h"
#include "graph/graph_run.h"
#include "support/error.h"

#include <charconv>
#include <cstdio>
#include <map>
#include <optional>

namespace msprobe::cli {

namespace {

const char* kGraphHelp
    = "usage: msprobe graph_visualize -tp TARGET_PATH -o OUTPUT_PATH [-gp GOLDEN_PATH] [-oc] [-fm]\n"
      "                               [-lm [LAYER_MAPPING]] [--mapping-file FILE] [--svg] [-progress_log]\n\n"
      "Build the hierarchical model graph of a dump (construct.json + dump.json + stack.json), or compare a\n"
      "problem dump (-tp) with a bench dump (-gp), and write build_{ts}.vis.db / compare_{ts}.vis.db into\n"
      "OUTPUT_PATH (the reference TensorBoard plugin and msprobe-studio open it). The paths may be a rank\n"
      "folder, a folder of rank{N} folders, or a folder of step{N} folders.\n\n"
      "options:\n"
      "  -tp, --target_path PATH       problem (debug) dump path\n"
      "  -gp, --golden_path PATH       bench dump path; without it a single graph is built\n"
      "  -o, --output_path PATH        output folder (created when missing)\n"
      "  -oc, --overflow_check         grade NaN/Inf anomalies (medium, high, critical)\n"
      "  -fm, --fuzzy_match            match APIs inside matched modules by name and order, ignoring call counts\n"
      "  -lm, --layer_mapping [FILE]   match by layer scope (YAML renames child layers between the two models)\n"
      "  --cross-runtime               pair a C++ libtorch capture (Aten.*) with a Python msprobe dump by the\n"
      "                                built-in aten table (automatic when the dumps show it; --no-cross-runtime: never)\n"
      "  --mapping-file FILE           manual node pairs {npu_id: bench_id|null} applied after matching\n"
      "                                (the .vis.config files written by the desktop app work too)\n"
      "  --svg                         also write the expanded diff picture (compare_{ts}.svg)\n"
      "  --threads N                   compare threads (default: all cores)\n"
      "  -progress_log, --is_print_progress_log\n"
      "                                print PROGRESS: {...} lines for front-ends\n"
      "  -tensor_log, --is_print_compare_log\n"
      "                                accepted for compatibility (no per-op log)\n"
      "  -h, --help                    show this help\n\n"
      "  --rank_size N [N] --tp N [N] --pp N [N] [--vpp N [N]] [--order ORDER [ORDER]] [--file_type db|json]\n"
      "                                parallel merge: each side's ranks merge into one graph per\n"
      "                                data-parallel replica (TP, PP, VPP, TP+PP, full), stored under the\n"
      "                                rank of its first member; a compare matches fuzzily (-fm).\n"
      "                                --file_type json (build only): write each merged graph as\n"
      "                                step{S}/rank{R}/construct.json, dump.json, stack.json under -o\n\n"
      "The database appears whole or not at all: Ctrl-C or SIGTERM removes the unfinished file and exits with\n"
      "status 130. A database of the same name (another run in the same second) is never replaced: the new one\n"
      "is written as compare_{ts}_1.vis.db, and the name used is printed.\n";

void printProgress(int percent, bool running, const std::vector<std::string>& errors)
{
    std::string line = "PROGRESS: {\"current_progress\": " + std::to_string(percent)
        + ", \"process_running\": " + (running ? "true" : "false") + ", \"error_msg\": [";
    for (std::size_t i = 0; i < errors.size(); ++i) {
        line += i ? ", \"" : "\"";
        for (char c : errors[i])
            line += (c == '"' || c == '\\') ? std::string("\\") + c : std::string(1, c);
        line += '"';
    }
    line += "]}";
    std::printf("%s\n", line.c_str());
    std::fflush(stdout);
}

std::optional<std::string_view> parallelFlag(std::string_view arg)
{
    for (std::string_view flag : { "--rank_size", "--tp", "--pp", "--vpp", "--order" })
        if (arg == flag)
            return flag;
    return std::nullopt;
}

int positiveInt(std::string_view flag, const std::string& text)
{
    int value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size())
        throw UsageError { "argument " + std::string(flag) + ": invalid int value '" + text + "'" };
    return value;
}

// The reference's rules: with --rank_size, --tp and --pp are required, one value each for a build and two
// (NPU, bench) for a compare; --vpp/--order apply per side only when given twice, else to both.
std::vector<graph::ParallelParams> parallelParams(const std::map<std::string_view, std::vector<std::string>>& values, bool compare)
{
    auto of = [&](std::string_view flag) {
        auto it = values.find(flag);
        return it == values.end() ? std::vector<std::string> {} : it->second;
    };
    if (of("--rank_size").empty()) {
        if (!values.empty())
            throw UsageError { "--tp/--pp/--vpp/--order need --rank_size (parallel merge)" };
        return {};
    }
    const std::size_t sides = compare ? 2 : 1;
    for (std::string_view flag : { "--rank_size", "--tp", "--pp" })
        if (of(flag).size() != sides)
            throw UsageError { std::string(flag) + " takes " + (compare ? "two values (NPU, bench) in a compare" : "one value in a build") };
    std::vector<graph::ParallelParams> params(sides);
    for (std::size_t s = 0; s < sides; ++s) {
        params[s].rankSize = positiveInt("--rank_size", of("--rank_size")[s]);
        params[s].tp = positiveInt("--tp", of("--tp")[s]);
        params[s].pp = positiveInt("--pp", of("--pp")[s]);
        const auto vpp = of("--vpp"), order = of("--order");
        if (vpp.size() == sides)
            params[s].vpp = positiveInt("--vpp", vpp[s]);
        if (order.size() == sides)
            params[s].order = order[s];
    }
    return params;
}

} // namespace

int runGraphVisualize(const std::vector<std::string>& args)
{
    if (wantsHelp(args)) {
        std::fputs(kGraphHelp, stdout);
        return kExitOk;
    }
    graph::GraphRunOptions options;
    bool progressLog = false, svg = false;
    std::map<std::string_view, std::vector<std::string>> parallelValues;
    std::string fileType = "db";
    ArgScanner scan(args);
    while (!scan.done()) {
        if (auto v = scan.value({ "-tp", "--target_path" }))
            options.target = *v;
        else if (auto g = scan.value({ "-gp", "--golden_path" }))
            options.golden = *g;
        else if (auto o = scan.value({ "-o", "--output_path" }))
            options.output = *o;
        else if (auto m = scan.value({ "--mapping-file", "--mapping_file" }))
            options.mappingFile = *m;
        else if (auto t = scan.value({ "--threads" }))
            options.threads = static_cast<std::size_t>(std::stoul(*t));
        else if (scan.isFlag({ "-oc", "--overflow_check" }))
            options.overflowCheck = true;
        else if (scan.isFlag({ "-fm", "--fuzzy_match" }))
            options.fuzzy = true;
        else if (scan.isFlag({ "--cross-runtime", "--cross_runtime" }))
            options.crossRuntime = compare::CrossRuntime::On;
        else if (scan.isFlag({ "--no-cross-runtime" }))
            options.crossRuntime = compare::CrossRuntime::Off;
        else if (scan.isFlag({ "-progress_log", "--is_print_progress_log" }))
            progressLog = true;
        else if (scan.isFlag({ "-tensor_log", "--is_print_compare_log" }))
            continue;
        else if (scan.isFlag({ "--svg" }))
            svg = true;
        else if (scan.isFlag({ "-lm", "--layer_mapping" })) {
            options.layerMapping = true;
            if (!scan.done() && !scan.peek().starts_with("-"))
                options.layerMappingFile = scan.next();
        } else if (auto flag = parallelFlag(scan.peek())) {
            scan.next();
            std::vector<std::string>& values = parallelValues[*flag];
            while (!scan.done() && !scan.peek().starts_with("-"))
                values.push_back(scan.next());
            if (values.empty())
                throw UsageError { "argument " + std::string(*flag) + ": expected at least one argument" };
        } else if (auto type = scan.value({ "--file_type" })) {
            if (*type != "db" && *type != "json")
                throw UsageError { "argument --file_type: invalid choice '" + *type + "' (choose from 'db', 'json')" };
            fileType = *type;
        } else
            throw UsageError { "unknown argument " + scan.peek() };
    }
    if (options.target.empty())
        throw UsageError { "the following arguments are required: -tp/--target_path" };
    if (options.output.empty())
        throw UsageError { "the following arguments are required: -o/--output_path" };
    options.parallel = parallelParams(parallelValues, !options.golden.empty());
    if (fileType == "json" && !options.golden.empty())
        throw UsageError { "--file_type json is only for a parallel-merge build (no -gp)" };
    options.jsonFiles = fileType == "json" && !options.parallel.empty();
    if (fileType == "json" && options.parallel.empty())
        std::fprintf(stderr, "[WARNING] --file_type json needs parallel merge (--rank_size); writing a vis.db\n");

    std::vector<std::string> errors;
    int lastPercent = -1;
    options.progress = [&](int percent, const std::string& stage) {
        if (progressLog) {
            if (percent != lastPercent)
                printProgress(percent, true, errors);
        } else {
            std::fprintf(stderr, "[Graph] %3d%% %s\n", percent, stage.c_str());
        }
        lastPercent = percent;
    };
    options.warn = [&](const std::string& message) { std::fprintf(stderr, "[WARNING] %s\n", message.c_str()); };
    options.info = [&](const std::string& message) { std::fprintf(stderr, "[INFO] %s\n", message.c_str()); };
    InterruptGuard guard("graph_visualize", options.output); // Ctrl-C: unfinished files removed, exit 130
    try {
        const graph::GraphRunResult result = graph::runGraphVisualize(options);
        for (const auto& folder : result.jsonFolders)
            std::printf("%s written: construct.json, dump.json, stack.json of the merged graph\n", folder.string().c_str());
        if (result.database.empty()) {
            if (progressLog)
                printProgress(100, false, errors);
            return kExitOk;
        }
        std::printf("%s written: %zu graph(s) per side, %zu nodes, ranks %zu, steps %zu\n", result.database.string().c_str(),
            result.graphs, result.nodes, result.ranks.size(), result.steps.size());
        if (svg) {
            const auto picture = result.database.parent_path() / (result.database.stem().stem().string() + ".svg");
            graph::exportVisDbPicture(result.database, picture, graph::PictureFormat::Svg);
            std::printf("%s written\n", picture.string().c_str());
        }
        if (progressLog)
            printProgress(100, false, errors);
    } catch (const support::Error& error) {
        if (progressLog) {
            errors.push_back(error.what());
            printProgress(lastPercent < 0 ? 0 : lastPercent, false, errors);
        }
        throw;
    }
    return kExitOk;
}

} // namespace msprobe::cli
