// SPDX-License-Identifier: Apache-2.0
#include "compare/atomic_file.h"

#include "support/error.h"

#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <mutex>
#include <set>

namespace fs = std::filesystem;

namespace msprobe {

namespace {

std::mutex g_pendingMutex;
std::set<std::string>& pending()
{
    static std::set<std::string> files;
    return files;
}

std::atomic<unsigned> g_counter { 0 };

} // namespace

AtomicFile::AtomicFile(fs::path finalPath)
    : m_finalPath(std::move(finalPath))
{
    const std::string name = "." + m_finalPath.filename().string() + ".tmp" + std::to_string(::getpid()) + "_"
        + std::to_string(g_counter.fetch_add(1));
    m_tempPath = m_finalPath.parent_path() / name;
    std::lock_guard lock(g_pendingMutex);
    pending().insert(m_tempPath.string());
}

AtomicFile::~AtomicFile()
{
    if (m_file)
        std::fclose(m_file);
    if (!m_committed) {
        std::error_code ec;
        fs::remove(m_tempPath, ec);
    }
    std::lock_guard lock(g_pendingMutex);
    pending().erase(m_tempPath.string());
}

std::FILE* AtomicFile::stream()
{
    if (!m_file) {
        m_file = std::fopen(m_tempPath.c_str(), "wb");
        if (!m_file)
            throw Error(m_finalPath.string(), {}, std::string("cannot create the output file: ") + std::strerror(errno));
    }
    return m_file;
}

void AtomicFile::write(std::string_view bytes)
{
    std::FILE* file = stream();
    if (!bytes.empty() && std::fwrite(bytes.data(), 1, bytes.size(), file) != bytes.size())
        throw Error(m_finalPath.string(), {}, std::string("write failed: ") + std::strerror(errno));
}

void AtomicFile::commit()
{
    if (m_file) {
        const bool failed = std::fflush(m_file) != 0 || std::ferror(m_file);
        std::fclose(m_file);
        m_file = nullptr;
        if (failed)
            throw Error(m_finalPath.string(), {}, "write failed (disk full?)");
    }
    std::error_code ec;
    fs::rename(m_tempPath, m_finalPath, ec);
    if (ec)
        throw Error(m_finalPath.string(), {}, "cannot move the finished output into place: " + ec.message());
    m_committed = true;
}

void removePendingTemporaryFiles()
{
    std::lock_guard lock(g_pendingMutex);
    for (const auto& file : pending())
        ::unlink(file.c_str());
}

} // namespace msprobe
