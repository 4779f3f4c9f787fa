// SPDX-License-Identifier: Apache-2.0
#include "support/input_file.h"

#include "support/error.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

namespace msprobe::support {

namespace {

constexpr long kProcMagic = 0x9fa0; // PROC_SUPER_MAGIC
constexpr long kSysfsMagic = 0x62656572; // SYSFS_MAGIC

std::string typeOf(mode_t mode)
{
    if (S_ISDIR(mode))
        return "a directory";
    if (S_ISFIFO(mode))
        return "a FIFO (named pipe)";
    if (S_ISCHR(mode))
        return "a character device";
    if (S_ISBLK(mode))
        return "a block device";
    if (S_ISSOCK(mode))
        return "a socket";
    if (!S_ISREG(mode))
        return "not a regular file";
    return {};
}

[[noreturn]] void refuse(const std::filesystem::path& file, const std::string& type)
{
    throw Error(file.string(), {}, "is " + type + ", not a regular file; only regular files are read");
}

[[noreturn]] void failErrno(const std::filesystem::path& file, int error, const char* doing)
{
    std::error_code ec;
    if (error == ENOENT && std::filesystem::is_symlink(std::filesystem::symlink_status(file, ec)))
        throw Error(file.string(), {}, "is a symbolic link to a missing file");
    if (error == ENOENT)
        throw Error(file.string(), {}, "no such file");
    if (error == EACCES || error == EPERM)
        throw Error(file.string(), {}, std::string("permission denied (") + doing + ")");
    if (error == ELOOP)
        throw Error(file.string(), {}, "too many levels of symbolic links (a symlink loop)");
    throw Error(file.string(), {}, std::string(doing) + ": " + std::strerror(error));
}

std::string humanLimit(std::uint64_t bytes)
{
    if (bytes >= (1ull << 20) && bytes % (1ull << 20) == 0)
        return std::to_string(bytes >> 20) + " MiB";
    return std::to_string(bytes) + " bytes";
}

// The open descriptor of a readable regular file on a real file system (the caller closes it).
int openRegular(const std::filesystem::path& file, struct stat& info)
{
    if (::stat(file.c_str(), &info) != 0)
        failErrno(file, errno, "cannot inspect the file");
    if (const std::string type = typeOf(info.st_mode); !type.empty())
        refuse(file, type);
    // O_NONBLOCK: should the path be swapped for a FIFO after the check, open() still returns at once.
    const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0)
        failErrno(file, errno, "cannot open the file");
    struct statfs fs {};
    if (::fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) {
        ::close(fd);
        refuse(file, typeOf(info.st_mode).empty() ? "not a regular file" : typeOf(info.st_mode));
    }
    if (::fstatfs(fd, &fs) == 0 && (fs.f_type == kProcMagic || fs.f_type == kSysfsMagic)) {
        ::close(fd);
        throw Error(file.string(), {}, "is a kernel pseudo-file (/proc or /sys), not a file written by a run; "
                                       "only regular files are read");
    }
    return fd;
}

} // namespace

std::string describeFileType(const std::filesystem::path& file)
{
    struct stat info {};
    if (::stat(file.c_str(), &info) != 0)
        return {};
    return typeOf(info.st_mode);
}

void checkRegularFile(const std::filesystem::path& file)
{
    struct stat info {};
    ::close(openRegular(file, info));
}

std::string readRegularFile(const std::filesystem::path& file, std::uint64_t maxBytes)
{
    struct stat info {};
    const int fd = openRegular(file, info);
    const auto size = static_cast<std::uint64_t>(info.st_size);
    if (maxBytes && size > maxBytes) {
        ::close(fd);
        throw Error(file.string(), {}, "is " + std::to_string(size) + " bytes, over the " + humanLimit(maxBytes)
                + " limit for this kind of file");
    }
    auto readSome = [&](char* into, std::size_t count) -> std::size_t {
        while (true) {
            const ssize_t got = ::read(fd, into, count);
            if (got >= 0)
                return static_cast<std::size_t>(got);
            if (errno != EINTR) {
                const int error = errno;
                ::close(fd);
                failErrno(file, error, "read error");
            }
        }
    };
    std::string text;
    text.resize(static_cast<std::size_t>(size));
    std::size_t done = 0;
    while (done < text.size()) {
        const std::size_t got = readSome(text.data() + done, text.size() - done);
        if (got == 0)
            break; // the file shrank since fstat
        done += got;
    }
    text.resize(done);
    // The file may have grown since fstat: read on, within the limit.
    char more[65536];
    while (const std::size_t got = readSome(more, sizeof more)) {
        text.append(more, got);
        if (maxBytes && text.size() > maxBytes) {
            ::close(fd);
            throw Error(file.string(), {}, "is larger than the " + humanLimit(maxBytes) + " limit for this kind of file");
        }
    }
    ::close(fd);
    return text;
}

} // namespace msprobe::support
