// SPDX-License-Identifier: Apache-2.0
// The dump.json files of one job, each parsed once and lent (shared, read-only) to whoever asks: the studio's
// pair load lends them to the graph build and to the compare tables (graph_visualize followed by compare would
// read each twice), and graph_visualize's self-compare (one folder as both sides) reads its file once for both
// graphs. Thread-safe: both sides of a pair are read on two threads, and a file is parsed by whichever asks first
// while the other waits. Keep one per job: it holds every file it parsed until it is destroyed.
#pragma once

#include "dump/dump_model.h"

#include <atomic>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>

namespace msprobe::dump {

class SharedDumps {
public:
    using Parse = std::function<std::shared_ptr<const DumpFile>(const std::filesystem::path& dumpJson)>;
    // parse reads a file the first time it is asked for; empty: readDumpJson.
    explicit SharedDumps(Parse parse = {}) : m_parse(std::move(parse)) { }

    // The parsed file, read now unless an earlier call read it. Throws Error as readDumpJson does.
    std::shared_ptr<const DumpFile> borrow(const std::filesystem::path& file);
    // How many times a dump.json was parsed here.
    std::size_t parses() const { return m_parses.load(); }

private:
    struct Slot {
        std::mutex mutex;
        std::shared_ptr<const DumpFile> dump;
    };
    std::shared_ptr<Slot> slotOf(const std::filesystem::path& file);

    Parse m_parse;
    std::mutex m_mutex;
    std::map<std::string, std::shared_ptr<Slot>> m_slots; // by canonical path
    std::atomic<std::size_t> m_parses { 0 };
};

} // namespace msprobe::dump
