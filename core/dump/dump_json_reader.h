// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "dump/dump_model.h"

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <string_view>

namespace msprobe::dump {

struct ReadOptions {
    // Called now and then with bytes consumed and total bytes.
    std::function<void(std::uint64_t done, std::uint64_t total)> progress;
    // When set and true, reading stops with an Error("cancelled").
    const std::atomic<bool>* cancel = nullptr;
};

// Reads msprobe dump.json / debug.json files with simdjson On-Demand into the compact model.
// Keep one reader to read many files: its parser and buffers are reused.
// Every malformed input raises msprobe::Error naming the file, the byte offset and the entry.
class DumpJsonReader {
public:
    DumpJsonReader();
    ~DumpJsonReader();
    DumpJsonReader(const DumpJsonReader&) = delete;
    DumpJsonReader& operator=(const DumpJsonReader&) = delete;

    DumpFile read(const std::filesystem::path& file, const ReadOptions& options = {});
    // Parses text already in memory; displayName is used in error messages.
    DumpFile parse(std::string_view text, const std::string& displayName, const ReadOptions& options = {});

private:
    struct State;
    std::unique_ptr<State> m_state;
};

// Convenience: one-shot read.
DumpFile readDumpJson(const std::filesystem::path& file, const ReadOptions& options = {});

} // namespace msprobe::dump
