// SPDX-License-Identifier: Apache-2.0
// Category inference of spec §5.3 (declared in mem_model.h): what each block holds, from its owner labels and its
// lifetime (ops, phases, steps).
#include "memory/mem_model.h"

#include <array>
#include <unordered_map>

namespace msprobe::memory {

namespace {

enum class Phase : std::uint8_t { None, Forward, Backward, Optimizer };

struct OwnerFacts {
    bool known = false; // computed (the cache is filled lazily)
    bool weight = false, gradient = false, optimizerState = false, activation = false;
    Phase phase = Phase::None;
};

OwnerFacts factsOf(std::string_view owner)
{
    OwnerFacts facts;
    facts.known = true;
    std::size_t start = 0;
    while (start <= owner.size()) {
        const auto at = owner.find('@', start);
        const auto label = owner.substr(start, at == std::string_view::npos ? std::string_view::npos : at - start);
        if (label == "weight" || label == "weights" || label == "sharded_weight")
            facts.weight = true;
        else if (label == "gradient")
            facts.gradient = true;
        else if (label == "optimizer_state")
            facts.optimizerState = true;
        else if (label == "activation")
            facts.activation = true;
        else if (label == "forward")
            facts.phase = Phase::Forward;
        else if (label == "backward")
            facts.phase = Phase::Backward;
        else if (label == "optimizer")
            facts.phase = Phase::Optimizer;
        if (at == std::string_view::npos)
            break;
        start = at + 1;
    }
    return facts;
}

std::uint64_t stepKey(std::int32_t pid, std::uint32_t step)
{
    return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(pid)) << 32) | step;
}

} // namespace

std::string_view categoryName(BlockCategory category)
{
    static constexpr std::array<std::string_view, kBlockCategoryCount> kNames = { "weight", "gradient", "optimizer_state",
        "activation", "input", "temporary", "unknown" };
    return kNames[static_cast<std::size_t>(category)];
}

void inferCategories(const MemTrace& trace, MemModel& model)
{
    const auto& events = trace.events;
    std::vector<OwnerFacts> cache(trace.strings.size());
    auto facts = [&](support::StringId owner) -> const OwnerFacts& {
        static const OwnerFacts kNoOwner { true };
        if (owner == support::kNoString || owner >= cache.size())
            return kNoOwner;
        if (!cache[owner].known)
            cache[owner] = factsOf(trace.text(owner));
        return cache[owner];
    };
    // One pass in event order: the phase at each FREE, and the first op of each (process, step).
    std::vector<Phase> freePhase(model.blocks.size(), Phase::None);
    std::unordered_map<std::uint64_t, std::uint32_t> firstOp;
    std::int32_t pid = -2;
    Phase phase = Phase::None;
    for (std::uint32_t i = 0; i < events.size(); ++i) {
        const MemEvent& e = events[i];
        if (e.pid != pid) {
            pid = e.pid;
            phase = Phase::None;
        }
        if (e.kind == EventKind::OpLaunch) {
            const auto op = model.opOf[i];
            if (op != kNone && model.ops[op].startEvent == i)
                firstOp.try_emplace(stepKey(e.pid, model.stepOf[i]), i);
            continue;
        }
        const auto b = model.blockOf[i];
        if (b == kNone)
            continue;
        if (e.kind == EventKind::Malloc) {
            if (const auto p = facts(model.blocks[b].owner).phase; p != Phase::None)
                phase = p;
        } else if (e.kind == EventKind::Free)
            freePhase[b] = phase;
    }
    auto outermost = [&](std::uint32_t op) {
        while (op != kNone && model.ops[op].parent != kNone)
            op = model.ops[op].parent;
        return op;
    };
    for (std::size_t k = 0; k < model.blocks.size(); ++k) {
        Block& block = model.blocks[k];
        const OwnerFacts& f = facts(block.owner);
        const bool reallyFreed = block.freeEvent != kNone && !block.shadowFree;
        auto category = BlockCategory::Unknown;
        if (f.optimizerState)
            category = BlockCategory::OptimizerState;
        else if (f.gradient)
            category = BlockCategory::Gradient;
        else if (f.weight)
            category = BlockCategory::Weight;
        else if (f.phase == Phase::Optimizer && (!reallyFreed || block.freeStep != block.allocStep))
            category = BlockCategory::OptimizerState;
        else if (f.activation || (reallyFreed && f.phase == Phase::Forward && freePhase[k] == Phase::Backward))
            category = BlockCategory::Activation;
        else if (const auto first = firstOp.find(stepKey(block.pid, block.allocStep));
                 block.allocOp == kNone && first != firstOp.end() && first->second > block.mallocEvent)
            category = BlockCategory::Input;
        else if (reallyFreed && block.freeStep == block.allocStep
            && ((block.allocOp != kNone && outermost(block.allocOp) == outermost(block.freeOp))
                || (f.phase != Phase::None && f.phase == freePhase[k])))
            category = BlockCategory::Temporary;
        block.category = category;
    }
}

} // namespace msprobe::memory
