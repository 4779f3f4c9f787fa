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

// Dump targets (fewer than 3 parts: none): "default" for a Module/Cell part, "index" for the last two parts,
// then either one "function" tag (no Module/Cell part: "Functional.linear") or "layer" tags "prev.N" with the
// "module" text between them and after the last number. Nothing left besides Module/Cell and the index: none.
std::vector<TrendTag> dumpTags(const std::string& targetName);

} // namespace msprobe::trend
