// SPDX-License-Identifier: Apache-2.0
#include "dump_generator.h"

#include "generator_engine.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <stdexcept>

namespace msprobe::bench {

using namespace detail;

namespace {

// Call sites: the line inside some forward() where an API or a sub-module is called.
enum SiteId : int {
    kEmbedCall, kEmbeddingFn, kArange, kOnes, kTriu, kRotaryCall, kCos, kSin, kLayerCall,
    kInputNormCall, kPostNormCall, kFinalNormCall, kNormTo, kNormPow, kNormMean, kNormAddEps, kNormRsqrt,
    kNormMul, kNormWeightMul, kAttnCall, kQCall, kKCall, kVCall, kOCall, kLinearFn, kRotHalf1, kRotHalf2,
    kRotNeg, kRotCat, kRotMulCos, kRotMulSin, kRotAdd, kSdpa, kAllReduce, kResidualAdd1, kResidualAdd2,
    kMlpCall, kGateCall, kUpCall, kDownCall, kActCall, kSiluFn, kMlpMul, kLmHeadCall, kCrossEntropy,
    kSiteCount
};

struct SiteText {
    SiteId id;
    const char* file;
    int line;
    const char* function;
    const char* code;
};

constexpr const char* kModel = "/home/user/llama/modeling_llama.py";
constexpr const char* kTorchNn = "/usr/lib/python3/dist-packages/torch/nn/modules/";

const SiteText kSites[] = {
    { kEmbedCall, kModel, 571, "forward", "inputs_embeds = self.embed_tokens(input_ids)" },
    { kEmbeddingFn, "sparse.py", 190, "forward", "return F.embedding(" },
    { kArange, kModel, 575, "forward", "cache_position = torch.arange(" },
    { kOnes, kModel, 640, "_update_causal_mask", "mask = torch.ones(seq_len, seq_len, dtype=torch.bool, device=device)" },
    { kTriu, kModel, 641, "_update_causal_mask", "causal_mask = torch.triu(mask, diagonal=1)" },
    { kRotaryCall, kModel, 586, "forward", "position_embeddings = self.rotary_emb(hidden_states, position_ids)" },
    { kCos, kModel, 118, "forward", "cos = emb.cos() * self.attention_scaling" },
    { kSin, kModel, 119, "forward", "sin = emb.sin() * self.attention_scaling" },
    { kLayerCall, kModel, 601, "forward", "layer_outputs = decoder_layer(" },
    { kInputNormCall, kModel, 330, "forward", "hidden_states = self.input_layernorm(hidden_states)" },
    { kPostNormCall, kModel, 346, "forward", "hidden_states = self.post_attention_layernorm(hidden_states)" },
    { kFinalNormCall, kModel, 625, "forward", "hidden_states = self.norm(hidden_states)" },
    { kNormTo, kModel, 72, "forward", "hidden_states = hidden_states.to(torch.float32)" },
    { kNormPow, kModel, 73, "forward", "variance = hidden_states.pow(2).mean(-1, keepdim=True)" },
    { kNormMean, kModel, 73, "forward", "variance = hidden_states.pow(2).mean(-1, keepdim=True)" },
    { kNormAddEps, kModel, 74, "forward", "hidden_states = hidden_states * torch.rsqrt(variance + self.variance_epsilon)" },
    { kNormRsqrt, kModel, 74, "forward", "hidden_states = hidden_states * torch.rsqrt(variance + self.variance_epsilon)" },
    { kNormMul, kModel, 74, "forward", "hidden_states = hidden_states * torch.rsqrt(variance + self.variance_epsilon)" },
    { kNormWeightMul, kModel, 75, "forward", "return self.weight * hidden_states.to(input_dtype)" },
    { kAttnCall, kModel, 333, "forward", "hidden_states, self_attn_weights = self.self_attn(" },
    { kQCall, kModel, 268, "forward", "query_states = self.q_proj(hidden_states).view(hidden_shape).transpose(1, 2)" },
    { kKCall, kModel, 269, "forward", "key_states = self.k_proj(hidden_states).view(hidden_shape).transpose(1, 2)" },
    { kVCall, kModel, 270, "forward", "value_states = self.v_proj(hidden_states).view(hidden_shape).transpose(1, 2)" },
    { kOCall, kModel, 301, "forward", "attn_output = self.o_proj(attn_output)" },
    { kLinearFn, "linear.py", 125, "forward", "return F.linear(input, self.weight, self.bias)" },
    { kRotHalf1, kModel, 131, "rotate_half", "x1 = x[..., : x.shape[-1] // 2]" },
    { kRotHalf2, kModel, 132, "rotate_half", "x2 = x[..., x.shape[-1] // 2 :]" },
    { kRotNeg, kModel, 133, "rotate_half", "return torch.cat((-x2, x1), dim=-1)" },
    { kRotCat, kModel, 133, "rotate_half", "return torch.cat((-x2, x1), dim=-1)" },
    { kRotMulCos, kModel, 158, "apply_rotary_pos_emb", "q_embed = (q * cos) + (rotate_half(q) * sin)" },
    { kRotMulSin, kModel, 158, "apply_rotary_pos_emb", "q_embed = (q * cos) + (rotate_half(q) * sin)" },
    { kRotAdd, kModel, 158, "apply_rotary_pos_emb", "q_embed = (q * cos) + (rotate_half(q) * sin)" },
    { kSdpa, kModel, 290, "forward", "attn_output = torch.nn.functional.scaled_dot_product_attention(" },
    { kAllReduce, "/home/user/llama/parallel.py", 41, "forward", "torch.distributed.all_reduce(output, group=self.group)" },
    { kResidualAdd1, kModel, 340, "forward", "hidden_states = residual + hidden_states" },
    { kResidualAdd2, kModel, 348, "forward", "hidden_states = residual + hidden_states" },
    { kMlpCall, kModel, 347, "forward", "hidden_states = self.mlp(hidden_states)" },
    { kGateCall, kModel, 189, "forward", "down_proj = self.down_proj(self.act_fn(self.gate_proj(x)) * self.up_proj(x))" },
    { kUpCall, kModel, 189, "forward", "down_proj = self.down_proj(self.act_fn(self.gate_proj(x)) * self.up_proj(x))" },
    { kDownCall, kModel, 189, "forward", "down_proj = self.down_proj(self.act_fn(self.gate_proj(x)) * self.up_proj(x))" },
    { kActCall, kModel, 189, "forward", "down_proj = self.down_proj(self.act_fn(self.gate_proj(x)) * self.up_proj(x))" },
    { kSiluFn, "activation.py", 432, "forward", "return F.silu(input, inplace=self.inplace)" },
    { kMlpMul, kModel, 189, "forward", "down_proj = self.down_proj(self.act_fn(self.gate_proj(x)) * self.up_proj(x))" },
    { kLmHeadCall, kModel, 842, "forward", "logits = self.lm_head(hidden_states[:, slice_indices, :])" },
    { kCrossEntropy, "/home/user/llama/loss_utils.py", 36, "fixed_cross_entropy", "loss = nn.functional.cross_entropy(source, target, ignore_index=ignore_index, reduction=reduction)" },
};
static_assert(sizeof kSites / sizeof kSites[0] == kSiteCount);

std::vector<std::string> siteFrames()
{
    std::vector<std::string> frames(kSiteCount);
    for (const SiteText& site : kSites) {
        std::string file = site.file[0] == '/' ? site.file : std::string(kTorchNn) + site.file;
        frames[site.id] = "File " + file + ", line " + std::to_string(site.line) + ", in " + site.function + ", \n " + site.code;
    }
    return frames;
}

std::vector<std::string> outerFrames()
{
    return {
        "File /home/user/llama/modeling_llama.py, line 821, in forward, \n outputs: BaseModelOutputWithPast = self.model(",
        "File /usr/lib/python3/dist-packages/torch/nn/modules/module.py, line 1750, in _call_impl, \n return forward_call(*args, **kwargs)",
        "File /home/user/llama/train.py, line 88, in train_step, \n loss = model(input_ids=batch[\"input_ids\"], labels=batch[\"labels\"]).loss",
        "File /home/user/llama/train.py, line 131, in main, \n train_step(model, batch, optimizer)",
        "File /home/user/llama/train.py, line 150, in <module>, \n main()",
    };
}

Tensor reshaped(Tensor t, const Shape& shape)
{
    t.shape = shape;
    return t;
}

// One micro-batch of a LLaMA-style decoder (HF transformers naming) as seen by msprobe's "mix" hooks.
class LlamaStep {
public:
    LlamaStep(Engine& engine, const GeneratorOptions& options)
        : m_e(engine)
        , m_options(options)
    {
    }

    void forward()
    {
        const Tensor ids = m_e.intTensor({ kBatch, kSeq }, 1, kVocab - 1);
        m_e.beginModule("model.embed_tokens", "Embedding", kEmbedCall, { Arg::of(ids) });
        const Tensor& table = m_e.parameter("model.embed_tokens.weight", { kVocab, kHidden }, 1.0);
        Tensor h = m_e.api("Functional", "embedding", kEmbeddingFn,
            { Arg::of(ids), Arg::of(table), Arg::null(), Arg::null(), Arg::real(2.0), Arg::boolean(false), Arg::boolean(false) },
            {}, { Arg::of(m_e.floatTensor({ kBatch, kSeq, kHidden }, 1.0, true)) });
        m_e.endModule({ Arg::of(h) }, { { "weight", "model.embed_tokens.weight" } });

        Tensor positions = m_e.intTensor({ kSeq }, 0, kSeq - 1);
        positions.max = kSeq - 1;
        positions.min = 0;
        m_e.api("Torch", "arange", kArange, { Arg::integer(0), Arg::integer(kSeq) },
            { { "device", Arg::typed("torch.device", "cuda:0") } }, { Arg::of(positions) }, false);
        const Tensor ones = m_e.api("Torch", "ones", kOnes, { Arg::integer(kSeq), Arg::integer(kSeq) },
            { { "dtype", Arg::typed("torch.dtype", "torch.bool") }, { "device", Arg::typed("torch.device", "cuda:0") } },
            { Arg::of(m_e.boolTensor({ kSeq, kSeq }, true, true)) }, false);
        m_e.api("Torch", "triu", kTriu, { Arg::of(ones) }, { { "diagonal", Arg::integer(1) } },
            { Arg::of(m_e.boolTensor({ kSeq, kSeq }, true, false)) }, false);

        m_e.beginModule("model.rotary_emb", "LlamaRotaryEmbedding", kRotaryCall, { Arg::of(h), Arg::of(positions) });
        const Tensor freqs = m_e.floatTensor({ 1, kSeq, kHeadDim }, 1000.0, false);
        m_cos = m_e.api("Tensor", "cos", kCos, { Arg::of(freqs) }, {}, { Arg::of(m_e.floatTensor(freqs.shape, 0.25, false)) }, false);
        m_sin = m_e.api("Tensor", "sin", kSin, { Arg::of(freqs) }, {}, { Arg::of(m_e.floatTensor(freqs.shape, 0.25, false)) }, false);
        m_e.endModule({ Arg::of(m_cos), Arg::of(m_sin) }, {});

        for (int layer = 0; layer < m_options.layers; ++layer)
            h = decoderLayer(layer, h, positions);

        h = rmsNorm("model.norm", kFinalNormCall, h);
        const Tensor logits = linear("lm_head", kLmHeadCall, h, kVocab);
        m_e.hiddenApi("Tensor", "float");
        m_e.hiddenApi("Tensor", "view");
        const Tensor labels = m_e.intTensor({ kBatch * kSeq }, -100, kVocab - 1);
        m_e.api("Functional", "cross_entropy", kCrossEntropy,
            { Arg::of(reshaped(logits, { kBatch * kSeq, kVocab })), Arg::of(labels) },
            { { "ignore_index", Arg::integer(-100) }, { "reduction", Arg::str("mean") } },
            { Arg::of(m_e.zeroDim(10.3 + m_e.rng().uniform(), true)) });
    }

private:
    static constexpr std::int64_t kBatch = 2, kSeq = 4096, kHidden = 4096, kHeads = 32, kHeadDim = 128;
    static constexpr std::int64_t kInter = 11008, kVocab = 32000;

    Tensor decoderLayer(int layer, const Tensor& h, const Tensor& positions)
    {
        const std::string path = "model.layers." + std::to_string(layer);
        m_e.beginModule(path, "LlamaDecoderLayer", kLayerCall, { Arg::of(h) });
        const Tensor normed = rmsNorm(path + ".input_layernorm", kInputNormCall, h);
        const Tensor attn = attention(path + ".self_attn", normed, positions);
        const Tensor h1 = m_e.api("Tensor", "__add__", kResidualAdd1, { Arg::of(h), Arg::of(attn) }, {}, { Arg::of(m_e.like(h)) });
        const Tensor normed2 = rmsNorm(path + ".post_attention_layernorm", kPostNormCall, h1);
        const Tensor mlpOut = mlp(path + ".mlp", normed2);
        const Tensor h2 = m_e.api("Tensor", "__add__", kResidualAdd2, { Arg::of(h1), Arg::of(mlpOut) }, {}, { Arg::of(m_e.like(h1)) });
        m_e.endModule({ Arg::of(h2) }, {});
        return h2;
    }

    Tensor rmsNorm(const std::string& path, int site, const Tensor& x)
    {
        m_e.beginModule(path, "LlamaRMSNorm", site, { Arg::of(x) });
        const Tensor x32 = m_e.api("Tensor", "to", kNormTo, { Arg::of(x), Arg::emptyObject() }, {}, { Arg::of(m_e.like(x)) });
        const Tensor squared = m_e.api("Tensor", "pow", kNormPow, { Arg::of(x32), Arg::integer(2) }, {},
            { Arg::of(m_e.floatTensor(x.shape, 1.0, true)) });
        Shape reduced = x.shape;
        reduced.dims[reduced.rank - 1] = 1;
        const Tensor variance = m_e.api("Tensor", "mean", kNormMean, { Arg::of(squared), Arg::integer(-1) },
            { { "keepdim", Arg::boolean(true) } }, { Arg::of(m_e.floatTensor(reduced, 1.0, true)) });
        const Tensor shifted = m_e.api("Tensor", "__add__", kNormAddEps, { Arg::of(variance), Arg::real(1e-06) }, {},
            { Arg::of(m_e.like(variance)) });
        const Tensor inverse = m_e.api("Torch", "rsqrt", kNormRsqrt, { Arg::of(shifted) }, {}, { Arg::of(m_e.like(shifted)) });
        const Tensor scaled = m_e.api("Tensor", "__mul__", kNormMul, { Arg::of(x32), Arg::of(inverse) }, {},
            { Arg::of(m_e.floatTensor(x.shape, 1.0, true)) });
        const std::string key = path + ".weight";
        const Tensor& weight = m_e.parameter(key, { kHidden }, 0.02, 1.0);
        const Tensor out = m_e.api("Tensor", "__mul__", kNormWeightMul, { Arg::of(weight), Arg::of(scaled) }, {},
            { Arg::of(m_e.like(scaled)) });
        m_e.endModule({ Arg::of(out) }, { { "weight", key } });
        return out;
    }

    Tensor linear(const std::string& path, int site, const Tensor& x, std::int64_t outFeatures)
    {
        m_e.beginModule(path, "Linear", site, { Arg::of(x) });
        const std::string key = path + ".weight";
        const Tensor& weight = m_e.parameter(key, { outFeatures, x.shape.dims[x.shape.rank - 1] }, 0.02);
        Shape outShape = x.shape;
        outShape.dims[outShape.rank - 1] = outFeatures;
        const Tensor y = m_e.api("Functional", "linear", kLinearFn, { Arg::of(x), Arg::of(weight), Arg::null() }, {},
            { Arg::of(m_e.floatTensor(outShape, 0.5, true)) });
        m_e.endModule({ Arg::of(y) }, { { "weight", key } });
        return y;
    }

    Tensor attention(const std::string& path, const Tensor& x, const Tensor& positions)
    {
        m_e.beginModule(path, "LlamaAttention", kAttnCall, { Arg::of(x), Arg::of(positions) });
        const Shape heads { kBatch, kHeads, kSeq, kHeadDim };
        Tensor q = reshaped(linear(path + ".q_proj", kQCall, x, kHidden), heads);
        m_e.hiddenApi("Tensor", "view");
        m_e.hiddenApi("Tensor", "transpose");
        Tensor k = reshaped(linear(path + ".k_proj", kKCall, x, kHidden), heads);
        m_e.hiddenApi("Tensor", "view");
        m_e.hiddenApi("Tensor", "transpose");
        const Tensor v = reshaped(linear(path + ".v_proj", kVCall, x, kHidden), heads);
        m_e.hiddenApi("Tensor", "view");
        m_e.hiddenApi("Tensor", "transpose");
        q = rotary(q);
        k = rotary(k);
        const Tensor attn = m_e.api("Functional", "scaled_dot_product_attention", kSdpa, { Arg::of(q), Arg::of(k), Arg::of(v) },
            { { "attn_mask", Arg::null() }, { "dropout_p", Arg::real(0.0) }, { "scale", Arg::real(0.08838834764831845) },
              { "is_causal", Arg::boolean(true) } },
            { Arg::of(m_e.like(v)) });
        m_e.hiddenApi("Tensor", "transpose");
        m_e.hiddenApi("Tensor", "reshape");
        Tensor out = linear(path + ".o_proj", kOCall, reshaped(attn, { kBatch, kSeq, kHidden }), kHidden);
        out = allReduce(out);
        m_e.endModule({ Arg::of(out), Arg::null() }, {});
        return out;
    }

    Tensor rotary(const Tensor& x)
    {
        Shape half = x.shape;
        half.dims[3] = kHeadDim / 2;
        const Tensor x1 = m_e.api("Tensor", "__getitem__", kRotHalf1,
            { Arg::of(x), Arg::list({ Arg::ellipsis(), Arg::sliceOf(Arg::kNone, kHeadDim / 2, Arg::kNone) }) }, {},
            { Arg::of(m_e.floatTensor(half, 0.5, true)) });
        const Tensor x2 = m_e.api("Tensor", "__getitem__", kRotHalf2,
            { Arg::of(x), Arg::list({ Arg::ellipsis(), Arg::sliceOf(kHeadDim / 2, Arg::kNone, Arg::kNone) }) }, {},
            { Arg::of(m_e.floatTensor(half, 0.5, true)) });
        Tensor negated = x2;
        std::swap(negated.max, negated.min);
        negated.max = -negated.max;
        negated.min = -negated.min;
        negated.mean = -negated.mean;
        negated = m_e.api("Tensor", "__neg__", kRotNeg, { Arg::of(x2) }, {}, { Arg::of(negated) });
        const Tensor rotated = m_e.api("Torch", "cat", kRotCat, { Arg::list({ Arg::of(negated), Arg::of(x1) }) },
            { { "dim", Arg::integer(-1) } }, { Arg::of(m_e.like(x)) });
        const Tensor a = m_e.api("Tensor", "__mul__", kRotMulCos, { Arg::of(x), Arg::of(m_cos) }, {}, { Arg::of(m_e.like(x)) });
        const Tensor b = m_e.api("Tensor", "__mul__", kRotMulSin, { Arg::of(rotated), Arg::of(m_sin) }, {}, { Arg::of(m_e.like(x)) });
        return m_e.api("Tensor", "__add__", kRotAdd, { Arg::of(a), Arg::of(b) }, {}, { Arg::of(m_e.like(x)) });
    }

    Tensor mlp(const std::string& path, const Tensor& x)
    {
        m_e.beginModule(path, "LlamaMLP", kMlpCall, { Arg::of(x) });
        const Tensor gate = linear(path + ".gate_proj", kGateCall, x, kInter);
        m_e.beginModule(path + ".act_fn", "SiLU", kActCall, { Arg::of(gate) });
        const Tensor act = m_e.api("Functional", "silu", kSiluFn, { Arg::of(gate) }, { { "inplace", Arg::boolean(false) } },
            { Arg::of(m_e.like(gate, 0.6)) });
        m_e.endModule({ Arg::of(act) }, {});
        const Tensor up = linear(path + ".up_proj", kUpCall, x, kInter);
        const Tensor product = m_e.api("Tensor", "__mul__", kMlpMul, { Arg::of(act), Arg::of(up) }, {}, { Arg::of(m_e.like(up, 0.5)) });
        Tensor down = linear(path + ".down_proj", kDownCall, product, kHidden);
        down = allReduce(down);
        m_e.endModule({ Arg::of(down) }, {});
        return down;
    }

    // Tensor parallelism: an in-place all_reduce whose output repeats the args and kwargs values.
    Tensor allReduce(const Tensor& x)
    {
        if (m_options.worldSize <= 1)
            return x;
        const Tensor reduced = m_e.like(x);
        m_e.api("Distributed", "all_reduce", kAllReduce, { Arg::of(x) }, { { "group", Arg::group() } },
            { Arg::of(reduced), Arg::group() }, false);
        return reduced;
    }

    Engine& m_e;
    const GeneratorOptions& m_options;
    Tensor m_cos, m_sin;
};

struct FileCloser {
    void operator()(std::FILE* f) const { std::fclose(f); }
};
using File = std::unique_ptr<std::FILE, FileCloser>;

File openForWriting(const std::filesystem::path& path)
{
    File file(std::fopen(path.c_str(), "wb"));
    if (!file)
        throw std::runtime_error(path.string() + ": cannot create: " + std::strerror(errno));
    return file;
}

TextSink fileSink(std::FILE* file, const std::filesystem::path& path)
{
    return [file, path](std::string_view text) {
        if (std::fwrite(text.data(), 1, text.size(), file) != text.size())
            throw std::runtime_error(path.string() + ": write error: " + std::strerror(errno));
    };
}

} // namespace

GeneratedStats generateDump(const GeneratorOptions& options, const TextSink& dump, const TextSink& construct, const TextSink& stack)
{
    Engine engine(options, dump, construct, stack);
    engine.setSites(siteFrames(), outerFrames());
    LlamaStep model(engine, options);
    const bool targeted = options.targetBytes > 0 || options.targetEntries > 0;
    try {
        for (int batch = 0; targeted || batch < std::max(1, options.microBatches); ++batch) {
            model.forward();
            engine.backward();
        }
        engine.optimizerStep(1e-4);
    } catch (const StopGeneration&) {
    }
    return engine.finish();
}

std::string generateDumpJson(const GeneratorOptions& options, GeneratedStats* stats)
{
    std::string text;
    if (options.targetBytes)
        text.reserve(options.targetBytes + (4u << 20));
    const GeneratedStats result = generateDump(options, [&text](std::string_view piece) { text.append(piece); });
    if (stats)
        *stats = result;
    return text;
}

GeneratedStats writeDumpFolder(const std::filesystem::path& dir, const GeneratorOptions& options)
{
    std::filesystem::create_directories(dir);
    const auto dumpPath = dir / "dump.json", constructPath = dir / "construct.json", stackPath = dir / "stack.json";
    File dump = openForWriting(dumpPath), construct = openForWriting(constructPath), stack = openForWriting(stackPath);
    const GeneratedStats stats = generateDump(options, fileSink(dump.get(), dumpPath), fileSink(construct.get(), constructPath),
        fileSink(stack.get(), stackPath));
    const std::pair<File*, const std::filesystem::path*> files[] = { { &dump, &dumpPath }, { &construct, &constructPath },
        { &stack, &stackPath } };
    for (const auto& [file, path] : files) {
        if (std::fclose(file->release()) != 0)
            throw std::runtime_error(path->string() + ": write error: " + std::strerror(errno));
    }
    return stats;
}

GeneratorOptions withoutFaults(GeneratorOptions options)
{
    options.perturb = 0.0;
    options.divergeAt = -1;
    options.nanRate = 0.0;
    options.nanAt = -1;
    return options;
}

} // namespace msprobe::bench
