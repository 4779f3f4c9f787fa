// SPDX-License-Identifier: Apache-2.0
// Call stacks of a msMemScope CSV dump, read on demand: core's reader leaves the two stack columns out (millions
// of multi-line cells would dwarf the events), so the loading thread keeps where every 256th line of the file
// starts, and hovering a block reads just its MALLOC row again. Only for dumps whose first rows carry a stack; a .db
// dump's stacks are read from its table (memorydbstacks.h).
#pragma once

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace msprobe::memory {
struct SnapshotStack;
}

namespace msprobe::studio {

class DatabaseStackRows;

struct CallStacks {
    std::string python, c; // the cells as written: one frame per line, innermost first; "" when none
};

class CallStackIndex {
public:
    // nullptr unless `file` is a CSV (or .db) dump with both stack columns and a stack in one of its first rows.
    static std::shared_ptr<const CallStackIndex> build(const std::filesystem::path& file, const std::atomic<bool>* cancel = nullptr);

    // The stacks core's snapshot reader kept in memory (a PyTorch snapshot carries them with every entry).
    static std::shared_ptr<const CallStackIndex> fromSnapshot(std::vector<std::uint32_t> stackOfLine,
        const std::vector<msprobe::memory::SnapshotStack>& stacks);

    // The stack cells of the record starting on `line` (1-based, as MemEvent::line: a .db's row number); empty when
    // out of the file.
    CallStacks stacksAt(std::uint64_t line) const;

private:
    static constexpr std::uint64_t kStride = 256;
    std::filesystem::path m_file;
    std::vector<std::uint64_t> m_offsets; // m_offsets[k]: byte where line 1 + k * kStride starts
    std::size_t m_pythonColumn = 0, m_cColumn = 0;
    std::shared_ptr<const DatabaseStackRows> m_database; // set for a .db dump, which keeps no offsets
    std::vector<std::uint32_t> m_snapshotStackOf; // a snapshot's: line - 1 -> m_snapshotStacks index
    std::vector<CallStacks> m_snapshotStacks;
    bool m_snapshot = false;
};

// The module of a backtrace_symbols() frame: "libtorch_cpu.so" for "/usr/lib/libtorch_cpu.so(_ZN3foo+0x1c) [0x7f00]";
// the file name of a Python frame "model.py" for "/work/model.py(12): forward"; "" when the frame names none.
std::string frameModule(std::string_view frame);

// At most `maxFrames` frames, one per line, "NA" cells dropped, a frame repeated in a row elided as
// "  <repeats n times>" (memory_viz does the same); "" when the cell holds no frame.
std::string formatStack(std::string_view cell, std::size_t maxFrames);

} // namespace msprobe::studio
