// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <memory>
#include <stdexcept>
#include <string>

namespace msprobe {

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

private:
    void* m_archive = nullptr;
};

} // namespace msprobe
