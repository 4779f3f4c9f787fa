// SPDX-License-Identifier: Apache-2.0
// construct.json and stack.json readers for graph building. Same results as readConstructJson /
// readStackJson, but streaming (SAX), so a 240k-node construct.json reads in linear time: an ordered
// JSON object looks keys up linearly, which makes the DOM readers quadratic on big models.
#pragma once

#include "dump/construct_stack.h"

#include <filesystem>

namespace msprobe::graph {

// Throws msprobe::Error naming the file and byte offset. A missing file yields an empty result.
ConstructInfo readConstructStreaming(const std::filesystem::path& file);
StackInfo readStackStreaming(const std::filesystem::path& file);

} // namespace msprobe::graph
