// SPDX-License-Identifier: Apache-2.0
// The reference's vis.db schema, byte for byte (the TensorBoard plugin reads these tables), and the fixed
// JSON texts it stores in tb_config.
#pragma once

#include "compare/compare_options.h"

#include <array>
#include <string>
#include <string_view>

namespace msprobe::graph {

inline constexpr std::string_view kCreateNodes = "CREATE TABLE IF NOT EXISTS tb_nodes (\n"
                                                 "    id TEXT PRIMARY KEY,\n"
                                                 "    graph_id TEXT NOT NULL,\n"
                                                 "    node_order INTEGER NOT NULL,\n"
                                                 "    node_name TEXT NOT NULL,\n"
                                                 "    node_type TEXT NOT NULL,\n"
                                                 "    up_node TEXT,\n"
                                                 "    sub_nodes TEXT,\n"
                                                 "    precision_index INTEGER,\n"
                                                 "    overflow_level TEXT,\n"
                                                 "    micro_step_id INTEGER NOT NULL,\n"
                                                 "    matched_node_link TEXT,\n"
                                                 "    stack_id TEXT,\n"
                                                 "    parallel_merge_info TEXT,\n"
                                                 "    matched_distributed TEXT,\n"
                                                 "    modified INTEGER NOT NULL,\n"
                                                 "    input_data TEXT,\n"
                                                 "    output_data TEXT,\n"
                                                 "    data_source TEXT,\n"
                                                 "    dump_data_dir TEXT,\n"
                                                 "    step INTEGER NOT NULL,\n"
                                                 "    rank INTEGER NOT NULL,\n"
                                                 "    is_distributed INTEGER\n"
                                                 ");";

inline constexpr std::string_view kCreateStack = "CREATE TABLE IF NOT EXISTS tb_stack (\n"
                                                 "    id TEXT PRIMARY KEY,\n"
                                                 "    stack_info TEXT\n"
                                                 ");";

inline constexpr std::string_view kCreateConfig = "CREATE TABLE IF NOT EXISTS tb_config (\n"
                                                  "    id TEXT PRIMARY KEY,\n"
                                                  "    graph_type TEXT NOT NULL,\n"
                                                  "    task TEXT,\n"
                                                  "    tool_tip TEXT,\n"
                                                  "    micro_steps INTEGER,\n"
                                                  "    overflow_check INTEGER,\n"
                                                  "    node_colors TEXT NOT NULL,\n"
                                                  "    rank_list TEXT NOT NULL,\n"
                                                  "    step_list TEXT NOT NULL\n"
                                                  ");";

inline constexpr std::array<std::string_view, 7> kCreateIndexes = {
    "CREATE INDEX IF NOT EXISTS index1 ON tb_nodes (step, rank, data_source, up_node, node_order);",
    "CREATE INDEX IF NOT EXISTS index2 ON tb_nodes (step, rank, data_source, node_name);",
    "CREATE INDEX IF NOT EXISTS index3 ON tb_nodes (step, rank, data_source, node_order);",
    "CREATE INDEX IF NOT EXISTS index4 ON tb_nodes (step, rank, node_order);",
    "CREATE INDEX IF NOT EXISTS index5 ON tb_nodes (step, rank, micro_step_id, node_order);",
    "CREATE INDEX IF NOT EXISTS index6 ON tb_nodes (step, rank, modified, matched_node_link);",
    "CREATE INDEX IF NOT EXISTS index7 ON tb_nodes (is_distributed);",
};

inline constexpr std::string_view kInsertNode
    = "INSERT INTO tb_nodes (rowid, id, graph_id, node_order, node_name, node_type, up_node, sub_nodes, precision_index, "
      "overflow_level, micro_step_id, matched_node_link, stack_id, parallel_merge_info, matched_distributed, modified, "
      "input_data, output_data, data_source, dump_data_dir, step, rank, is_distributed) VALUES "
      "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
inline constexpr std::string_view kInsertStack = "INSERT INTO tb_stack (id, stack_info) VALUES (?, ?)";
inline constexpr std::string_view kInsertConfig
    = "INSERT OR IGNORE INTO tb_config (id, graph_type, task, tool_tip, micro_steps, overflow_check, node_colors, "
      "rank_list, step_list) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)";

// tb_config.tool_tip of a compare DB (json.dumps text, non-ASCII escaped).
std::string toolTipJson(compare::CompareMode mode);
// tb_config.node_colors of a compare DB.
std::string nodeColorsJson(compare::CompareMode mode);
// "summary" / "md5" / "all".
std::string_view taskName(compare::CompareMode mode);

} // namespace msprobe::graph
