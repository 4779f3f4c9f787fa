// SPDX-License-Identifier: Apache-2.0
// Builds a DumpFile out of entries of other DumpFiles: a parallel merge gives one graph whose nodes come from
// several ranks' dumps (renamed, or with the inputs of one entry and the outputs of another), and the rest
// of the graph code reads node data from one dump.
#pragma once

#include "dump/dump_model.h"

#include <memory>
#include <string_view>

namespace msprobe::graph {

class DumpComposer {
public:
    // The new file takes path, task, level, framework and dump_data_dir from base.
    explicit DumpComposer(const dump::DumpFile& base);

    // Appends an entry named `name`: every body key but "output" from inputs' entry, "output" from outputs'
    // entry (either may be null; the same entry for both copies it whole). Returns the new entry's index.
    std::uint32_t addEntry(std::string_view name, const dump::DumpFile* inputs, std::uint32_t inputEntry, const dump::DumpFile* outputs,
        std::uint32_t outputEntry);

    dump::DumpFile& file() { return *m_file; }
    std::shared_ptr<dump::DumpFile> finish() { return std::move(m_file); }

private:
    // Copies the subtree at node (pre-order, contiguous) and returns the index of its copy.
    std::uint32_t copySubtree(const dump::DumpFile& from, std::uint32_t node);
    support::StringId copyString(const dump::DumpFile& from, support::StringId id);
    dump::ExtrasRange copyExtras(const dump::DumpFile& from, dump::ExtrasRange range);

    std::shared_ptr<dump::DumpFile> m_file;
};

} // namespace msprobe::graph
