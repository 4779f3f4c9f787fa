// SPDX-License-Identifier: Apache-2.0
// The compare table of a compare vis.db opened alone: every item of every debug-side node's stored input and
// output data (graph_visualize wrote the compare columns there), in node order, with the partner's item name.
#pragma once

#include "comparerows.h"
#include "sessiontypes.h"

#include <filesystem>
#include <map>
#include <memory>

namespace msprobe::studio {

// One table per (step, rank) of the db's debug ("NPU") graphs; empty for a build db. Throws msprobe::Error for
// a node whose stored data is not JSON (naming the node).
std::map<Key, std::shared_ptr<const CompareRows>> compareRowsFromVisDb(const msprobe::graph::VisDb& db, const std::filesystem::path& file);

} // namespace msprobe::studio
