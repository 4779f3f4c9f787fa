// SPDX-License-Identifier: Apache-2.0
#include "compare/tensor_metric_cache.h"

#include "dump/tensor_file.h"

namespace fs = std::filesystem;

namespace msprobe::compare {

TensorMetricCache::TensorMetricCache(TensorFileReader read) : m_read(std::move(read)) { }

std::uint32_t TensorMetricCache::folderId(const fs::path& dir)
{
    const std::lock_guard lock(m_mutex);
    const auto spelled = m_spelledFolders.find(dir.native());
    if (spelled != m_spelledFolders.end())
        return spelled->second;
    std::error_code ec;
    fs::path canonical = fs::weakly_canonical(dir, ec);
    if (ec)
        canonical = dir.lexically_normal();
    const auto id = m_canonicalFolders.try_emplace(canonical.native(), static_cast<std::uint32_t>(m_canonicalFolders.size())).first->second;
    m_spelledFolders.emplace(dir.native(), id);
    return id;
}

std::shared_ptr<TensorMetricCache::Slot> TensorMetricCache::slotOf(std::string key)
{
    const std::lock_guard lock(m_mutex);
    auto& slot = m_slots[std::move(key)];
    if (!slot)
        slot = std::make_shared<Slot>();
    return slot;
}

TensorMetrics TensorMetricCache::compute(const fs::path& npuDir, std::string_view npuName, const fs::path& benchDir, std::string_view benchName)
{
    return compareTensorFilePair(npuDir, npuName, benchDir, benchName, [this](const fs::path& file) {
        ++m_reads;
        return m_read ? m_read(file) : dump::readTensorFile(file);
    });
}

TensorMetrics TensorMetricCache::metrics(const fs::path& npuDir, std::string_view npuName, const fs::path& benchDir, std::string_view benchName)
{
    // The key: both folder ids, the NPU name's length and both names.
    const std::uint32_t head[3] = { folderId(npuDir), folderId(benchDir), static_cast<std::uint32_t>(npuName.size()) };
    std::string key(reinterpret_cast<const char*>(head), sizeof head);
    key.append(npuName).append(benchName);
    const auto slot = slotOf(std::move(key));
    const std::lock_guard lock(slot->mutex);
    if (!slot->computed) {
        slot->metrics = compute(npuDir, npuName, benchDir, benchName);
        slot->npuDir = npuDir.native();
        slot->benchDir = benchDir.native();
        slot->computed = true;
        return slot->metrics;
    }
    if (!slot->metrics.fileProblems.empty() && (slot->npuDir != npuDir.native() || slot->benchDir != benchDir.native()))
        return compute(npuDir, npuName, benchDir, benchName);
    ++m_reuses;
    return slot->metrics;
}

} // namespace msprobe::compare
