// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "compare/compare_table.h"
#include "dump/construct_stack.h"

#include <optional>
#include <string>

namespace msprobe::compare {

// Where a compare first goes wrong (the CLI summary, the verdict JSON, the HTML report, the studio).
struct DivergencePoint {
    enum class Rule : std::uint8_t {
        Argument, // a non-tensor argument differs between the runs
        Output, // an output leaves tolerance while the inputs stay within it
        NanInf, // firstNanInf: NaN/Inf appears in an output while the inputs are finite
    };
    std::string entry; // dump.json entry name
    std::size_t row = 0; // the offending row of the table (the argument or the output)
    std::string reason; // one line a user understands: "kwarg approximate 'tanh' vs 'none'"
    Rule rule = Rule::Output;
};

// "argument", "output", "nan_inf" (the verdict JSON's `rule`).
std::string_view toString(DivergencePoint::Rule rule);

struct DivergenceTolerance {
    // statistics: the largest |diff| of Max/Min/Mean as a fraction of max(|Max|, |Min|) of both sides, of Norm as a
    // fraction of the larger Norm (also a numeric non-tensor output's and a 0-d tensor's relative error). 1e-5 sits
    // above float32 rounding noise; bf16/fp16 runs want about 1e-2.
    double relative = 1e-5;
    double cosine = 0.999; // tensor: Cosine below this is out of tolerance
};

// The first-divergence rule, one for every mode (statistics, md5, tensor) and level (L0, L1, mix):
//  1. Entries are walked in execution order (the dump's order), every forward entry before any backward one.
//  2. An entry diverges when
//     (a) a non-tensor argument (scalar, string, kwarg such as `approximate`, torch.dtype, None, a kwarg present
//         on one side only) differs between the runs — whatever its tensor inputs; or
//     (b) its tensor inputs (and parameters) are within tolerance and an output is not: md5 checksums differ;
//         statistics move by more than the tolerance of the tensor's magnitude, or NaN/Inf on the NPU side only;
//         tensor cosine below the tolerance or NaN/Inf positions differ; a shape differs; a non-tensor output
//         differs.
//     Arguments that only say where the run happens (torch.device, device strings such as npu:0 / cuda:0, kwargs
//     named device/group/stream, process groups, streams) never count. Entries without a partner, without inputs
//     (parameters_grad) or with an unpaired tensor input are not judged.
//  3. The innermost diverging entry wins: when the first diverging entry is a module, a diverging entry inside it
//     (by the construct.json parent chain, NPU side) is preferred, and so on inwards. Without construct.json (L1)
//     the dump order decides; msprobe writes a module after the calls it encloses, so an operator already comes
//     first.
// `construct` is the NPU dump's construct.json (nullptr or empty: dump order only). Not for consistent checks.
std::optional<DivergencePoint> firstDivergence(
    const CompareTable& table, const DivergenceTolerance& tolerance = {}, const dump::ConstructInfo* construct = nullptr);

// The same for a pair of dumps on disk: reads the NPU side's construct.json beside `npuJson` only when the first
// diverging entry is a module (a missing or unreadable construct.json leaves the dump order alone).
std::optional<DivergencePoint> firstDivergence(
    const CompareTable& table, const DivergenceTolerance& tolerance, const std::filesystem::path& npuJson);

// The first entry whose NPU outputs hold NaN/Inf (in Max/Min/Mean/Norm) while all its inputs are finite.
std::optional<DivergencePoint> firstNanInf(const CompareTable& table);

} // namespace msprobe::compare
