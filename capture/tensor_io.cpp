// SPDX-License-Identifier: Apache-2.0
#include "capture/tensor_io.h"

#include <ATen/ATen.h>
#include <ATen/record_function.h>
#include <torch/csrc/jit/serialization/pickle.h>

#include <cstring>

namespace msprobe::capture {

namespace {

const char* npyDescr(at::ScalarType type)
{
    switch (type) {
    case at::kFloat: return "<f4";
    case at::kDouble: return "<f8";
    case at::kHalf: return "<f2";
    case at::kLong: return "<i8";
    case at::kInt: return "<i4";
    case at::kShort: return "<i2";
    case at::kChar: return "|i1";
    case at::kByte: return "|u1";
    case at::kBool: return "|b1";
    case at::kComplexFloat: return "<c8";
    case at::kComplexDouble: return "<c16";
    default: return nullptr;
    }
}

} // namespace

std::string encodeNpy(const at::Tensor& input)
{
    at::NoGradGuard noGrad;
    at::DisableRecordFunctionGuard noRecord;
    at::Tensor t = input.detach().cpu();
    if (!npyDescr(t.scalar_type()))
        t = t.is_complex() ? t.to(at::kComplexFloat) : t.to(at::kFloat);
    t = t.contiguous();
    std::string header = "{'descr': '";
    header += npyDescr(t.scalar_type());
    header += "', 'fortran_order': False, 'shape': (";
    for (int64_t d = 0; d < t.dim(); ++d) {
        header += std::to_string(t.size(d));
        if (t.dim() == 1 || d + 1 < t.dim())
            header += ",";
        if (d + 1 < t.dim())
            header += " ";
    }
    header += "), }";
    // magic(6) + version(2) + header length(2) + header + '\n', padded to a multiple of 64.
    const std::size_t unpadded = 10 + header.size() + 1;
    header.append((64 - unpadded % 64) % 64, ' ');
    header += '\n';
    std::string out("\x93NUMPY\x01\x00", 8);
    out += static_cast<char>(header.size() & 0xff);
    out += static_cast<char>((header.size() >> 8) & 0xff);
    out += header;
    const std::size_t bytes = static_cast<std::size_t>(t.numel()) * t.element_size();
    const std::size_t at = out.size();
    out.resize(at + bytes);
    if (bytes)
        std::memcpy(out.data() + at, t.data_ptr(), bytes);
    return out;
}

std::string encodePt(const at::Tensor& input)
{
    at::NoGradGuard noGrad;
    at::DisableRecordFunctionGuard noRecord;
    at::Tensor t = input.detach().cpu().contiguous();
    // A view would drag its whole storage into the file.
    if (t.storage_offset() != 0 || t.storage().nbytes() != static_cast<std::size_t>(t.numel()) * t.element_size())
        t = t.clone();
    const std::vector<char> bytes = torch::jit::pickle_save(c10::IValue(t));
    return std::string(bytes.begin(), bytes.end());
}

} // namespace msprobe::capture
