// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "compare/compare_job.h"

#include <string>

namespace msprobe::compare {

// Machine-readable verdicts of a job for CI (compare_verdict_{ts}.json): overall verdict, counts per pair, the
// first divergence and NaN/Inf origin, the first failing rows and the files written.
std::string renderVerdictJson(const JobOutcome& job);

} // namespace msprobe::compare
