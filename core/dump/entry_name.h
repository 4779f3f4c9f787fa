// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <string_view>

namespace msprobe::dump {

enum class EntryKind : std::uint8_t {
    Api, // {Prefix}.{api}.{n}.{forward|backward}
    Module, // {Module|Cell}.{path}.{Class}.{forward|backward}.{n}
    ParametersGrad, // {Module}.{path}.{Class}.parameters_grad[.{k}]
    Debug, // {name}.{count}.debug
    Unknown,
};

enum class Direction : std::uint8_t { Forward, Backward, None };

// The structured parts of a dump.json entry name. All views point into the name passed to
// parseEntryName, which must outlive this value.
struct EntryName {
    EntryKind kind = EntryKind::Unknown;
    Direction direction = Direction::None;
    std::int64_t callIndex = -1; // n / k / count; -1 when absent (legacy parameters_grad)
    std::string_view prefix; // Functional, Tensor, Torch, Module, Cell, Distributed, ...
    std::string_view api; // API: the op name (e.g. "linear"); Debug: the saved variable name
    std::string_view modulePath; // Module / ParametersGrad: dotted named_modules() path
    std::string_view moduleClass; // Module / ParametersGrad: the class name
};

EntryName parseEntryName(std::string_view name);
std::string_view toString(EntryKind kind);
std::string_view toString(Direction direction);

} // namespace msprobe::dump
