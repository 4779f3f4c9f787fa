// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>
#include <vector>

namespace msprobe::cli {

// `msprobe memory capture`: runs a TorchScript model headless under the memory capture (msMemScope dump CSV).
int runMemoryCapture(const std::vector<std::string>& args);

} // namespace msprobe::cli
