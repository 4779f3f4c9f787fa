// SPDX-License-Identifier: Apache-2.0
// Writer thread of the memory capture: turns events into msMemScope dump CSV rows. As msMemScope does, a
// block's MALLOC row (and its ACCESS rows) is held until the block is freed, so that owner labels given after
// the allocation (gradients, optimizer state, activations) land in its Attr; blocks still alive at a stop (frees
// are not reported while stopped) or at the end are written as MALLOC without FREE. Other rows are written as
// they come. Readers sort by ID.
#pragma once

#include "capture/memory/memory_events.h"
#include "memory/dump_database.h"

#include <array>
#include <cstdio>
#include <filesystem>
#include <map>
#include <memory>
#include <thread>

namespace msprobe::capture::memory {

inline constexpr const char* kDumpCsvHeader = "ID,Event,Event Type,Name,Timestamp(ns),Process Id,Thread Id,Device Id,"
                                              "Ptr,Attr,Call Stack(Python),Call Stack(C)";

class CsvWriter {
public:
    // compat: Event Type PTA and Device Id 0 (else TORCH_CPU and cpu). database: the rows go to the SQLite variant
    // (table memscope_dump, §1.5) at `file` instead of CSV text.
    CsvWriter(const std::filesystem::path& file, bool compat, bool database = false);
    ~CsvWriter(); // finish()

    EventQueue& queue() { return m_queue; }
    // Waits until everything queued so far is in the file (live blocks excepted).
    void flush();
    // Stops the thread, writes every queued event and every live block, closes the file. Idempotent.
    void finish();

private:
    struct Block {
        Event malloc;
        std::uint64_t allocationId = 0;
        std::array<std::uint32_t, 8> labels {}; // interned owner level labels
        std::string accessRows;
    };

    void run();
    void drain(std::vector<Event>& batch);
    void handle(const Event& e);
    void writeBlock(Block& block, const Event* freeEvent);
    void writeLiveBlocks(); // as MALLOC without FREE; remembered in m_written for a free after a resume
    std::string ownerOf(const Block& block);
    void appendRow(std::string& out, const Event& e, const char* event, std::string_view type, std::string_view name,
        bool withDevice, std::uint64_t ptr, std::string_view attr, std::uint32_t context);
    Block* blockContaining(std::uint64_t address);
    const std::string& text(std::uint32_t id); // interned string, cached by this thread

    std::FILE* m_file = nullptr;
    std::unique_ptr<msprobe::memory::DumpDatabaseWriter> m_database; // db mode, instead of m_file
    std::string m_pidText, m_framework, m_device;
    EventQueue m_queue;
    std::thread m_thread;
    std::atomic<bool> m_stop { false };
    std::mutex m_writeMutex; // the thread's processing vs flush()/finish() from producers
    std::map<std::uint64_t, Block> m_live; // by start address
    std::unordered_map<std::uint64_t, std::uint64_t> m_written; // address -> allocation_id
    std::uint64_t m_nextAllocationId = 1;
    std::string m_out;
    std::vector<const std::string*> m_texts;
    std::uint32_t m_frameworkId = 0, m_activationId = 0;
    std::array<std::uint32_t, 3> m_phaseIds {};
    bool m_finished = false;
};

} // namespace msprobe::capture::memory
