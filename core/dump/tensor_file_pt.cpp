// SPDX-License-Identifier: Apache-2.0
// The .pt reader's pickle part. libtorch provides the zip container (PyTorchStreamReader, through dump/pt_zip.h,
// see tensor_file_pt_archive.cpp); data.pkl is read by support::readPickle into a tree of plain values (nothing is
// run), which this file turns into one tensor, rather than by torch::pickle_load, because libtorch 1.13's Unpickler
//  - pops an empty stack on malformed input (a 4-byte data.pkl segfaults it),
//  - never checks sizes/strides/offset against the storage record (a crafted file reads out of bounds),
//  - throws for the location "npu:0" that every msprobe dump taken on Ascend carries (at::Device cannot parse it),
//  - ignores the byteorder record and does not know torch._utils._rebuild_parameter.
#include "dump/tensor_file_pt.h"

#include "support/error.h"
#include "support/pickle_value.h"

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace msprobe::dump {

namespace {

using detail::PickledStorage;
using detail::PickledTensor;
using support::PickleValue;
using Kind = PickleValue::Kind;

// Limits far above what torch.save writes for one tensor (its pickle is a few hundred bytes); they bound the
// memory a hostile pickle can claim.
constexpr support::PickleLimits kTensorPickleLimits { 64, std::size_t(1) << 16, std::size_t(1) << 16, std::size_t(1) << 18, "data.pkl" };

std::optional<ElementType> storageElementType(std::string_view storageClass)
{
    static constexpr std::pair<std::string_view, ElementType> classes[] = {
        { "BoolStorage", ElementType::Bool },
        { "ByteStorage", ElementType::UInt8 },
        { "CharStorage", ElementType::Int8 },
        { "ShortStorage", ElementType::Int16 },
        { "IntStorage", ElementType::Int32 },
        { "LongStorage", ElementType::Int64 },
        { "HalfStorage", ElementType::Float16 },
        { "BFloat16Storage", ElementType::BFloat16 },
        { "FloatStorage", ElementType::Float32 },
        { "DoubleStorage", ElementType::Float64 },
    };
    for (std::string_view prefix : { "torch.cuda.", "torch." }) {
        if (storageClass.starts_with(prefix)) {
            storageClass.remove_prefix(prefix.size());
            break;
        }
    }
    for (const auto& [name, type] : classes) {
        if (storageClass == name)
            return type;
    }
    return std::nullopt;
}

// The tree torch.save writes for one tensor: persistent ids for storages and the torch._utils rebuild functions.
class TensorTree {
public:
    explicit TensorTree(const std::string& file)
        : m_file(file)
    {
    }

    PickledTensor tensor(const PickleValue& root) const
    {
        if (root.kind != Kind::Object)
            fail("holds " + std::string(support::pickleKindName(root.kind)) + ", not a single tensor");
        return call(root.node->className, root.items());
    }

private:
    [[noreturn]] void fail(const std::string& message) const { throw support::Error(m_file, "data.pkl", message); }

    static bool isInt(const PickleValue& value) { return value.kind == Kind::Int && !value.isUnsigned; }

    const PickleValue& item(const std::vector<PickleValue>& items, std::size_t index, Kind kind, std::string_view what) const
    {
        if (index >= items.size() || items[index].kind != kind || (kind == Kind::Int && !isInt(items[index])))
            fail("expected " + std::string(support::pickleKindName(kind)) + " as " + std::string(what));
        return items[index];
    }

    std::vector<std::int64_t> intTuple(const std::vector<PickleValue>& items, std::size_t index, std::string_view what) const
    {
        std::vector<std::int64_t> values;
        for (const PickleValue& v : item(items, index, Kind::Tuple, what).items()) {
            if (!isInt(v))
                fail(std::string(what) + " holds a non-integer");
            values.push_back(v.integer);
        }
        return values;
    }

    std::shared_ptr<const PickledStorage> storage(const std::vector<PickleValue>& args) const
    {
        const PickleValue& pid = item(args, 0, Kind::PersistentId, "tensor storage").items()[0];
        if (pid.kind != Kind::Tuple || pid.items().empty() || pid.items()[0].str() != "storage")
            fail("unsupported persistent id (expected a storage reference)");
        const std::string& storageClass = item(pid.items(), 1, Kind::Global, "storage type").str();
        const std::optional<ElementType> type = storageElementType(storageClass);
        if (!type)
            fail("unsupported storage type '" + storageClass + "'");
        // The location (pid[3], e.g. "cuda:0", "npu:0") is ignored: the bytes are always read to host memory.
        auto result = std::make_shared<PickledStorage>();
        result->elementType = *type;
        result->key = item(pid.items(), 2, Kind::String, "storage key").str();
        result->numel = item(pid.items(), 4, Kind::Int, "storage size").integer;
        if (result->numel < 0)
            fail("negative storage size");
        return result;
    }

    PickledTensor rebuildTensor(const std::vector<PickleValue>& args) const
    {
        PickledTensor tensor;
        tensor.storage = storage(args);
        tensor.layout.elementType = tensor.storage->elementType;
        tensor.layout.offset = item(args, 1, Kind::Int, "storage offset").integer;
        tensor.layout.shape = intTuple(args, 2, "tensor size");
        tensor.layout.strides = intTuple(args, 3, "tensor stride");
        return tensor;
    }

    // The rebuild functions nest (a parameter around a tensor); the pickle's nesting limit bounds the recursion.
    PickledTensor call(const std::string& name, const std::vector<PickleValue>& args) const
    {
        if (name == "torch._utils._rebuild_tensor_v2" || name == "torch._utils._rebuild_tensor")
            return rebuildTensor(args);
        if (name == "torch._utils._rebuild_parameter" || name == "torch._utils._rebuild_parameter_with_state") {
            const PickleValue& data = item(args, 0, Kind::Object, "parameter data");
            return call(data.node->className, data.items());
        }
        if (name == "torch._tensor._rebuild_from_type_v2") // tensor subclasses and tensors with attributes
            return call(item(args, 0, Kind::Global, "rebuild function").str(), item(args, 2, Kind::Tuple, "arguments").items());
        fail("unsupported object '" + name + "' (only a tensor saved with torch.save is read)");
    }

    const std::string& m_file;
};

} // namespace

detail::PickledTensor detail::unpickleTensor(const unsigned char* data, std::size_t size, const std::string& file)
{
    return TensorTree(file).tensor(support::readPickle(data, size, file, kTensorPickleLimits));
}

} // namespace msprobe::dump
