// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "graph/visdb/vis_db_reader.h"

#include <string>
#include <string_view>

namespace msprobe::graph {

// The plugin's short label: root children keep their full name; modules keep the last 4 segments (5 when
// segment -4 is a number), APIs and collections the last 2 (3 when segment -2 is a number).
std::string shortLabel(std::string_view name, int type, bool rootChild);
std::string displayLabel(const VisGraph& graph, std::uint32_t node);

} // namespace msprobe::graph
