// SPDX-License-Identifier: Apache-2.0
// Module backward records in the cases where autograd's graph is rewritten after the module returned: a built-in
// Linear fed a 3-d input (its output is a view) whose output is then changed in place, and modules whose inputs
// get no gradient (an Embedding fed indices), written as Python msprobe writes them.
// libtorch headers before Qt's: Qt's "slots" macro breaks them.
#ifndef Q_MOC_RUN // moc needs nothing of libtorch
#include "capture/debugger.h"
#include "capture/module_scope.h"

#include <torch/torch.h>
#endif

#include "dump/construct_stack.h"
#include "tst_capture_util.h"

#include <QTemporaryDir>

using namespace msprobe;
using namespace msprobe::test;
namespace fs = std::filesystem;

namespace {

// "" when the tensor leaf at node holds t's shape, Max and Min (exact) and Norm (to float precision).
std::string checkGrad(const dump::DumpFile& dump, std::int64_t node, const torch::Tensor& tensor)
{
    if (node < 0)
        return "no such node";
    if (dump.nodes[static_cast<std::size_t>(node)].kind != dump::NodeKind::Tensor)
        return "not a tensor leaf";
    const auto row = dump.nodes[static_cast<std::size_t>(node)].payload;
    const auto shape = dump.tensors.shape(row);
    if (std::vector<std::int64_t>(shape.begin(), shape.end()) != tensor.sizes().vec())
        return "shape differs";
    const torch::Tensor d = tensor.detach().to(torch::kDouble);
    if (dump.tensors.max[row].asDouble() != d.max().item<double>() || dump.tensors.min[row].asDouble() != d.min().item<double>())
        return "max/min differ";
    const double norm = d.norm().item<double>();
    if (std::abs(dump.tensors.norm[row].asDouble() - norm) > 1e-5 * std::max(1.0, norm))
        return "norm " + std::to_string(dump.tensors.norm[row].asDouble()) + " vs " + std::to_string(norm);
    return {};
}

// A model whose built-in Linear's output is changed in place by its caller (as a residual scaling would).
struct InPlaceNetImpl : torch::nn::Module {
    InPlaceNetImpl() { fc = register_module("fc", torch::nn::Linear(3, 4)); }
    torch::Tensor forward(torch::Tensor x)
    {
        MSPROBE_MODULE_SCOPE(x);
        auto y = fc(x);
        y.mul_(3.0);
        MSPROBE_RETURN(y);
    }
    torch::nn::Linear fc { nullptr };
};
TORCH_MODULE(InPlaceNet);

// A module returning a view of a product it made (reshaped back to the input's batch dimensions), and a caller
// changing that output in place: autograd rewrites the base's history and drops the view's node.
struct ProjImpl : torch::nn::Module {
    ProjImpl() { weight = register_parameter("weight", torch::randn({ 4, 3 })); }
    torch::Tensor forward(torch::Tensor x)
    {
        MSPROBE_MODULE_SCOPE(x);
        const auto flat = torch::mm(x.reshape({ -1, 3 }), weight.t());
        MSPROBE_RETURN(flat.view({ x.size(0), x.size(1), 4 }));
    }
    torch::Tensor weight;
};
TORCH_MODULE(Proj);

struct ViewNetImpl : torch::nn::Module {
    ViewNetImpl() { proj = register_module("proj", Proj()); }
    torch::Tensor forward(torch::Tensor x)
    {
        MSPROBE_MODULE_SCOPE(x);
        auto y = proj(x);
        y.mul_(3.0);
        MSPROBE_RETURN(y);
    }
    Proj proj { nullptr };
};
TORCH_MODULE(ViewNet);

std::string backwardOf(const dump::DumpFile& dump, std::string_view modulePrefix)
{
    for (std::size_t i = 0; i < dump.entries.size(); ++i) {
        const std::string_view name = dump.entryName(i);
        if (name.starts_with(modulePrefix) && name.ends_with(".backward.0"))
            return std::string(name);
    }
    return {};
}

struct EmbedNetImpl : torch::nn::Module {
    EmbedNetImpl() { emb = register_module("emb", torch::nn::Embedding(10, 4)); }
    torch::Tensor forward(torch::Tensor ids)
    {
        MSPROBE_MODULE_SCOPE(ids);
        MSPROBE_RETURN(emb(ids) * 2.0);
    }
    torch::nn::Embedding emb { nullptr };
};
TORCH_MODULE(EmbedNet);

} // namespace

class TestCaptureBackward : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { at::set_num_threads(1); }

    void linearOutputChangedInPlaceKeepsItsModuleBackward_data()
    {
        QTest::addColumn<bool>("threeDimensional");
        QTest::newRow("3-d input") << true;
        QTest::newRow("2-d input") << false;
    }

    void linearOutputChangedInPlaceKeepsItsModuleBackward()
    {
        QFETCH(bool, threeDimensional);
        QTemporaryDir tmp;
        const auto cfg = captureConfig(tmp.path().toStdString(), "statistics", "mix");
        torch::manual_seed(3);
        InPlaceNet model;
        const auto x = threeDimensional ? torch::randn({ 2, 5, 3 }, torch::requires_grad()) : torch::randn({ 5, 3 }, torch::requires_grad());
        const auto seed = threeDimensional ? torch::randn({ 2, 5, 4 }) : torch::randn({ 5, 4 });
        {
            PrecisionDebugger debugger(cfg);
            debugger.start(*model);
            (model(x) * seed).sum().backward();
            debugger.stop();
            debugger.step();
        }
        const fs::path dir = rankDir(tmp.path().toStdString());
        const dump::DumpFile dump = dump::readDumpJson(dir / "dump.json");
        const char* backward = "Module.fc.Linear.backward.0";
        QVERIFY2(findEntry(dump, backward) >= 0, entryNames(dump).c_str());
        // input: the gradient of the Linear's output (before the caller's mul_: 3 * seed); output: of its input.
        QCOMPARE(checkGrad(dump, nodeAt(dump, backward, { "input", "0" }), seed * 3.0), std::string());
        QCOMPARE(checkGrad(dump, nodeAt(dump, backward, { "output", "0" }), x.grad()), std::string());
        const auto construct = dump::readConstructJson(dir / "construct.json");
        const auto* node = construct.find(backward);
        QVERIFY(node);
        QCOMPARE(node->parent.value_or("null"), std::string("null"));
    }

    void viewOutputChangedInPlaceKeepsItsModuleBackward()
    {
        QTemporaryDir tmp;
        const auto cfg = captureConfig(tmp.path().toStdString(), "statistics", "mix");
        torch::manual_seed(5);
        ViewNet model;
        const auto x = torch::randn({ 2, 5, 3 }, torch::requires_grad());
        const auto seed = torch::randn({ 2, 5, 4 });
        {
            PrecisionDebugger debugger(cfg);
            debugger.start(*model);
            (model(x) * seed).sum().backward();
            debugger.stop();
            debugger.step();
        }
        const dump::DumpFile dump = dump::readDumpJson(rankDir(tmp.path().toStdString()) / "dump.json");
        const std::string backward = backwardOf(dump, "Module.proj.");
        QVERIFY2(!backward.empty(), entryNames(dump).c_str());
        // The gradient of the module's own output (before the caller's mul_), though the view's node never ran.
        QCOMPARE(checkGrad(dump, nodeAt(dump, backward, { "input", "0" }), seed * 3.0), std::string());
        QCOMPARE(checkGrad(dump, nodeAt(dump, backward, { "output", "0" }), x.grad()), std::string());
    }

    void moduleBackwardListsOnlyTheGradientsThatFlowed()
    {
        // Python msprobe writes an Embedding fed indices as "output": [] (no gradient reaches the indices).
        QTemporaryDir tmp;
        const auto cfg = captureConfig(tmp.path().toStdString(), "statistics", "mix");
        torch::manual_seed(4);
        EmbedNet model;
        const auto ids = torch::tensor({ 1, 7, 3 }, torch::kLong);
        {
            PrecisionDebugger debugger(cfg);
            debugger.start(*model);
            model(ids).sum().backward();
            debugger.stop();
            debugger.step();
        }
        const dump::DumpFile dump = dump::readDumpJson(rankDir(tmp.path().toStdString()) / "dump.json");
        const char* backward = "Module.emb.Embedding.backward.0";
        QVERIFY2(findEntry(dump, backward) >= 0, entryNames(dump).c_str());
        const auto output = nodeAt(dump, backward, { "output" });
        QVERIFY(output >= 0);
        QCOMPARE(dump.nodes[static_cast<std::size_t>(output)].kind, dump::NodeKind::List);
        QCOMPARE(dump.children(static_cast<std::uint32_t>(output)).size(), std::size_t(0));
        QCOMPARE(checkGrad(dump, nodeAt(dump, backward, { "input", "0" }), torch::full({ 3, 4 }, 2.0)), std::string());
    }
};

QTEST_GUILESS_MAIN(TestCaptureBackward)
#include "tst_capture_backward.moc"
