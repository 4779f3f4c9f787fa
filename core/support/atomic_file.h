// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace msprobe::support {

// An output file written under a temporary name in the same folder and renamed into place by commit(), so an
// interrupted or failed run never leaves a half-written file under the final name. Without commit() the
// temporary file is removed when the object goes away.
//
// Two runs writing into one folder never mix their files: with OnClash::PickFreeName (time-stamped names) an
// existing file is never replaced; the name gets "_1", "_2", ... before its extension instead and finalPath()
// tells the name used. OnClash::Replace (fixed names such as monitor_data.trend.db) replaces the old file in
// one rename, so a reader sees either the old or the new file, whole.
class AtomicFile {
public:
    enum class OnClash { Replace, PickFreeName };
    explicit AtomicFile(std::filesystem::path finalPath, OnClash onClash = OnClash::Replace);
    ~AtomicFile();
    AtomicFile(const AtomicFile&) = delete;
    AtomicFile& operator=(const AtomicFile&) = delete;

    void write(std::string_view bytes);
    // Large sequential output (a compare CSV of gigabytes): writes go around the page cache (O_DIRECT) in big
    // aligned blocks where the file system allows it, plain buffered writes otherwise. Call before any write.
    void useDirectWrites();
    // Writes at a position instead of appending, for files assembled in pieces (a database image written partly
    // while it is still being built). Straight from the caller's memory, without staging, when offset, address
    // and size suit O_DIRECT. Calls must not overlap in time; do not mix with write(). The file ends at the
    // furthest byte written.
    void writeAt(std::uint64_t offset, std::string_view bytes);
    // For libraries that write by path (libxlsxwriter): the temporary path; the caller must not open stream().
    const std::filesystem::path& temporaryPath() const { return m_tempPath; }
    std::FILE* stream();
    // Flushes, closes and renames onto the final path. Throws msprobe::Error on a write failure (the temporary
    // is removed, an existing file is untouched) and Error("cancelled") after abandonPendingOutputs().
    void commit();
    // Commits files that belong together (the parts of one result) in one step: all or none of them appear, and
    // PickFreeName files share one suffix.
    static void commitTogether(std::span<AtomicFile* const> files);
    // The final path; after commit() the name actually used.
    const std::filesystem::path& finalPath() const { return m_finalPath; }

private:
    std::filesystem::path m_finalPath, m_tempPath;
    std::FILE* m_file = nullptr;
    OnClash m_onClash = OnClash::Replace;
    bool m_committed = false;
    void closeForCommit();
    int placeAs(const std::filesystem::path& target) const;
    // Direct mode: the descriptor, an aligned staging buffer and the bytes written so far.
    int m_fd = -1;
    char* m_block = nullptr;
    std::size_t m_blockUsed = 0;
    std::uint64_t m_written = 0;
    void flushBlock(std::size_t bytes);
    void writeAllAt(int fd, std::uint64_t offset, std::string_view bytes);
    void closeDirect();
};

// Interruption (Ctrl-C, SIGTERM): refuses every later commit, removes the temporary file of every live
// AtomicFile and every registered temporary, and returns the outputs this process committed before, in order.
// Called once, from the thread that handles the signal, just before the process exits.
std::vector<std::filesystem::path> abandonPendingOutputs();
// The outputs committed so far by this process, in order.
std::vector<std::filesystem::path> committedOutputs();
// A temporary file made outside AtomicFile (by a library that writes by path) that abandonPendingOutputs() removes.
void registerTemporaryFile(const std::filesystem::path& file);
void unregisterTemporaryFile(const std::filesystem::path& file);

} // namespace msprobe::support
