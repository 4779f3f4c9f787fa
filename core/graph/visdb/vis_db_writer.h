// SPDX-License-Identifier: Apache-2.0
// Writes graphs into a .vis.db file with the reference's schema and value encodings.
#pragma once

#include "support/atomic_file.h"
#include "graph/model/graph_model.h"
#include "graph/visdb/node_data.h"

#include <filesystem>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

namespace msprobe::support {
class SqliteDb;
}

namespace msprobe::graph {

struct VisConfig {
    bool compare = false;
    compare::CompareMode mode = compare::CompareMode::Statistics;
    int microSteps = 1;
    bool overflowCheck = false;
    std::vector<int> ranks { 0 };
    std::vector<int> steps { 0 };
};

class VisDbWriter {
public:
    // The database is built in memory and written out in one piece by finish() (under a temporary name, renamed
    // into place; an existing file is replaced then). When it grows past memoryBudget bytes between two graphs
    // it moves to a hidden temporary file next to `file` and carries on there; 0 writes to disk from the start,
    // a negative budget takes the default (an eighth of the physical memory, at most 4 GiB). onClash: whether an
    // existing file of that name is replaced or the database takes a free name ("name_1.vis.db"; see file()).
    explicit VisDbWriter(std::filesystem::path file, std::int64_t memoryBudget = -1,
        support::AtomicFile::OnClash onClash = support::AtomicFile::OnClash::Replace);
    ~VisDbWriter();
    VisDbWriter(const VisDbWriter&) = delete;
    VisDbWriter& operator=(const VisDbWriter&) = delete;

    // Appends one graph's nodes (post-order) and its stacks. other: the graph on the other side, whose node
    // paths make matched_node_link; nullptr in build mode. The rows take the rowids from firstRowId on, as
    // reserved by reserveRows() (so a side may be written before the side that precedes it in the table), or
    // the next free ones when firstRowId is 0. Not thread-safe: one writeGraph at a time.
    // rowsReady(end), when given, is called (on a helper thread) before the rows of post-order positions below
    // end are rendered: it waits until those nodes are final, so a graph may be written while it is compared.
    void writeGraph(const Graph& graph, const Graph* other, int step, int rank, const RenderOptions& options,
        const std::function<void(std::size_t done, std::size_t total)>& progress = {}, std::int64_t firstRowId = 0,
        const std::function<void(std::size_t end)>& rowsReady = {});
    // The first of `count` consecutive rowids for a later writeGraph (one row per node in post order).
    std::int64_t reserveRows(std::size_t count);
    // tb_config; the first call wins (INSERT OR IGNORE), as in the reference.
    void writeConfig(const VisConfig& config);
    // Creates the indexes, runs the cross-rank communication matching when asked, switches the file to WAL
    // mode and renames it into place.
    // progress(99) is called once the indexes exist.
    void finish(bool distributedAnalysis, bool overflowCheck, const std::function<void(int)>& progress = {});

    support::SqliteDb& db();
    // The database file; after finish() the name actually written.
    const std::filesystem::path& file() const { return m_file; }

    bool inMemory() const { return m_inMemory; }

private:
    void applyWritePragmas();
    void createIndexes();
    void moveToDiskIfLarge();
    std::filesystem::path m_file;
    support::AtomicFile::OnClash m_onClash;
    std::optional<support::AtomicFile> m_onDisk; // the database file while it is written on disk
    std::unique_ptr<support::SqliteDb> m_db;
    std::int64_t m_memoryBudget = 0;
    std::int64_t m_nextRowId = 1;
    bool m_inMemory = false;
    bool m_finished = false;
};

// JSON list text of ids, Python json.dumps style.
void appendJsonIdList(std::string& out, const std::vector<std::string_view>& ids);

} // namespace msprobe::graph
