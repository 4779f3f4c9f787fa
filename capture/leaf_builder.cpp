// SPDX-License-Identifier: Apache-2.0
#include "capture/leaf_builder.h"

#include "capture/tensor_io.h"
#include "capture/tensor_stats.h"

#include <ATen/ATen.h>
#include <ATen/record_function.h>

#include <cstdint>

namespace msprobe::capture {

namespace {

// tensorDir: the step's dump_tensor_data, taken when the tensor was seen (a job of the writer thread may run
// after its step has closed); empty when no file is saved. onWriterThread: write the file here; otherwise its
// bytes are made here (the tensor may change later) and the writer thread writes them.
void fillLeaf(const std::shared_ptr<TensorLeaf>& leafPtr, const at::Tensor& t, const DumpConfig& config,
    DumpWriter& writer, const std::filesystem::path& tensorDir, const std::string& fileStem, bool onWriterThread)
{
    TensorLeaf& leaf = *leafPtr;
    if (config.summaryMode == SummaryMode::Xor) {
        // The reference writes the checksum alone: no Max/Min/Mean/Norm keys.
        leaf.md5 = xorChecksumJson(t);
        leaf.md5IsJson = true;
    } else {
        const TensorStats s = computeTensorStats(t, config.precisionHigh ? StatPrecision::High : StatPrecision::Low);
        leaf.max = s.max;
        leaf.min = s.min;
        leaf.mean = s.mean;
        leaf.norm = s.norm;
        if (config.summaryMode == SummaryMode::Md5)
            leaf.md5 = crc32Hex(t);
    }
    if (!tensorDir.empty()) {
        const std::string ext = config.fileFormat == FileFormat::Pt ? ".pt" : ".npy";
        const std::string name = fileStem + ext;
        try {
            std::string bytes = config.fileFormat == FileFormat::Pt ? encodePt(t) : encodeNpy(t);
            if (onWriterThread)
                writer.writeTensorFile(tensorDir, name, bytes, leaf);
            else
                writer.writeTensorFileLater(tensorDir, name, std::move(bytes), leafPtr);
        } catch (const std::exception& error) {
            writer.recordError(std::string("encode:") + error.what(), "cannot encode " + name + ": " + error.what());
        }
    }
}

// The reference's slice_by_config: per rule tensor[begin:end] on dim (a later rule for the same dim wins),
// skipped where dim is out of range or size differs from the dimension's length.
at::Tensor applySlices(const at::Tensor& t, const std::vector<SliceRule>& rules)
{
    std::vector<const SliceRule*> perDim(static_cast<std::size_t>(t.dim()), nullptr);
    bool any = false;
    for (const auto& rule : rules) {
        if (rule.dim >= t.dim() || (rule.size && *rule.size != t.size(rule.dim)))
            continue;
        perDim[static_cast<std::size_t>(rule.dim)] = &rule;
        any = true;
    }
    if (!any)
        return t;
    at::NoGradGuard noGrad;
    at::DisableRecordFunctionGuard noRecord;
    at::Tensor view = t.detach();
    for (std::size_t d = 0; d < perDim.size(); ++d)
        if (perDim[d]) {
            const SliceRule& rule = *perDim[d];
            view = view.slice(static_cast<std::int64_t>(d), rule.begin, rule.end.value_or(INT64_MAX));
        }
    return view;
}

} // namespace

Value LeafBuilder::tensor(const at::Tensor& original, const std::string& fileStem, bool saveFiles, bool copyForAsync)
{
    if (!original.defined())
        return Value::null();
    // Statistics are cached under the original tensor; everything written describes the sliced one.
    const at::Tensor t = m_config.slices.empty() ? original : applySlices(original, m_config.slices);
    auto leaf = std::make_shared<TensorLeaf>();
    leaf->dtype = torchDtypeName(t.scalar_type());
    leaf->shape.assign(t.sizes().begin(), t.sizes().end());
    leaf->requiresGrad = original.requires_grad() ? 1 : 0;
    if (m_config.task == Task::Structure)
        return Value::ofTensor(std::move(leaf));
    // On the CPU the statistics, and a file's bytes, cost less than the copy a job of the writer thread would
    // need: they are made at once and only the file is written there. With async_dump, device tensors are
    // copied and all their work goes there (no device synchronization per op).
    if (!m_config.asyncDump || t.is_cpu()) {
        if (const TensorLeaf* hit = saveFiles ? nullptr : cached(original)) {
            leaf->max = hit->max;
            leaf->min = hit->min;
            leaf->mean = hit->mean;
            leaf->norm = hit->norm;
            leaf->md5 = hit->md5;
            leaf->md5IsJson = hit->md5IsJson;
            return Value::ofTensor(std::move(leaf));
        }
        fillLeaf(leaf, t, m_config, m_writer, saveFiles ? m_writer.tensorDir() : std::filesystem::path(), fileStem, false);
        remember(original, leaf);
        return Value::ofTensor(std::move(leaf));
    }
    at::Tensor copy;
    {
        at::NoGradGuard noGrad;
        at::DisableRecordFunctionGuard noRecord;
        copy = copyForAsync ? t.detach().clone() : t.detach();
    }
    // The builder is replaced at every start(); config and writer live as long as the debugger.
    const DumpConfig* config = &m_config;
    DumpWriter* writer = &m_writer;
    std::filesystem::path tensorDir = saveFiles ? m_writer.tensorDir() : std::filesystem::path();
    m_writer.post([leaf, copy, tensorDir = std::move(tensorDir), fileStem, config, writer] {
        at::NoGradGuard noGrad;
        at::DisableRecordFunctionGuard noRecord;
        fillLeaf(leaf, copy, *config, *writer, tensorDir, fileStem, true);
    });
    return Value::ofTensor(std::move(leaf));
}

const TensorLeaf* LeafBuilder::cached(const at::Tensor& t) const
{
    const c10::TensorImpl* key = t.unsafeGetTensorImpl();
    for (std::size_t k = 1; k <= kCacheSize; ++k) {
        const std::size_t slot = (m_cacheNext + kCacheSize - k) % kCacheSize;
        if (m_cacheKeys[slot] == key)
            return m_cacheSlots[slot].version == t._version() ? m_cacheSlots[slot].leaf.get() : nullptr;
    }
    return nullptr;
}

void LeafBuilder::remember(const at::Tensor& t, std::shared_ptr<const TensorLeaf> leaf)
{
    const std::size_t slot = m_cacheNext;
    m_cacheNext = (m_cacheNext + 1) % kCacheSize;
    m_cacheKeys[slot] = t.unsafeGetTensorImpl();
    m_cacheSlots[slot] = CachedStats { t, static_cast<std::uint32_t>(t._version()), std::move(leaf) };
}

Value LeafBuilder::build(const c10::IValue& v, const std::string& filePrefix, bool saveFiles, bool copyForAsync)
{
    if (v.isTensor())
        return tensor(v.toTensor(), filePrefix, saveFiles, copyForAsync);
    if (v.isNone())
        return Value::null();
    if (v.isBool())
        return Value::ofBool(v.toBool());
    if (v.isInt())
        return Value::ofInt(v.toInt());
    if (v.isDouble())
        return Value::ofFloat(v.toDouble());
    if (v.isString())
        return Value::ofString("str", v.toStringRef());
    if (v.isDevice())
        return Value::ofString("torch.device", v.toDevice().str());
    if (v.isScalar()) {
        const at::Scalar s = v.toScalar();
        if (s.isBoolean())
            return Value::ofBool(s.toBool());
        if (s.isIntegral(false))
            return Value::ofInt(s.toLong());
        return Value::ofFloat(s.toDouble());
    }
    if (v.isList() || v.isTuple()) {
        Value list = Value::list();
        std::size_t k = 0;
        auto add = [&](const c10::IValue& item) {
            list.add(build(item, saveFiles ? filePrefix + "." + std::to_string(k) : std::string(), saveFiles, copyForAsync));
            ++k;
        };
        if (v.isTuple()) {
            for (const auto& item : v.toTupleRef().elements())
                add(item);
        } else {
            for (const auto& item : v.toListRef())
                add(item);
        }
        return list;
    }
    if (v.isGenericDict()) {
        Value dict = Value::dict();
        for (const auto& item : v.toGenericDict()) {
            const std::string key = item.key().isString() ? item.key().toStringRef() : item.key().tagKind();
            dict.add(key, build(item.value(), saveFiles ? filePrefix + "." + key : std::string(), saveFiles, copyForAsync));
        }
        return dict;
    }
    // Python writes null for any object it does not understand.
    return Value::null();
}

} // namespace msprobe::capture
