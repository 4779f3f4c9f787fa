// SPDX-License-Identifier: Apache-2.0
// What the studio's bottom details panel shows for a node: its items beside its partner's, paired by position
// (spec 2.5), its parallel-merge notes and, for communication nodes, the peer nodes on other ranks.
#pragma once

#include "graph/visdb/stored_items.h"

#include <string>
#include <string_view>
#include <vector>

namespace msprobe::graph {

struct DetailsRow {
    bool bench = false; // a row of the bench node (else of the debug node)
    bool paired = false; // the item has a partner item at the same position on the other side
    std::string item; // the full item name
    std::vector<std::string> cells; // one per DetailsTable::columns; "-" when the item lacks the field
};

struct DetailsTable {
    // "name" (the item name without "{node}."), then every item field in first-seen order except data_name,
    // isBench, isMatched and value.
    std::vector<std::string> columns;
    // Paired inputs then paired outputs (debug row, then bench row), then the debug node's unpaired items,
    // then the bench node's.
    std::vector<DetailsRow> rows;
    int column(std::string_view name) const; // -1 when absent
};

// bench: nullptr for an unmatched node or a build graph.
DetailsTable comparisonTable(const std::string& npuNode, const StoredItems& npu, const std::string& benchNode, const StoredItems* bench);

// matched_distributed of a communication node: {"communications_type": t, "nodes_info": {rank: [index, node]}}.
struct DistributedPeer {
    int rank = 0;
    std::string node;
    std::string index; // the peer's precision index or overflow level as stored ("Nan" when none)
};
struct DistributedInfo {
    std::string type; // "send", "receive", "send_receive"; empty when the node has no peers
    std::vector<DistributedPeer> peers; // by rank
};
DistributedInfo distributedInfo(std::string_view matchedDistributed);

// parallel_merge_info: a JSON list of lines (or plain text); empty when none.
std::vector<std::string> parallelMergeLines(std::string_view parallelMergeInfo);

} // namespace msprobe::graph
