// SPDX-License-Identifier: Apache-2.0
#include "support/huge_pages.h"

#include <sys/mman.h>

#include <cstdint>

namespace msprobe::support {

void adviseHugePages(const void* data, std::size_t bytes)
{
#ifdef MADV_HUGEPAGE
    constexpr std::uintptr_t kPage = 4096, kMinBytes = std::uintptr_t(4) << 20;
    const auto begin = (reinterpret_cast<std::uintptr_t>(data) + kPage - 1) & ~(kPage - 1);
    const auto end = (reinterpret_cast<std::uintptr_t>(data) + bytes) & ~(kPage - 1);
    if (end > begin + kMinBytes)
        ::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
#else
    (void)data;
    (void)bytes;
#endif
}

} // namespace msprobe::support
