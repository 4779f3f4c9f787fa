// SPDX-License-Identifier: Apache-2.0
// Writes graphs into a .vis.db file with the reference's schema and value encodings.
#pragma once

#include "graph/graph_model.h"
#include "graph/node_data.h"

#include <filesystem>
#include <functional>
#include <memory>
#include <vector>

namespace msprobe::graph {

class SqliteDb;

struct VisConfig {
    bool compare = false;
    CompareMode mode = CompareMode::Statistics;
    int microSteps = 1;
    bool overflowCheck = false;
    std::vector<int> ranks { 0 };
    std::vector<int> steps { 0 };
};

class VisDbWriter {
public:
    // Writes into "<file>.partial" and renames it to file in finish(); an existing file is replaced then.
    explicit VisDbWriter(std::filesystem::path file);
    ~VisDbWriter();
    VisDbWriter(const VisDbWriter&) = delete;
    VisDbWriter& operator=(const VisDbWriter&) = delete;

    // Appends one graph's nodes (post-order) and its stacks. other: the graph on the other side, whose node
    // paths make matched_node_link; nullptr in build mode.
    void writeGraph(const Graph& graph, const Graph* other, int step, int rank, const RenderOptions& options,
        const std::function<void(std::size_t done, std::size_t total)>& progress = {});
    // tb_config; the first call wins (INSERT OR IGNORE), as in the reference.
    void writeConfig(const VisConfig& config);
    // Creates the indexes, runs the cross-rank communication matching when asked, switches the file to WAL
    // mode and renames it into place.
    // progress(99) is called once the indexes exist.
    void finish(bool distributedAnalysis, bool overflowCheck, const std::function<void(int)>& progress = {});

    SqliteDb& db();
    const std::filesystem::path& file() const { return m_file; }

private:
    std::filesystem::path m_file, m_partial;
    std::unique_ptr<SqliteDb> m_db;
    bool m_finished = false;
};

// JSON list text of ids, Python json.dumps style.
void appendJsonIdList(std::string& out, const std::vector<std::string_view>& ids);

} // namespace msprobe::graph
