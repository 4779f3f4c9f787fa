// SPDX-License-Identifier: Apache-2.0
// Inefficient memory identification, spec §2.5: blocks allocated too early, freed too late or idle between two
// uses, found with msMemScope's API-counter rules, plus the waste each costs (bytes x time, bytes x APIs).
#pragma once

#include "memory/mem_model.h"

#include <cstdint>
#include <string>
#include <vector>

namespace msprobe::memory {

enum InefficientType : std::uint8_t {
    kEarlyAllocation = 1,
    kLateDeallocation = 2,
    kTemporaryIdleness = 4,
};
inline constexpr std::uint8_t kAllInefficientTypes = kEarlyAllocation | kLateDeallocation | kTemporaryIdleness;

// "early_allocation,late_deallocation" -> bits; throws msprobe::Error naming an unknown type.
std::uint8_t parseInefficientTypes(const std::string& list);
// The comma list msMemScope writes for `bits`, in its order.
std::string inefficientTypeNames(std::uint8_t bits);

struct InefficientOptions {
    std::int64_t memSize = 0; // only blocks of at least this many bytes
    std::uint8_t types = kAllInefficientTypes;
    std::uint64_t idleThreshold = 3000; // APIs between two accesses above which a block is idle
};

struct InefficientBlock {
    std::uint32_t block = 0; // MemModel::blocks index
    std::uint8_t types = 0;
    std::uint64_t mallocApi = 0;
    // Waste per type: size x time (ns) and size x APIs.
    double earlyByteNs = 0, lateByteNs = 0, idleByteNs = 0;
    double earlyByteApis = 0, lateByteApis = 0, idleByteApis = 0;
};

struct InefficientReport {
    std::vector<InefficientBlock> blocks; // in MALLOC order
    std::uint64_t apis = 0; // APIs counted (ops plus memory events outside ops), all processes
};

InefficientReport findInefficientBlocks(const MemTrace& trace, const MemModel& model, const InefficientOptions& options = {});

} // namespace msprobe::memory
