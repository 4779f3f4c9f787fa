// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "compare/compare_table.h"

#include <optional>
#include <string>

namespace msprobe {

// Where a compare first goes wrong, for the JSON/HTML summaries.
struct DivergencePoint {
    std::string entry; // dump.json entry name
    std::size_t row = 0; // first offending row of the table
    std::string reason; // one line
};

struct DivergenceTolerance {
    // statistics: the largest |diff| of Max/Min/Mean as a fraction of max(|Max|, |Min|) of both sides, of Norm as a
    // fraction of the larger Norm. 1e-5 sits above float32 rounding noise; bf16/fp16 runs want about 1e-2.
    double relative = 1e-5;
    double cosine = 0.999; // tensor: Cosine below this is out of tolerance
};

// The earliest entry (in dump order) whose outputs leave tolerance while all its inputs and parameters stay within
// it: md5 checksums differ; statistics off by more than the tolerance of the tensor's magnitude or NaN/Inf on the NPU side only; tensor
// cosine below the tolerance or NaN/Inf positions differing; scalar arguments differing.
std::optional<DivergencePoint> firstDivergence(const CompareTable& table, const DivergenceTolerance& tolerance = {});

// The first entry whose NPU outputs hold NaN/Inf (in Max/Min/Mean/Norm) while all its inputs are finite.
std::optional<DivergencePoint> firstNanInf(const CompareTable& table);

} // namespace msprobe
