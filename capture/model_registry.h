// SPDX-License-Identifier: Apache-2.0
#pragma once

namespace torch::nn {
class Module;
}

namespace msprobe::capture {

// Registers every module of a C++ model (paths from named_modules(), class names without namespace and
// "Impl", direct parameters) with the Recorder, unless this model is registered already.
void registerNnModel(torch::nn::Module& model);

} // namespace msprobe::capture
