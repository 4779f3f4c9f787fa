// SPDX-License-Identifier: Apache-2.0
#include "graph/graph_run.h"
#include "graph/pair_writer.h"

#include "compare/compare_engine.h"
#include "compare/compare_job.h"
#include "dump/dump_tree.h"
#include "dump/shared_dumps.h"
#include "graph/model/graph_builder.h"
#include "graph/match/cross_runtime_match.h"
#include "graph/match/graph_compare.h"
#include "graph/merge/graph_merge.h"
#include "graph/model/graph_passes.h"
#include "graph/match/layer_mapping.h"
#include "graph/merge/merged_json_writer.h"
#include "graph/visdb/vis_db_writer.h"
#include "support/phase_times.h"
#include "support/error.h"

#include <algorithm>
#include <future>
#include <memory>
#include <thread>
#include <mutex>

namespace msprobe::graph {

namespace fs = std::filesystem;

namespace {

std::vector<std::pair<std::string, int>> namesAndNumbers(const std::vector<dump::DumpFolder>& folders)
{
    std::vector<std::pair<std::string, int>> found;
    for (const auto& folder : folders)
        found.emplace_back(folder.name, folder.number);
    return found;
}

bool isProcName(const std::string& name)
{
    const auto folder = dump::readFolderName(name, dump::DumpFolderNames::Reference);
    return folder && folder->kind == dump::DumpDirName::Kind::Proc;
}

struct Job {
    fs::path npu, bench; // rank directories
    int step = 0;
    int rank = 0;
};

class Runner {
public:
    explicit Runner(const GraphRunOptions& options)
        : m_options(options)
    {
    }

    GraphRunResult run()
    {
        const bool compare = !m_options.golden.empty();
        checkDir(m_options.target, "-tp/--target_path");
        if (compare)
            checkDir(m_options.golden, "-gp/--golden_path");
        const InputLayout layout = classifyInput(m_options.target);
        if (compare && classifyInput(m_options.golden) != layout)
            throw support::Error(m_options.golden.string(), {}, "the directory structures of -tp and -gp differ (files / rank folders / step folders)");
        const bool parallel = !m_options.parallel.empty();
        if (parallel)
            checkParallelMerge(compare);
        std::vector<Job> jobs;
        if (!parallel)
            jobs = plan(layout, compare);
        // Option files first: a bad one is an error before anything is written.
        if (!m_options.mappingFile.empty())
            m_manual = readMappingFile(m_options.mappingFile);
        if (m_options.layerMapping && !m_options.layerMappingFile.empty())
            m_layerRules = readLayerMappingYaml(m_options.layerMappingFile); // an error, not a warning
        std::error_code ec;
        fs::create_directories(m_options.output, ec);
        if (parallel && !compare && m_options.jsonFiles) {
            runParallelToJson(layout);
            report(100, "done");
            return m_result;
        }
        m_result.database = m_options.output
            / ((compare ? "compare_" : "build_") + (m_options.timestamp.empty() ? compare::compareTimestamp() : m_options.timestamp) + ".vis.db");

        // Never replaces a database of another run stamped the same second: finish() picks a free name then.
        VisDbWriter writer(m_result.database, -1, support::AtomicFile::OnClash::PickFreeName);
        if (parallel)
            runParallel(writer, layout, compare);
        for (std::size_t j = 0; j < jobs.size(); ++j) {
            if (m_options.cancel && m_options.cancel->load())
                throw support::Error("cancelled");
            runJob(writer, jobs[j], compare, j, jobs.size());
        }
        report(98, "creating indexes");
        // The reference matches communication across ranks only for graphs that were not merged.
        const bool distributed = layout != InputLayout::Files && !parallel;
        writer.finish(distributed, m_options.overflowCheck, [&](int percent) {
            report(percent, distributed ? "matching communication across ranks" : "closing");
        });
        m_result.database = writer.file();
        report(100, "done");
        return m_result;
    }

private:
    static void checkDir(const fs::path& dir, const char* flag)
    {
        std::error_code ec;
        if (!fs::is_directory(dir, ec))
            throw support::Error(dir.string(), {}, std::string(flag) + " must be an existing directory");
    }

    // Spec §1.9: the parameters are validated per side against its rank folders.
    void checkParallelMerge(bool compare)
    {
        const std::size_t sides = compare ? 2 : 1;
        if (m_options.parallel.size() != sides)
            throw support::Error(m_options.target.string(), "parallel merge",
                compare ? "a compare needs two values for --rank_size, --tp and --pp (NPU and bench)"
                        : "a build takes one value for --rank_size, --tp and --pp");
        for (std::size_t s = 0; s < sides; ++s) {
            const fs::path& root = s == 0 ? m_options.target : m_options.golden;
            validateParallelParams(m_options.parallel[s], ranksToMerge(root), root.string());
        }
    }

    // One side of one step: every rank's graph (paged and overflow-checked as the reference does before it
    // merges), merged into one graph per data-parallel replica.
    std::vector<MergedGraph> mergedSide(const fs::path& dir, InputLayout layout, const ParallelParams& params)
    {
        std::vector<std::pair<std::string, int>> ranks;
        if (layout == InputLayout::Files)
            ranks.emplace_back("", 0);
        else
            ranks = rankDirectories(dir);
        if (ranks.empty())
            throw support::Error(dir.string(), {}, "no rank{N} or proc<pid> folder found");
        validateParallelParams(params, ranks.size(), dir.string());
        std::vector<std::pair<int, Graph>> graphs;
        std::vector<int> microSteps;
        for (const auto& [name, rank] : ranks) {
            if (m_options.cancel && m_options.cancel->load())
                throw support::Error("cancelled");
            Graph graph = build(name.empty() ? dir : dir / name, m_options.readDump);
            microSteps.push_back(pageByMicroStep(graph));
            if (m_options.overflowCheck)
                checkOverflow(graph);
            graphs.emplace_back(rank, std::move(graph));
        }
        return mergeRankGraphs(std::move(graphs), std::move(microSteps), params, dir.string(),
            [this](const std::string& message) { warn(message); });
    }

    // The step folders of -tp; in a compare only those -gp has too (none in common is an error).
    auto stepsToRun(bool compare) const
    {
        auto steps = stepDirectories(m_options.target);
        if (compare) {
            const auto benchSteps = stepDirectories(m_options.golden);
            std::erase_if(steps, [&](const auto& s) { return std::find(benchSteps.begin(), benchSteps.end(), s) == benchSteps.end(); });
            if (steps.empty())
                throw support::Error(m_options.target.string(), {}, "-tp and -gp have no step folder in common");
        }
        return steps;
    }

    // The step folders (or the dump itself) with their step numbers; fills the result's step list.
    std::vector<std::pair<fs::path, int>> parallelSteps(InputLayout layout, bool compare)
    {
        std::vector<std::pair<fs::path, int>> steps;
        if (layout == InputLayout::Steps) {
            for (const auto& [name, step] : stepsToRun(compare))
                steps.emplace_back(name, step);
        } else {
            steps.emplace_back(fs::path {}, 0);
        }
        for (const auto& s : steps)
            m_result.steps.push_back(s.second);
        std::sort(m_result.steps.begin(), m_result.steps.end());
        return steps;
    }

    void runParallel(VisDbWriter& writer, InputLayout layout, bool compare)
    {
        const auto steps = parallelSteps(layout, compare);
        for (std::size_t i = 0; i < steps.size(); ++i) {
            const auto& [sub, step] = steps[i];
            const int base = static_cast<int>(i * 97 / steps.size());
            const std::string where = "step " + std::to_string(step);
            report(base, where + ": building and merging the ranks");
            auto npu = mergedSide(m_options.target / sub, layout, m_options.parallel[0]);
            std::vector<MergedGraph> bench;
            if (compare) {
                bench = mergedSide(m_options.golden / sub, layout, m_options.parallel[1]);
                if (npu.size() != bench.size())
                    throw support::Error(m_options.golden.string(), "parallel merge",
                        "the NPU side merges into " + std::to_string(npu.size()) + " data-parallel replica(s) but the bench side into "
                            + std::to_string(bench.size()) + "; a parallel-merge compare needs the same number on both sides");
            }
            if (m_result.ranks.empty())
                for (const auto& merged : npu)
                    m_result.ranks.push_back(merged.rank);
            // Each replica gets its share of the step's span, so the percentages never go back.
            const int span = std::max(1, static_cast<int>(97 / steps.size()));
            for (std::size_t r = 0; r < npu.size(); ++r) {
                const Stage stage { base + static_cast<int>(static_cast<std::size_t>(span) * r / npu.size()),
                    std::max(1, static_cast<int>(static_cast<std::size_t>(span) / npu.size())), where + " rank " + std::to_string(npu[r].rank) };
                VisConfig config = configFor(compare);
                Graph& n = npu[r].graph;
                if (!compare) {
                    report(stage.base, stage.where + ": writing");
                    config.microSteps = npu[r].microSteps;
                    writeBuiltGraph(writer, n, config, step, npu[r].rank);
                    continue;
                }
                Graph& b = bench[r].graph;
                b.dataSource = "Bench";
                comparePair(writer, n, b, config, step, npu[r].rank, true, stage);
            }
        }
    }

    // --file_type json: every merged graph of every step as step{S}/rank{R}/{construct,dump,stack}.json.
    void runParallelToJson(InputLayout layout)
    {
        const auto steps = parallelSteps(layout, false);
        for (std::size_t i = 0; i < steps.size(); ++i) {
            const auto& [sub, step] = steps[i];
            const int base = static_cast<int>(i * 98 / steps.size());
            const std::string where = "step " + std::to_string(step);
            report(base, where + ": building and merging the ranks");
            const auto merged = mergedSide(m_options.target / sub, layout, m_options.parallel[0]);
            for (const auto& graph : merged) {
                if (m_result.ranks.size() < merged.size())
                    m_result.ranks.push_back(graph.rank);
                report(base, where + " rank " + std::to_string(graph.rank) + ": writing JSON");
                m_result.jsonFolders.push_back(writeMergedGraphJson(graph.graph, m_options.output, step, graph.rank));
                m_result.nodes += graph.graph.postOrder().size();
                ++m_result.graphs;
            }
        }
    }

    std::vector<Job> plan(InputLayout layout, bool compare)
    {
        std::vector<Job> jobs;
        auto ranksOf = [&](const fs::path& npuDir, const fs::path& benchDir, int step) {
            auto npuRanks = rankDirectories(npuDir);
            if (npuRanks.empty())
                throw support::Error(npuDir.string(), {}, "no rank{N} or proc<pid> folder found");
            if (!compare) {
                for (const auto& [name, rank] : npuRanks)
                    jobs.push_back({ npuDir / name, {}, step, rank });
                return npuRanks;
            }
            auto benchRanks = rankDirectories(benchDir);
            decltype(npuRanks) common;
            if (npuRanks.size() == 1 && benchRanks.size() == 1 && isProcName(npuRanks[0].first)
                && isProcName(benchRanks[0].first)) {
                common = npuRanks;
                jobs.push_back({ npuDir / npuRanks[0].first, benchDir / benchRanks[0].first, step, npuRanks[0].second });
                return common;
            }
            for (const auto& r : npuRanks)
                if (std::find(benchRanks.begin(), benchRanks.end(), r) != benchRanks.end()) {
                    common.push_back(r);
                    jobs.push_back({ npuDir / r.first, benchDir / r.first, step, r.second });
                }
            if (common.empty())
                throw support::Error(npuDir.string(), {}, "the ranks of -tp and -gp are completely different; nothing to compare");
            return common;
        };
        switch (layout) {
        case InputLayout::Files:
            jobs.push_back({ m_options.target, m_options.golden, 0, 0 });
            m_result.ranks = { 0 };
            m_result.steps = { 0 };
            break;
        case InputLayout::Ranks:
            for (const auto& r : ranksOf(m_options.target, m_options.golden, 0))
                m_result.ranks.push_back(r.second);
            m_result.steps = { 0 };
            break;
        case InputLayout::Steps: {
            for (const auto& [name, step] : stepsToRun(compare)) {
                m_result.steps.push_back(step);
                auto ranks = ranksOf(m_options.target / name, compare ? m_options.golden / name : fs::path {}, step);
                if (m_result.ranks.empty())
                    for (const auto& r : ranks)
                        m_result.ranks.push_back(r.second);
            }
            std::sort(m_result.steps.begin(), m_result.steps.end());
            break;
        }
        }
        return jobs;
    }

    void report(int percent, const std::string& stage)
    {
        std::lock_guard<std::mutex> lock(m_progressMutex); // the compare reports from its worker threads
        if (m_options.progress)
            m_options.progress(percent, stage);
    }

    VisConfig configFor(bool compare) const
    {
        VisConfig config;
        config.compare = compare;
        config.overflowCheck = m_options.overflowCheck;
        config.ranks = m_result.ranks;
        config.steps = m_result.steps;
        return config;
    }

    // Build mode: one graph's rows and the config row.
    void writeBuiltGraph(VisDbWriter& writer, const Graph& graph, const VisConfig& config, int step, int rank)
    {
        writer.writeGraph(graph, nullptr, step, rank, RenderOptions {});
        writer.writeConfig(config);
        m_result.nodes += graph.postOrder().size();
        ++m_result.graphs;
    }

    // Where a job's progress goes: from base to base + span percent, named "where: ...".
    struct Stage {
        int base = 0;
        int span = 1;
        std::string where;
    };

    void warn(const std::string& message)
    {
        std::lock_guard<std::mutex> lock(m_warnMutex); // the two sides are built on two threads
        if (m_options.warn)
            m_options.warn(message);
    }
    void inform(const std::string& message)
    {
        std::lock_guard<std::mutex> lock(m_warnMutex);
        if (m_options.info)
            m_options.info(message);
    }

    Graph build(const fs::path& dir, const DumpFileSource& readDump)
    {
        BuildReport buildReport;
        Graph graph = buildGraph(dir, &buildReport, readDump);
        for (const auto& w : buildReport.warnings)
            warn(dir.string() + ": " + w);
        return graph;
    }

    void runJob(VisDbWriter& writer, const Job& job, bool compare, std::size_t index, std::size_t count)
    {
        const int base = static_cast<int>(index * 97 / count);
        const int span = std::max(1, static_cast<int>(97 / count));
        const std::string where = "step " + std::to_string(job.step) + " rank " + std::to_string(job.rank);
        report(base, where + ": building");
        // A self-compare (one folder as both sides) parses its dump.json once for both graphs.
        dump::SharedDumps jobDumps(m_options.readDump);
        const DumpFileSource readDump = [&jobDumps](const fs::path& file) { return jobDumps.borrow(file); };
        // The two sides are independent until matching: build the bench graph on a second thread.
        std::future<Graph> benchBuild;
        if (compare)
            benchBuild = std::async(std::launch::async, [&] { return build(job.bench, readDump); });
        Graph npu = build(job.npu, readDump);
        VisConfig config = configFor(compare);
        if (!compare) {
            config.microSteps = pageByMicroStep(npu);
            if (m_options.overflowCheck)
                checkOverflow(npu);
            report(base + span / 2, where + ": writing");
            writeBuiltGraph(writer, npu, config, job.step, job.rank);
            releaseLater(std::move(npu));
            return;
        }
        Graph bench = benchBuild.get();
        bench.dataSource = "Bench";
        m_phases.mark("build");
        if (npu.framework != bench.framework && !m_options.layerMapping)
            throw support::Error(job.bench.string(), {}, "the two dumps come from different frameworks (" + npu.framework + " / "
                    + bench.framework + "); cross-framework graph compare needs -lm/--layer_mapping");
        comparePair(writer, npu, bench, config, job.step, job.rank, false, { base, span, where });
        releaseLater(std::move(npu), std::move(bench));
    }

    // Freeing two large graphs takes a noticeable time (~0.1 s per 100k nodes); it runs beside the next job or
    // the index build instead of before them.
    void releaseLater(Graph first, Graph second = {})
    {
        m_releases.emplace_back([first = std::move(first), second = std::move(second)]() mutable {
            Graph a = std::move(first), b = std::move(second);
        });
    }

    // Matches, compares, pages and writes one NPU/bench pair. A parallel-merge compare always matches fuzzily
    // and keeps the overflow levels its ranks got before the merge.
    void comparePair(VisDbWriter& writer, Graph& npu, Graph& bench, VisConfig config, int step, int rank, bool merged,
        const Stage& stage)
    {
        if (merged && npu.framework != bench.framework && !m_options.layerMapping)
            throw support::Error(m_options.golden.string(), {}, "the two dumps come from different frameworks (" + npu.framework + " / "
                    + bench.framework + "); cross-framework graph compare needs -lm/--layer_mapping");
        report(stage.base + stage.span / 4, stage.where + ": matching");
        const compare::CompareMode mode = compare::detectCompareMode(*npu.dump, *bench.dump);
        MatchOptions match;
        match.fuzzy = m_options.fuzzy || merged;
        match.layerMapping = m_options.layerMapping && !match.fuzzy;
        match.manual = m_manual;
        if (match.layerMapping) {
            try {
                match.layerMap = layerMappingFor(npu, bench, m_layerRules);
            } catch (const support::Error& error) {
                warn(std::string("the layer mapping failed, matching without it: ") + error.what());
            }
        }
        std::optional<compare::CrossRuntimeKeys> crossRuntime;
        const std::string sameRuntime = m_options.crossRuntime == compare::CrossRuntime::On ? compare::sameRuntimeNote(*npu.dump, *bench.dump) : std::string();
        const bool crossRuntimeWanted = (m_options.crossRuntime == compare::CrossRuntime::On && sameRuntime.empty())
            || (m_options.crossRuntime == compare::CrossRuntime::Auto && compare::isCrossRuntimePair(*npu.dump, *bench.dump));
        if (crossRuntimeWanted && !match.fuzzy && !match.layerMapping && npu.items && bench.items) {
            static const dump::ConstructInfo noConstruct;
            crossRuntime = compare::crossRuntimeKeys(*npu.items, npu.construct ? *npu.construct : noConstruct, *bench.items,
                bench.construct ? *bench.construct : noConstruct);
            match.layerMapping = true;
            match.layerMap = crossRuntimeNodeMap(*npu.items, *bench.items, *crossRuntime);
        }
        const MatchReport matched = matchGraphs(npu, bench, match);
        for (const auto& problem : matched.problems)
            warn(problem);
        if (crossRuntime) {
            const CrossRuntimeGraphSummary summary = crossRuntimeGraphSummary(npu, *crossRuntime);
            inform(summary.info);
            if (!summary.warning.empty())
                warn(summary.warning);
        } else if (!sameRuntime.empty()) {
            inform(sameRuntime);
        }
        m_phases.mark("match");
        // Paging and overflow levels do not depend on the compare: done first, the rows can be written while
        // the pair is compared.
        config.mode = mode;
        config.microSteps = pageByMicroStep(npu, &bench);
        if (m_options.overflowCheck && !merged) {
            checkOverflow(npu);
            checkOverflow(bench);
        }
        GraphCompareOptions compareOptions;
        compareOptions.mode = mode;
        compareOptions.threads = m_options.threads;
        compareOptions.cancel = m_options.cancel;
        compare::TensorFileProblemLog tensorProblems;
        compareOptions.tensorProblems = &tensorProblems;
        compareOptions.crossRuntime = crossRuntime ? &*crossRuntime : nullptr;
        compareOptions.tensorMetrics = m_options.tensorMetrics;
        const std::string comparing = stage.where + ": comparing and writing";
        const int first = stage.base + stage.span / 3, room = stage.span - stage.span / 3;
        report(first, comparing);
        compareOptions.progress = [this, &comparing, first, room, last = std::make_shared<int>(first)](std::size_t done, std::size_t total) {
            const int percent
                = first + std::min(room - 1, static_cast<int>(static_cast<std::size_t>(room) * done / std::max<std::size_t>(total, 1)));
            std::lock_guard<std::mutex> lock(m_progressMutex);
            if (percent > *last && m_options.progress) {
                *last = percent;
                m_options.progress(percent, comparing);
            }
        };
        RenderOptions render;
        render.mode = mode;
        render.md5Mode = mode == compare::CompareMode::Md5;
        compareAndWritePair(writer, npu, bench, compareOptions, step, rank, render);
        if (tensorProblems.count())
            warn(stage.where + ": " + tensorProblems.summary() + "; their rows are errors in the node data");
        writer.writeConfig(config);
        m_result.nodes += npu.postOrder().size() + bench.postOrder().size();
        ++m_result.graphs;
    }

    const GraphRunOptions& m_options;
    GraphRunResult m_result;
    std::vector<ManualPair> m_manual;
    LayerMappingRules m_layerRules;
    std::mutex m_warnMutex;
    std::mutex m_progressMutex;
    support::PhaseTimes m_phases;
    std::vector<std::jthread> m_releases; // last member: joined first when the run ends
};

} // namespace

InputLayout classifyInput(const fs::path& dir)
{
    const dump::DumpFolders folders = dump::listDumpFolders(dir, dump::DumpFolderNames::Reference);
    if (folders.entries() == 0)
        throw support::Error(dir.string(), {}, "the folder is empty");
    std::error_code ec;
    if (fs::exists(dir / "dump_tensor_data", ec))
        return InputLayout::Files;
    if (folders.files == folders.entries())
        return InputLayout::Files;
    const bool onlyBareRank = folders.entries() == 1 && folders.ranks.size() == 1 && folders.ranks[0].bare;
    const bool numberedRanks = std::none_of(folders.ranks.begin(), folders.ranks.end(), [](const dump::DumpFolder& r) { return r.bare; });
    if (onlyBareRank || (numberedRanks && folders.steps.empty() && folders.otherFolders == 0))
        return InputLayout::Ranks; // rank{N} and proc{PID} folders (files beside them are ignored)
    if (folders.ranks.empty() && folders.procs.empty() && folders.otherFolders == 0)
        return InputLayout::Steps;
    throw support::Error(dir.string(), {},
        "expected only step{N} folders, only rank{N} folders, or the dump files themselves (construct.json, dump.json, stack.json)");
}

std::vector<std::pair<std::string, int>> rankDirectories(const fs::path& dir)
{
    const dump::DumpFolders folders = dump::listDumpFolders(dir, dump::DumpFolderNames::Reference);
    if (!folders.ranks.empty())
        return namesAndNumbers(folders.ranks);
    if (!folders.procs.empty()) // one process of unknown rank: read as rank 0
        return { { folders.procs.front().name, 0 } };
    return {};
}

std::vector<std::pair<std::string, int>> stepDirectories(const fs::path& dir)
{
    return namesAndNumbers(dump::listDumpFolders(dir, dump::DumpFolderNames::Reference).steps);
}

std::size_t ranksToMerge(const fs::path& root)
{
    const InputLayout layout = classifyInput(root);
    if (layout == InputLayout::Files)
        return 1;
    fs::path rankRoot = root;
    if (layout == InputLayout::Steps) {
        const auto steps = stepDirectories(root);
        if (!steps.empty())
            rankRoot = root / steps.front().first;
    }
    return rankDirectories(rankRoot).size();
}

GraphRunResult runGraphVisualize(const GraphRunOptions& options) { return Runner(options).run(); }

} // namespace msprobe::graph
