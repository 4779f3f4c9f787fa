// SPDX-License-Identifier: Apache-2.0
// Cross-rank communication matching (send <-> recv, collectives within their group), run on a written
// vis.db as the reference does: it reads the Distributed.* rows of every rank and fills matched_distributed.
#pragma once

namespace msprobe::support {
class SqliteDb;
}

namespace msprobe::graph {

// overflowCheck: the peer's index shown is its overflow level instead of its precision index.
void analyseDistributed(support::SqliteDb& db, bool overflowCheck);

} // namespace msprobe::graph
