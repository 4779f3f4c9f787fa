// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <string>
#include <string_view>

namespace msprobe {

// An output file written under a temporary name in the same folder and renamed into place by commit(), so an
// interrupted or failed run never leaves a half-written file under the final name. Without commit() the
// temporary file is removed when the object goes away.
class AtomicFile {
public:
    explicit AtomicFile(std::filesystem::path finalPath);
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
    // Flushes, closes and renames onto the final path (replacing an existing file). Throws msprobe::Error.
    void commit();
    const std::filesystem::path& finalPath() const { return m_finalPath; }

private:
    std::filesystem::path m_finalPath, m_tempPath;
    std::FILE* m_file = nullptr;
    bool m_committed = false;
    // Direct mode: the descriptor, an aligned staging buffer and the bytes written so far.
    int m_fd = -1;
    char* m_block = nullptr;
    std::size_t m_blockUsed = 0;
    std::uint64_t m_written = 0;
    void flushBlock(std::size_t bytes);
    void writeAllAt(int fd, std::uint64_t offset, std::string_view bytes);
    void closeDirect();
};

// Removes every temporary file of live AtomicFile objects; safe to call from a signal handler's exit path.
void removePendingTemporaryFiles();

} // namespace msprobe
