// SPDX-License-Identifier: Apache-2.0
// The libtorch capture library: config validation, L1/L0/mix dumps of C++ programs read back through core,
// statistics against independent computations, backward against torch::autograd::grad, tensor files,
// md5, filters, async dump, I/O failures and non-intrusiveness.
// libtorch headers before Qt's: Qt's "slots" macro breaks them.
#ifndef Q_MOC_RUN // moc needs nothing of libtorch, and parsing it cost moc 8 CPU-seconds per test
#include "../examples/tiny_transformer.h"
#include "capture/debugger.h"
#include "capture/dump_writer.h"
#include "capture/seed.h"
#include "capture/tensor_stats.h"

#include <caffe2/serialize/inline_container.h>
#include <torch/torch.h>
#endif
#include <zlib.h>

#include "dump/construct_stack.h"
#include "dump/tensor_file.h"
#include "graph/model/graph_builder.h"
#include "support/error.h"
#include "tst_capture_training.h"
#include "tst_capture_util.h"

#include <QTemporaryDir>

#include <atomic>
#include <cmath>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <future>
#include <set>
#include <thread>
#include <unistd.h>

using namespace msprobe;
using namespace msprobe::test;
namespace fs = std::filesystem;

namespace {

// "" when a .pt file has the layout Python's torch.load reads (python3-torch is not installed on the build
// machines, so the structure is checked instead): a zip archive whose records are {prefix}/data.pkl,
// {prefix}/version and one {prefix}/data/{key} storage, and a protocol-2 pickle that rebuilds the tensor with
// torch._utils._rebuild_tensor_v2 from a persistent ('storage', torch.BFloat16Storage, key, 'cpu', numel) id.
std::string torchLoadLayout(const fs::path& file)
{
    caffe2::serialize::PyTorchStreamReader reader(file.string());
    std::set<std::string> records;
    for (const auto& name : reader.getAllRecords())
        records.insert(name);
    if (!records.count("data.pkl") || !records.count("version") || !records.count("data/0"))
        return "records: missing data.pkl, version or data/0";
    auto [pickle, size] = reader.getRecord("data.pkl");
    const std::string text(static_cast<const char*>(pickle.get()), size);
    if (size < 2 || static_cast<unsigned char>(text[0]) != 0x80 || text[1] != 2)
        return "data.pkl is not a protocol-2 pickle";
    for (const char* marker : { "torch._utils\n_rebuild_tensor_v2\n", "torch\nBFloat16Storage\n", "storage", "cpu" })
        if (text.find(marker) == std::string::npos)
            return std::string("data.pkl lacks ") + marker;
    auto [storage, storageSize] = reader.getRecord("data/0");
    (void)storage;
    return storageSize == 15 * 2 ? std::string() : "storage of " + std::to_string(storageSize) + " bytes, expected 30";
}

struct SmallNetImpl : torch::nn::Module {
    SmallNetImpl()
    {
        fc1 = register_module("fc1", torch::nn::Linear(8, 16));
        fc2 = register_module("fc2", torch::nn::Linear(16, 4));
    }
    torch::Tensor forward(torch::Tensor x)
    {
        MSPROBE_MODULE_SCOPE(x);
        MSPROBE_RETURN(fc2(torch::relu(fc1(x))));
    }
    torch::nn::Linear fc1 { nullptr }, fc2 { nullptr };
};
TORCH_MODULE(SmallNet);

} // namespace

class TestCaptureDump : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { at::set_num_threads(1); }

    void configValidation()
    {
        auto expectError = [](const char* text, const char* key, const char* allowed) {
            try {
                capture::parseDumpConfig(text, "cfg.json");
            } catch (const support::Error& error) {
                const std::string what = error.what();
                return what.find("cfg.json") != std::string::npos && what.find(key) != std::string::npos
                    && what.find(allowed) != std::string::npos;
            }
            return false;
        };
        QVERIFY(expectError(kBadLevelConfig, "\"level\"", "\"L0\", \"L1\", \"mix\""));
        QVERIFY(expectError(kBadModeConfig, "statistics.data_mode", "\"all\" must be the only element"));
        QVERIFY(expectError(kBadSummaryConfig, "tensor.summary_mode", "\"statistics\", \"md5\""));
        QVERIFY(expectError(kBadScopeConfig, "statistics.scope", "API names"));
        QVERIFY(expectError(kBadFormatConfig, "tensor.file_format", "\"npy\", \"pt\""));
        QVERIFY(expectError(kBadSummaryConfig, "tensor.summary_mode", "\"xor\""));
        QVERIFY(expectError(kRequestIdConfig, "statistics.request_id", "not supported by the C++ capture"));
        QVERIFY(expectError(kBenchPathConfig, "tensor.bench_path", "not supported by the C++ capture"));
        QVERIFY(expectError(kBadSliceConfig, "statistics.slice", "\"dim\" cannot be negative"));
        QVERIFY(expectError(kBadRiskConfig, "risk_level", "\"FOCUS\", \"CORE\", \"ALL\""));
        const auto xorSlice = capture::parseDumpConfig(kXorSliceConfig, "xor.json");
        QVERIFY(xorSlice.summaryMode == capture::SummaryMode::Xor);
        QVERIFY(xorSlice.riskLevel == capture::RiskLevel::Core);
        QCOMPARE(xorSlice.slices.size(), std::size_t(2));
        QCOMPARE(xorSlice.slices[0].dim, std::int64_t(1));
        QCOMPARE(*xorSlice.slices[0].end, std::int64_t(4));
        QCOMPARE(*xorSlice.slices[0].size, std::int64_t(8));
        QVERIFY(!xorSlice.slices[1].end && !xorSlice.slices[1].size && xorSlice.slices[1].begin == -1);
        // Risk classification by bare API name; CORE keeps only the core set, FOCUS drops the low-risk set.
        QVERIFY(xorSlice.riskAllows("Aten.addmm.3.forward") && !xorSlice.riskAllows("Aten.gelu.0.backward"));
        const auto focus = captureConfig("/tmp/x", "statistics", "mix");
        QVERIFY(focus.riskLevel == capture::RiskLevel::Focus);
        QVERIFY(!focus.riskAllows("Aten.view.0.forward") && focus.riskAllows("Aten.gelu.0.forward"));
        QVERIFY(focus.riskAllows("Aten.linear.0.forward")); // the reference's missing comma leaves linear FOCUS
        const auto cfg = capture::parseDumpConfig(kRangesConfig, "ok.json");
        QCOMPARE(cfg.ranks, (std::vector<std::int64_t> { 0, 4, 5, 6 }));
        QCOMPARE(cfg.steps, (std::vector<std::int64_t> { 1, 2 }));
        QVERIFY(cfg.dataMode.forward && !cfg.dataMode.backward && cfg.dataMode.input && cfg.dataMode.output);
        QVERIFY(cfg.summaryMode == capture::SummaryMode::Md5);
        QVERIFY(cfg.level == capture::Level::Mix);
        QVERIFY(cfg.pastLastStep(3) && !cfg.pastLastStep(2) && !cfg.wantsStep(0));
    }

    void fusedStatistics()
    {
        torch::manual_seed(3);
        const auto t = torch::randn({ 3000 });
        const auto raw = capture::computeRawStats(t);
        QCOMPARE(raw.max, t.max().item<double>());
        QCOMPARE(raw.min, t.min().item<double>());
        QVERIFY(close(raw.norm(), t.to(torch::kDouble).norm().item<double>(), 1e-6));
        QVERIFY(close(raw.mean(), t.to(torch::kDouble).mean().item<double>(), 1e-4));
        const auto half = capture::computeRawStats(t.to(torch::kHalf));
        QCOMPARE(half.max, t.to(torch::kHalf).max().item<double>());
        const auto bf = capture::computeRawStats(t.to(torch::kBFloat16));
        QCOMPARE(bf.min, t.to(torch::kBFloat16).min().item<double>());
        const auto ints = capture::computeRawStats(torch::arange(-5, 7, torch::kInt));
        QCOMPARE(ints.imax, std::int64_t(6));
        QCOMPARE(ints.imin, std::int64_t(-5));
        QCOMPARE(ints.zeroCount, std::int64_t(1));
        auto bad = t.clone();
        bad[5] = std::numeric_limits<float>::infinity();
        bad[7] = std::nanf("");
        const auto badStats = capture::computeRawStats(bad);
        QCOMPARE(badStats.nanCount, std::int64_t(1));
        QCOMPARE(badStats.infCount, std::int64_t(1));
        QVERIFY(std::isnan(badStats.max));
        // Infinities alone (no NaN): counted, and max/min are them; the block with the +inf is the last one.
        auto infs = t.clone();
        infs[2999] = std::numeric_limits<float>::infinity();
        infs[10] = -std::numeric_limits<float>::infinity();
        const auto infStats = capture::computeRawStats(infs);
        QCOMPARE(infStats.infCount, std::int64_t(2));
        QCOMPARE(infStats.nanCount, std::int64_t(0));
        QVERIFY(std::isinf(infStats.max) && infStats.max > 0 && std::isinf(infStats.min) && infStats.min < 0);
        // The largest value in the ragged tail of a block (1031 = 32 lanes x 32 + 7), and zero counts on request.
        auto ragged = torch::randn({ 1031 });
        ragged[1030] = 100.f;
        ragged[3] = ragged[500] = ragged[1029] = 0.f;
        const auto raggedStats = capture::computeRawStats(ragged);
        QCOMPARE(raggedStats.max, 100.0);
        QCOMPARE(raggedStats.zeroCount, std::int64_t(3));
        QVERIFY(close(raggedStats.sum, ragged.to(torch::kDouble).sum().item<double>(), 1e-5));
        // Transposed and permuted tensors are read where they lie, strided slices through a copy: all give
        // the statistics of their contiguous copies.
        const auto grid = torch::randn({ 37, 64, 5 });
        for (const auto& view : { grid.permute({ 2, 0, 1 }), grid[3].t(), grid.slice(1, 0, 64, 3) }) {
            const auto a = capture::computeRawStats(view), b = capture::computeRawStats(view.contiguous());
            QCOMPARE(a.max, b.max);
            QCOMPARE(a.min, b.min);
            QCOMPARE(a.numel, b.numel);
            QVERIFY(close(a.sum, b.sum, 1e-5));
            QVERIFY(close(a.sumSquares, b.sumSquares, 1e-5));
            QCOMPARE(a.max, view.max().item<double>());
        }
        const auto dumpStats = capture::computeTensorStats(torch::tensor({ 1.5, -2.0 }, torch::kDouble));
        QCOMPARE(dumpStats.max.f, 1.5);
        QCOMPARE(dumpStats.mean.kind, dump::StatKind::Null); // float64: max/min only (reference HEAD)
        const auto scalar = capture::computeTensorStats(torch::tensor(7, torch::kLong));
        QCOMPARE(scalar.mean.i, std::int64_t(7));
    }

    void l1ForwardAndBackward()
    {
        QTemporaryDir tmp;
        const auto cfg = captureConfig(tmp.path().toStdString(), "statistics", "L1");
        torch::manual_seed(1);
        const auto x = torch::randn({ 4, 8 }, torch::requires_grad());
        const auto w = torch::randn({ 8, 3 }, torch::requires_grad());
        torch::Tensor h, y, loss;
        {
            PrecisionDebugger debugger(cfg);
            debugger.start();
            h = torch::mm(x, w);
            y = torch::relu(h);
            loss = (y * y).sum();
            loss.backward();
            debugger.stop();
            debugger.step();
        }
        const dump::DumpFile dump = dump::readDumpJson(rankDir(tmp.path().toStdString()) / "dump.json");
        QCOMPARE(dump.task, std::string("statistics"));
        QCOMPARE(dump.level, std::string("L1"));
        QVERIFY(findEntry(dump, "Aten.mm.0.forward") >= 0);
        QVERIFY(findEntry(dump, "Aten.relu.0.forward") >= 0);
        QVERIFY(findEntry(dump, "Aten.mul.0.forward") >= 0);
        QVERIFY(findEntry(dump, "Aten.sum.0.forward") >= 0);
        QVERIFY(findEntry(dump, "Aten.clamp_min.0.forward") < 0); // relu's interior is not dumped
        QCOMPARE(checkLeaf(dump, nodeAt(dump, "Aten.mm.0.forward", { "input_args", "0" }), x), std::string());
        QCOMPARE(checkLeaf(dump, nodeAt(dump, "Aten.mm.0.forward", { "input_args", "1" }), w), std::string());
        QCOMPARE(checkLeaf(dump, nodeAt(dump, "Aten.mm.0.forward", { "output", "0" }), h), std::string());
        QCOMPARE(checkLeaf(dump, nodeAt(dump, "Aten.relu.0.forward", { "output", "0" }), y), std::string());
        QCOMPARE(dump.tensors.requiresGrad[dump.nodes[nodeAt(dump, "Aten.mm.0.forward", { "output", "0" })].payload],
            std::int8_t(1));

        // Backward: input = grads of the op outputs, output = grads of its inputs, as torch::autograd::grad says.
        const auto x2 = x.detach().requires_grad_(), w2 = w.detach().requires_grad_();
        const auto h2 = torch::mm(x2, w2);
        const auto y2 = torch::relu(h2);
        const auto l2 = (y2 * y2).sum();
        const auto grads = torch::autograd::grad({ l2 }, { h2, y2, x2, w2 });
        QVERIFY(findEntry(dump, "Aten.mm.0.backward") >= 0);
        QCOMPARE(checkLeaf(dump, nodeAt(dump, "Aten.relu.0.backward", { "input", "0" }), grads[1]), std::string());
        QCOMPARE(checkLeaf(dump, nodeAt(dump, "Aten.relu.0.backward", { "output", "0" }), grads[0]), std::string());
        QCOMPARE(checkLeaf(dump, nodeAt(dump, "Aten.mm.0.backward", { "input", "0" }), grads[0]), std::string());
        QCOMPARE(checkLeaf(dump, nodeAt(dump, "Aten.mm.0.backward", { "output", "0" }), grads[2]), std::string());
        QCOMPARE(checkLeaf(dump, nodeAt(dump, "Aten.mm.0.backward", { "output", "1" }), grads[3]), std::string());
        // Backward entries follow autograd order: sum, mul, relu, mm.
        QVERIFY(findEntry(dump, "Aten.sum.0.backward") < findEntry(dump, "Aten.mm.0.backward"));
        // L1: construct.json is {}; stack.json names C++ frames of this test.
        const auto construct = dump::readConstructJson(rankDir(tmp.path().toStdString()) / "construct.json");
        QVERIFY(construct.nodes.empty());
        const auto stack = dump::readStackJson(rankDir(tmp.path().toStdString()) / "stack.json");
        const auto* frames = stack.framesOf("Aten.mm.0.forward");
        QVERIFY(frames && !frames->empty());
        QVERIFY2(frames->front().find("tst_capture_dump.cpp") != std::string::npos, frames->front().c_str());
        QVERIFY(frames->front().find("h = torch::mm(x, w);") != std::string::npos);
        QVERIFY(stack.framesOf("Aten.mm.0.backward") == nullptr);
    }

    void mixModulesAndConstruct()
    {
        QTemporaryDir tmp;
        const auto cfg = captureConfig(tmp.path().toStdString(), "statistics", "mix");
        tiny::TinyTransformer model(nullptr);
        trainTiny(1, &cfg, &model);
        const fs::path dir = rankDir(tmp.path().toStdString());
        const dump::DumpFile dump = dump::readDumpJson(dir / "dump.json");
        QCOMPARE(dump.level, std::string("mix"));
        for (const char* name : { "Module.blocks.0.Block.forward.0", "Module.blocks.1.attn.Attention.forward.0",
                 "Module.blocks.0.attn.q_proj.Linear.forward.0", "Module.tok_emb.Embedding.forward.0",
                 "Module.blocks.1.ln2.LayerNorm.forward.0", "Module.head.Linear.forward.0",
                 "Module.blocks.0.mlp.MLP.backward.0", "Module.head.Linear.backward.0",
                 "Module.head.Linear.parameters_grad.0", "Aten.gelu.1.forward", "Aten.gelu.1.backward",
                 "Aten.softmax.0.forward" })
            QVERIFY2(findEntry(dump, name) >= 0, name);
        QVERIFY(findEntry(dump, "Module.TinyTransformer.forward.0") < 0); // the root model is not dumped
        // Post-order: a module follows the ops it ran.
        QVERIFY(findEntry(dump, "Aten.gelu.0.forward") < findEntry(dump, "Module.blocks.0.mlp.MLP.forward.0"));
        // Kwarg-only schema arguments are input_kwargs, as Python's F.gelu(approximate=...).
        QVERIFY(nodeAt(dump, "Aten.gelu.0.forward", { "input_kwargs", "approximate" }) >= 0);

        const auto construct = dump::readConstructJson(dir / "construct.json");
        auto parentOf = [&](const char* name) {
            const auto* node = construct.find(name);
            return node ? node->parent.value_or("null") : std::string("absent");
        };
        QCOMPARE(parentOf("Module.blocks.0.Block.forward.0"), std::string("null"));
        QCOMPARE(parentOf("Module.blocks.0.attn.Attention.forward.0"), std::string("Module.blocks.0.Block.forward.0"));
        QCOMPARE(parentOf("Module.blocks.0.attn.q_proj.Linear.forward.0"),
            std::string("Module.blocks.0.attn.Attention.forward.0"));
        QCOMPARE(parentOf("Aten.softmax.0.forward"), std::string("Module.blocks.0.attn.Attention.forward.0"));
        QCOMPARE(parentOf("Aten.gelu.1.backward"), std::string("Module.blocks.1.mlp.MLP.backward.0"));
        QCOMPARE(parentOf("Module.blocks.1.mlp.MLP.backward.0"), std::string("Module.blocks.1.Block.backward.0"));

        // Module backward: grads wrt the module output and input; the attention block's output grad equals what
        // flows into out_proj's output.
        const auto attnIn = nodeAt(dump, "Module.blocks.0.attn.Attention.backward.0", { "input", "0" });
        const auto projIn = nodeAt(dump, "Module.blocks.0.attn.out_proj.Linear.backward.0", { "input", "0" });
        QVERIFY(attnIn >= 0 && projIn >= 0);
        QCOMPARE(dump.tensors.norm[dump.nodes[attnIn].payload].f, dump.tensors.norm[dump.nodes[projIn].payload].f);

        // parameters_grad equals the accumulated .grad (one backward, grads zeroed before it).
        QCOMPARE(checkLeaf(dump, nodeAt(dump, "Module.head.Linear.parameters_grad.0", { "weight", "0" }),
                     model->head->weight.grad()),
            std::string());
        // Module forward parameters are the values at forward time (before the optimizer step).
        QVERIFY(nodeAt(dump, "Module.head.Linear.forward.0", { "parameters", "bias" }) >= 0);
    }

    void optimizerScopeInConstruct()
    {
        // As the reference's optimizer hooks: an "optimizer" root in construct.json and every entry run inside
        // OptimizerStepScope under it; entries before and after keep their module parents.
        QTemporaryDir tmp;
        const auto cfg = captureConfig(tmp.path().toStdString(), "statistics", "mix");
        msprobe::seed_all(1234, true, false);
        const tiny::Options o = smallOptions();
        tiny::TinyTransformer model(o);
        torch::optim::Adam optimizer(model->parameters(), torch::optim::AdamOptions(1e-2));
        PrecisionDebugger debugger(cfg);
        auto [input, target] = tiny::makeBatch(o, 0);
        debugger.start(*model);
        optimizer.zero_grad();
        auto logits = model->forward(input);
        auto loss = torch::nn::functional::cross_entropy(logits.view({ -1, o.vocab }), target.view({ -1 }));
        loss.backward();
        {
            OptimizerStepScope scope(debugger);
            optimizer.step();
        }
        model->forward(input); // after the scope: module parents again
        debugger.stop();
        debugger.step();
        debugger.flush(); // the files are written by the writer thread

        const fs::path dir = rankDir(tmp.path().toStdString());
        const auto construct = dump::readConstructJson(dir / "construct.json");
        const auto* root = construct.find("optimizer");
        QVERIFY(root);
        QVERIFY(!root->parent);
        const dump::DumpFile dump = dump::readDumpJson(dir / "dump.json");
        std::size_t underOptimizer = 0, dumped = 0;
        for (const auto& node : construct.nodes)
            if (node.parent && *node.parent == "optimizer") {
                ++underOptimizer;
                QVERIFY2(node.name.starts_with("Aten."), node.name.c_str());
                dumped += findEntry(dump, node.name.c_str()) >= 0; // risk_level FOCUS leaves some out (zeros_like)
            }
        // Adam updates every parameter with several in-place ops, most of them dumped.
        const std::size_t parameters = model->parameters().size();
        QVERIFY2(underOptimizer >= 3 * parameters && dumped >= parameters,
            (std::to_string(underOptimizer) + " under optimizer, " + std::to_string(dumped) + " dumped").c_str());
        // The forward ops before and after the scope stay under their modules.
        auto parentOf = [&](const std::string& name) {
            const auto* node = construct.find(name);
            return node ? node->parent.value_or("null") : std::string("absent");
        };
        QCOMPARE(parentOf("Aten.softmax.0.forward"), std::string("Module.blocks.0.attn.Attention.forward.0"));
        QVERIFY(construct.find("Module.blocks.0.Block.forward.1"));
        QCOMPARE(parentOf("Module.blocks.0.Block.forward.1"), std::string("null"));
        QCOMPARE(parentOf("Module.blocks.0.attn.Attention.forward.1"), std::string("Module.blocks.0.Block.forward.1"));

        // The graph builds from this dump, the optimizer's ops included.
        const graph::Graph graph = graph::buildGraph(dir);
        for (const auto& node : construct.nodes)
            if (node.parent && *node.parent == "optimizer")
                QVERIFY2(graph.find(node.name) != graph::kNoNode, node.name.c_str());
    }

    void dumpIsNotIntrusive()
    {
        QTemporaryDir tmp;
        const auto cfg = captureConfig(tmp.path().toStdString(), "statistics", "mix");
        tiny::TinyTransformer plain(nullptr), dumped(nullptr);
        const auto a = trainTiny(2, nullptr, &plain);
        const auto b = trainTiny(2, &cfg, &dumped);
        QCOMPARE(a, b);
        const auto pa = plain->named_parameters(), pb = dumped->named_parameters();
        QCOMPARE(pa.size(), pb.size());
        for (std::size_t k = 0; k < pa.size(); ++k) {
            QVERIFY2(torch::equal(pa[k].value(), pb[k].value()), pa[k].key().c_str());
            QVERIFY2(torch::equal(pa[k].value().grad(), pb[k].value().grad()), pa[k].key().c_str());
        }
        QVERIFY(fs::exists(rankDir(tmp.path().toStdString(), 1) / "dump.json"));
    }

    void tensorFilesNpyAndPt()
    {
        for (const char* format : { "npy", "pt" }) {
            QTemporaryDir tmp;
            const auto cfg = captureConfig(
                tmp.path().toStdString(), "tensor", "L1", std::string("\"file_format\": \"") + format + "\"");
            torch::manual_seed(2);
            const auto x = torch::randn({ 3, 5 }).to(torch::kBFloat16);
            const auto i = torch::arange(6, torch::kLong).view({ 2, 3 });
            torch::Tensor y;
            {
                PrecisionDebugger debugger(cfg);
                debugger.start();
                y = torch::tanh(x.t());
                (void)torch::cumsum(i, 1);
                debugger.stop();
            }
            const fs::path dir = rankDir(tmp.path().toStdString());
            const dump::DumpFile dump = dump::readDumpJson(dir / "dump.json");
            QCOMPARE(dump.task, std::string("tensor"));
            QVERIFY(!dump.dumpDataDir.empty());
            const auto node = nodeAt(dump, "Aten.tanh.0.forward", { "output", "0" });
            QVERIFY2(node >= 0, entryNames(dump).c_str());
            const std::string dataName(dump.text(dump.tensors.dataName[dump.nodes[node].payload]));
            QCOMPARE(dataName, std::string("Aten.tanh.0.forward.output.0.") + format);
            const dump::TensorData data = dump::readTensorFile(dir / "dump_tensor_data" / dataName);
            QCOMPARE(data.shape, (std::vector<std::int64_t> { 5, 3 }));
            const auto expect = y.to(torch::kDouble).contiguous();
            for (std::int64_t k = 0; k < expect.numel(); ++k)
                QCOMPARE(data.values[static_cast<std::size_t>(k)], expect.data_ptr<double>()[k]);
            if (std::string(format) == "pt")
                QCOMPARE(torchLoadLayout(dir / "dump_tensor_data" / dataName), std::string());
            const auto intNode = nodeAt(dump, "Aten.cumsum.0.forward", { "input_args", "0" });
            const std::string intName(dump.text(dump.tensors.dataName[dump.nodes[intNode].payload]));
            const dump::TensorData ints = dump::readTensorFile(dir / "dump_tensor_data" / intName);
            QCOMPARE(ints.elementType, dump::ElementType::Int64);
            QCOMPARE(ints.values.back(), 5.0);
        }
    }

    void md5Mode()
    {
        QTemporaryDir tmp;
        const auto cfg = captureConfig(tmp.path().toStdString(), "statistics", "L1", "\"summary_mode\": \"md5\"");
        const auto x = torch::linspace(-1, 1, 10);
        torch::Tensor y;
        {
            PrecisionDebugger debugger(cfg);
            debugger.start();
            y = torch::exp(x);
            debugger.stop();
        }
        const dump::DumpFile dump = dump::readDumpJson(rankDir(tmp.path().toStdString()) / "dump.json");
        const auto node = nodeAt(dump, "Aten.exp.0.forward", { "output", "0" });
        const auto row = dump.nodes[node].payload;
        char expect[16];
        std::snprintf(expect, sizeof expect, "%08lx",
            crc32(crc32(0L, Z_NULL, 0), static_cast<const Bytef*>(y.data_ptr()), static_cast<uInt>(y.nbytes())));
        QCOMPARE(std::string(dump.text(dump.tensors.md5[row])), std::string(expect));
        QVERIFY(dump.tensors.max[row].kind == dump::StatKind::Float); // statistics are still written
    }

    // summary_mode xor: the XOR of the little-endian 64-bit words of the raw bytes (tail zero-padded), as
    // "0x%016x", with no statistics keys; slice narrows what is described; risk_level CORE keeps core APIs.
    void xorSliceAndRiskLevel()
    {
        QTemporaryDir tmp;
        auto cfg = capture::parseDumpConfig(kXorSliceConfig, "xor.json");
        cfg.dumpPath = tmp.path().toStdString();
        torch::manual_seed(5);
        const auto a = torch::randn({ 3, 8 }), b = torch::randn({ 8, 5 });
        torch::Tensor y;
        {
            PrecisionDebugger debugger(cfg);
            debugger.start();
            y = torch::mm(a, b);
            (void)torch::exp(y); // FOCUS, filtered out by CORE
            debugger.stop();
        }
        const dump::DumpFile dump = dump::readDumpJson(rankDir(tmp.path().toStdString()) / "dump.json");
        QVERIFY2(dump.entries.size() == 1, entryNames(dump).c_str());
        // Input 0 [3, 8]: dim 1 has size 8 -> columns 2..3, then the dim-0 rule -> the last row.
        const auto in = nodeAt(dump, "Aten.mm.0.forward", { "input_args", "0" });
        const auto row = dump.nodes[in].payload;
        const auto shape = dump.tensors.shape(row);
        QCOMPARE(std::vector<std::int64_t>(shape.begin(), shape.end()), (std::vector<std::int64_t> { 1, 2 }));
        const auto sliced = a.slice(0, -1).slice(1, 2, 4).contiguous();
        std::uint64_t words[1] = { 0 };
        std::memcpy(words, sliced.data_ptr(), 8); // 2 floats = one 64-bit word
        char expect[24];
        std::snprintf(expect, sizeof expect, "0x%016llx", static_cast<unsigned long long>(words[0]));
        QCOMPARE(std::string(dump.text(dump.tensors.md5[row])), std::string(expect));
        QVERIFY(dump.tensors.max[row].kind == dump::StatKind::Missing);
        QVERIFY(dump.tensors.norm[row].kind == dump::StatKind::Missing);
        // The output [3, 5] has no dimension of size 8: only the last row; 5 floats = 2.5 words, zero-padded.
        const auto out = dump.nodes[nodeAt(dump, "Aten.mm.0.forward", { "output", "0" })].payload;
        const auto lastRow = y.slice(0, -1).contiguous();
        std::uint64_t padded[3] = { 0, 0, 0 };
        std::memcpy(padded, lastRow.data_ptr(), 20);
        std::snprintf(
            expect, sizeof expect, "0x%016llx", static_cast<unsigned long long>(padded[0] ^ padded[1] ^ padded[2]));
        QCOMPARE(std::string(dump.text(dump.tensors.md5[out])), std::string(expect));
    }

    // Default risk_level FOCUS: low-risk APIs (view, transpose, ...) are not dumped, but keep their call
    // numbers and construct.json nodes; risk_level ALL dumps them.
    void riskLevelFocusByDefault()
    {
        QTemporaryDir focusDir, allDir;
        const auto focus = captureConfig(focusDir.path().toStdString(), "statistics", "mix");
        const auto all = captureConfig(allDir.path().toStdString(), "statistics", "mix", "", "\"risk_level\": \"ALL\"");
        trainTiny(1, &focus);
        trainTiny(1, &all);
        const dump::DumpFile df = dump::readDumpJson(rankDir(focusDir.path().toStdString()) / "dump.json");
        const dump::DumpFile da = dump::readDumpJson(rankDir(allDir.path().toStdString()) / "dump.json");
        QVERIFY(findEntry(da, "Aten.view.0.forward") >= 0);
        QVERIFY(findEntry(da, "Aten.transpose.0.backward") >= 0);
        QVERIFY(findEntry(df, "Aten.view.0.forward") < 0);
        QVERIFY(findEntry(df, "Aten.transpose.0.backward") < 0);
        QVERIFY(findEntry(df, "Aten.gelu.0.forward") >= 0);
        QVERIFY(df.entries.size() < da.entries.size());
        for (std::size_t k = 0; k < df.entries.size(); ++k)
            QVERIFY2(findEntry(da, df.entryName(k)) >= 0, std::string(df.entryName(k)).c_str());
        const auto construct = dump::readConstructJson(rankDir(focusDir.path().toStdString()) / "construct.json");
        QVERIFY(construct.find("Aten.view.0.forward") != nullptr);
        QVERIFY(construct.find("Aten.transpose.0.backward") != nullptr);
    }

    void filters()
    {
        QTemporaryDir tmp;
        const std::string root = tmp.path().toStdString();
        const auto cfg = captureConfig(root, "statistics", "L1",
            "\"list\": [\"relu\", \"Aten.exp.1\"], \"data_mode\": [\"forward\", \"output\"]", "\"step\": [1]");
        const auto x = torch::randn({ 6 }, torch::requires_grad());
        {
            PrecisionDebugger debugger(cfg);
            for (int step = 0; step < 3; ++step) {
                debugger.start();
                auto a = torch::relu(torch::exp(x));
                auto b = torch::exp(x);
                auto y = a + b;
                y.sum().backward();
                debugger.stop();
                debugger.step();
            }
        }
        QVERIFY(!fs::exists(fs::path(root) / "step0"));
        QVERIFY(!fs::exists(fs::path(root) / "step2"));
        const dump::DumpFile dump = dump::readDumpJson(rankDir(root, 1) / "dump.json");
        QVERIFY2(dump.entries.size() == 2, entryNames(dump).c_str());
        QCOMPARE(dump.entryName(0), std::string_view("Aten.relu.0.forward"));
        QCOMPARE(dump.entryName(1), std::string_view("Aten.exp.1.forward"));
        QVERIFY(nodeAt(dump, "Aten.relu.0.forward", { "input_args" }) < 0);
        QVERIFY(nodeAt(dump, "Aten.relu.0.forward", { "output", "0" }) >= 0);

        // scope: the range opens at the first name; the end op's input is dumped but not its output (reference quirk).
        QTemporaryDir tmp2;
        const auto scoped = captureConfig(tmp2.path().toStdString(), "statistics", "L1",
            "\"scope\": [\"Aten.exp.0.forward\", \"Aten.relu.0.forward\"], \"data_mode\": [\"forward\"]");
        {
            PrecisionDebugger debugger(scoped);
            debugger.start();
            auto y = torch::relu(torch::exp(torch::sin(x)));
            (void)torch::cos(y);
            debugger.stop();
        }
        const dump::DumpFile d2 = dump::readDumpJson(rankDir(tmp2.path().toStdString()) / "dump.json");
        QCOMPARE(d2.entries.size(), std::size_t(2));
        QVERIFY(nodeAt(d2, "Aten.exp.0.forward", { "output", "0" }) >= 0);
        QVERIFY(nodeAt(d2, "Aten.relu.0.forward", { "input_args", "0" }) >= 0);
        QVERIFY(nodeAt(d2, "Aten.relu.0.forward", { "output" }) < 0);
    }
};

QTEST_APPLESS_MAIN(TestCaptureDump)
#include "tst_capture_dump.moc"
