// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "capture/config.h"
#include "capture/value.h"

#include <array>
#include <atomic>
#include <condition_variable>
#include <memory>
#include <cstdint>
#include <deque>
#include <filesystem>
#include <functional>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <thread>
#include <unordered_map>
#include <vector>

namespace msprobe::capture {

// The files of one step/rank directory: dump.json, construct.json, stack.json, dump_error_info.log and
// dump_tensor_data/. Thread-safe. I/O failures never throw: they go to dump_error_info.log (or stderr when
// even that cannot be written) and the caller carries on.
class DumpWriter {
public:
    explicit DumpWriter(const DumpConfig& config);
    ~DumpWriter();
    DumpWriter(const DumpWriter&) = delete;
    DumpWriter& operator=(const DumpWriter&) = delete;

    // Starts step/rank directory (rank < 0: proc{PID}); the writer thread makes it and writes the empty files the
    // reference creates at start.
    void open(std::int64_t step, std::int64_t rank);
    bool isOpen() const { return m_cur != nullptr; }
    std::filesystem::path dir() const { return m_cur ? m_cur->dir : std::filesystem::path(); }
    std::filesystem::path tensorDir() const { return dir() / "dump_tensor_data"; }

    // Appends an entry (insertion order is the file's order); returns its index.
    std::size_t addEntry(std::string name, Value body);
    // Runs fn on an entry's body under the writer's lock (parameters_grad entries are filled in place).
    void updateEntry(std::size_t index, const std::function<void(Value&)>& fn);
    void addConstruct(const std::string& name, const std::optional<std::string>& parent);
    // While set (the reference's "optimizer" / "clip_grad" status), every construct entry gets this parent and
    // the scope itself is added once per step as a root (parent null).
    void setConstructScope(std::optional<std::string> scope);
    void addStack(std::string name, std::vector<std::uintptr_t> pcs, std::vector<std::string> extraFrames = {});

    void recordError(const std::string& kind, const std::string& message);

    // Runs a job on the writer thread (async_dump) or at once.
    void post(std::function<void()> job);
    // Writes dump.json/construct.json/stack.json with everything so far. The JSON is built and written on the
    // writer thread in every mode (with async_dump also tensor files and device-tensor statistics); drain() waits.
    void flush();
    // Waits until every posted job (and flush) has finished.
    void drain();
    // Writes the files a last time (without waiting) and forgets the directory.
    void close();

    // Writes bytes to a file, recording failures; returns success.
    bool writeFile(const std::filesystem::path& file, const std::string& bytes);
    // A tensor file: dir/name is written (dir made when missing) and on success leaf.dataName = name. The Later
    // form queues it for the writer thread, after the records added so far and before the next flush; it waits
    // while more than maxPendingFileBytes() are queued, so a slow disk cannot make the queue grow without bound.
    void writeTensorFile(const std::filesystem::path& dir, const std::string& name, const std::string& bytes,
        TensorLeaf& leaf);
    void writeTensorFileLater(std::filesystem::path dir, std::string name, std::string bytes,
        std::shared_ptr<TensorLeaf> leaf);
    std::size_t maxPendingFileBytes() const { return m_maxPendingFileBytes; }
    void setMaxPendingFileBytes(std::size_t bytes) { m_maxPendingFileBytes = bytes; }

private:
    struct Stack {
        std::vector<std::uintptr_t> pcs;
        std::vector<std::string> extra;
    };
    // Everything of one step/rank directory; flush jobs hold it, so the next step can start meanwhile.
    struct DirState {
        std::filesystem::path dir;
        std::mutex mutex;
        std::vector<std::pair<std::string, Value>> entries;
        // A deque: its elements never move, so the index keys are views of their names (no second copy).
        std::deque<std::pair<std::string, std::optional<std::string>>> construct;
        std::unordered_map<std::string_view, std::size_t> constructIndex;
        std::vector<std::pair<std::string, Stack>> stacks;
        bool dirty = false;
        bool unwritable = false; // the directory could not be made (recorded once, nothing more is tried)
        // The sizes close() remembers, readable without the mutex: the writer thread holds that while it renders
        // the step's files (milliseconds), and close() comes right after the flush that starts the rendering.
        std::atomic<std::size_t> entryCount { 0 }, constructCount { 0 }, stackCount { 0 };
    };
    // skeleton: the files as at the start of a step (no records), without waiting on the records' lock.
    void writeState(DirState& state, bool skeleton = false);
    void enqueue(std::function<void()> job);
    void worker();

    const DumpConfig& m_config;
    std::shared_ptr<DirState> m_cur;
    std::array<std::size_t, 3> m_lastSizes {}; // entries, construct, stacks of the step closed last
    std::optional<std::string> m_constructScope; // guarded by the current DirState's mutex

    std::mutex m_errorMutex;
    std::filesystem::path m_errorDir;
    std::set<std::string> m_errorKinds;
    std::string m_errorLog;

    std::mutex m_pendingMutex;
    std::condition_variable m_pendingCv;
    std::size_t m_pendingFileBytes = 0;
    std::size_t m_maxPendingFileBytes = std::size_t(256) << 20;

    std::mutex m_queueMutex;
    std::condition_variable m_queueCv, m_idleCv;
    std::deque<std::function<void()>> m_queue;
    bool m_busy = false, m_stop = false;
    std::thread m_thread;
};

} // namespace msprobe::capture
