// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "compare/compare_job.h"
#include "compare/compare_table.h"

#include <string>

namespace msprobe::compare {

// One pair's part of the HTML report: its first divergence and NaN/Inf origin, and a sortable table of the
// non-pass rows followed by the first rows (capped, the full table is the CSV/XLSX).
std::string renderHtmlSection(const CompareTable& table, const PairOutcome& outcome);

// The self-contained HTML report of a whole job: counts per Result, the per-rank table, the first divergent
// entries, then each pair's section. No external resources.
std::string renderHtmlReport(const JobOutcome& job);


} // namespace msprobe::compare
