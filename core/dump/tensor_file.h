// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace msprobe::dump {

enum class ElementType : std::uint8_t { Bool, UInt8, Int8, Int16, Int32, Int64, Float16, BFloat16, Float32, Float64 };

// "torch.float32", "torch.bfloat16", ... as dump.json writes the dtype.
std::string_view torchDtypeName(ElementType type);
// Bytes one element takes in a file.
std::size_t elementSize(ElementType type);

// One tensor read from a dump_tensor_data/ file.
struct TensorData {
    ElementType elementType = ElementType::Float32; // the stored dtype
    std::vector<std::int64_t> shape; // logical shape as saved (a view's own shape, not its storage's)
    std::vector<double> values; // row-major logical elements, converted exactly (fp16/bf16 exact, bool 0/1)

    std::size_t numel() const { return values.size(); }
};

// Reads a .pt/.pth (torch.save zip archive holding one tensor, as msprobe writes it; storages saved on cuda/npu
// are read like cpu ones) or a .npy file, chosen by extension. Throws msprobe::Error naming the file and what is
// wrong; sizes, offsets and strides in the file are checked before any element is read.
TensorData readTensorFile(const std::filesystem::path& file);

// The file a dump.json data_name refers to inside dump_tensor_data/. Throws msprobe::Error naming the
// data_name for empty, absolute or dotted ("..", ".") names, names with a path separator or NUL, and names
// (e.g. symbolic links) that resolve outside the folder.
std::filesystem::path resolveDataFile(const std::filesystem::path& dumpDataDir, std::string_view dataName);

namespace detail {

// Where a tensor's elements lie in a flat storage, in elements (torch's storage_offset/size/stride).
struct StridedLayout {
    ElementType elementType = ElementType::Float32;
    std::vector<std::int64_t> shape;
    std::vector<std::int64_t> strides;
    std::int64_t offset = 0;
};

// Checks the layout against a storage of storageBytes bytes (sizes, strides and offset non-negative, every
// addressed element inside the storage, no overflow) and converts the elements, row-major, to double.
// Errors are thrown as msprobe::Error(file, place, ...).
TensorData decodeStrided(const StridedLayout& layout, const unsigned char* storage, std::size_t storageBytes,
    bool bigEndian, const std::string& file, const std::string& place);

// "(2, 3)", "(4,)": a shape as Python prints a tuple.
std::string shapeText(const std::vector<std::int64_t>& shape);
// Element count of a shape, or nullopt when it does not fit in int64 (negative sizes are checked by callers).
std::optional<std::int64_t> elementCount(const std::vector<std::int64_t>& shape);

// The two readers: .pt in tensor_file_pt.cpp (the zip container through dump/pt_zip.h), .npy in tensor_file_npy.cpp.
TensorData readPtFile(const std::filesystem::path& file);
TensorData readNpyFile(const std::filesystem::path& file);

} // namespace detail

} // namespace msprobe::dump
