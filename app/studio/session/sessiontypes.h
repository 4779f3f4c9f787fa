// SPDX-License-Identifier: Apache-2.0
// The value types of a studio session, shared by the session and its loader: what to open (LoadRequest), the
// key of a compared pair (step, rank), the graphs of a pair and what a graph load produces.
#pragma once

#include "comparerows.h"

#include "graph/merge/parallel_merge.h"
#include "graph/visdb/vis_db_reader.h"

#include <QString>
#include <QStringList>

#include <map>
#include <memory>
#include <utility>

namespace msprobe::studio {

struct LoadRequest {
    enum class Kind { DumpFolder, Pair, VisDb, CompareCsv };
    Kind kind = Kind::DumpFolder;
    QString path; // DumpFolder, VisDb, CompareCsv; Pair: the problem side
    QString bench; // Pair
    bool fuzzyMatch = false; // -fm
    bool overflowCheck = false; // -oc
    QString layerMappingFile; // -lm FILE for the graphs of a pair (empty: no layer mapping)
    QString outputDir; // Pair and DumpFolder graphs: where the vis.db goes (empty: a new folder under the cache)
    // --rank_size/--tp/--pp/--vpp/--order of graph_visualize: none, one (problem) or two (problem, bench).
    std::vector<msprobe::graph::ParallelParams> parallelMerge;

    // What to load for paths given on the command line or dropped: one .vis.db / .db, one .csv, one dump folder
    // or dump.json, or two folders (problem, bench). Empty kind list -> invalid (see error).
    static LoadRequest forPaths(const QStringList& paths, QString* error);
};

using Key = std::pair<int, int>; // (step, rank)

struct GraphPair {
    std::shared_ptr<msprobe::graph::VisGraph> problem, bench; // bench null for build dbs
};

// What a graph load produces on the worker: the vis.db (kept open: the one handle every panel reads), its
// configuration and every (step, rank) pair of graphs.
struct GraphStage {
    QString visDbPath;
    std::shared_ptr<msprobe::graph::VisDb> db;
    msprobe::graph::VisDbConfig config;
    std::map<Key, GraphPair> graphs;
};

} // namespace msprobe::studio
