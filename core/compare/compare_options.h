// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace msprobe::compare {

// How two dumps are compared (spec 2.3): statistics ("summary"), md5 checksums, or tensor files ("all").
enum class CompareMode : std::uint8_t { Statistics, Md5, Tensor };
std::string_view toString(CompareMode mode);

// An ordered name -> name mapping read from a flat YAML file.
using NameMapping = std::vector<std::pair<std::string, std::string>>;

// Pairing a C++ libtorch capture (Aten.*) with a Python msprobe dump (Functional/Tensor/Torch.*): Auto when
// the dumps show it (and no -dm/-cm/-fm/consistent check is given), On with --cross-runtime, Off never.
enum class CrossRuntime : std::uint8_t { Auto, On, Off };

struct CompareOptions {
    bool fuzzyMatch = false; // -fm
    bool useDataMapping = false; // -dm
    NameMapping dataMapping;
    bool useCellMapping = false; // -cm (with or without a file)
    NameMapping cellMapping;
    bool firstDiffAnalyze = false; // -da: tensor dumps are compared as statistics, no Result rules
    bool legacyResult = false; // "Accuracy Reached or Not" (tensor mode) and the old highlight rules
    std::string consistentBackend; // --consistent_check --backend fsdp|megatron
    bool debugFile = false; // debug.json inputs: no backward renumbering
    bool xlsxLayout = false; // names joined with ";\n" in consistent mode, as the reference's xlsx does
    CrossRuntime crossRuntime = CrossRuntime::Auto;
};

} // namespace msprobe::compare
