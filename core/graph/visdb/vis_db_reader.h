// SPDX-License-Identifier: Apache-2.0
// Reads .vis.db files written by this tool or by the reference msprobe (same schema).
#pragma once

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace msprobe::support {
class SqliteDb;
}

namespace msprobe::graph {

struct VisDbConfig {
    std::string graphType; // "compare" | "build"
    std::string task;
    std::optional<std::string> toolTip; // JSON
    int microSteps = 0;
    bool overflowCheck = false;
    std::string nodeColors; // JSON or "null"
    std::vector<int> ranks, steps;
    bool isCompare() const { return graphType == "compare"; }
};

inline constexpr std::uint32_t kNoVisNode = 0xFFFFFFFFu;

struct VisNode {
    std::string name;
    int type = 0; // 0 module, 1 API, 8 multi collection, 9 API collection
    std::string upNode;
    std::vector<std::string> subNodes;
    double precision = NAN; // NaN: NULL
    std::string overflow; // "" when NULL
    int microStep = 0;
    std::vector<std::string> link; // matched_node_link
    std::string stackId;
    std::string matchedDistributed; // JSON text ("{}" when none)
    std::string parallelMergeInfo; // JSON list of text lines ("" or "[]" when none)
    bool modified = false;
    std::string inputData, outputData; // JSON texts (empty unless loaded with data)
    std::optional<std::string> dumpDataDir;
    std::uint32_t parent = kNoVisNode;
    std::vector<std::uint32_t> children;
    bool hasPrecision() const { return !std::isnan(precision); }
    bool matched() const { return !link.empty(); }
};

// One (step, rank, data_source) graph in node_order (post-order: the root is last).
class VisGraph {
public:
    std::string dataSource;
    int step = 0, rank = 0;
    std::vector<VisNode> nodes;

    std::uint32_t find(const std::string& name) const;
    std::uint32_t root() const { return m_root; }
    void index(); // fills parent/children indices and the name index from up_node/sub_nodes

private:
    std::unordered_map<std::string, std::uint32_t> m_byName;
    std::uint32_t m_root = kNoVisNode;
};

class VisDb {
public:
    enum class Access {
        Shared, // read-only beside writers (the studio's manual matches): SQLite's -wal/-shm files appear
        Snapshot, // nothing changes the file while it is open: no locks, no -wal/-shm files (SqliteDb::snapshot)
    };
    // Opens read-only; throws msprobe::Error naming the file when it is not a vis.db.
    explicit VisDb(const std::filesystem::path& file, Access access = Access::Shared);
    ~VisDb();

    const VisDbConfig& config() const { return m_config; }
    // The graphs present: (step, rank, data_source).
    struct GraphKey {
        int step, rank;
        std::string dataSource;
    };
    std::vector<GraphKey> graphs() const;
    // withData: also load input_data/output_data (large); otherwise fetch them per node with nodeData().
    VisGraph load(int step, int rank, const std::string& dataSource, bool withData = false) const;
    std::pair<std::string, std::string> nodeData(int step, int rank, const std::string& dataSource, const std::string& name) const;
    std::vector<std::string> stackFrames(const std::string& stackId) const;
    std::size_t rowCount(const std::string& table) const;

private:
    std::unique_ptr<support::SqliteDb> m_db;
    VisDbConfig m_config;
};

} // namespace msprobe::graph
