// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "capture/config.h"
#include "capture/dump_writer.h"
#include "capture/value.h"

#include <ATen/core/ivalue.h>

#include <array>
#include <string>

namespace msprobe::capture {

// Turns IValues into dump.json values: tensor leaves with statistics (and md5, and tensor files when
// requested), scalar leaves, lists. With async_dump, tensor files and the statistics of device tensors are made
// on the writer thread from a copy; the statistics of CPU tensors are computed at once (cheaper than the copy).
class LeafBuilder {
public:
    LeafBuilder(const DumpConfig& config, DumpWriter& writer)
        : m_config(config)
        , m_writer(writer)
    {
    }

    // filePrefix: "{entry}.{category}" (file names append ".{index path}.{ext}"); saveFiles: task tensor or a
    // tensor_list match. copyForAsync: false when the tensor can no longer change (fresh gradients).
    Value build(const c10::IValue& value, const std::string& filePrefix, bool saveFiles, bool copyForAsync = true);
    Value tensor(const at::Tensor& tensor, const std::string& fileStem, bool saveFiles, bool copyForAsync = true);

private:
    // The same tensor is usually dumped several times in a row (op output, next op input, module output):
    // recent statistics are reused while the tensor is alive and unmodified (same version counter).
    struct CachedStats {
        at::Tensor tensor; // held so that the TensorImpl cannot be reused by another tensor
        std::uint32_t version = 0;
        std::shared_ptr<const TensorLeaf> leaf;
    };
    const TensorLeaf* cached(const at::Tensor& t) const;
    void remember(const at::Tensor& t, std::shared_ptr<const TensorLeaf> leaf);

    const DumpConfig& m_config;
    DumpWriter& m_writer;
    // A ring of the most recent tensors, searched newest first (a hit is nearly always among the last few; no
    // allocation per tensor, unlike a map). A tensor changed in place is added again; the newer record wins.
    static constexpr std::size_t kCacheSize = 128;
    std::array<const c10::TensorImpl*, kCacheSize> m_cacheKeys {};
    std::array<CachedStats, kCacheSize> m_cacheSlots;
    std::size_t m_cacheNext = 0;
};

} // namespace msprobe::capture
