// SPDX-License-Identifier: Apache-2.0
// The dump.json files of one pair load, each parsed once and lent (shared, read-only) to the graph build and
// to the compare tables, so the studio reads every dump.json once where graph_visualize followed by compare would
// read it twice, and a self-compare (one folder as both sides) reads it once for both. Thread-safe: both sides of
// a pair are read on two threads, and a file is parsed by whichever asks first while the other waits.
#pragma once

#include "dump/dump_model.h"

#include <atomic>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <string>

namespace msprobe::studio {

class SharedDumps {
public:
    // The parsed file, read now unless an earlier call read it. Throws msprobe::Error as readDumpJson does.
    std::shared_ptr<const msprobe::dump::DumpFile> borrow(const std::filesystem::path& file);
    // How many times a dump.json was parsed here.
    std::size_t parses() const { return m_parses.load(); }

private:
    struct Slot {
        std::mutex mutex;
        std::shared_ptr<const msprobe::dump::DumpFile> dump;
    };
    std::shared_ptr<Slot> slotOf(const std::filesystem::path& file);

    std::mutex m_mutex;
    std::map<std::string, std::shared_ptr<Slot>> m_slots; // by canonical path
    std::atomic<std::size_t> m_parses { 0 };
};

} // namespace msprobe::studio
