// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <filesystem>
#include <string>

namespace msprobe::diagnose {

// `msprobe overflow_check -i STEP_DIR` (spec 3.1): finds the first node whose inputs are finite while its output
// carries NaN/Inf -- before communication, through the cross-rank communication graph, or after the last
// communication op -- and returns the anomaly_analyze JSON text (indent 2), or empty when none is found.
// Rank dirs: rank, rank{N}; a lone proc{PID} dir is rank 0. Throws msprobe::Error for unreadable input or a
// non-PyTorch dump.
std::string analyzeOverflow(const std::filesystem::path& stepDir);

} // namespace msprobe::diagnose
