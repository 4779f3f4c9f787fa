// SPDX-License-Identifier: Apache-2.0
// Matching nodes by hand in a compare vis.db (ours or the reference's), as the desktop app does: pair or unpair
// an NPU node and a bench node of one (step, rank), recompute the pair's precision from the stored node data
// with the compare rules, write the changed rows in one transaction and keep the mapping file
// ({tag}_{step}_{rank}.vis.config, read back by `graph_visualize --mapping-file`) in step.
#pragma once

#include "compare/compare_options.h"
#include "graph/visdb/vis_db_reader.h"

#include <cmath>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace msprobe::graph {

// The columns of one tb_nodes row that matching by hand rewrites.
struct MatchRow {
    std::string dataSource; // "NPU" | "Bench"
    std::string name;
    std::vector<std::string> link; // matched_node_link: the partner's path from the root
    double precision = NAN; // NaN: NULL
    bool modified = false;
    std::string inputData, outputData;
    bool operator==(const MatchRow& other) const;
};

// What one operation changes: the rows as they were and as they become (same order, same nodes).
struct MatchEdit {
    std::vector<MatchRow> before, after;
    std::vector<std::string> npuNodes, benchNodes; // the nodes whose rows change
    bool empty() const { return after.empty(); }
};

// The outcome of applying a mapping file: one edit for all its pairs.
struct MappingFileReport {
    std::size_t total = 0, success = 0, failed = 0;
    std::vector<std::string> problems; // one line per failed pair
    MatchEdit edit;
};

class ManualMatcher {
public:
    // Loads the NPU and bench graphs of (step, rank) with their data. Throws msprobe::Error for a build db, an
    // unsupported task or a missing graph.
    ManualMatcher(std::filesystem::path database, int step, int rank);
    ~ManualMatcher();

    const std::filesystem::path& database() const { return m_database; }
    int step() const { return m_step; }
    int rank() const { return m_rank; }
    compare::CompareMode mode() const { return m_mode; }
    const VisDbConfig& config() const { return m_config; }
    const VisGraph& npu() const { return m_npu; }
    const VisGraph& bench() const { return m_bench; }
    // The current row of a node (as loaded, with the edits applied since).
    MatchRow row(const std::string& dataSource, const std::string& name) const;

    // Plans an operation; nothing is written. Throws msprobe::Error naming the nodes when a node is missing,
    // the node types differ, or (unmatch) the node has no partner.
    // match: also the forward/backward twins, and with descendants the unmatched children paired by
    // "{short name}.{node type}", recursively.
    MatchEdit planMatch(const std::string& npuNode, const std::string& benchNode, bool descendants) const;
    MatchEdit planUnmatch(const std::string& npuNode, bool descendants) const;
    // Every pair of a mapping file (ours or a .vis.config of the reference), in file order.
    MappingFileReport planMappingFile(const std::filesystem::path& file) const;

    // Writes the rows in one transaction (all or nothing), updates the loaded graphs, then rewrites the
    // mapping file from the rows now marked modified. Throws msprobe::Error; the db is unchanged then.
    void apply(const std::vector<MatchRow>& rows);
    MatchEdit match(const std::string& npuNode, const std::string& benchNode, bool descendants);
    MatchEdit unmatch(const std::string& npuNode, bool descendants);

    // visConfigPath(database, step, rank)
    std::filesystem::path mappingFile() const;
    // Writes the pairs made by hand (NPU rows marked modified: partner or null) to file, atomically.
    void writeMapping(const std::filesystem::path& file) const;

private:
    class Draft;
    MatchEdit finish(const Draft& draft) const;
    MatchRow npuRow(std::uint32_t n, std::uint32_t partner) const;

    std::filesystem::path m_database;
    int m_step, m_rank;
    VisDbConfig m_config;
    compare::CompareMode m_mode = compare::CompareMode::Statistics;
    VisGraph m_npu, m_bench;
};

} // namespace msprobe::graph
