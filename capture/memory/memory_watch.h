// SPDX-License-Identifier: Apache-2.0
// Block watch (msMemScope --watch start,end): once the start op first ends, the CRC-64 of its outputs is
// written before and after every outermost op until the end op ends, one row per tensor and dump.
#pragma once

#include "capture/memory/memory_session.h"

#include <ATen/core/ivalue.h>

#include <filesystem>

namespace msprobe::capture::memory {

inline constexpr const char* kWatchCsvHeader = "Tensor info,Check data sum";

// Opens the checksum CSV; throws msprobe::Error when it cannot.
std::unique_ptr<WatchState> openWatch(const std::string& startOp, const std::string& endOp,
    const std::filesystem::path& file);
void closeWatch(WatchState& watch);
void watchOpStart(Session& session, std::uint32_t opName);
void watchOpEnd(Session& session, std::uint32_t opName, const std::vector<c10::IValue>& outputs);

} // namespace msprobe::capture::memory
