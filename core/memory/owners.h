// SPDX-License-Identifier: Apache-2.0
// Who owns the memory (spec §2.4): the owner string msMemScope composes from its eight label levels, and the
// decomposition of the live blocks at a chosen moment by owner and by category (§5.3: weight, gradient,
// optimizer_state, activation, input, temporary, unknown).
#pragma once

#include "memory/mem_model.h"

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace msprobe::memory {

enum class OwnerLevel : std::uint8_t { Framework, Component, Process, Detail1, Detail2, User1, User2, User3 };

// The labels of a block, composed as §2.4 does: range labels (per system level, a stack whose top applies),
// user labels (a stack of at most 3, further ones dropped) and address labels, which overwrite the level.
class OwnerLabels {
public:
    void pushRange(OwnerLevel level, const std::string& label);
    void popRange(OwnerLevel level);
    void pushUser(const std::string& label); // a 4th label is dropped, as msMemScope does
    void popUser();
    // The owner a block allocated now under `framework` gets, before any address label.
    std::array<std::string, 8> levelsAt(const std::string& framework) const;
    // Up to 8 levels joined with '@', empty levels skipped: "PTA@weight@a@b".
    static std::string join(const std::array<std::string, 8>& levels);

private:
    std::array<std::vector<std::string>, 5> m_ranges; // Framework..Detail2
    std::vector<std::string> m_user;
    std::size_t m_droppedUser = 0;
};

// weight / gradient / optimizer_state / activation / other, from the labels in an owner string alone (decompose
// uses the blocks' inferred categories, which also look at their lifetimes: inferCategories in mem_model.h).
std::string ownerCategory(std::string_view owner);

struct DecomposeOptions {
    enum class At { End, Peak, Time, StepEnd } at = At::Peak;
    std::int64_t timeNs = 0; // At::Time
    std::uint32_t step = 0; // At::StepEnd
    bool includeHal = false; // HAL blocks back the pools; counted only on request, so bytes are not counted twice
};

struct OwnerShare {
    std::string owner; // "" = untagged
    std::string category; // one share per (owner, category)
    std::size_t blocks = 0;
    std::int64_t bytes = 0;
};

struct Decomposition {
    std::int64_t timeNs = 0; // the moment decomposed (after the event at eventIndex)
    std::uint32_t eventIndex = kNone;
    std::int64_t liveBytes = 0;
    std::size_t liveBlocks = 0;
    std::int64_t reservedBytes = -1; // the last pool `total` at that moment, -1 if none
    std::vector<OwnerShare> owners; // by bytes, largest first
    std::map<std::string, std::int64_t> categories; // bytes per category
};

// Throws msprobe::Error when the moment does not exist (a step not in the dump, an empty dump).
Decomposition decompose(const MemTrace& trace, const MemModel& model, const DecomposeOptions& options);

} // namespace msprobe::memory
