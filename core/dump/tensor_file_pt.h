// SPDX-License-Identifier: Apache-2.0
// Between the two halves of the .pt reader: the pickle part (tensor_file_pt.cpp) and the archive (tensor_file_pt_archive.cpp).
#pragma once

#include "dump/tensor_file.h"

#include <cstdint>
#include <memory>
#include <string>

namespace msprobe::dump::detail {

struct PickledStorage {
    ElementType elementType;
    std::string key; // the record name under data/
    std::int64_t numel;
};

struct PickledTensor {
    std::shared_ptr<const PickledStorage> storage;
    StridedLayout layout;
};

// Runs the pickle torch.save writes for one tensor (data.pkl). Throws msprobe::Error naming the file and the
// pickle byte for anything else or anything malformed.
PickledTensor unpickleTensor(const unsigned char* data, std::size_t size, const std::string& file);

} // namespace msprobe::dump::detail
