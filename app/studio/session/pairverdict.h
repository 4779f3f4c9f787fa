// SPDX-License-Identifier: Apache-2.0
// The verdict of each compared (step, rank) pair as `msprobe compare` states it: counts, first divergence and
// first NaN/Inf (the core's summarizePair on the session's tables), the one-line text the studio's verdict bar
// shows, and the verdict JSON with the field names of `msprobe compare --json`.
#pragma once

#include "comparerows.h"
#include "sessiontypes.h"

#include "compare/compare_job.h"

#include <QString>

#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>

namespace msprobe::studio {

using Verdicts = std::map<Key, msprobe::compare::PairOutcome>;

// The CLI's summary of every compared pair of problem vs bench (paired as msprobe compare pairs them; the pair's
// NPU dump.json gives construct.json for the innermost-entry rule). Pairs without a core table are left out.
Verdicts summarizeComparisons(const std::filesystem::path& problem, const std::filesystem::path& bench,
    const std::map<Key, std::shared_ptr<const CompareRows>>& results);

// "First divergence: ENTRY — why: REASON; NaN/Inf first at ENTRY; N rows unpaired" (or "No divergence: …").
QString verdictText(const msprobe::compare::PairOutcome& outcome);

// The verdict JSON of `msprobe compare --json` for these pairs (only: one (step, rank) pair, else all).
std::string verdictJson(const Verdicts& verdicts, std::optional<Key> only = std::nullopt);

// "rank3" -> 3, "step12" -> 12; anything else -> 0 (how the session keys a compared pair).
int numberAfter(const std::string& text, const std::string& prefix);

} // namespace msprobe::studio
