// SPDX-License-Identifier: Apache-2.0
#include "dump/tensor_file.h"

#include "support/error.h"
#include "support/markup_escape.h"

#include <algorithm>
#include <bit>
#include <cctype>
#include <cmath>
#include <fstream>
#include <iterator>
#include <limits>
#include <new>
#include <optional>

namespace fs = std::filesystem;

namespace msprobe::dump {

namespace {

// A view whose strides repeat elements (expand/broadcast) may describe more elements than its storage holds;
// beyond this many such a view is taken as hostile rather than converted.
constexpr std::int64_t kMaxBroadcastElements = std::int64_t(1) << 26;

} // namespace

std::string detail::shapeText(const std::vector<std::int64_t>& shape)
{
    std::string text = "(";
    for (std::size_t i = 0; i < shape.size(); ++i)
        text += (i ? ", " : "") + std::to_string(shape[i]);
    return text + (shape.size() == 1 ? ",)" : ")");
}

std::optional<std::int64_t> detail::elementCount(const std::vector<std::int64_t>& shape)
{
    std::int64_t count = 1;
    for (std::int64_t size : shape) {
        if (size == 0)
            return 0;
    }
    for (std::int64_t size : shape) {
        if (__builtin_mul_overflow(count, size, &count))
            return std::nullopt;
    }
    return count;
}

namespace {

using detail::elementCount;
using detail::shapeText;

template <typename U> U loadUnsigned(const unsigned char* p, bool bigEndian)
{
    U value = 0;
    if (bigEndian) {
        for (std::size_t i = 0; i < sizeof(U); ++i)
            value = static_cast<U>((value << 8) | p[i]);
    } else {
        for (std::size_t i = sizeof(U); i-- > 0;)
            value = static_cast<U>((value << 8) | p[i]);
    }
    return value;
}

double halfToDouble(std::uint16_t bits)
{
    const int exponent = (bits >> 10) & 0x1f;
    const int mantissa = bits & 0x3ff;
    double magnitude;
    if (exponent == 0)
        magnitude = std::ldexp(mantissa, -24);
    else if (exponent == 31)
        magnitude = mantissa ? std::numeric_limits<double>::quiet_NaN() : std::numeric_limits<double>::infinity();
    else
        magnitude = std::ldexp(mantissa + 1024, exponent - 25);
    return (bits & 0x8000) ? -magnitude : magnitude;
}

double bfloat16ToDouble(std::uint16_t bits)
{
    return std::bit_cast<float>(static_cast<std::uint32_t>(bits) << 16);
}

// Appends the layout's elements in row-major order; the layout has been validated and has elements.
template <typename Convert>
void gather(const detail::StridedLayout& layout, const unsigned char* storage, std::size_t itemSize, Convert convert,
    std::vector<double>& out)
{
    const auto at = [&](std::int64_t index) { return convert(storage + static_cast<std::size_t>(index) * itemSize); };
    const std::size_t rank = layout.shape.size();
    if (rank == 0) {
        out.push_back(at(layout.offset));
        return;
    }
    const std::int64_t inner = layout.shape[rank - 1];
    const std::int64_t innerStride = layout.strides[rank - 1];
    std::vector<std::int64_t> index(rank, 0);
    std::int64_t base = layout.offset;
    while (true) {
        for (std::int64_t i = 0; i < inner; ++i)
            out.push_back(at(base + i * innerStride));
        std::size_t dim = rank - 1;
        while (dim-- > 0) {
            if (++index[dim] < layout.shape[dim]) {
                base += layout.strides[dim];
                break;
            }
            base -= (layout.shape[dim] - 1) * layout.strides[dim];
            index[dim] = 0;
        }
        if (dim == static_cast<std::size_t>(-1))
            return;
    }
}

void gatherAs(
    const detail::StridedLayout& layout, const unsigned char* storage, bool bigEndian, std::vector<double>& out)
{
    const std::size_t size = elementSize(layout.elementType);
    switch (layout.elementType) {
    case ElementType::Bool:
        return gather(
            layout, storage, size, [](const unsigned char* p) { return *p ? 1.0 : 0.0; }, out);
    case ElementType::UInt8:
        return gather(
            layout, storage, size, [](const unsigned char* p) { return double(*p); }, out);
    case ElementType::Int8:
        return gather(
            layout, storage, size, [](const unsigned char* p) { return double(std::int8_t(*p)); }, out);
    case ElementType::Int16:
        return gather(
            layout, storage, size,
            [=](const unsigned char* p) { return double(std::int16_t(loadUnsigned<std::uint16_t>(p, bigEndian))); },
            out);
    case ElementType::Int32:
        return gather(
            layout, storage, size,
            [=](const unsigned char* p) { return double(std::int32_t(loadUnsigned<std::uint32_t>(p, bigEndian))); },
            out);
    case ElementType::Int64:
        return gather(
            layout, storage, size,
            [=](const unsigned char* p) { return double(std::int64_t(loadUnsigned<std::uint64_t>(p, bigEndian))); },
            out);
    case ElementType::Float16:
        return gather(
            layout, storage, size,
            [=](const unsigned char* p) { return halfToDouble(loadUnsigned<std::uint16_t>(p, bigEndian)); }, out);
    case ElementType::BFloat16:
        return gather(
            layout, storage, size,
            [=](const unsigned char* p) { return bfloat16ToDouble(loadUnsigned<std::uint16_t>(p, bigEndian)); }, out);
    case ElementType::Float32:
        return gather(
            layout, storage, size,
            [=](const unsigned char* p) {
                return double(std::bit_cast<float>(loadUnsigned<std::uint32_t>(p, bigEndian)));
            },
            out);
    case ElementType::Float64:
        return gather(
            layout, storage, size,
            [=](const unsigned char* p) { return std::bit_cast<double>(loadUnsigned<std::uint64_t>(p, bigEndian)); },
            out);
    }
}

// Returns the element count after checking that every element the layout addresses lies in the storage.
std::int64_t checkLayout(
    const detail::StridedLayout& layout, std::size_t storageBytes, const std::string& file, const std::string& place)
{
    const auto fail = [&](const std::string& message) { return support::Error(file, place, message); };
    if (layout.strides.size() != layout.shape.size())
        throw fail(
            "shape " + shapeText(layout.shape) + " and strides " + shapeText(layout.strides) + " differ in length");
    if (layout.offset < 0)
        throw fail("negative storage offset " + std::to_string(layout.offset));
    for (std::size_t i = 0; i < layout.shape.size(); ++i) {
        if (layout.shape[i] < 0)
            throw fail("negative size in shape " + shapeText(layout.shape));
        if (layout.strides[i] < 0)
            throw fail("negative stride in strides " + shapeText(layout.strides));
    }
    const std::optional<std::int64_t> count = elementCount(layout.shape);
    if (!count)
        throw fail("shape " + shapeText(layout.shape) + " has too many elements");
    if (*count == 0)
        return 0;

    const auto storageElements = static_cast<std::int64_t>(storageBytes / elementSize(layout.elementType));
    std::int64_t last = layout.offset;
    bool overflow = false;
    for (std::size_t i = 0; i < layout.shape.size(); ++i) {
        std::int64_t reach = 0;
        overflow = overflow || __builtin_mul_overflow(layout.shape[i] - 1, layout.strides[i], &reach)
            || __builtin_add_overflow(last, reach, &last);
    }
    if (overflow || last >= storageElements)
        throw fail("view of shape " + shapeText(layout.shape) + ", strides " + shapeText(layout.strides)
            + " and offset " + std::to_string(layout.offset) + " reaches beyond its storage of "
            + std::to_string(storageElements) + " elements");
    if (*count > std::max(storageElements, kMaxBroadcastElements))
        throw fail("view of shape " + shapeText(layout.shape) + " repeats a storage of "
            + std::to_string(storageElements) + " elements into too many elements");
    return *count;
}

// ---- data_name resolution -------------------------------------------------------------------------------

bool isStrictlyInside(const fs::path& path, const fs::path& folder)
{
    auto p = path.begin();
    for (auto f = folder.begin(); f != folder.end(); ++f, ++p) {
        if (f->empty() && std::next(f) == folder.end())
            break; // trailing separator
        if (p == path.end() || *p != *f)
            return false;
    }
    return p != path.end();
}

} // namespace

std::string_view torchDtypeName(ElementType type)
{
    switch (type) {
    case ElementType::Bool:
        return "torch.bool";
    case ElementType::UInt8:
        return "torch.uint8";
    case ElementType::Int8:
        return "torch.int8";
    case ElementType::Int16:
        return "torch.int16";
    case ElementType::Int32:
        return "torch.int32";
    case ElementType::Int64:
        return "torch.int64";
    case ElementType::Float16:
        return "torch.float16";
    case ElementType::BFloat16:
        return "torch.bfloat16";
    case ElementType::Float32:
        return "torch.float32";
    case ElementType::Float64:
        return "torch.float64";
    }
    return "torch.unknown";
}

std::size_t elementSize(ElementType type)
{
    switch (type) {
    case ElementType::Bool:
    case ElementType::UInt8:
    case ElementType::Int8:
        return 1;
    case ElementType::Int16:
    case ElementType::Float16:
    case ElementType::BFloat16:
        return 2;
    case ElementType::Int32:
    case ElementType::Float32:
        return 4;
    case ElementType::Int64:
    case ElementType::Float64:
        return 8;
    }
    return 1;
}

namespace detail {

TensorData decodeStrided(const StridedLayout& layout, const unsigned char* storage, std::size_t storageBytes,
    bool bigEndian, const std::string& file, const std::string& place)
{
    const std::int64_t count = checkLayout(layout, storageBytes, file, place);
    TensorData tensor;
    tensor.elementType = layout.elementType;
    tensor.shape = layout.shape;
    tensor.values.reserve(static_cast<std::size_t>(count));
    if (count > 0)
        gatherAs(layout, storage, bigEndian, tensor.values);
    return tensor;
}

} // namespace detail

TensorData readTensorFile(const fs::path& file)
{
    const std::string name = file.string();
    std::string extension = file.extension().string();
    std::transform(extension.begin(), extension.end(), extension.begin(),
        [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    const bool isPt = extension == ".pt" || extension == ".pth";
    if (!isPt && extension != ".npy")
        throw support::Error(name, "", "unsupported tensor file type '" + extension + "' (expected .pt or .npy)");
    std::error_code ec;
    const fs::file_status status = fs::status(file, ec);
    if (!fs::exists(status))
        throw support::Error(name, "", "no such file");
    if (!fs::is_regular_file(status))
        throw support::Error(name, "", "not a regular file");
    try {
        return isPt ? detail::readPtFile(file) : detail::readNpyFile(file);
    } catch (const support::Error&) {
        throw;
    } catch (const std::bad_alloc&) {
        throw support::Error(name, "", "not enough memory to read the tensor");
    } catch (const std::exception& e) {
        throw support::Error(name, "", e.what());
    }
}

fs::path resolveDataFile(const fs::path& dumpDataDir, std::string_view dataName)
{
    const auto reject = [&](const std::string& why) {
        return support::Error(dumpDataDir.string(), "data_name '" + support::printableText(dataName) + "'", why);
    };
    if (dataName.empty())
        throw reject("is empty");
    if (dataName.find('\0') != std::string_view::npos)
        throw reject("contains a NUL character");
    if (dataName.find_first_of("/\\") != std::string_view::npos)
        throw reject("contains a path separator");
    if (dataName == "." || dataName.find("..") != std::string_view::npos)
        throw reject("contains '..' or is '.'");
    const fs::path relative { std::string(dataName) };
    if (relative.has_root_path())
        throw reject("is an absolute path");
    std::error_code ec;
    if (fs::is_symlink(dumpDataDir, ec)) {
        // The folder itself may be a link, but only to a folder inside the dump folder that holds it.
        std::error_code ecTarget, ecDump;
        const fs::path target = fs::canonical(dumpDataDir, ecTarget);
        const fs::path parent = dumpDataDir.has_parent_path() ? dumpDataDir.parent_path() : fs::path(".");
        const fs::path dumpFolder = fs::canonical(parent, ecDump);
        if (ecTarget || ecDump || !isStrictlyInside(target, dumpFolder))
            throw support::Error(dumpDataDir.string(), "",
                "is a symbolic link that does not resolve to a folder inside the dump folder " + parent.string());
    }
    fs::path candidate = dumpDataDir / relative;
    if (fs::is_symlink(candidate, ec)) {
        std::error_code ecTarget, ecFolder;
        const fs::path target = fs::canonical(candidate, ecTarget);
        const fs::path folder = fs::canonical(dumpDataDir, ecFolder);
        if (ecTarget || ecFolder || !isStrictlyInside(target, folder))
            throw reject("is a symbolic link that does not resolve to a file inside the folder");
    }
    return candidate;
}

} // namespace msprobe::dump
