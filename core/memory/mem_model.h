// SPDX-License-Identifier: Apache-2.0
// What the analyses share, derived from a sorted MemTrace (spec §1.10, §2.0): op instances (START/END paired per
// thread), the innermost open op of every event, the step of every event, and blocks rebuilt from
// MALLOC/ACCESS/FREE by (pid, allocation_id) — or by (pid, pool, address) for rows without one.
#pragma once

#include "memory/mem_event.h"

#include <cstdint>
#include <string>
#include <vector>

namespace msprobe::memory {

inline constexpr std::uint32_t kNone = 0xffffffffu;

struct OpInstance {
    support::StringId name = support::kNoString;
    std::int32_t pid = -1, tid = -1, device = kDeviceUnknown;
    std::uint32_t startEvent = kNone, endEvent = kNone; // indexes into MemTrace::events
    std::uint32_t depth = 0; // 0 = outermost
    std::uint32_t parent = kNone; // the op it runs inside (kNone for an outermost op)
    bool atb = false; // ATB_START/END rather than ATEN_START/END
};

// What a block holds (spec §5.3 category inference, modelled on torch.profiler's memory profiler): owner labels
// first, then what its lifetime says. See inferCategories.
enum class BlockCategory : std::uint8_t { Weight, Gradient, OptimizerState, Activation, Input, Temporary, Unknown };
inline constexpr std::size_t kBlockCategoryCount = 7;
// "weight", "gradient", "optimizer_state", "activation", "input", "temporary", "unknown".
std::string_view categoryName(BlockCategory category);

struct Block {
    std::uint64_t allocationId = 0;
    support::StringId pool = support::kNoString; // Event Type of the MALLOC: PTA, HAL, ATB, TORCH_CPU, ...
    std::int32_t pid = -1, device = kDeviceUnknown;
    std::uint64_t ptr = 0;
    std::int64_t size = 0;
    std::uint32_t mallocEvent = kNone, freeEvent = kNone;
    bool shadowFree = false; // its only FREE is a synthetic shadow:true row (§1.4)
    std::uint32_t allocOp = kNone, freeOp = kNone; // innermost open op (OpInstance index)
    std::uint32_t allocStep = 0, freeStep = 0;
    support::StringId owner = support::kNoString;
    BlockCategory category = BlockCategory::Unknown;
    std::vector<std::uint32_t> accesses; // ACCESS event indexes, in order

    // Never freed, or freed only by a synthetic FREE: alive at the end of the capture (a leak candidate).
    bool aliveAtEnd() const { return freeEvent == kNone || shadowFree; }
};

enum class StepSource { None, SystemStep, Mstx };

struct MemModel {
    std::vector<OpInstance> ops;
    std::vector<std::uint32_t> opOf; // per event: innermost open op on its (pid, tid), or kNone
    std::vector<std::uint32_t> stepOf; // per event: its step (1-based), 0 outside every step
    std::vector<std::uint32_t> blockOf; // per memory event: its block, or kNone
    std::vector<Block> blocks; // in MALLOC order
    std::vector<std::uint32_t> unmatchedAccesses, unmatchedFrees; // events that open no block (§1.3)
    std::vector<std::uint32_t> mstxEvents; // the MSTX rows (marks and ranges) in event order, found in the ops' scan
    // The earliest and latest event time of the trace (0 and 0 when it has no events), found in the ops' scan so
    // that the model's users need no pass of their own over the events.
    std::int64_t firstNs = 0, lastNs = 0;
    StepSource stepSource = StepSource::None;
    std::uint32_t stepCount = 0;
    // Step boundaries in event order: the event that starts (or ends) step `step`.
    struct Boundary {
        std::uint32_t event;
        std::uint32_t step;
        bool start;
    };
    std::vector<Boundary> boundaries;
};

// Throws msprobe::Error naming the file and line when a trace mixes the two step sources (§2.0). Fills every
// block's category (inferCategories).
MemModel buildModel(const MemTrace& trace);

// buildModel in three parts, for a caller that runs its own work beside them (the studio stacks its timeline's
// blocks while the ops are still being paired). The first two write different members and may run side by side:
//   buildModelBlocks  blocks (their events, pool, size, owner, accesses), blockOf, unmatched*
//   buildModelOps     ops, opOf, stepOf, steps and boundaries, firstNs/lastNs, mstxEvents; throws as buildModel
//                     does on mixed step sources
// finishModel needs both and writes only the blocks' allocOp, freeOp, allocStep, freeStep and category, so a
// reader of the blocks' other members may run beside it. buildModel(trace) is the three in that order.
void buildModelBlocks(const MemTrace& trace, MemModel& model);
void buildModelOps(const MemTrace& trace, MemModel& model);
void finishModel(const MemTrace& trace, MemModel& model);

// Spec §5.3, first rule that applies:
//   weight / gradient / optimizer_state  the owner says so (labels weight, weights, sharded_weight, gradient,
//                                        optimizer_state: msMemScope's tags and our capture's)
//   optimizer_state   allocated in the optimizer phase (owner label "optimizer") and alive across a step boundary
//   activation        owner label "activation", or allocated in the forward phase and freed in the backward one
//   input             allocated outside every op before the first op of its step (the step's data)
//   temporary         really freed within the step it was allocated in, and inside the same outermost op or
//                     within one phase
//   unknown           anything else
// The phase of a MALLOC is its owner's forward/backward/optimizer label; the phase at a FREE is that of the
// latest MALLOC with a phase label in the same process (frees carry no owner).
void inferCategories(const MemTrace& trace, MemModel& model);

// "torch._ops.aten.add.Tensor" for an op instance, "" for kNone.
std::string opName(const MemTrace& trace, const MemModel& model, std::uint32_t op);

} // namespace msprobe::memory
