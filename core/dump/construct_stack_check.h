// SPDX-License-Identifier: Apache-2.0
// construct.json / stack.json checked as readConstructJson / readStackJson read them (the same errors, in the
// same order), without building what they return: for `msprobe info`, which reports the side files' problems
// but does not use them (building and freeing the tables was a quarter of its CPU on a large dump).
#pragma once

#include <filesystem>

namespace msprobe::dump {

void checkConstructJson(const std::filesystem::path& file);
void checkStackJson(const std::filesystem::path& file);

} // namespace msprobe::dump
