// SPDX-License-Identifier: Apache-2.0
#include "sessionloader.h"

#include "compare/compare_job.h"
#include "dump/dump_tree.h"
#include "graph/graph_run.h"
#include "support/error.h"

#include <QDateTime>
#include <QDir>
#include <QStandardPaths>

#include <regex>

namespace fs = std::filesystem;

namespace msprobe::studio::sessionloader {

namespace {

void checkCancel(const std::atomic<bool>* cancel)
{
    if (cancel && cancel->load())
        throw msprobe::support::Error("cancelled");
}

} // namespace

msprobe::studio::GraphStage loadVisDb(const fs::path& file)
{
    msprobe::studio::GraphStage stage;
    stage.visDbPath = QString::fromStdString(file.string());
    stage.db = std::make_shared<msprobe::graph::VisDb>(file);
    stage.config = stage.db->config();
    for (const auto& key : stage.db->graphs()) {
        auto graph = std::make_shared<msprobe::graph::VisGraph>(stage.db->load(key.step, key.rank, key.dataSource));
        auto& pair = stage.graphs[{ key.step, key.rank }];
        (key.dataSource == "Bench" ? pair.bench : pair.problem) = std::move(graph);
    }
    for (auto& [key, pair] : stage.graphs)
        if (!pair.problem) // a bench graph alone is shown as a single graph
            std::swap(pair.problem, pair.bench);
    if (stage.graphs.empty())
        throw msprobe::support::Error(file.string(), "tb_nodes", "the database holds no graph");
    return stage;
}

msprobe::studio::GraphStage buildGraphs(const fs::path& problem, const fs::path& bench, const fs::path& outputDir,
    const LoadRequest& request, const std::atomic<bool>* cancel, const Progress& progress,
    const std::function<void(const std::string& message)>& warn, msprobe::dump::SharedDumps* dumps,
    msprobe::compare::TensorMetricCache* tensorMetrics)
{
    msprobe::graph::GraphRunOptions options;
    options.warn = warn;
    options.target = problem;
    options.golden = bench;
    options.output = outputDir;
    options.fuzzy = request.fuzzyMatch;
    options.overflowCheck = request.overflowCheck;
    if (!request.layerMappingFile.isEmpty()) {
        options.layerMapping = true;
        options.layerMappingFile = request.layerMappingFile.toStdString();
    }
    options.parallel = request.parallelMerge;
    if (bench.empty() && options.parallel.size() > 1)
        options.parallel.resize(1);
    else if (!bench.empty() && options.parallel.size() == 1) // one side given: both sides alike
        options.parallel.push_back(options.parallel.front());
    options.cancel = cancel;
    options.progress = progress;
    if (dumps)
        options.readDump = [dumps](const fs::path& file) { return dumps->borrow(file); };
    options.tensorMetrics = tensorMetrics;
    const auto result = msprobe::graph::runGraphVisualize(options);
    checkCancel(cancel);
    return loadVisDb(result.database);
}

std::map<msprobe::studio::Key, std::shared_ptr<const CompareRows>> compareDumps(const fs::path& problem, const fs::path& bench,
    const LoadRequest& request, const std::atomic<bool>* cancel, const Progress& progress, msprobe::dump::SharedDumps* dumps,
    msprobe::compare::TensorMetricCache* tensorMetrics)
{
    const auto pairs = msprobe::compare::resolveComparePairs(problem, bench, fs::path(), false);
    std::map<msprobe::studio::Key, std::shared_ptr<const CompareRows>> results;
    msprobe::compare::CompareOptions options;
    options.fuzzyMatch = request.fuzzyMatch;
    msprobe::compare::CompareHooks hooks;
    if (dumps)
        hooks.readDump = [dumps](const fs::path& file) { return dumps->borrow(file); };
    hooks.tensorMetrics = tensorMetrics;
    msprobe::compare::compareEachPair(pairs, options, cancel,
        [&](std::size_t i, const msprobe::compare::ComparePair& pair) {
            if (progress)
                progress(static_cast<int>(100 * i / pairs.size()), pair.step + (pair.step.empty() ? "" : " ") + pair.label);
        },
        [&](const msprobe::compare::ComparePair& pair, std::unique_ptr<msprobe::compare::CompareTable> table) {
            results[{ pair.stepNumber, pair.rankNumber }] = compareRowsOf(std::move(table));
        },
        std::move(hooks));
    return results;
}

std::map<msprobe::studio::Key, std::shared_ptr<const CompareRows>> readCompareCsv(const fs::path& file)
{
    static const std::regex rankInName(R"(_rank(\d+)_)");
    int step = 0, rank = 0;
    std::smatch match;
    const std::string name = file.filename().string();
    if (std::regex_search(name, match, rankInName))
        rank = std::stoi(match[1]);
    // compare writes a dump_path's results in step{N} folders named as the dump's.
    if (const auto parent = msprobe::dump::stepNumberOf(file.parent_path().filename().string()))
        step = *parent;
    msprobe::support::CsvTable table = msprobe::support::readCsvFile(file);
    // Every compare CSV (statistics, md5, tensor; ours or the reference's) names both sides.
    if (table.column("NPU Name") < 0 || table.column("Bench Name") < 0)
        throw msprobe::support::Error(file.string(), "line 1",
            "not a compare result: the header has no \"NPU Name\" and \"Bench Name\" columns");
    return { { { step, rank }, compareRowsOf(std::move(table)) } };
}

fs::path newOutputDir(const QString& chosen)
{
    QString dir = chosen;
    if (dir.isEmpty())
        dir = QStandardPaths::writableLocation(QStandardPaths::CacheLocation) + QStringLiteral("/graphs/")
            + QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss-zzz"));
    if (!QDir().mkpath(dir))
        throw msprobe::support::Error(dir.toStdString(), {}, "cannot create the output folder");
    return fs::path(dir.toStdString());
}

} // namespace msprobe::studio::sessionloader
