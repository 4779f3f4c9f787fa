// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "compare/compare_options.h"
#include "compare/py_value.h"

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace msprobe::compare {

enum class ResultLevel : std::uint8_t { Pass, Warning, Error };
std::string_view toString(ResultLevel level);

// The messages the current-HEAD checkers append, one bit each, in an order that is the checkers' order in
// every mode (so a bit set renders as the reference's message list).
enum RuleMessage : std::uint16_t {
    kMsgInfNan = 1 << 0,
    kMsgRelativeErr = 1 << 1,
    kMsgOneThousandth = 1 << 2,
    kMsgRequiresGrad = 1 << 3,
    kMsgParameters = 1 << 4,
    kMsgDtype = 1 << 5,
    kMsgShape = 1 << 6,
    kMsgRelativeWarn = 1 << 7,
    kMsgCosineWarn = 1 << 8,
    kMsgCrcWarn = 1 << 9,
    kMsgCrcError = 1 << 10,
    kMsgNoCounterpart = 1 << 11, // cross-runtime compare only: the row found no partner in the other runtime's dump
};

// What the checkers read of one row (cells as the reference's table holds them).
struct RuleRow {
    bool isOutput = false; // ".output." in the NPU name
    bool matched = false; // Bench Name is not N/A
    bool benchFused = false; // Bench Name contains "qkv" or "gate_up"
    bool npuMissing = false; // NPU Name is N/A (consistent check: an inference item no training item matched)
    std::string_view apiSegment; // second dot segment of the NPU name
    PyVal npuMax, npuMin, benchMax, benchMin;
    std::string_view npuReqGrad, benchReqGrad, npuDtype, benchDtype;
    std::string npuShape, benchShape;
    std::string normRelativeErr; // statistics mode
    PyVal cosine, oneThousandth; // tensor mode
    std::string npuMd5, benchMd5; // md5 mode
};

struct RuleOutcome {
    ResultLevel level = ResultLevel::Pass;
    std::uint16_t messages = 0;
};

// Which checker list runs: the standard one, or the consistent check's tensor-mode list (no RequiresGrad check,
// shapes compared without size-1 dimensions; fused qkv/gate_up rows skipped for fsdp, 3-d training shapes
// folded to 2-d for megatron).
enum class RuleSet : std::uint8_t { Standard, ConsistentFsdp, ConsistentMegatron };

// Runs the mode's checkers over the rows of one dump.json entry (spec 2.10).
void applyResultRules(CompareMode mode, std::span<const RuleRow> rows, std::span<RuleOutcome> out,
    RuleSet ruleSet = RuleSet::Standard);

// The Err_message cell: a JSON array of the messages ("[]" when none).
std::string errMessageText(std::uint16_t messages);
std::string_view ruleMessageText(RuleMessage message);

// Python float(s.strip('%')) / 100, or 0 when that raises (the checkers' str2float).
double percentToFraction(std::string_view text);

} // namespace msprobe::compare
