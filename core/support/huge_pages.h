// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>

namespace msprobe::support {

// Asks the kernel to back the 4 KiB pages of [data, data + bytes) with transparent huge pages (best effort,
// where THP is "madvise" or "always"; nothing below 4 MiB): a large reserved column that is then filled costs
// one page fault per 2 MiB instead of one per 4 KiB.
void adviseHugePages(const void* data, std::size_t bytes);

} // namespace msprobe::support
