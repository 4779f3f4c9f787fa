// SPDX-License-Identifier: Apache-2.0
// construct.json read for the dump trend import: node names and parents as views into the parsed file, with
// no string, map node or optional string allocated per node (dump::readConstructJson builds all three, which
// cost the import's readers more than numbering the micro steps itself).
#pragma once

#include "trend/dump_key_names.h"

#include <filesystem>
#include <memory>
#include <cstdint>
#include <optional>
#include <vector>

namespace msprobe::trend {

class ConstructNamesReader {
public:
    ConstructNamesReader();
    ~ConstructNamesReader();
    ConstructNamesReader(const ConstructNamesReader&) = delete;
    ConstructNamesReader& operator=(const ConstructNamesReader&) = delete;

    // The nodes of `file` (none when it is missing), valid until the next read. What the fast reading leaves
    // alone (a Megatron construct.json, repeated names, anything malformed) goes through dump::readConstructJson,
    // which throws msprobe::Error naming the file and the place for malformed input.
    const ConstructNames& read(const std::filesystem::path& file);
    const NodeIndexByName& index() const { return *m_index; } // of the names read last
    // microStepsOf the names read last, worked out once for every rank that shares the file's bytes.
    const std::vector<std::int64_t>& microSteps();

private:
    enum class FastRead { Read, Same, NotRead }; // Same: the bytes read last, whose names are kept
    FastRead readFast(const std::filesystem::path& file);

    struct State;
    std::unique_ptr<State> m_state;
    ConstructNames m_names;
    std::optional<NodeIndexByName> m_index;
    std::optional<std::vector<std::int64_t>> m_microSteps; // of m_names; reset whenever they change
};

} // namespace msprobe::trend
