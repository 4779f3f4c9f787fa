// SPDX-License-Identifier: Apache-2.0
// The stages of a studio load, run on a worker thread: graphs (graph_visualize into a vis.db, or an existing
// vis.db) and compare tables (the compare engine per rank pair, or a compare CSV). Throw msprobe::Error.
#pragma once

#include "sessiontypes.h"
#include "compare/tensor_metric_cache.h"
#include "dump/shared_dumps.h"

#include <atomic>
#include <functional>
#include <filesystem>
#include <map>
#include <string>

namespace msprobe::studio::sessionloader {

using Progress = std::function<void(int percent, const std::string& stage)>;

// Every (step, rank) graph of the database, problem and bench side.
msprobe::studio::GraphStage loadVisDb(const std::filesystem::path& file);

// msprobe graph_visualize of problem (and bench when not empty) into outputDir, then loadVisDb. warn receives
// what graph_visualize would log as warnings (e.g. a layer mapping it could not read). dumps, when given,
// parses each dump.json for the graphs and keeps the parse for compareDumps; tensorMetrics, when given, keeps
// the tensor-mode metrics of the matched nodes' tensor files for compareDumps.
msprobe::studio::GraphStage buildGraphs(const std::filesystem::path& problem, const std::filesystem::path& bench,
    const std::filesystem::path& outputDir, const LoadRequest& request, const std::atomic<bool>* cancel, const Progress& progress,
    const std::function<void(const std::string& message)>& warn = {}, msprobe::dump::SharedDumps* dumps = nullptr,
    msprobe::compare::TensorMetricCache* tensorMetrics = nullptr);

// The compare engine on every rank pair of the two dumps (paired as msprobe compare pairs them). dumps and
// tensorMetrics, when given, hand over the parses and tensor metrics buildGraphs made instead of reading the
// files again.
std::map<msprobe::studio::Key, std::shared_ptr<const CompareRows>> compareDumps(const std::filesystem::path& problem,
    const std::filesystem::path& bench, const LoadRequest& request, const std::atomic<bool>* cancel, const Progress& progress,
    msprobe::dump::SharedDumps* dumps = nullptr, msprobe::compare::TensorMetricCache* tensorMetrics = nullptr);

// A compare_result CSV; its step and rank come from the path ("…/step1/compare_result_rank2_….csv"), else 0.
std::map<msprobe::studio::Key, std::shared_ptr<const CompareRows>> readCompareCsv(const std::filesystem::path& file);

// A new folder for generated vis.dbs under the cache location.
std::filesystem::path newOutputDir(const QString& chosen);

} // namespace msprobe::studio::sessionloader
