// SPDX-License-Identifier: Apache-2.0
#include "support/string_pool.h"

#include <cstring>

namespace msprobe {

namespace {
constexpr std::size_t kBlockSize = 1 << 20;
}

char* StringPool::store(std::string_view text)
{
    if (text.size() > kBlockSize / 4) {
        // Large strings get their own block so the arena stays dense.
        m_largeStrings.emplace_back(text);
        return m_largeStrings.back().data();
    }
    if (m_blocks.empty() || m_blockUsed + text.size() > kBlockSize) {
        m_blocks.emplace_back(kBlockSize, '\0');
        m_blockUsed = 0;
    }
    char* dest = m_blocks.back().data() + m_blockUsed;
    if (!text.empty()) // an empty view may have a null data(), which memcpy must not get
        std::memcpy(dest, text.data(), text.size());
    m_blockUsed += text.size();
    return dest;
}

StringId StringPool::intern(std::string_view text)
{
    if (auto it = m_index.find(text); it != m_index.end())
        return it->second;
    const char* stored = store(text);
    std::string_view view(stored, text.size());
    auto id = static_cast<StringId>(m_views.size());
    m_views.push_back(view);
    m_index.emplace(view, id);
    m_bytes += text.size();
    return id;
}

} // namespace msprobe
