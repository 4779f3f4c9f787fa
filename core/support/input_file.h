// SPDX-License-Identifier: Apache-2.0
// Reading the files a user names (dumps' side files, mappings, configs): only regular files are read, so a
// FIFO never hangs the tool and /dev/zero never fills the memory; every refusal names the file and the cause.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>

namespace msprobe::support {

// Option files (-dm, -cm, -lm, --mapping-file, data2db --mapping, configs) are read whole up to this size.
inline constexpr std::uint64_t kOptionFileLimit = 64ull << 20; // 64 MiB

// Throws msprobe::Error naming the file and the cause (missing, permission denied, a directory, a FIFO, a
// device, a socket, a kernel pseudo-file under /proc or /sys) unless the path is a readable regular file.
void checkRegularFile(const std::filesystem::path& file);

// The whole file, after the checks above; maxBytes 0 means no limit. A file larger than maxBytes is
// refused with a message that names the limit.
std::string readRegularFile(const std::filesystem::path& file, std::uint64_t maxBytes = 0);

// "a FIFO (named pipe)", "a character device", ... for a non-regular file type (empty for a regular file).
std::string describeFileType(const std::filesystem::path& file);

} // namespace msprobe::support
