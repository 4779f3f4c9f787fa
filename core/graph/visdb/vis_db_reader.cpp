// SPDX-License-Identifier: Apache-2.0
#include "graph/visdb/vis_db_reader.h"

#include "support/sqlite_util.h"
#include "support/error.h"

#include <nlohmann/json.hpp>

#include <sqlite3.h>

namespace msprobe::graph {

namespace {

std::vector<std::string> stringList(std::string_view text)
{
    std::vector<std::string> out;
    if (text.empty())
        return out;
    const auto json = nlohmann::json::parse(text, nullptr, false);
    if (!json.is_array())
        return out;
    for (const auto& item : json)
        if (item.is_string())
            out.push_back(item.get<std::string>());
    return out;
}

std::vector<int> intList(std::string_view text)
{
    std::vector<int> out;
    const auto json = nlohmann::json::parse(text, nullptr, false);
    if (json.is_array())
        for (const auto& item : json)
            if (item.is_number_integer())
                out.push_back(item.get<int>());
    return out;
}

} // namespace

std::uint32_t VisGraph::find(const std::string& name) const
{
    auto it = m_byName.find(name);
    return it == m_byName.end() ? kNoVisNode : it->second;
}

void VisGraph::index()
{
    m_byName.clear();
    for (std::uint32_t i = 0; i < nodes.size(); ++i)
        m_byName.emplace(nodes[i].name, i);
    m_root = kNoVisNode;
    for (std::uint32_t i = 0; i < nodes.size(); ++i) {
        VisNode& node = nodes[i];
        node.children.clear();
        node.parent = node.upNode.empty() ? kNoVisNode : find(node.upNode);
        if (node.upNode.empty() && m_root == kNoVisNode)
            m_root = i;
        for (const auto& child : node.subNodes)
            if (auto c = find(child); c != kNoVisNode)
                node.children.push_back(c);
    }
}

VisDb::VisDb(const std::filesystem::path& file, Access access)
{
    std::error_code ec;
    if (!std::filesystem::is_regular_file(file, ec))
        throw support::Error(file.string(), {}, "no such vis.db file");
    m_db = access == Access::Snapshot ? support::SqliteDb::snapshot(file) : std::make_unique<support::SqliteDb>(file, true);
    try {
        support::SqliteStatement config(*m_db, "SELECT graph_type, task, tool_tip, micro_steps, overflow_check, node_colors, rank_list, step_list FROM tb_config");
        if (!config.step())
            throw support::Error(file.string(), "tb_config", "the table is empty");
        m_config.graphType = std::string(config.columnText(0));
        m_config.task = std::string(config.columnText(1));
        m_config.toolTip = config.columnOptionalText(2);
        m_config.microSteps = static_cast<int>(config.columnInt(3));
        m_config.overflowCheck = config.columnInt(4) != 0;
        m_config.nodeColors = std::string(config.columnText(5));
        m_config.ranks = intList(config.columnText(6));
        m_config.steps = intList(config.columnText(7));
    } catch (const support::Error& error) {
        // What SQLite says is what tells the reader; the statement it failed on (cut at 60 characters) does not.
        const bool placeIsSql = error.place().find(' ') != std::string::npos;
        throw support::Error(file.string(), placeIsSql ? std::string() : error.place(), "not a vis.db file: " + error.detail());
    }
}

VisDb::~VisDb() = default;

std::vector<VisDb::GraphKey> VisDb::graphs() const
{
    std::vector<GraphKey> keys;
    support::SqliteStatement query(*m_db, "SELECT DISTINCT step, rank, data_source FROM tb_nodes ORDER BY step, rank, data_source DESC");
    while (query.step())
        keys.push_back({ int(query.columnInt(0)), int(query.columnInt(1)), std::string(query.columnText(2)) });
    return keys;
}

VisGraph VisDb::load(int step, int rank, const std::string& dataSource, bool withData) const
{
    VisGraph graph;
    graph.dataSource = dataSource;
    graph.step = step;
    graph.rank = rank;
    std::string sql = "SELECT node_name, node_type, up_node, sub_nodes, precision_index, overflow_level, micro_step_id, "
                      "matched_node_link, stack_id, matched_distributed, modified, dump_data_dir, parallel_merge_info";
    sql += withData ? ", input_data, output_data" : "";
    sql += " FROM tb_nodes WHERE step = ? AND rank = ? AND data_source = ? ORDER BY node_order";
    support::SqliteStatement query(*m_db, sql);
    query.bindInt(1, step);
    query.bindInt(2, rank);
    query.bindText(3, dataSource);
    while (query.step()) {
        VisNode node;
        node.name = std::string(query.columnText(0));
        node.type = std::atoi(std::string(query.columnText(1)).c_str());
        node.upNode = std::string(query.columnText(2));
        node.subNodes = stringList(query.columnText(3));
        if (!query.isNull(4))
            node.precision = query.columnDouble(4);
        node.overflow = std::string(query.columnText(5));
        node.microStep = static_cast<int>(query.columnInt(6));
        node.link = stringList(query.columnText(7));
        node.stackId = std::string(query.columnText(8));
        node.matchedDistributed = std::string(query.columnText(9));
        node.modified = query.columnInt(10) != 0;
        node.dumpDataDir = query.columnOptionalText(11);
        node.parallelMergeInfo = std::string(query.columnText(12));
        if (withData) {
            node.inputData = std::string(query.columnText(13));
            node.outputData = std::string(query.columnText(14));
        }
        graph.nodes.push_back(std::move(node));
    }
    graph.index();
    return graph;
}

std::pair<std::string, std::string> VisDb::nodeData(int step, int rank, const std::string& dataSource, const std::string& name) const
{
    support::SqliteStatement query(*m_db, "SELECT input_data, output_data FROM tb_nodes WHERE step = ? AND rank = ? AND data_source = ? AND node_name = ?");
    query.bindInt(1, step);
    query.bindInt(2, rank);
    query.bindText(3, dataSource);
    query.bindText(4, name);
    if (!query.step())
        return {};
    return { std::string(query.columnText(0)), std::string(query.columnText(1)) };
}

std::vector<std::string> VisDb::stackFrames(const std::string& stackId) const
{
    support::SqliteStatement query(*m_db, "SELECT stack_info FROM tb_stack WHERE id = ?");
    query.bindText(1, stackId);
    return query.step() ? stringList(query.columnText(0)) : std::vector<std::string> {};
}

std::size_t VisDb::rowCount(const std::string& table) const
{
    if (table != "tb_nodes" && table != "tb_stack" && table != "tb_config")
        throw support::Error(m_db->file(), table, "unknown table");
    support::SqliteStatement query(*m_db, "SELECT COUNT(*) FROM " + table);
    return query.step() ? static_cast<std::size_t>(query.columnInt(0)) : 0;
}

} // namespace msprobe::graph
