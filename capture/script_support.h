// SPDX-License-Identifier: Apache-2.0
#pragma once

namespace torch::jit {
struct Module;
}

namespace msprobe::capture {

// Prepares a TorchScript model for module capture: graph executor optimisation off (module calls stay
// visible), an msprobe::module_tap before every forward return (module outputs), and every submodule
// registered with the Recorder. Idempotent.
void registerScriptModel(torch::jit::Module& model);

} // namespace msprobe::capture
