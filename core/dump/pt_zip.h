// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <unordered_map>

namespace msprobe::dump {

// A failure reported by libtorch's zip reader (its message, without backtrace).
struct PtZipFailure : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// One torch.save zip archive, read through the msprobe_pt_zip module, which is loaded on first use (it brings
// libtorch, whose start-up costs a process about half a second and 150 MB when linked in). The module is
// looked for in $MSPROBE_PT_ZIP_MODULE, next to the executable, in the install's lib dir (../lib/msprobe)
// from it, and in the build tree. Throws msprobe::Error when the module cannot be loaded, PtZipFailure for
// what libtorch refuses.
class PtZipArchive {
public:
    explicit PtZipArchive(const std::string& path);
    ~PtZipArchive();
    PtZipArchive(const PtZipArchive&) = delete;
    PtZipArchive& operator=(const PtZipArchive&) = delete;

    struct Record {
        std::shared_ptr<void> owner;
        const void* data = nullptr;
        std::size_t size = 0;
    };
    bool hasRecord(const std::string& name) const;
    Record getRecord(const std::string& name) const;
    // The size the record inflates to, from the zip's central directory (libzip), without reading the record:
    // checked before getRecord, which inflates a record whole. When several entries match the name as libtorch
    // looks it up (under the archive's top folder, case-insensitively), the largest. Throws PtZipFailure when
    // libzip cannot read the archive.
    std::optional<std::uint64_t> recordSize(const std::string& name) const;

private:
    void* m_archive = nullptr;
    std::string m_path;
    mutable std::optional<std::unordered_map<std::string, std::uint64_t>> m_sizes; // lower-cased name -> size
};

} // namespace msprobe::dump
