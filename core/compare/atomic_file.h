// SPDX-License-Identifier: Apache-2.0
#pragma once

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
};

// Removes every temporary file of live AtomicFile objects; safe to call from a signal handler's exit path.
void removePendingTemporaryFiles();

} // namespace msprobe
