// SPDX-License-Identifier: Apache-2.0
#include "cli.h"

#include "dump/construct_stack_check.h"
#include "dump/dump_summary.h"

#include <algorithm>
#include <cstdio>
#include <future>

namespace msprobe::cli {

namespace {

const char* kInfoHelp = "usage: msprobe info [-h] PATH [BENCH_PATH]\n"
                        "       msprobe info -tp PROBLEM -gp BENCH\n\n"
                        "Summarise a dump: task, level, framework, steps, ranks, entries by kind, tensors with\n"
                        "NaN/Inf and file sizes. PATH may be a dump_path (step{N}/), a step directory, a rank\n"
                        "directory or a dump.json file. With two paths (problem, then bench) it also says how\n"
                        "'msprobe compare' will pair them and whether they can be compared.\n\n"
                        "options:\n"
                        "  -tp, --target_path PATH   the problem-side dump\n"
                        "  -gp, --golden_path PATH   the benchmark-side dump\n"
                        "  -h, --help                show this help\n";

void printTree(const char* role, const dump::TreeSummary& summary)
{
    // In the order of the tree (rank2 before rank10), each once.
    std::vector<std::string> tasks, levels, frameworks, steps, ranks;
    auto add = [](std::vector<std::string>& list, const std::string& item) {
        if (std::find(list.begin(), list.end(), item) == list.end())
            list.push_back(item);
    };
    for (const auto& r : summary.ranks) {
        add(tasks, r.task);
        add(levels, r.level);
        add(frameworks, r.framework);
        add(steps, r.step.empty() ? "-" : r.step);
        add(ranks, r.rank);
    }
    auto join = [](const std::vector<std::string>& items) {
        std::string out;
        for (const auto& item : items)
            out += (out.empty() ? "" : ", ") + item;
        return out;
    };
    std::printf("%s%s (%s)\n", role, summary.tree.input.string().c_str(), std::string(toString(summary.tree.kind)).c_str());
    std::printf("  task: %s   level: %s   framework: %s\n", join(tasks).c_str(), join(levels).c_str(),
        join(frameworks).c_str());
    std::printf("  steps: %zu (%s)   rank dirs: %s\n", summary.tree.steps.size(), join(steps).c_str(), join(ranks).c_str());
    std::printf("  %-8s %-14s %8s %6s %7s %9s %9s %8s %8s %11s %11s %11s %11s\n", "step", "rank", "entries", "api",
        "module", "backward", "par_grad", "tensors", "nan/inf", "dump.json", "construct", "stack", "tensor files");
    for (const auto& r : summary.ranks) {
        const auto& c = r.counts;
        std::string tensorFiles = r.tensorFiles ? std::to_string(r.tensorFiles) + " / " + humanBytes(r.tensorFileBytes) : "-";
        std::printf("  %-8s %-14s %8zu %6zu %7zu %9zu %9zu %8zu %8zu %11s %11s %11s %11s\n",
            r.step.empty() ? "-" : r.step.c_str(), r.rank.c_str(), c.entries, c.api, c.module, c.backward,
            c.parametersGrad, c.tensors, c.tensorsWithNanOrInf, humanBytes(r.dumpJsonBytes).c_str(),
            humanBytes(r.constructBytes).c_str(), humanBytes(r.stackBytes).c_str(), tensorFiles.c_str());
    }
    for (const auto& r : summary.ranks) {
        if (r.nanInfItems.empty())
            continue;
        std::printf("  NaN/Inf in %s/%s (first %zu):\n", r.step.c_str(), r.rank.c_str(), r.nanInfItems.size());
        for (const auto& item : r.nanInfItems)
            std::printf("    %s\n", item.c_str());
    }
    for (const auto& r : summary.ranks)
        if (r.dumpJson.empty())
            std::printf("  warning: %s/%s has no dump.json\n", r.step.c_str(), r.rank.c_str());
}

// construct.json and stack.json of every rank, read as graph_visualize and compare read them: a truncated,
// empty or mistyped file, a FIFO or a device there is reported (the summary itself reads only dump.json).
std::vector<std::string> sideFileProblems(const dump::DumpTree& tree)
{
    std::vector<std::string> problems;
    for (const auto& step : tree.steps)
        for (const auto& rank : step.ranks) {
            try {
                dump::checkConstructJson(rank.constructJson());
            } catch (const std::exception& error) {
                problems.push_back(error.what());
            }
            try {
                dump::checkStackJson(rank.stackJson());
            } catch (const std::exception& error) {
                problems.push_back(error.what());
            }
        }
    return problems;
}

// Summarises one tree while its side files are checked on a second thread.
dump::TreeSummary summarize(const std::string& path, std::vector<std::string>& problems)
{
    const dump::DumpTree tree = dump::discoverDumpTree(path);
    auto side = std::async(std::launch::async, [&tree] { return sideFileProblems(tree); });
    dump::TreeSummary summary;
    try {
        summary = dump::summarizeDumpTree(tree);
    } catch (...) {
        side.wait();
        throw;
    }
    for (auto& problem : side.get())
        problems.push_back(std::move(problem));
    return summary;
}

int reportProblems(const std::vector<std::string>& problems)
{
    for (const auto& problem : problems)
        std::fprintf(stderr, "msprobe info: error: %s\n", problem.c_str());
    return problems.empty() ? kExitOk : kExitFailure;
}

} // namespace

int runInfo(const std::vector<std::string>& args)
{
    if (wantsHelp(args)) {
        std::fputs(kInfoHelp, stdout);
        return kExitOk;
    }
    std::vector<std::string> paths;
    std::string target, golden;
    ArgScanner scan(args);
    while (!scan.done()) {
        if (auto v = scan.value({ "-tp", "--target_path" }))
            target = *v;
        else if (auto g = scan.value({ "-gp", "--golden_path" }))
            golden = *g;
        else if (scan.peek().starts_with("-"))
            throw UsageError { "unknown option " + scan.peek() };
        else
            paths.push_back(scan.next());
    }
    if (!target.empty())
        paths.insert(paths.begin(), target);
    if (!golden.empty())
        paths.push_back(golden);
    if (paths.empty() || paths.size() > 2)
        throw UsageError { "give one dump path, or a problem and a bench path" };

    std::vector<std::string> problems;
    const dump::TreeSummary first = summarize(paths[0], problems);
    printTree(paths.size() == 2 ? "problem: " : "", first);
    if (paths.size() == 1)
        return reportProblems(problems);

    const dump::TreeSummary second = summarize(paths[1], problems);
    printTree("bench:   ", second);
    const dump::PairSummary pair = summarizePair(first, second);
    std::printf("compare pairing (problem vs bench, ranks paired by position):\n");
    for (const auto& p : pair.pairs)
        std::printf("  %-8s %-14s <-> %-14s mode %-10s entries %zu / %zu, %zu with the same name\n",
            p.step.empty() ? "-" : p.step.c_str(), p.problemRank.c_str(), p.benchRank.c_str(),
            std::string(toString(p.problemMode)).c_str(), p.problemEntries, p.benchEntries, p.commonEntries);
    if (pair.problems.empty() && problems.empty()) {
        std::printf("ready to compare: %zu rank pair(s)\n", pair.pairs.size());
        return kExitOk;
    }
    for (const auto& problem : pair.problems)
        std::printf("not comparable as is: %s\n", problem.c_str());
    reportProblems(problems);
    return kExitFailure;
}

} // namespace msprobe::cli
