// SPDX-License-Identifier: Apache-2.0
#include "support/atomic_file.h"

#include "support/error.h"

#include <fcntl.h>
#include <stdio.h> // renameat2
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <set>
#include <thread>

namespace fs = std::filesystem;

namespace msprobe::support {

namespace {

std::mutex g_pendingMutex;
std::set<std::string>& pending()
{
    static std::set<std::string> files;
    return files;
}

std::vector<fs::path>& committed()
{
    static std::vector<fs::path> files;
    return files;
}

bool g_abandoned = false; // under g_pendingMutex

std::atomic<unsigned> g_counter { 0 };
std::atomic<unsigned> g_commits { 0 };

// MSPROBE_TEST_HOLD_BEFORE_COMMIT=N (tests only): the N-th commit of the process announces itself on stderr once
// its files are complete and then waits for ever, so a test can interrupt a run at that exact point.
void testHoldBeforeCommit()
{
    static const char* hold = std::getenv("MSPROBE_TEST_HOLD_BEFORE_COMMIT");
    const unsigned number = g_commits.fetch_add(1) + 1;
    if (!hold || std::strtoul(hold, nullptr, 10) != number)
        return;
    std::fprintf(stderr, "msprobe: test hold before commit %u\n", number);
    std::fflush(stderr);
    for (;;)
        std::this_thread::sleep_for(std::chrono::seconds(1));
}

// "name_3.vis.db" for "name.vis.db": the suffix goes before the first dot of the file name.
fs::path withSuffix(const fs::path& file, unsigned suffix)
{
    if (suffix == 0)
        return file;
    const std::string name = file.filename().string();
    std::size_t dot = name.find('.', 1);
    if (dot == std::string::npos)
        dot = name.size();
    return file.parent_path() / (name.substr(0, dot) + "_" + std::to_string(suffix) + name.substr(dot));
}

constexpr std::size_t kDirectAlign = 4096;
constexpr std::size_t kDirectBlock = 16u << 20; // a multiple of kDirectAlign

} // namespace

AtomicFile::AtomicFile(fs::path finalPath, OnClash onClash)
    : m_finalPath(std::move(finalPath))
    , m_onClash(onClash)
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

void AtomicFile::closeForCommit()
{
    if (m_fd >= 0)
        closeDirect();
    if (m_file) {
        const bool failed = std::fflush(m_file) != 0 || std::ferror(m_file);
        const int error = errno;
        const bool closeFailed = std::fclose(m_file) != 0;
        m_file = nullptr;
        if (failed || closeFailed)
            throw Error(m_finalPath.string(), {},
                std::string("write failed (disk full?): ") + std::strerror(failed ? error : errno));
    }
}

// 0, or the errno of placing the temporary file under `target` (EEXIST: PickFreeName found a file there).
int AtomicFile::placeAs(const fs::path& target) const
{
    if (m_onClash == OnClash::Replace)
        return ::rename(m_tempPath.c_str(), target.c_str()) == 0 ? 0 : errno;
    if (::renameat2(AT_FDCWD, m_tempPath.c_str(), AT_FDCWD, target.c_str(), RENAME_NOREPLACE) == 0)
        return 0;
    if (errno != EINVAL && errno != ENOSYS && errno != ENOTSUP)
        return errno;
    // A file system without RENAME_NOREPLACE: a hard link fails on an existing name just the same.
    if (::link(m_tempPath.c_str(), target.c_str()) == 0) {
        ::unlink(m_tempPath.c_str());
        return 0;
    }
    if (errno != EPERM && errno != ENOTSUP)
        return errno;
    // Nor hard links (vfat): check, then rename (another process could still slip in between).
    if (::access(target.c_str(), F_OK) == 0)
        return EEXIST;
    return ::rename(m_tempPath.c_str(), target.c_str()) == 0 ? 0 : errno;
}

void AtomicFile::commit()
{
    AtomicFile* self = this;
    commitTogether(std::span<AtomicFile* const>(&self, 1));
}

void AtomicFile::commitTogether(std::span<AtomicFile* const> files)
{
    for (AtomicFile* file : files)
        file->closeForCommit();
    testHoldBeforeCommit();
    std::lock_guard lock(g_pendingMutex);
    if (g_abandoned)
        throw Error("cancelled");
    // Free names first (a clash undoes this attempt), files that replace last.
    std::vector<AtomicFile*> order(files.begin(), files.end());
    std::stable_partition(order.begin(), order.end(), [](const AtomicFile* f) { return f->m_onClash == OnClash::PickFreeName; });
    std::vector<fs::path> targets(order.size());
    for (unsigned suffix = 0;; ++suffix) {
        std::size_t placed = 0;
        int error = 0;
        for (; placed < order.size(); ++placed) {
            AtomicFile& file = *order[placed];
            targets[placed] = file.m_onClash == OnClash::PickFreeName ? withSuffix(file.m_finalPath, suffix) : file.m_finalPath;
            if ((error = file.placeAs(targets[placed])) != 0)
                break;
        }
        if (placed == order.size())
            break;
        for (std::size_t k = 0; k < placed; ++k) // undo this attempt
            ::rename(targets[k].c_str(), order[k]->m_tempPath.c_str());
        if (error != EEXIST || suffix >= 9999)
            throw Error(order[placed]->m_finalPath.string(), {},
                std::string("cannot move the finished output into place: ") + std::strerror(error));
    }
    for (std::size_t k = 0; k < order.size(); ++k) {
        order[k]->m_finalPath = targets[k];
        order[k]->m_committed = true;
        committed().push_back(targets[k]);
    }
}

std::vector<fs::path> abandonPendingOutputs()
{
    std::lock_guard lock(g_pendingMutex);
    g_abandoned = true;
    for (const auto& file : pending()) {
        ::unlink(file.c_str());
        for (const char* sqliteSide : { "-journal", "-wal", "-shm" }) // a database written under this name
            ::unlink((file + sqliteSide).c_str());
    }
    return committed();
}

std::vector<fs::path> committedOutputs()
{
    std::lock_guard lock(g_pendingMutex);
    return committed();
}

void registerTemporaryFile(const fs::path& file)
{
    std::lock_guard lock(g_pendingMutex);
    pending().insert(file.string());
}

void unregisterTemporaryFile(const fs::path& file)
{
    std::lock_guard lock(g_pendingMutex);
    pending().erase(file.string());
}

} // namespace msprobe::support
