// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace msprobe::capture {

// Return addresses of the calling thread's stack, innermost first (cheap: no symbolization).
std::vector<std::uintptr_t> captureStack(int skipFrames);

// stack.json frame strings in the reference's format, "File {path}, line {n}, in {function}, \n {source line}",
// innermost first. Uses DWARF line info where the binary has it; frames of the capture library itself and
// frames without any symbol are dropped. Results are cached per address.
std::vector<std::string> symbolizeStack(const std::vector<std::uintptr_t>& pcs);

} // namespace msprobe::capture
