// SPDX-License-Identifier: Apache-2.0
// The tags data2db derives from a target name (the trend view filters targets by them).
#pragma once

#include "trend/trend_db.h"

#include <string>
#include <vector>

namespace msprobe::trend {

// Monitor targets: every non-numeric part is a "module" tag, every numeric part after a non-numeric one a
// "layer" tag "prev.N" ("module.layers.0.mlp.input" -> module, layers, mlp, input; layers.0).
std::vector<TrendTag> monitorTags(const std::string& targetName);

} // namespace msprobe::trend
