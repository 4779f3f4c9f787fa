// SPDX-License-Identifier: Apache-2.0
#include "compare/cross_runtime_table.h"

#include <algorithm>
#include <array>
#include <utility>

namespace msprobe::compare {

namespace {

// An aten schema's non-keyword-only arguments in order (what our capture writes as input_args).
struct AtenRow {
    std::string_view op, positional;
};

// From native_functions.yaml (the overloads a transformer or CNN model reaches; an argument that is positional
// in one overload and keyword-only in another, such as add's alpha, is listed: both spellings meet at its name).
constexpr std::array kAtenRows = {
    AtenRow { "linear", "input weight bias" },
    AtenRow { "matmul", "self other" },
    AtenRow { "mm", "self mat2" },
    AtenRow { "bmm", "self mat2" },
    AtenRow { "addmm", "self mat1 mat2" },
    AtenRow { "baddbmm", "self batch1 batch2" },
    AtenRow { "layer_norm", "input normalized_shape weight bias eps cudnn_enable" },
    AtenRow { "rms_norm", "input normalized_shape weight eps" },
    AtenRow { "group_norm", "input num_groups weight bias eps cudnn_enabled" },
    AtenRow { "batch_norm", "input weight bias running_mean running_var training momentum eps cudnn_enabled" },
    AtenRow { "softmax", "self dim dtype" },
    AtenRow { "log_softmax", "self dim dtype" },
    AtenRow { "gelu", "self" },
    AtenRow { "silu", "self" },
    AtenRow { "relu", "self" },
    AtenRow { "sigmoid", "self" },
    AtenRow { "tanh", "self" },
    AtenRow { "dropout", "input p train" },
    AtenRow { "embedding", "weight indices padding_idx scale_grad_by_freq sparse" },
    AtenRow { "add", "self other alpha" },
    AtenRow { "add_", "self other alpha" },
    AtenRow { "sub", "self other alpha" },
    AtenRow { "sub_", "self other alpha" },
    AtenRow { "rsub", "self other alpha" },
    AtenRow { "mul", "self other" },
    AtenRow { "mul_", "self other" },
    AtenRow { "div", "self other" },
    AtenRow { "div_", "self other" },
    AtenRow { "neg", "self" },
    AtenRow { "pow", "self exponent" },
    AtenRow { "rsqrt", "self" },
    AtenRow { "sqrt", "self" },
    AtenRow { "exp", "self" },
    AtenRow { "cat", "tensors dim" },
    AtenRow { "stack", "tensors dim" },
    AtenRow { "transpose", "self dim0 dim1" },
    AtenRow { "t", "self" },
    AtenRow { "permute", "self dims" },
    AtenRow { "view", "self size" },
    AtenRow { "reshape", "self shape" },
    AtenRow { "expand", "self size" },
    AtenRow { "flatten", "self start_dim end_dim" },
    AtenRow { "unsqueeze", "self dim" },
    AtenRow { "squeeze", "self dim" },
    AtenRow { "chunk", "self chunks dim" },
    AtenRow { "split", "self split_size dim" },
    AtenRow { "contiguous", "self" },
    AtenRow { "mean", "self dim keepdim" },
    AtenRow { "sum", "self dim keepdim" },
    AtenRow { "masked_fill", "self mask value" },
    AtenRow { "scaled_dot_product_attention", "query key value attn_mask dropout_p is_causal" },
    AtenRow { "conv1d", "input weight bias stride padding dilation groups" },
    AtenRow { "conv2d", "input weight bias stride padding dilation groups" },
    AtenRow { "conv3d", "input weight bias stride padding dilation groups" },
    AtenRow { "max_pool1d", "self kernel_size stride padding dilation ceil_mode" },
    AtenRow { "max_pool2d", "self kernel_size stride padding dilation ceil_mode" },
    AtenRow { "avg_pool1d", "self kernel_size stride padding ceil_mode count_include_pad" },
    AtenRow { "avg_pool2d", "self kernel_size stride padding ceil_mode count_include_pad divisor_override" },
    AtenRow { "adaptive_avg_pool2d", "self output_size" },
    AtenRow { "cross_entropy_loss", "self target weight reduction ignore_index label_smoothing" },
    AtenRow { "mse_loss", "self target reduction" },
    AtenRow { "nll_loss", "self target weight reduction ignore_index" },
};

// A Python API of the genuine tool ("Functional.softmax") and the aten operator it reaches. `params`: the
// Python signature's parameters in order, "python" or "python:aten" ("input:self"; "_stacklevel:-" = ignored).
struct PythonRow {
    std::string_view api, atenOp, params;
};

constexpr std::array kPythonRows = {
    PythonRow { "Functional.linear", "linear", "input weight bias" },
    PythonRow { "Torch.matmul", "matmul", "input:self other" },
    PythonRow { "Tensor.matmul", "matmul", "self other" },
    PythonRow { "Tensor.__matmul__", "matmul", "self other" },
    PythonRow { "Tensor.__rmatmul__", "matmul", "other self" },
    PythonRow { "Torch.mm", "mm", "input:self mat2" },
    PythonRow { "Tensor.mm", "mm", "self mat2" },
    PythonRow { "Torch.bmm", "bmm", "input:self mat2" },
    PythonRow { "Tensor.bmm", "bmm", "self mat2" },
    PythonRow { "Torch.addmm", "addmm", "input:self mat1 mat2" },
    PythonRow { "Torch.baddbmm", "baddbmm", "input:self batch1 batch2" },
    PythonRow { "Functional.layer_norm", "layer_norm", "input normalized_shape weight bias eps" },
    PythonRow { "Functional.rms_norm", "rms_norm", "input normalized_shape weight eps" },
    PythonRow { "Functional.group_norm", "group_norm", "input num_groups weight bias eps" },
    PythonRow { "Functional.batch_norm", "batch_norm", "input running_mean running_var weight bias training momentum eps" },
    PythonRow { "Functional.softmax", "softmax", "input:self dim _stacklevel:- dtype" },
    PythonRow { "Torch.softmax", "softmax", "input:self dim dtype" },
    PythonRow { "Tensor.softmax", "softmax", "self dim dtype" },
    PythonRow { "Functional.log_softmax", "log_softmax", "input:self dim _stacklevel:- dtype" },
    PythonRow { "Torch.log_softmax", "log_softmax", "input:self dim dtype" },
    PythonRow { "Tensor.log_softmax", "log_softmax", "self dim dtype" },
    PythonRow { "Functional.gelu", "gelu", "input:self approximate" },
    PythonRow { "Functional.silu", "silu", "input:self inplace:-" },
    PythonRow { "Functional.relu", "relu", "input:self inplace:-" },
    PythonRow { "Torch.relu", "relu", "input:self" },
    PythonRow { "Tensor.relu", "relu", "self" },
    PythonRow { "Functional.sigmoid", "sigmoid", "input:self" },
    PythonRow { "Torch.sigmoid", "sigmoid", "input:self" },
    PythonRow { "Functional.tanh", "tanh", "input:self" },
    PythonRow { "Torch.tanh", "tanh", "input:self" },
    PythonRow { "Functional.dropout", "dropout", "input p training:train inplace:-" },
    PythonRow { "Torch.dropout", "dropout", "input p train" },
    PythonRow { "Functional.embedding", "embedding",
        "input:indices weight padding_idx:- max_norm:- norm_type:- scale_grad_by_freq sparse" },
    PythonRow { "Torch.add", "add", "input:self other alpha" },
    PythonRow { "Tensor.add", "add", "self other alpha" },
    PythonRow { "Tensor.__add__", "add", "self other" },
    PythonRow { "Tensor.__radd__", "add", "self other" },
    PythonRow { "Tensor.add_", "add_", "self other alpha" },
    PythonRow { "Tensor.__iadd__", "add_", "self other" },
    PythonRow { "Torch.sub", "sub", "input:self other alpha" },
    PythonRow { "Tensor.sub", "sub", "self other alpha" },
    PythonRow { "Tensor.__sub__", "sub", "self other" },
    PythonRow { "Tensor.sub_", "sub_", "self other alpha" },
    PythonRow { "Tensor.__isub__", "sub_", "self other" },
    PythonRow { "Tensor.__rsub__", "rsub", "self other" },
    PythonRow { "Torch.rsub", "rsub", "input:self other alpha" },
    PythonRow { "Torch.mul", "mul", "input:self other" },
    PythonRow { "Tensor.mul", "mul", "self other" },
    PythonRow { "Tensor.__mul__", "mul", "self other" },
    PythonRow { "Tensor.__rmul__", "mul", "self other" },
    PythonRow { "Tensor.mul_", "mul_", "self other" },
    PythonRow { "Tensor.__imul__", "mul_", "self other" },
    PythonRow { "Torch.div", "div", "input:self other" },
    PythonRow { "Tensor.div", "div", "self other" },
    PythonRow { "Tensor.__truediv__", "div", "self other" },
    PythonRow { "Tensor.__div__", "div", "self other" },
    PythonRow { "Tensor.div_", "div_", "self other" },
    PythonRow { "Tensor.__itruediv__", "div_", "self other" },
    PythonRow { "Tensor.__neg__", "neg", "self" },
    PythonRow { "Torch.neg", "neg", "input:self" },
    PythonRow { "Tensor.__pow__", "pow", "self exponent" },
    PythonRow { "Torch.pow", "pow", "input:self exponent" },
    PythonRow { "Torch.rsqrt", "rsqrt", "input:self" },
    PythonRow { "Torch.sqrt", "sqrt", "input:self" },
    PythonRow { "Torch.exp", "exp", "input:self" },
    PythonRow { "Torch.cat", "cat", "tensors dim" },
    PythonRow { "Torch.concat", "cat", "tensors dim" },
    PythonRow { "Torch.concatenate", "cat", "tensors axis:dim" },
    PythonRow { "Torch.stack", "stack", "tensors dim" },
    PythonRow { "Torch.transpose", "transpose", "input:self dim0 dim1" },
    PythonRow { "Tensor.transpose", "transpose", "self dim0 dim1" },
    PythonRow { "Torch.t", "t", "input:self" },
    PythonRow { "Tensor.t", "t", "self" },
    PythonRow { "Torch.permute", "permute", "input:self dims" },
    PythonRow { "Tensor.permute", "permute", "self dims*" },
    PythonRow { "Tensor.view", "view", "self size*" },
    PythonRow { "Torch.reshape", "reshape", "input:self shape" },
    PythonRow { "Tensor.reshape", "reshape", "self shape*" },
    PythonRow { "Tensor.expand", "expand", "self size*" },
    PythonRow { "Torch.flatten", "flatten", "input:self start_dim end_dim" },
    PythonRow { "Tensor.flatten", "flatten", "self start_dim end_dim" },
    PythonRow { "Torch.unsqueeze", "unsqueeze", "input:self dim" },
    PythonRow { "Tensor.unsqueeze", "unsqueeze", "self dim" },
    PythonRow { "Torch.squeeze", "squeeze", "input:self dim" },
    PythonRow { "Tensor.squeeze", "squeeze", "self dim" },
    PythonRow { "Torch.chunk", "chunk", "input:self chunks dim" },
    PythonRow { "Tensor.chunk", "chunk", "self chunks dim" },
    PythonRow { "Torch.split", "split", "tensor:self split_size_or_sections:split_size dim" },
    PythonRow { "Tensor.split", "split", "self split_size dim" },
    PythonRow { "Tensor.contiguous", "contiguous", "self" },
    PythonRow { "Torch.mean", "mean", "input:self dim keepdim" },
    PythonRow { "Tensor.mean", "mean", "self dim keepdim" },
    PythonRow { "Torch.sum", "sum", "input:self dim keepdim" },
    PythonRow { "Tensor.sum", "sum", "self dim keepdim" },
    PythonRow { "Tensor.masked_fill", "masked_fill", "self mask value" },
    PythonRow { "Functional.scaled_dot_product_attention", "scaled_dot_product_attention",
        "query key value attn_mask dropout_p is_causal scale enable_gqa" },
    PythonRow { "Functional.conv1d", "conv1d", "input weight bias stride padding dilation groups" },
    PythonRow { "Functional.conv2d", "conv2d", "input weight bias stride padding dilation groups" },
    PythonRow { "Functional.conv3d", "conv3d", "input weight bias stride padding dilation groups" },
    PythonRow { "Functional.max_pool1d", "max_pool1d", "input:self kernel_size stride padding dilation ceil_mode return_indices:-" },
    PythonRow { "Functional.max_pool2d", "max_pool2d", "input:self kernel_size stride padding dilation ceil_mode return_indices:-" },
    PythonRow { "Functional.avg_pool1d", "avg_pool1d", "input:self kernel_size stride padding ceil_mode count_include_pad" },
    PythonRow { "Functional.avg_pool2d", "avg_pool2d",
        "input:self kernel_size stride padding ceil_mode count_include_pad divisor_override" },
    PythonRow { "Functional.adaptive_avg_pool2d", "adaptive_avg_pool2d", "input:self output_size" },
    // reduction is a string in Python ('mean') and an enum int in aten (1): not compared.
    PythonRow { "Functional.cross_entropy", "cross_entropy_loss",
        "input:self target weight size_average:- ignore_index reduce:- reduction:- label_smoothing" },
    PythonRow { "Functional.mse_loss", "mse_loss", "input:self target size_average:- reduce:- reduction:-" },
    PythonRow { "Functional.nll_loss", "nll_loss", "input:self target weight size_average:- ignore_index reduce:- reduction:-" },
};

std::vector<std::string_view> words(std::string_view text)
{
    std::vector<std::string_view> out;
    std::size_t start = 0;
    while (start < text.size()) {
        const std::size_t end = std::min(text.find(' ', start), text.size());
        if (end > start)
            out.push_back(text.substr(start, end - start));
        start = end + 1;
    }
    return out;
}

const AtenRow* findAten(std::string_view op)
{
    for (const AtenRow& row : kAtenRows)
        if (row.op == op)
            return &row;
    return nullptr;
}

const PythonRow* findPython(std::string_view prefix, std::string_view api)
{
    for (const PythonRow& row : kPythonRows)
        if (row.api.size() == prefix.size() + 1 + api.size() && row.api.starts_with(prefix) && row.api[prefix.size()] == '.'
            && row.api.ends_with(api))
            return &row;
    return nullptr;
}

} // namespace

std::string ArgumentNaming::positionalName(std::size_t k) const
{
    if (!positional.empty() && positional.back().ends_with('*') && k + 1 >= positional.size()) {
        const std::string& last = positional.back();
        return last.substr(0, last.size() - 1) + "." + std::to_string(k + 1 - positional.size());
    }
    if (k < positional.size())
        return positional[k];
    return "#" + std::to_string(k);
}

std::string ArgumentNaming::keywordName(std::string_view key) const
{
    for (const auto& [from, to] : keywords)
        if (from == key)
            return to;
    return std::string(key);
}

bool isPythonApiPrefix(std::string_view prefix)
{
    static constexpr std::array<std::string_view, 8> prefixes = { "Functional", "Tensor", "Torch", "NPU", "VF", "Distributed",
        "MindSpeed", "Triton" };
    return std::find(prefixes.begin(), prefixes.end(), prefix) != prefixes.end();
}

ArgumentNaming atenNaming(std::string_view op)
{
    ArgumentNaming naming;
    naming.atenOp = std::string(op);
    if (const AtenRow* row = findAten(op)) {
        naming.known = true;
        for (std::string_view name : words(row->positional))
            naming.positional.emplace_back(name);
    }
    return naming;
}

ArgumentNaming pythonApiNaming(std::string_view prefix, std::string_view api)
{
    ArgumentNaming naming;
    if (prefix == "Aten")
        return atenNaming(api);
    if (const PythonRow* row = findPython(prefix, api)) {
        naming.atenOp = std::string(row->atenOp);
        naming.known = true;
        for (std::string_view param : words(row->params)) {
            const std::size_t colon = param.find(':');
            const std::string_view python = param.substr(0, colon);
            const std::string_view aten = colon == std::string_view::npos ? python : param.substr(colon + 1);
            // A variadic tail ("size*") is named by position only.
            naming.positional.emplace_back(aten);
            if (colon != std::string_view::npos)
                naming.keywords.emplace_back(std::string(python), std::string(aten));
        }
        return naming;
    }
    // Generic: a Tensor method or torch function of the same name as the aten operator (Tensor.exp -> aten exp),
    // its arguments in the aten schema's order when the table knows it (self first).
    if ((prefix == "Tensor" || prefix == "Torch") && !api.starts_with("__")) {
        naming = atenNaming(api);
        if (prefix == "Torch")
            naming.keywords.emplace_back("input", "self");
    }
    return naming;
}

} // namespace msprobe::compare
