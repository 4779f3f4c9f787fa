// SPDX-License-Identifier: Apache-2.0
// A tiny pre-LayerNorm transformer language model in the libtorch C++ frontend, instrumented for msprobe:
// user modules open a scope (MSPROBE_MODULE_SCOPE / MSPROBE_RETURN); built-in Embedding, Linear and
// LayerNorm are attributed automatically through their parameters. Shared by the example program, the
// capture tests and the capture benchmark.
#pragma once

#include "capture/module_scope.h"

#include <torch/torch.h>

#include <cmath>

namespace tiny {

struct Options {
    int64_t vocab = 64;
    int64_t seq = 32;
    int64_t batch = 4;
    int64_t dModel = 64;
    int64_t heads = 4;
    int64_t dFF = 128;
    int64_t layers = 2;
    // Fault injection for problem-vs-benchmark runs: the GELU of this block uses the tanh approximation.
    int64_t tanhGeluBlock = -1;
    // ... or the attention scores of this block are scaled by attentionScaleFactor on top of 1/sqrt(head_dim).
    int64_t attentionScaleBlock = -1;
    double attentionScaleFactor = 1.25;
};

struct AttentionImpl : torch::nn::Module {
    AttentionImpl(int64_t d, int64_t heads, double scaleFactor = 1.0)
        : heads(heads)
        , headDim(d / heads)
        , scale(scaleFactor / std::sqrt(static_cast<double>(d / heads)))
    {
        q = register_module("q_proj", torch::nn::Linear(d, d));
        k = register_module("k_proj", torch::nn::Linear(d, d));
        v = register_module("v_proj", torch::nn::Linear(d, d));
        out = register_module("out_proj", torch::nn::Linear(d, d));
    }
    torch::Tensor forward(torch::Tensor x)
    {
        MSPROBE_MODULE_SCOPE(x);
        const int64_t b = x.size(0), s = x.size(1), d = x.size(2);
        auto split = [&](const torch::Tensor& t) { return t.view({ b, s, heads, headDim }).transpose(1, 2); };
        auto qh = split(q(x)), kh = split(k(x)), vh = split(v(x));
        auto scores = torch::matmul(qh, kh.transpose(-2, -1)) * scale;
        auto probs = torch::softmax(scores, -1);
        auto ctx = torch::matmul(probs, vh).transpose(1, 2).reshape({ b, s, d });
        MSPROBE_RETURN(out(ctx));
    }
    int64_t heads, headDim;
    double scale;
    torch::nn::Linear q { nullptr }, k { nullptr }, v { nullptr }, out { nullptr };
};
TORCH_MODULE(Attention);

struct MLPImpl : torch::nn::Module {
    MLPImpl(int64_t d, int64_t ff, bool tanhGelu)
        : tanhGelu(tanhGelu)
    {
        fc1 = register_module("fc1", torch::nn::Linear(d, ff));
        fc2 = register_module("fc2", torch::nn::Linear(ff, d));
    }
    torch::Tensor forward(torch::Tensor x)
    {
        MSPROBE_MODULE_SCOPE(x);
        auto h = torch::gelu(fc1(x), tanhGelu ? "tanh" : "none");
        MSPROBE_RETURN(fc2(h));
    }
    bool tanhGelu;
    torch::nn::Linear fc1 { nullptr }, fc2 { nullptr };
};
TORCH_MODULE(MLP);

struct BlockImpl : torch::nn::Module {
    BlockImpl(const Options& o, bool tanhGelu, double attentionScaleFactor = 1.0)
    {
        ln1 = register_module("ln1", torch::nn::LayerNorm(torch::nn::LayerNormOptions({ o.dModel })));
        attn = register_module("attn", Attention(o.dModel, o.heads, attentionScaleFactor));
        ln2 = register_module("ln2", torch::nn::LayerNorm(torch::nn::LayerNormOptions({ o.dModel })));
        mlp = register_module("mlp", MLP(o.dModel, o.dFF, tanhGelu));
    }
    torch::Tensor forward(torch::Tensor x)
    {
        MSPROBE_MODULE_SCOPE(x);
        x = x + attn(ln1(x));
        x = x + mlp(ln2(x));
        MSPROBE_RETURN(x);
    }
    torch::nn::LayerNorm ln1 { nullptr }, ln2 { nullptr };
    Attention attn { nullptr };
    MLP mlp { nullptr };
};
TORCH_MODULE(Block);

struct TinyTransformerImpl : torch::nn::Module {
    explicit TinyTransformerImpl(const Options& o)
    {
        tokEmb = register_module("tok_emb", torch::nn::Embedding(o.vocab, o.dModel));
        posEmb = register_module("pos_emb", torch::nn::Embedding(o.seq, o.dModel));
        blocks = register_module("blocks", torch::nn::ModuleList());
        for (int64_t i = 0; i < o.layers; ++i)
            blocks->push_back(Block(o, i == o.tanhGeluBlock, i == o.attentionScaleBlock ? o.attentionScaleFactor : 1.0));
        lnF = register_module("ln_f", torch::nn::LayerNorm(torch::nn::LayerNormOptions({ o.dModel })));
        head = register_module("head", torch::nn::Linear(o.dModel, o.vocab));
    }
    torch::Tensor forward(torch::Tensor idx)
    {
        MSPROBE_MODULE_SCOPE(idx);
        auto pos = torch::arange(idx.size(1), torch::kLong);
        auto x = tokEmb(idx) + posEmb(pos);
        for (const auto& block : *blocks)
            x = block->as<Block>()->forward(x);
        MSPROBE_RETURN(head(lnF(x)));
    }
    torch::nn::Embedding tokEmb { nullptr }, posEmb { nullptr };
    torch::nn::ModuleList blocks { nullptr };
    torch::nn::LayerNorm lnF { nullptr };
    torch::nn::Linear head { nullptr };
};
TORCH_MODULE(TinyTransformer);

// Fixed synthetic batches: next-token prediction on a deterministic token stream.
inline std::pair<torch::Tensor, torch::Tensor> makeBatch(const Options& o, int64_t step)
{
    auto gen = at::detail::createCPUGenerator(static_cast<uint64_t>(4321 + step));
    auto tokens = torch::randint(0, o.vocab, { o.batch, o.seq + 1 }, gen, torch::kLong);
    return { tokens.slice(1, 0, o.seq).contiguous(), tokens.slice(1, 1, o.seq + 1).contiguous() };
}

// One optimisation step; returns the loss.
inline torch::Tensor trainStep(TinyTransformer& model, torch::optim::Optimizer& optimizer, const Options& o,
    const torch::Tensor& input, const torch::Tensor& target)
{
    optimizer.zero_grad();
    auto logits = model->forward(input);
    auto loss = torch::nn::functional::cross_entropy(logits.view({ -1, o.vocab }), target.view({ -1 }));
    loss.backward();
    optimizer.step();
    return loss;
}

} // namespace tiny
