// SPDX-License-Identifier: Apache-2.0
#include "compare/atomic_file.h"

#include "support/error.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdlib>
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

constexpr std::size_t kDirectAlign = 4096;
constexpr std::size_t kDirectBlock = 16u << 20; // a multiple of kDirectAlign

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
    if (m_fd >= 0)
        ::close(m_fd);
    std::free(m_block);
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

void AtomicFile::useDirectWrites()
{
    if (m_file || m_fd >= 0)
        return;
    const int fd = ::open(m_tempPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_DIRECT | O_CLOEXEC, 0644);
    if (fd < 0)
        return; // the file system refuses O_DIRECT (tmpfs, some network file systems): stay buffered
    void* block = nullptr;
    if (::posix_memalign(&block, kDirectAlign, kDirectBlock) != 0) {
        ::close(fd);
        return;
    }
    m_fd = fd;
    m_block = static_cast<char*>(block);
}

void AtomicFile::flushBlock(std::size_t bytes)
{
    // Direct mode writes in sequence: the next byte of the file is the m_written-th.
    writeAllAt(m_fd, m_written, std::string_view(m_block, bytes));
}

void AtomicFile::closeDirect()
{
    // The tail is padded to the alignment for the last direct write, then the file is cut to its real length.
    const std::size_t padded = (m_blockUsed + kDirectAlign - 1) / kDirectAlign * kDirectAlign;
    std::memset(m_block + m_blockUsed, 0, padded - m_blockUsed);
    flushBlock(padded);
    m_written += m_blockUsed;
    m_blockUsed = 0;
    if (::ftruncate(m_fd, static_cast<off_t>(m_written)) != 0)
        throw Error(m_finalPath.string(), {}, std::string("write failed: ") + std::strerror(errno));
    const int fd = m_fd;
    m_fd = -1;
    if (::close(fd) != 0)
        throw Error(m_finalPath.string(), {}, std::string("write failed (disk full?): ") + std::strerror(errno));
}

void AtomicFile::write(std::string_view bytes)
{
    if (m_fd >= 0) {
        while (!bytes.empty()) {
            const std::size_t take = std::min(bytes.size(), kDirectBlock - m_blockUsed);
            std::memcpy(m_block + m_blockUsed, bytes.data(), take);
            m_blockUsed += take;
            bytes.remove_prefix(take);
            if (m_blockUsed == kDirectBlock) {
                flushBlock(kDirectBlock);
                m_written += kDirectBlock;
                m_blockUsed = 0;
            }
        }
        return;
    }
    std::FILE* file = stream();
    if (!bytes.empty() && std::fwrite(bytes.data(), 1, bytes.size(), file) != bytes.size())
        throw Error(m_finalPath.string(), {}, std::string("write failed: ") + std::strerror(errno));
}

void AtomicFile::writeAllAt(int fd, std::uint64_t offset, std::string_view bytes)
{
    while (!bytes.empty()) {
        const ssize_t n = ::pwrite(fd, bytes.data(), bytes.size(), static_cast<off_t>(offset));
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && errno == EINVAL && (::fcntl(fd, F_GETFL) & O_DIRECT)) {
            ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_DIRECT);
            continue;
        }
        if (n <= 0)
            throw Error(m_finalPath.string(), {}, std::string("write failed: ") + std::strerror(n < 0 ? errno : EIO));
        bytes.remove_prefix(static_cast<std::size_t>(n));
        offset += static_cast<std::uint64_t>(n);
    }
}

void AtomicFile::writeAt(std::uint64_t offset, std::string_view bytes)
{
    int fd = m_fd;
    if (fd < 0) {
        std::FILE* file = stream();
        if (std::fflush(file) != 0)
            throw Error(m_finalPath.string(), {}, std::string("write failed: ") + std::strerror(errno));
        fd = ::fileno(file);
    } else {
        const bool aligned = offset % kDirectAlign == 0 && bytes.size() % kDirectAlign == 0
            && reinterpret_cast<std::uintptr_t>(bytes.data()) % kDirectAlign == 0;
        if (!aligned && (::fcntl(fd, F_GETFL) & O_DIRECT))
            ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_DIRECT); // from here on through the page cache
    }
    writeAllAt(fd, offset, bytes);
    m_written = std::max<std::uint64_t>(m_written, offset + bytes.size());
}

void AtomicFile::commit()
{
    if (m_fd >= 0)
        closeDirect();
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
