// SPDX-License-Identifier: Apache-2.0
// The graph model: building from construct.json (hierarchy fix-ups, collections, gradients, stacks,
// recompute, micro steps), bad inputs, matching (default, fuzzy, layer mapping, by hand) and overflow levels.
#include "tst_graph_inputs.h"

#include "graph/model/graph_builder.h"
#include "graph/match/graph_compare.h"
#include "dump/construct_stack.h"
#include "graph/match/graph_match.h"
#include "graph/model/graph_passes.h"
#include "graph/model/graph_recompute.h"
#include "graph/graph_run.h"
#include "graph/match/layer_mapping.h"
#include "graph/merge/parallel_merge.h"
#include "support/error.h"

#include <QTemporaryDir>

using namespace msprobe;
using namespace msprobe::test;
using namespace msprobe::graph;
namespace fs = std::filesystem;

namespace {

std::vector<std::string> childIds(const Graph& g, std::string_view id)
{
    std::vector<std::string> out;
    const auto n = id.empty() ? Graph::root() : g.find(id);
    if (n == kNoNode)
        return out;
    for (auto c : g.node(n).children)
        out.emplace_back(g.node(c).id);
    return out;
}

std::string parentId(const Graph& g, std::string_view id)
{
    const auto n = g.find(id);
    if (n == kNoNode || g.node(n).parent == kNoNode)
        return "<none>";
    return std::string(g.node(g.node(n).parent).id);
}

QString errorOf(const std::function<void()>& action)
{
    try {
        action();
    } catch (const support::Error& error) {
        return QString::fromUtf8(error.what());
    }
    return {};
}

} // namespace

class TestGraphModel : public QObject {
    Q_OBJECT

    QTemporaryDir m_tmp;
    int m_dirs = 0;

    fs::path dir() { return fs::path(m_tmp.path().toStdString()) / ("case" + std::to_string(++m_dirs)); }

private slots:
    void emptyConstructIsAClearError()
    {
        const fs::path d = dir();
        writeRankDir(d, OJson::object(), OJson::object({ { "Functional.relu.0.forward", forwardEntry(tensorJson(1, 0, 0.5, 1), tensorJson(1, 0, 0.5, 1)) } }));
        const QString error = errorOf([&] { buildGraph(d); });
        QVERIFY2(error.contains("construct.json") && error.contains("L0 or mix"), qPrintable(error));
    }

    void missingFileAndBrokenJsonNameTheFile()
    {
        const fs::path d = dir();
        writeRankDir(d, OJson::object({ { "Module.a.A.forward.0", nullptr } }), OJson::object());
        fs::remove(d / "stack.json");
        QVERIFY(errorOf([&] { buildGraph(d); }).contains("stack.json"));
        writeFile(d / "stack.json", "{}");
        writeFile(d / "construct.json", "{\"Module.a.A.forward.0\": ");
        const QString error = errorOf([&] { buildGraph(d); });
        QVERIFY2(error.contains("construct.json") && error.contains("byte"), qPrintable(error));
        writeFile(d / "construct.json", "{\"Module.a.A.forward.0\": 5}");
        QVERIFY(errorOf([&] { buildGraph(d); }).contains("parent must be a string"));
    }

    // A parent that never appears as a key, a cycle, a node that is its own parent: left out with a
    // warning (as the reference leaves unreachable nodes out), never a hang.
    void brokenHierarchiesAreLeftOut()
    {
        const fs::path d = dir();
        OJson construct = OJson::object();
        construct["Module.ok.Ok.forward.0"] = nullptr;
        construct["Module.orphan.O.forward.0"] = "Module.missing.M.forward.0";
        construct["Module.a.A.forward.0"] = "Module.b.B.forward.0";
        construct["Module.b.B.forward.0"] = "Module.a.A.forward.0";
        construct["Module.self.S.forward.0"] = "Module.self.S.forward.0";
        writeRankDir(d, construct, OJson::object());
        BuildReport report;
        Graph g = buildGraph(d, &report);
        QCOMPARE(childIds(g, ""), (std::vector<std::string> { "Module.ok.Ok.forward.0" }));
        QCOMPARE(report.unreachableNodes, std::size_t(5));
        QVERIFY(!report.warnings.empty());
        QCOMPARE(g.postOrder().size(), std::size_t(2));
        QVERIFY(g.ancestors(g.find("Module.a.A.forward.0")).empty()); // a cycle: no chain
        // Writing and matching the damaged graph work too.
        const fs::path b = dir();
        writeRankDir(b, construct, OJson::object());
        graph::GraphRunOptions options;
        options.target = d;
        options.golden = b;
        options.output = dir();
        const auto result = runGraphVisualize(options);
        QCOMPARE(result.nodes, std::size_t(4));
    }

    // A key written twice: the last value wins at the first position (Python's json.load).
    void duplicatedKeysKeepTheLastValue()
    {
        const fs::path d = dir();
        writeFile(d / "construct.json",
            "{\"Module.a.A.forward.0\": null, \"Functional.relu.0.forward\": \"Module.x.X.forward.0\", \"Module.b.B.forward.0\": null,"
            " \"Functional.relu.0.forward\": \"Module.b.B.forward.0\"}");
        const dump::ConstructInfo info = dump::readConstructJson(d / "construct.json");
        QCOMPARE(info.nodes.size(), std::size_t(3));
        QCOMPARE(info.nodes[1].name, std::string("Functional.relu.0.forward"));
        QCOMPARE(info.nodes[1].parent.value(), std::string("Module.b.B.forward.0"));
    }

    void hierarchyCollectionsGradientsAndStacks()
    {
        const fs::path d = dir();
        OJson construct = OJson::object();
        construct["Module.net.Net.forward.0"] = nullptr;
        construct["Module.net.fc.Linear.forward.0"] = "Module.net.Net.forward.0";
        construct["Functional.linear.0.forward"] = "Module.net.fc.Linear.forward.0";
        construct["Tensor.add.0.forward"] = nullptr;
        construct["Tensor.mul.0.forward"] = nullptr;
        construct["Module.head.Head.forward.0"] = nullptr;
        construct["Torch.sum.0.forward"] = nullptr;
        construct["Module.net.Net.backward.0"] = nullptr;
        construct["Module.net.fc.Linear.backward.0"] = nullptr; // parent lost: found again through the forward twin
        construct["Module.net.fc.Linear.backward.1"] = "Module.net.Net.backward.0";
        construct["Functional.linear.0.backward"] = nullptr;
        const OJson t = tensorJson(1, -1, 0, 2);
        OJson data = OJson::object();
        for (const auto& [name, parent] : construct.items())
            data[name] = name.find("backward") != std::string::npos ? backwardEntry(t, t) : forwardEntry(t, t);
        OJson grads = OJson::object();
        grads["weight"] = OJson::array({ t });
        data["Module.net.fc.Linear.parameters_grad.0"] = grads;
        data["Module.gone.Gone.parameters_grad"] = grads;
        OJson stack = OJson::object();
        stack["0"] = OJson::array({ OJson::array({ "Module.net.fc.Linear.forward.0", "Functional.linear.0.forward" }),
            OJson::array({ "File model.py, line 3, in forward, \n x = fc(x)" }) });
        writeRankDir(d, construct, data, stack);
        BuildReport report;
        Graph g = buildGraph(d, &report);
        QCOMPARE(childIds(g, ""), (std::vector<std::string> { "Module.net.Net.forward.0", "Apis_Between_Modules.0", "Module.head.Head.forward.0",
                                      "Torch.sum.0.forward", "Module.net.Net.backward.0" }));
        QCOMPARE(parentId(g, "Functional.linear.0.backward"), std::string("Module.net.fc.Linear.backward.0")); // via ".backward" twin
        QCOMPARE(childIds(g, "Apis_Between_Modules.0"), (std::vector<std::string> { "Tensor.add.0.forward", "Tensor.mul.0.forward" }));
        QCOMPARE(int(g.node(g.find("Apis_Between_Modules.0")).op), 9);
        QCOMPARE(parentId(g, "Module.net.fc.Linear.backward.0"), std::string("Module.net.Net.backward.0"));
        // parameter gradients go under the module's last backward call; an orphan one is dropped
        QCOMPARE(childIds(g, "Module.net.fc.Linear.backward.1"), (std::vector<std::string> { "Module.net.fc.Linear.parameters_grad.0" }));
        QCOMPARE(report.droppedParameterGrads, std::size_t(1));
        // backward nodes show their forward twin's stack (modules: call 0's)
        const auto fwd = g.stackFrames(g.node(g.find("Module.net.fc.Linear.forward.0")));
        QCOMPARE(fwd.size(), std::size_t(1));
        QCOMPARE(g.stackFrames(g.node(g.find("Module.net.fc.Linear.backward.1"))), fwd);
        QCOMPARE(g.stackFrames(g.node(g.find("Functional.linear.0.backward"))), fwd);
        QVERIFY(g.stackFrames(g.node(g.find("Module.net.Net.forward.0"))).empty());
        // micro steps: forward modules after a backward start a new one
        QCOMPARE(pageByMicroStep(g), 1);
    }

    void microStepsAndMegatronVariant()
    {
        const fs::path d = dir();
        OJson construct = OJson::object();
        for (const char* name : { "Module.m.M.forward.0", "Module.m.M.backward.0", "Module.m.M.forward.1", "Module.m.M.backward.1", "optimizer.step" })
            construct[name] = nullptr;
        writeRankDir(d, construct, OJson::object());
        Graph g = buildGraph(d);
        QCOMPARE(pageByMicroStep(g), 2);
        QCOMPARE(g.node(g.find("Module.m.M.forward.1")).microStep, 1);
        QCOMPARE(g.node(g.find("optimizer.step")).microStep, 1);

        OJson megatron = OJson::object();
        megatron["Module.m.M.forward.0"] = OJson::array({ nullptr, 0 });
        megatron["Module.m.M.forward.1"] = OJson::array({ nullptr, 3 });
        megatron["megatron_micro_step_number"] = 4;
        const fs::path m = dir();
        writeRankDir(m, megatron, OJson::object());
        Graph mg = buildGraph(m);
        QCOMPARE(pageByMicroStep(mg), 5);
        QCOMPARE(mg.node(mg.find("Module.m.M.forward.1")).microStep, 3);
    }

    void recomputedLayersMoveUnderTheirBackward()
    {
        QVERIFY(stackShowsRecompute({ "File /x/torch/utils/checkpoint.py, line 1, in recompute_fn, \n y" }));
        QVERIFY(stackShowsRecompute({ "File /m/megatron/core/tensor_parallel/random.py, line 2, in backward, \n z",
            "File /x/torch/autograd/function.py, line 3, in apply, \n a" }));
        QVERIFY(!stackShowsRecompute({ "File train.py, line 4, in forward, \n b" }));

        const fs::path d = dir();
        OJson construct = OJson::object();
        construct["Module.module.GPTModel.forward.0"] = nullptr;
        construct["Module.module.decoder.layers.0.TransformerLayer.forward.0"] = "Module.module.GPTModel.forward.0";
        construct["Module.module.GPTModel.backward.0"] = nullptr;
        // recomputation re-runs the layer's forward from the top level during backward
        construct["Module.module.decoder.layers.0.TransformerLayer.forward.1"] = nullptr;
        construct["Module.module.decoder.layers.0.TransformerLayer.backward.1"] = nullptr;
        OJson stack = OJson::object();
        stack["0"] = OJson::array({ OJson::array({ "Module.module.decoder.layers.0.TransformerLayer.forward.1" }),
            OJson::array({ "File /x/torch/utils/checkpoint.py, line 1, in recompute_fn, \n y" }) });
        writeRankDir(d, construct, OJson::object(), stack);
        Graph g = buildGraph(d);
        QCOMPARE(parentId(g, "Module.module.decoder.layers.0.TransformerLayer.forward.1"), std::string("Module.module.GPTModel.backward.0"));
        QCOMPARE(parentId(g, "Module.module.decoder.layers.0.TransformerLayer.backward.1"), std::string("Module.module.GPTModel.backward.0"));
        QCOMPARE(childIds(g, "").size(), std::size_t(2));
    }

    void fuzzyMatchIgnoresCallCountsButKeepsOrder()
    {
        QCOMPARE(fuzzyApiKey("Torch.matmul.12.forward"), std::string("Torch.matmul.forward"));
        QCOMPARE(fuzzyApiKey("Tensor.sum_rank1.0.forward"), std::string("Tensor.sum.forward"));
        auto side = [&](int first, int second) {
            const fs::path d = dir();
            OJson construct = OJson::object();
            construct["Module.blk.Block.forward.0"] = nullptr;
            construct["Torch.matmul." + std::to_string(first) + ".forward"] = "Module.blk.Block.forward.0";
            construct["Torch.matmul." + std::to_string(second) + ".forward"] = "Module.blk.Block.forward.0";
            OJson data = OJson::object();
            for (const auto& [name, parent] : construct.items())
                data[name] = forwardEntry(tensorJson(1, 0, 0.5, 1), tensorJson(1, 0, 0.5, 1));
            writeRankDir(d, construct, data);
            return buildGraph(d);
        };
        Graph n = side(4, 5), b = side(7, 9);
        MatchOptions defaults;
        matchGraphs(n, b, defaults);
        QCOMPARE(n.node(n.find("Torch.matmul.4.forward")).partner, kNoNode);
        Graph n2 = side(4, 5), b2 = side(7, 9);
        MatchOptions fuzzy;
        fuzzy.fuzzy = true;
        const auto report = matchGraphs(n2, b2, fuzzy);
        QCOMPARE(report.matched, std::size_t(4));
        QCOMPARE(b2.node(n2.node(n2.find("Torch.matmul.4.forward")).partner).id, std::string_view("Torch.matmul.7.forward"));
        QCOMPARE(b2.node(n2.node(n2.find("Torch.matmul.5.forward")).partner).id, std::string_view("Torch.matmul.9.forward"));
    }

    // -lm: a renamed layer (decoder -> encoder) still pairs, through the YAML rule.
    void layerMappingFollowsTheYaml()
    {
        auto side = [&](const std::string& child) {
            const fs::path d = dir();
            OJson construct = OJson::object();
            const std::string top = "Module.model.GPTModel.forward.0";
            const std::string layer = "Module.model." + child + ".Linear.forward.0";
            construct[top] = nullptr;
            construct[layer] = top;
            construct["Functional.linear.0.forward"] = layer;
            OJson data = OJson::object();
            for (const auto& [name, parent] : construct.items())
                data[name] = forwardEntry(tensorJson(1, 0, 0.5, 1), tensorJson(1, 0, 0.5, 1));
            OJson stack = OJson::object();
            stack["0"] = OJson::array({ OJson::array({ "Functional.linear.0.forward" }), OJson::array({ "File m.py, line 1, in forward, \n x" }) });
            writeRankDir(d, construct, data, stack);
            return d;
        };
        const fs::path npuDir = side("decoder"), benchDir = side("encoder");
        const fs::path yaml = dir() / "mapping.yaml";
        writeFile(yaml, "GPTModel:\n  decoder: encoder   # renamed in the bench model\n");
        const auto rules = readLayerMappingYaml(yaml);
        QCOMPARE(rules.size(), std::size_t(1));
        Graph n = buildGraph(npuDir), b = buildGraph(benchDir);
        const auto map = layerMappingFor(n, b, rules);
        QCOMPARE(map.at("Module.model.decoder.Linear.forward.0"), std::string("Module.model.encoder.Linear.forward.0"));
        QCOMPARE(map.at("Functional.linear.0.forward"), std::string("Functional.linear.0.forward"));
        MatchOptions options;
        options.layerMapping = true;
        options.layerMap = map;
        QCOMPARE(matchGraphs(n, b, options).matched, std::size_t(4));
        QVERIFY(errorOf([&] { writeFile(yaml, "  orphan: entry\n"), readLayerMappingYaml(yaml); }).contains("line 1"));
    }

    // Pairs made by hand: types must agree, the forward/backward twins follow, descendants pair by name
    // then by order; the mapping file round-trips.
    void manualPairsAndMappingFile()
    {
        auto side = [&](const std::string& name) {
            const fs::path d = dir();
            OJson construct = OJson::object();
            const std::string fwd = "Module.m." + name + ".Linear.forward.0", bwd = "Module.m." + name + ".Linear.backward.0";
            construct[fwd] = nullptr;
            construct["Functional.linear.0.forward"] = fwd;
            construct["Functional.relu.0.forward"] = fwd;
            construct[bwd] = nullptr;
            OJson data = OJson::object();
            for (const auto& [n, p] : construct.items())
                data[n] = forwardEntry(tensorJson(1, 0, 0.5, 1), tensorJson(1, 0, 0.5, 1));
            writeRankDir(d, construct, data);
            return buildGraph(d);
        };
        Graph n = side("fc_a"), b = side("fc_b");
        QCOMPARE(matchGraphs(n, b, {}).matched, std::size_t(1)); // only the root: the module names differ
        ManualPair pair { "Module.m.fc_a.Linear.forward.0", std::string("Module.m.fc_b.Linear.forward.0"), true };
        MatchOptions options;
        options.manual = { pair, { "Functional.relu.0.forward", std::string("Module.m.fc_b.Linear.backward.0"), false } };
        Graph n2 = side("fc_a"), b2 = side("fc_b");
        const auto report = matchGraphs(n2, b2, options);
        QCOMPARE(report.manualApplied, std::size_t(1));
        QCOMPARE(report.problems.size(), std::size_t(1)); // an API cannot pair with a module
        QVERIFY(q(report.problems[0]).contains("types differ"));
        QVERIFY(n2.node(n2.find("Module.m.fc_a.Linear.forward.0")).modified);
        QCOMPARE(b2.node(n2.node(n2.find("Module.m.fc_a.Linear.backward.0")).partner).id, std::string_view("Module.m.fc_b.Linear.backward.0"));
        QCOMPARE(b2.node(n2.node(n2.find("Functional.relu.0.forward")).partner).id, std::string_view("Functional.relu.0.forward"));
        QCOMPARE(descendantKey(n2.node(n2.find("Functional.linear.0.forward"))), std::string("linear.1"));

        const fs::path file = dir() / "pairs.vis.config";
        fs::create_directories(file.parent_path());
        writeMappingFile(file, { pair, { "Module.x.X.forward.0", std::nullopt, false } });
        const auto back = readMappingFile(file);
        QCOMPARE(back.size(), std::size_t(2));
        QVERIFY(back[0].descendants);
        QCOMPARE(back[0].bench.value(), std::string("Module.m.fc_b.Linear.forward.0"));
        QVERIFY(!back[1].bench);
        writeFile(file, "{\"Module.a.A.forward.0\": [\"DefaultModel\", \"Module.b.B.forward.0\"], \"x\": 3}");
        QVERIFY(errorOf([&] { readMappingFile(file); }).contains("node 'x'"));
    }

    // Spec §1.11: a pair made by hand pairs input_data keys i <-> i and output_data keys i <-> i; an automatic
    // pair pairs inside sections (inputs with inputs, parameters with parameters).
    void manualPairsCompareByPlainPosition()
    {
        auto side = [&](const std::string& name, bool withParameter) {
            const fs::path d = dir();
            const std::string module = "Module.m." + name + ".Linear.forward.0";
            OJson construct = OJson::object();
            construct[module] = nullptr;
            OJson entry = forwardEntry(tensorJson(1, 0, 0.5, 1), tensorJson(1, 0, 0.5, 1));
            if (withParameter)
                entry["parameters"]["weight"] = tensorJson(2, 0, 0.5, 1);
            else
                entry["input_args"].push_back(tensorJson(5, 0, 0.5, 1)); // bench: a second input, no parameter
            OJson data = OJson::object();
            data[module] = entry;
            writeRankDir(d, construct, data);
            return buildGraph(d);
        };
        auto maxDiffOfWeight = [](const Graph& npu, const std::string& module) {
            const auto n = npu.find(module);
            const auto input = nlohmann::json::parse(npu.rendered[n].input);
            return input.at(module + ".parameters.weight").at("Max diff").get<std::string>();
        };
        // By hand: the weight (input_data key 1) meets the bench's input.1: 2 - 5.
        Graph npu = side("fc_a", true), bench = side("fc_b", false);
        MatchOptions options;
        options.manual = { { "Module.m.fc_a.Linear.forward.0", std::string("Module.m.fc_b.Linear.forward.0"), false } };
        QCOMPARE(matchGraphs(npu, bench, options).manualApplied, std::size_t(1));
        compareGraphs(npu, bench, {});
        QCOMPARE(maxDiffOfWeight(npu, "Module.m.fc_a.Linear.forward.0"), std::string("-3.0"));
        // Matched by name: the weight is a parameter and the bench has none, so it meets nothing (no diff).
        Graph autoNpu = side("fc", true), autoBench = side("fc", false);
        matchGraphs(autoNpu, autoBench, {});
        compareGraphs(autoNpu, autoBench, {});
        QCOMPARE(QString::fromStdString(maxDiffOfWeight(autoNpu, "Module.m.fc.Linear.forward.0")), QString("null"));
    }

    // Spec §1.9 / §4.2: strategy choice, parameter validation and Megatron's default groups, worked out by hand.
    void parallelMergeParameters()
    {
        const RankGroups groups = megatronRankGroups(32, 4, 4, "tp-cp-ep-dp-pp");
        QCOMPARE(groups.tp.size(), std::size_t(8));
        QCOMPARE(groups.tp[0], (std::vector<int> { 0, 1, 2, 3 }));
        QCOMPARE(groups.tp[7], (std::vector<int> { 28, 29, 30, 31 }));
        QCOMPARE(groups.pp.size(), std::size_t(8));
        QCOMPARE(groups.pp[0], (std::vector<int> { 0, 8, 16, 24 }));
        QCOMPARE(groups.pp[4], (std::vector<int> { 4, 12, 20, 28 }));
        QCOMPARE(groups.pp[7], (std::vector<int> { 7, 15, 23, 31 }));
        QCOMPARE(groups.dp[0], (std::vector<int> { 0, 4 }));
        QCOMPARE(groups.dp[4], (std::vector<int> { 8, 12 }));
        // tp-pp-dp with 16 ranks, tp 2, pp 2: pp groups pair ranks two apart.
        const RankGroups tppd = megatronRankGroups(16, 2, 2, "tp-pp-dp");
        QCOMPARE(tppd.pp[0], (std::vector<int> { 0, 2 }));
        QCOMPARE(tppd.pp[1], (std::vector<int> { 1, 3 }));
        QCOMPARE(tppd.pp[2], (std::vector<int> { 4, 6 }));
        QVERIFY(errorOf([] { megatronRankGroups(8, 2, 2, "tp-dp"); }).contains("pp not specified in order"));
        QVERIFY(errorOf([] { megatronRankGroups(8, 2, 2, "tp-ep-pp-dp"); }).contains("ep and dp must be adjacent"));

        auto strategy = [](int rankSize, int tp, int pp, int vpp = 1) {
            return int(mergeStrategyOf({ rankSize, tp, pp, vpp, "tp-cp-ep-dp-pp" }));
        };
        QCOMPARE(strategy(1, 1, 1), int(MergeStrategy::None));
        QCOMPARE(strategy(4, 4, 1), int(MergeStrategy::Tp));
        QCOMPARE(strategy(4, 1, 4), int(MergeStrategy::Pp));
        QCOMPARE(strategy(4, 1, 4, 2), int(MergeStrategy::Vpp));
        QCOMPARE(strategy(8, 1, 1), int(MergeStrategy::Tp)); // pp == 1 wins over tp == 1
        QCOMPARE(strategy(8, 1, 2), int(MergeStrategy::Pp));
        QCOMPARE(strategy(8, 2, 4), int(MergeStrategy::TpPp));
        QCOMPARE(strategy(16, 2, 2), int(MergeStrategy::Full));

        QVERIFY(errorOf([] { validateParallelParams({ 8, 2, 2, 1, "tp-cp-ep-dp-pp" }, 4, "dump"); }).contains("4 rank folder"));
        QVERIFY(errorOf([] { validateParallelParams({ 8, 3, 1, 1, "tp-cp-ep-dp-pp" }, 8, "dump"); }).contains("--tp (3) must divide"));
        QVERIFY(errorOf([] { validateParallelParams({ 8, 4, 4, 1, "tp-cp-ep-dp-pp" }, 8, "dump"); }).contains("exceeds"));
        QVERIFY(errorOf([] { validateParallelParams({ 8, 8, 1, 2, "tp-cp-ep-dp-pp" }, 8, "dump"); }).contains("--vpp > 1"));
        QVERIFY(errorOf([] { validateParallelParams({ 8, 8, 1, 1, "TP-DP" }, 8, "dump"); }).contains("--order"));
        QVERIFY(errorOf([] { validateParallelParams({ 8, 2, 4, 1, "tp-cp-ep-dp-pp" }, 8, "dump"); }).isEmpty());
    }

    void overflowLevelsFollowTheRules()
    {
        const fs::path d = dir();
        const OJson ok = tensorJson(1, -1, 0, 2);
        OJson bad = tensorJson(1, -1, 0, 2);
        bad["Max"] = "inf";
        OJson normBad = tensorJson(1, -1, 0, 2);
        normBad["Norm"] = "nan"; // Norm alone is not an anomaly
        OJson big = tensorJson(1, -1, 0, 500);
        OJson data = OJson::object();
        OJson construct = OJson::object();
        auto add = [&](const std::string& name, const OJson& in, const OJson& out) {
            construct[name] = nullptr;
            data[name] = forwardEntry(in, out);
        };
        add("Torch.relu.0.forward", ok, bad); // critical
        add("Torch.relu.1.forward", bad, bad); // high
        add("Torch.relu.2.forward", bad, ok); // medium
        add("Torch.relu.3.forward", ok, big); // high: the norm jumps x250
        add("Torch.relu.4.forward", ok, normBad); // none
        add("Torch.empty.0.forward", ok, bad); // critical, but uninitialised memory is ignored
        writeRankDir(d, construct, data);
        Graph g = buildGraph(d);
        checkOverflow(g);
        auto level = [&](const char* id) { return std::string(toString(g.node(g.find(id)).overflow)); };
        QCOMPARE(level("Torch.relu.0.forward"), std::string("critical"));
        QCOMPARE(level("Torch.relu.1.forward"), std::string("high"));
        QCOMPARE(level("Torch.relu.2.forward"), std::string("medium"));
        QCOMPARE(level("Torch.relu.3.forward"), std::string("high"));
        QCOMPARE(level("Torch.relu.4.forward"), std::string());
        QCOMPARE(level("Torch.empty.0.forward"), std::string());
    }
};

QTEST_APPLESS_MAIN(TestGraphModel)
#include "tst_graph_model.moc"
