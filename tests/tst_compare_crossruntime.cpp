// SPDX-License-Identifier: Apache-2.0
// Cross-runtime pairing: a C++ libtorch capture (Aten.*) against a Python msprobe dump of the same small block
// (layer_norm, linear, transpose, matmul, softmax, residual add, MLP with gelu). tests/data/crossruntime/python
// is written by hand from the Python tool's naming rules (Functional.linear, Torch.softmax with dim=-1 as a kwarg,
// Tensor.__matmul__, Tensor.__add__ / Torch.add, counters per API name); .../aten is what our capture writes
// for the same calls (aten schema arguments positional, layer_norm's cudnn_enable, add's alpha, gelu's
// approximate, counters per aten op, a different class name for the block). Same tensor -> same statistics.
#include "cli_runner.h"
#include "compare_pairs.h"
#include "test_util.h"

#include "compare/compare_engine.h"
#include "compare/compare_job.h"
#include "compare/cross_runtime_table.h"
#include "compare/divergence.h"
#include "dump/dump_json_reader.h"
#include "graph/graph_run.h"
#include "sqlite_rows.h"

#include <nlohmann/json.hpp>

using namespace msprobe;
using namespace msprobe::test;

namespace {

std::filesystem::path sideDir(const char* side) { return dataDir() / "crossruntime" / side; }

std::string readText(const std::filesystem::path& file)
{
    std::ifstream in(file, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

dump::DumpFile parse(const std::string& text, const std::string& name)
{
    dump::DumpJsonReader reader;
    return reader.parse(text, name);
}

std::string replaced(std::string text, std::string_view from, std::string_view to)
{
    for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
        text.replace(at, from.size(), to);
    return text;
}

struct Sides {
    std::string aten = readText(sideDir("aten") / "dump.json");
    std::string python = readText(sideDir("python") / "dump.json");
};

// Compares target vs golden (texts) with both construct.json files (withConstructs) or none.
std::unique_ptr<compare::CompareTable> compareTexts(const std::string& target, const char* targetSide, const std::string& golden,
    const char* goldenSide, bool withConstructs = true, compare::CompareOptions options = {})
{
    compare::CompareConstructs constructs;
    if (withConstructs) {
        constructs.npu = dump::readConstructJson(sideDir(targetSide) / "construct.json");
        constructs.bench = dump::readConstructJson(sideDir(goldenSide) / "construct.json");
    }
    return compare::compareDumps(parse(target, targetSide), parse(golden, goldenSide), {}, false, options, {}, constructs);
}

// The C++ side's gelu output moved: Max 4.75 -> 5.75 and Norm 9.5 -> 19.5 wherever that tensor appears.
std::string faultyGelu(const std::string& aten)
{
    return replaced(replaced(aten, R"("Max": 4.75,)", R"("Max": 5.75,)"), R"("Norm": 9.5,)", R"("Norm": 19.5,)");
}

// "node|precision_index|matched_node_link" of the target's operator nodes in a compare vis.db.
std::vector<std::string> operatorNodes(const std::filesystem::path& db, const char* prefix)
{
    return queryRows(db, std::string("SELECT node_name, precision_index, matched_node_link FROM tb_nodes WHERE data_source = 'NPU' AND "
                                     "node_name LIKE '")
            + prefix + ".%'");
}

std::size_t countPaired(const compare::CompareTable& table)
{
    return static_cast<std::size_t>(std::count_if(table.rows.begin(), table.rows.end(), [](const compare::CompareRow& r) { return r.bench != compare::kUnmatched; }));
}

} // namespace

class TestCompareCrossRuntime : public QObject {
    Q_OBJECT

private slots:
    void tableNamesArgumentsByTheAtenSchema()
    {
        const compare::ArgumentNaming softmax = compare::pythonApiNaming("Functional", "softmax");
        QCOMPARE(q(softmax.atenOp), QStringLiteral("softmax"));
        QCOMPARE(q(softmax.positionalName(0)), QStringLiteral("self"));
        QCOMPARE(q(softmax.positionalName(2)), q(compare::kIgnoredArgument)); // _stacklevel
        QCOMPARE(q(softmax.keywordName("input")), QStringLiteral("self"));
        QCOMPARE(q(softmax.keywordName("dim")), QStringLiteral("dim"));
        QCOMPARE(q(compare::atenNaming("softmax").positionalName(1)), QStringLiteral("dim"));
        // F.embedding(input, weight) reaches aten embedding(weight, indices): the names meet, the positions differ.
        const compare::ArgumentNaming embedding = compare::pythonApiNaming("Functional", "embedding");
        QCOMPARE(q(embedding.positionalName(0)), QStringLiteral("indices"));
        QCOMPARE(q(compare::atenNaming("embedding").positionalName(1)), QStringLiteral("indices"));
        // Tensor.view(2, 3) <-> aten view(self, int[] size)
        QCOMPARE(q(compare::pythonApiNaming("Tensor", "view").positionalName(2)), QStringLiteral("size.1"));
        QCOMPARE(q(compare::pythonApiNaming("Tensor", "__add__").atenOp), QStringLiteral("add"));
        QCOMPARE(q(compare::pythonApiNaming("Tensor", "__iadd__").atenOp), QStringLiteral("add_"));
        QCOMPARE(q(compare::pythonApiNaming("Functional", "cross_entropy").atenOp), QStringLiteral("cross_entropy_loss"));
        // Generic rule: a Tensor method named like its aten op; an unknown Functional API reaches nothing known.
        QCOMPARE(q(compare::pythonApiNaming("Tensor", "exp").atenOp), QStringLiteral("exp"));
        QVERIFY(compare::pythonApiNaming("Functional", "no_such_api").atenOp.empty());
        QCOMPARE(q(compare::atenNaming("unknown_op").positionalName(3)), QStringLiteral("#3"));
        QCOMPARE(q(compare::moduleNameWithoutClass("Module.block.0.attn.Attention.forward.0")), QStringLiteral("Module.block.0.attn.forward.0"));
        QCOMPARE(q(compare::moduleNameWithoutClass("Module.fc.Linear.parameters_grad.0")), QStringLiteral("Module.fc.parameters_grad.0"));
    }

    void detectsTheRuntimeOfEachDump()
    {
        const Sides sides;
        const dump::DumpFile aten = parse(sides.aten, "aten"), python = parse(sides.python, "python");
        QVERIFY(compare::detectRuntime(aten) == compare::DumpRuntime::Aten);
        QVERIFY(compare::detectRuntime(python) == compare::DumpRuntime::Python);
        QVERIFY(compare::isCrossRuntimePair(aten, python));
        QVERIFY(compare::isCrossRuntimePair(python, aten));
        QVERIFY(!compare::isCrossRuntimePair(python, python));
        QVERIFY(!compare::isCrossRuntimePair(aten, aten));
        compare::CompareOptions fuzzy;
        fuzzy.fuzzyMatch = true;
        QVERIFY(!compare::usesCrossRuntimePairing(aten, python, fuzzy)); // an explicit matching option wins
        compare::CompareOptions forced;
        forced.crossRuntime = compare::CrossRuntime::On;
        QVERIFY(compare::usesCrossRuntimePairing(aten, python, forced));
        // Forced on two dumps of one runtime: nothing to pair across runtimes, the ordinary compare is used.
        QVERIFY(!compare::usesCrossRuntimePairing(python, python, forced));
        QVERIFY(!compare::usesCrossRuntimePairing(aten, aten, forced));
        QVERIFY(compare::sameRuntimeNote(aten, python).empty());
    }

    void forcedOnTwoPythonDumpsSaysNothingWasPairedAcrossRuntimes()
    {
        const Sides sides;
        compare::CompareOptions forced;
        forced.crossRuntime = compare::CrossRuntime::On;
        const auto table = compareTexts(sides.python, "python", sides.python, "python", true, forced);
        QVERIFY(!table->crossRuntime.active);
        QCOMPARE(countPaired(*table), table->rows.size()); // the same dump: every row pairs by name
        const std::string text = compare::crossRuntimeText(table->crossRuntime);
        QCOMPARE(q(text), QStringLiteral("--cross-runtime: both dumps are Python msprobe dumps (Functional/Tensor/Torch entries, no Aten.*): "
                                         "nothing to pair across runtimes, the ordinary compare by name was used"));
        const auto atenTable = compareTexts(sides.aten, "aten", sides.aten, "aten", true, forced);
        QVERIFY(!atenTable->crossRuntime.active);
        QVERIFY2(compare::crossRuntimeText(atenTable->crossRuntime).starts_with("--cross-runtime: both dumps are C++ libtorch captures"),
            compare::crossRuntimeText(atenTable->crossRuntime).c_str());
        // Not asked for: nothing said.
        QVERIFY(compare::crossRuntimeText(compareTexts(sides.python, "python", sides.python, "python")->crossRuntime).empty());

        QTemporaryDir out;
        const QString python = q((sideDir("python") / "dump.json").string());
        const auto run = runCli({ "compare", "-tp", python, "-gp", python, "-o", out.path(), "--cross-runtime", "--json", "--no-progress" });
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        QVERIFY2(run.out.contains("nothing to pair across runtimes, the ordinary compare by name was used"), qPrintable(run.out));
        QVERIFY2(!run.out.contains("C++ Aten ops"), qPrintable(run.out));
        const QStringList verdicts = QDir(out.path()).entryList({ "compare_verdict_*.json" });
        QCOMPARE(verdicts.size(), 1);
        const auto verdict = nlohmann::json::parse(readText((std::filesystem::path(out.path().toStdString()) / verdicts[0].toStdString())));
        const auto& cross = verdict["pairs"][0]["cross_runtime"];
        QVERIFY(!cross.contains("target_runtime"));
        QVERIFY(cross["note"].get<std::string>().find("both dumps are Python msprobe dumps") != std::string::npos);

        // graph_visualize says the same, as information.
        QTemporaryDir graphOut;
        const auto graph = runCli({ "graph_visualize", "-tp", q(sideDir("python").string()), "-gp", q(sideDir("python").string()), "-o",
            graphOut.path(), "--cross-runtime" });
        QVERIFY2(graph.exitCode == 0, qPrintable(graph.err));
        QVERIFY2(graph.err.contains("[INFO] --cross-runtime: both dumps are Python msprobe dumps"), qPrintable(graph.err));
        QVERIFY2(!graph.err.contains("[WARNING]"), qPrintable(graph.err));
    }

    void everyOperatorRowPairsAtenAgainstPython()
    {
        const Sides sides;
        const auto table = compareTexts(sides.aten, "aten", sides.python, "python");
        const compare::CrossRuntimeReport& report = table->crossRuntime;
        QVERIFY(report.active);
        QVERIFY(report.npuIsAten);
        QVERIFY(report.scoped);
        // Left out: layer_norm's cudnn_enable, softmax's dtype (None), add's alpha (twice), gelu's approximate.
        QCOMPARE(report.ignoredRows, std::size_t(5));
        QCOMPARE(report.unpairedRows, std::size_t(0));
        QVERIFY(report.unpairedNpuEntries.empty());
        QVERIFY2(report.unpairedBenchEntries.empty(), report.unpairedBenchEntries.empty() ? "" : report.unpairedBenchEntries[0].c_str());
        QCOMPARE(report.pairedRows, table->rows.size());
        QCOMPARE(countPaired(*table), table->rows.size());
        QCOMPARE(table->countLevel(compare::ResultLevel::Pass), table->rows.size());

        const auto pairs = pairsOf(*table);
        QCOMPARE(q(pairs.at("Aten.layer_norm.0.forward.input.4")), QStringLiteral("Functional.layer_norm.0.forward.input.4"));
        QCOMPARE(q(pairs.at("Aten.layer_norm.0.forward.input.1.0")), QStringLiteral("Functional.layer_norm.0.forward.input.1.0"));
        QCOMPARE(q(pairs.at("Aten.softmax.0.forward.input.1")), QStringLiteral("Torch.softmax.0.forward.input.dim"));
        QCOMPARE(q(pairs.at("Aten.matmul.0.forward.output.0")), QStringLiteral("Torch.matmul.0.forward.output.0"));
        QCOMPARE(q(pairs.at("Aten.matmul.1.forward.input.0")), QStringLiteral("Tensor.__matmul__.0.forward.input.0"));
        QCOMPARE(q(pairs.at("Aten.add.0.forward.input.1")), QStringLiteral("Tensor.__add__.0.forward.input.1"));
        QCOMPARE(q(pairs.at("Aten.add.1.forward.output.0")), QStringLiteral("Torch.add.0.forward.output.0"));
        QCOMPARE(q(pairs.at("Aten.linear.2.forward.input.1")), QStringLiteral("Functional.linear.2.forward.input.1"));
        QCOMPARE(q(pairs.at("Aten.gelu.0.forward.output.0")), QStringLiteral("Functional.gelu.0.forward.output.0"));
        QCOMPARE(q(pairs.at("Module.block.TransformerBlock.forward.0.output.0")), QStringLiteral("Module.block.Block.forward.0.output.0"));
        QVERIFY(!pairs.contains("Aten.layer_norm.0.forward.input.5"));
        QVERIFY(!pairs.contains("Aten.add.0.forward.input.alpha"));
        QVERIFY(!compare::firstDivergence(*table));
    }

    void everyOperatorRowPairsPythonAgainstAten()
    {
        const Sides sides;
        const auto table = compareTexts(sides.python, "python", sides.aten, "aten");
        const compare::CrossRuntimeReport& report = table->crossRuntime;
        QVERIFY(report.active);
        QVERIFY(!report.npuIsAten);
        QCOMPARE(report.ignoredRows, std::size_t(0));
        QCOMPARE(report.unpairedRows, std::size_t(0));
        QVERIFY(report.unpairedBenchEntries.empty());
        QCOMPARE(countPaired(*table), table->rows.size());
        QCOMPARE(table->countLevel(compare::ResultLevel::Pass), table->rows.size());
        QCOMPARE(q(pairsOf(*table).at("Torch.softmax.0.forward.input.dim")), QStringLiteral("Aten.softmax.0.forward.input.1"));
        // The bench's aten-only arguments (cudnn_enable, alpha, approximate, dtype) are no "absent" divergence.
        QVERIFY(!compare::firstDivergence(*table));
    }

    void countersRunOverTheWholeDumpWithoutConstruct()
    {
        const Sides sides;
        const auto table = compareTexts(sides.aten, "aten", sides.python, "python", false);
        QVERIFY(table->crossRuntime.active);
        QVERIFY(!table->crossRuntime.scoped);
        QCOMPARE(countPaired(*table), table->rows.size());
        QCOMPARE(q(pairsOf(*table).at("Aten.linear.1.forward.output.0")), QStringLiteral("Functional.linear.1.forward.output.0"));
    }

    void faultIsFoundAtTheRightOperator()
    {
        // gelu's output differs on the C++ side (wherever that tensor appears downstream).
        const Sides sides;
        const std::string faulty = faultyGelu(sides.aten);
        QVERIFY(faulty != sides.aten);
        const auto table = compareTexts(faulty, "aten", sides.python, "python");
        const auto point = compare::firstDivergence(*table);
        QVERIFY(point);
        QCOMPARE(q(point->entry), QStringLiteral("Aten.gelu.0.forward"));
        QVERIFY(point->rule == compare::DivergencePoint::Rule::Output);
        // And from the Python side's point of view.
        const auto reversed = compareTexts(sides.python, "python", faulty, "aten");
        const auto reversedPoint = compare::firstDivergence(*reversed);
        QVERIFY(reversedPoint);
        QCOMPARE(q(reversedPoint->entry), QStringLiteral("Functional.gelu.0.forward"));
    }

    void argumentFaultIsFoundAtTheRightOperator()
    {
        // softmax over dim 0 on the C++ side, dim=-1 in Python: the positional/keyword pair differs.
        const Sides sides;
        const std::string faulty = replaced(sides.aten, "\"value\": -1\n    },\n    null", "\"value\": 0\n    },\n    null");
        QVERIFY(faulty != sides.aten);
        const auto point = compare::firstDivergence(*compareTexts(faulty, "aten", sides.python, "python"));
        QVERIFY(point);
        QCOMPARE(q(point->entry), QStringLiteral("Aten.softmax.0.forward"));
        QVERIFY(point->rule == compare::DivergencePoint::Rule::Argument);
    }

    void unpairedRowsAreListedAndNeverPasses()
    {
        // The C++ side lacks the transpose and has an extra contiguous call the Python dump does not show.
        const Sides sides;
        std::string aten = sides.aten;
        const std::size_t begin = aten.find(R"("Aten.transpose.0.forward")");
        const std::size_t end = aten.find(R"("Aten.matmul.0.forward")");
        QVERIFY(begin != std::string::npos && end > begin);
        aten.replace(begin, end - begin, R"("Aten.contiguous.0.forward": {"input_args": [{"type": "torch.Tensor", "dtype": "torch.float32",
            "shape": [2, 4], "Max": 1.0, "Min": 0.0, "Mean": 0.5, "Norm": 1.0, "requires_grad": false}], "input_kwargs": {},
            "output": [{"type": "torch.Tensor", "dtype": "torch.float32", "shape": [2, 4], "Max": 1.0, "Min": 0.0, "Mean": 0.5,
            "Norm": 1.0, "requires_grad": false}]},
 )");
        const auto table = compareTexts(aten, "aten", sides.python, "python");
        const compare::CrossRuntimeReport& report = table->crossRuntime;
        QCOMPARE(report.unpairedRows, std::size_t(2));
        QCOMPARE(report.unpairedNpuEntries, std::vector<std::string> { "Aten.contiguous.0.forward" });
        QCOMPARE(report.unpairedBenchEntries, std::vector<std::string> { "Tensor.transpose.0.forward" });
        for (std::size_t r = 0; r < table->rows.size(); ++r)
            if (table->rows[r].bench == compare::kUnmatched) {
                QVERIFY(table->rows[r].level == compare::ResultLevel::Warning);
                compare::Cell cell;
                table->cell(r, compare::Column::ErrMessage, cell);
                QVERIFY2(cell.text.find("No counterpart in the other runtime") != std::string::npos, cell.text.c_str());
            }
        QCOMPARE(table->countLevel(compare::ResultLevel::Warning), std::size_t(2));
        // The summary line says how the rows paired, the warnings (terminal, --json, HTML) what did not pair.
        const std::string text = compare::crossRuntimeText(report);
        QVERIFY2(text.find("rows paired, 2 unpaired (warnings), 5 one-runtime-only") != std::string::npos, text.c_str());
        compare::JobOptions jobOptions;
        compare::PairOutcome outcome;
        summarizePair(*table, outcome, jobOptions);
        const auto warnings = compare::pairWarnings(outcome);
        QVERIFY(std::any_of(warnings.begin(), warnings.end(), [](const std::string& w) {
            return w == "cross-runtime pairing found no counterpart for target entries: Aten.contiguous.0.forward; golden entries: "
                        "Tensor.transpose.0.forward";
        }));
    }

    void linearDecomposedByLibtorchPairsWithFunctionalLinear()
    {
        // libtorch's C++ nn::Linear runs torch::nn::functional::linear: t(weight) then addmm(bias, input, weight.t())
        // for a 2-d input. The fixture's Aten.linear.1 (fc1) becomes those two calls.
        const Sides sides;
        auto aten = nlohmann::ordered_json::parse(sides.aten);
        auto construct = nlohmann::ordered_json::parse(readText(sideDir("aten") / "construct.json"));
        const auto linear = aten["data"]["Aten.linear.1.forward"];
        auto transposed = linear["input_args"][1];
        transposed["shape"] = { 4, 8 };
        nlohmann::ordered_json data = nlohmann::ordered_json::object(), parents = nlohmann::ordered_json::object();
        for (auto& [name, body] : aten["data"].items()) {
            if (name != "Aten.linear.1.forward") {
                data[name] = body;
                parents[name] = construct[name];
                continue;
            }
            data["Aten.t.0.forward"] = { { "input_args", { linear["input_args"][1] } }, { "input_kwargs", nlohmann::ordered_json::object() },
                { "output", { transposed } } };
            data["Aten.addmm.0.forward"] = { { "input_args", { linear["input_args"][2], linear["input_args"][0], transposed } },
                { "input_kwargs", { { "beta", { { "type", "int" }, { "value", 1 } } }, { "alpha", { { "type", "int" }, { "value", 1 } } } } },
                { "output", linear["output"] } };
            parents["Aten.t.0.forward"] = parents["Aten.addmm.0.forward"] = construct[name];
        }
        aten["data"] = data;
        QTemporaryDir dir;
        const std::filesystem::path atenDir = dir.path().toStdString();
        writeFile(atenDir / "dump.json", aten.dump(1));
        writeFile(atenDir / "construct.json", parents.dump(1));
        compare::CompareConstructs constructs { dump::readConstructJson(atenDir / "construct.json"), dump::readConstructJson(sideDir("python") / "construct.json") };
        const auto table = compare::compareDumps(parse(aten.dump(1), "aten"), parse(sides.python, "python"), {}, false, {}, {}, constructs);
        QCOMPARE(table->crossRuntime.unpairedRows, std::size_t(0));
        QVERIFY(table->crossRuntime.unpairedBenchEntries.empty());
        // Left out on top of the 5: addmm's transposed weight, beta and alpha, and t's output.
        QCOMPARE(table->crossRuntime.ignoredRows, std::size_t(9));
        const auto pairs = pairsOf(*table);
        QCOMPARE(q(pairs.at("Aten.t.0.forward.input.0")), QStringLiteral("Functional.linear.1.forward.input.1"));
        QCOMPARE(q(pairs.at("Aten.addmm.0.forward.input.0")), QStringLiteral("Functional.linear.1.forward.input.2"));
        QCOMPARE(q(pairs.at("Aten.addmm.0.forward.input.1")), QStringLiteral("Functional.linear.1.forward.input.0"));
        QCOMPARE(q(pairs.at("Aten.addmm.0.forward.output.0")), QStringLiteral("Functional.linear.1.forward.output.0"));
        // The next linear keeps its place in the count (fc2's Aten.linear.2 <-> Functional.linear.2).
        QCOMPARE(q(pairs.at("Aten.linear.2.forward.output.0")), QStringLiteral("Functional.linear.2.forward.output.0"));
        QVERIFY(!compare::firstDivergence(*table));
    }

    void switchedOffNoOperatorRowPairs()
    {
        const Sides sides;
        compare::CompareOptions off;
        off.crossRuntime = compare::CrossRuntime::Off;
        const auto table = compareTexts(sides.aten, "aten", sides.python, "python", true, off);
        QVERIFY(!table->crossRuntime.active);
        for (const compare::CompareRow& row : table->rows)
            if (row.bench != compare::kUnmatched)
                QVERIFY(table->npu.items->entryName(table->npuItem(row)).starts_with("Module."));
    }

    void graphPairsEveryOperatorNode()
    {
        QTemporaryDir out;
        graph::GraphRunOptions options;
        options.target = sideDir("aten");
        options.golden = sideDir("python");
        options.output = out.path().toStdString();
        std::vector<std::string> warnings, infos;
        options.warn = [&](const std::string& message) { warnings.push_back(message); };
        options.info = [&](const std::string& message) { infos.push_back(message); };
        const auto rows = operatorNodes(graph::runGraphVisualize(options).database, "Aten");
        QCOMPARE(rows.size(), std::size_t(11));
        for (const std::string& row : rows)
            QVERIFY2(row.find("|0|[") != std::string::npos, row.c_str()); // paired, and a pass
        const auto softmax = std::find_if(rows.begin(), rows.end(), [](const std::string& r) { return r.starts_with("Aten.softmax.0.forward|"); });
        QVERIFY(softmax != rows.end() && softmax->find("Torch.softmax.0.forward") != std::string::npos);
        // How the pairing went is information, not a warning.
        QCOMPARE(infos, std::vector<std::string> { "cross-runtime pairing (counted per module call): 11 of 11 operator nodes paired" });
        QVERIFY(warnings.empty());

        // A fault planted in the C++ side's gelu grades that node an error and no operator before it.
        QTemporaryDir faultyDir;
        const std::filesystem::path faulty = faultyDir.path().toStdString();
        for (const char* file : { "construct.json", "stack.json" })
            std::filesystem::copy_file(sideDir("aten") / file, faulty / file);
        writeFile(faulty / "dump.json", faultyGelu(readText(sideDir("aten") / "dump.json")));
        options.target = faulty;
        QTemporaryDir out2;
        options.output = out2.path().toStdString();
        for (const std::string& row : operatorNodes(graph::runGraphVisualize(options).database, "Aten")) {
            const bool gelu = row.starts_with("Aten.gelu.0.forward|");
            QVERIFY2(row.find(gelu ? "|1|[" : "|0|[") != std::string::npos || row.starts_with("Aten.linear.2.forward|"), row.c_str());
        }
    }

    // A node pair matched by hand names its items as the automatic pairing does.
    void handMatchedNodePairNamesItemsByTheAtenSchema()
    {
        // libtorch's addmm (part of nn::Linear) matched to F.linear, backward: the incoming gradient, then the
        // gradients of bias, input and the transposed weight (an intermediate result, left out).
        const compare::NodePairSide addmm { "Aten.addmm.0.backward",
            { "Aten.addmm.0.backward.input.0", "Aten.addmm.0.backward.output.0", "Aten.addmm.0.backward.output.1",
                "Aten.addmm.0.backward.output.2" },
            { 1, 1, 1, 1 } };
        const compare::NodePairSide linear { "Functional.linear.3.backward",
            { "Functional.linear.3.backward.input.0", "Functional.linear.3.backward.output.0", "Functional.linear.3.backward.output.1",
                "Functional.linear.3.backward.output.2" },
            { 1, 1, 1, 1 } };
        compare::NodePairKeys keys = compare::crossRuntimeNodePairKeys(addmm, linear);
        QVERIFY(keys.active);
        QCOMPARE(keys.npu, (std::vector<std::string> { ".input.0", ".output.2", ".output.0", ".addmm.output.2" }));
        QCOMPARE(keys.npuIgnored, (std::vector<std::uint8_t> { 0, 0, 0, 1 }));
        QCOMPARE(keys.bench, (std::vector<std::string> { ".input.0", ".output.0", ".output.1", ".output.2" }));
        // t's gradient is F.linear's weight gradient.
        const compare::NodePairSide t { "Aten.t.0.backward", { "Aten.t.0.backward.input.0", "Aten.t.0.backward.output.0" }, { 1, 1 } };
        keys = compare::crossRuntimeNodePairKeys(t, linear);
        QCOMPARE(keys.npu, (std::vector<std::string> { ".t.input.0", ".output.1" }));
        QCOMPARE(keys.npuIgnored, (std::vector<std::uint8_t> { 1, 0 }));
        // Forward: the aten call's positional dim meets Torch.softmax's dim= keyword; dtype (None, aten only) is left out.
        const compare::NodePairSide aten { "Aten.softmax.0.forward",
            { "Aten.softmax.0.forward.input.0", "Aten.softmax.0.forward.input.1", "Aten.softmax.0.forward.input.2",
                "Aten.softmax.0.forward.output.0" },
            { 1, 0, 0, 1 } };
        const compare::NodePairSide torch { "Torch.softmax.0.forward",
            { "Torch.softmax.0.forward.input.0", "Torch.softmax.0.forward.input.dim", "Torch.softmax.0.forward.output.0" }, { 1, 0, 1 } };
        keys = compare::crossRuntimeNodePairKeys(aten, torch);
        QCOMPARE(keys.npu, (std::vector<std::string> { ".input.self", ".input.dim", ".input.dtype", ".output.0" }));
        QCOMPARE(keys.npuIgnored, (std::vector<std::uint8_t> { 0, 0, 1, 0 }));
        QCOMPARE(keys.bench, (std::vector<std::string> { ".input.self", ".input.dim", ".output.0" }));
        QCOMPARE(keys.benchIgnored, (std::vector<std::uint8_t> { 0, 0, 0 }));
        // Two nodes of one runtime, or a module: by position as before.
        QVERIFY(!compare::crossRuntimeNodePairKeys(torch, torch).active);
        QVERIFY(!compare::crossRuntimeNodePairKeys(aten, aten).active);
        QVERIFY(!compare::crossRuntimeNodePairKeys({ "Module.block.Block.forward.0", {}, {} }, torch).active);
    }

    // graph_visualize --mapping-file with the automatic pairing off: the pairs given by hand still pair their items
    // by aten argument names.
    void mappingFilePairsItemsByAtenArgumentNames()
    {
        QTemporaryDir out;
        const std::filesystem::path dir = out.path().toStdString();
        writeFile(dir / "mapping.json",
            R"({"Aten.layer_norm.0.forward": "Functional.layer_norm.0.forward", "Aten.softmax.0.forward": "Torch.softmax.0.forward"})");
        graph::GraphRunOptions options;
        options.target = sideDir("aten");
        options.golden = sideDir("python");
        options.output = dir / "out";
        options.crossRuntime = compare::CrossRuntime::Off;
        options.mappingFile = dir / "mapping.json";
        const auto db = graph::runGraphVisualize(options).database;
        auto node = [&](const char* name) {
            const auto rows = queryRows(db, std::string("SELECT input_data FROM tb_nodes WHERE data_source = 'NPU' AND node_name = '") + name + "'");
            return rows.size() == 1 ? nlohmann::json::parse(rows[0]) : nlohmann::json();
        };
        const auto resultOf = [](const nlohmann::json& item) { return item.value("Result", std::string()); };
        const auto norm = node("Aten.layer_norm.0.forward"), softmax = node("Aten.softmax.0.forward");
        QVERIFY(norm.is_object() && softmax.is_object());
        QCOMPARE(q(resultOf(norm.at("Aten.layer_norm.0.forward.input.4"))), QStringLiteral("pass"));
        QCOMPARE(q(resultOf(norm.at("Aten.layer_norm.0.forward.input.5"))), QStringLiteral("null")); // cudnn_enable: not compared
        QCOMPARE(q(resultOf(softmax.at("Aten.softmax.0.forward.input.1"))), QStringLiteral("pass"));
        const auto precision = queryRows(db, "SELECT precision_index FROM tb_nodes WHERE data_source = 'NPU' AND node_name IN "
                                             "('Aten.layer_norm.0.forward', 'Aten.softmax.0.forward')");
        QCOMPARE(precision, (std::vector<std::string> { "0", "0" }));
    }

    void graphSummaryIsInformationUnlessManyNodesAreUnpaired()
    {
        QTemporaryDir out;
        const auto run = runCli({ "graph_visualize", "-tp", q(sideDir("aten").string()), "-gp", q(sideDir("python").string()), "-o", out.path() });
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        QVERIFY2(run.err.contains("[INFO] cross-runtime pairing (counted per module call): 11 of 11 operator nodes paired\n"), qPrintable(run.err));
        QVERIFY2(!run.err.contains("[WARNING]"), qPrintable(run.err));

        // Two of the eleven C++ calls (18%) become operators the Python dump does not have: still the same line
        // as information, and a warning since more than a tenth were compared with nothing.
        QTemporaryDir dir;
        const std::filesystem::path unpaired = dir.path().toStdString();
        for (const char* file : { "dump.json", "construct.json" }) {
            std::string text = readText(sideDir("aten") / file);
            text = replaced(replaced(text, "Aten.gelu.0.", "Aten.mystery_op.0."), "Aten.softmax.0.", "Aten.other_op.0.");
            writeFile(unpaired / file, text);
        }
        writeFile(unpaired / "stack.json", "{}");
        QTemporaryDir out2;
        const auto many = runCli({ "graph_visualize", "-tp", q(unpaired.string()), "-gp", q(sideDir("python").string()), "-o", out2.path() });
        QVERIFY2(many.exitCode == 0, qPrintable(many.err));
        QVERIFY2(many.err.contains("[INFO] cross-runtime pairing (counted per module call): 9 of 11 operator nodes paired; not paired: "
                                   "Aten.other_op.0.forward, Aten.mystery_op.0.forward\n"),
            qPrintable(many.err));
        QVERIFY2(many.err.contains("[WARNING] cross-runtime pairing left 2 of 11 operator nodes without a partner: more than a tenth "
                                   "were not compared with anything\n"),
            qPrintable(many.err));
    }

    void cliSummaryAndJsonSayHowRowsPaired()
    {
        QTemporaryDir out;
        const auto run = runCli({ "compare", "-tp", q((sideDir("aten") / "dump.json").string()), "-gp",
            q((sideDir("python") / "dump.json").string()), "-o", out.path(), "--json", "--no-progress" });
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        QVERIFY2(run.out.contains("cross-runtime pairing (target: C++ Aten ops, golden: Python APIs, counted per module call)"),
            qPrintable(run.out));
        QVERIFY2(run.out.contains("0 unpaired (warnings), 5 one-runtime-only argument rows left out"), qPrintable(run.out));
        QVERIFY2(run.out.contains("first divergence: none"), qPrintable(run.out));
        const QStringList verdicts = QDir(out.path()).entryList({ "compare_verdict_*.json" });
        QCOMPARE(verdicts.size(), 1);
        const auto verdict = nlohmann::json::parse(readText((std::filesystem::path(out.path().toStdString()) / verdicts[0].toStdString())));
        const auto& cross = verdict["pairs"][0]["cross_runtime"];
        QCOMPARE(cross["target_runtime"].get<std::string>(), std::string("aten"));
        QCOMPARE(cross["unpaired_rows"].get<std::size_t>(), std::size_t(0));
        QCOMPARE(cross["ignored_argument_rows"].get<std::size_t>(), std::size_t(5));
        QCOMPARE(cross["paired_rows"].get<std::size_t>(), verdict["pairs"][0]["rows"].get<std::size_t>());

        // The HTML report has the same line.
        QTemporaryDir htmlOut;
        const auto html = runCli({ "compare", "-tp", q((sideDir("aten") / "dump.json").string()), "-gp",
            q((sideDir("python") / "dump.json").string()), "-o", htmlOut.path(), "--html", "--no-progress" });
        QVERIFY2(html.exitCode == 0, qPrintable(html.err));
        const QStringList reports = QDir(htmlOut.path()).entryList({ "*.html" });
        QCOMPARE(reports.size(), 1);
        const std::string report = readText(std::filesystem::path(htmlOut.path().toStdString()) / reports[0].toStdString());
        QVERIFY2(report.find("<p class=note>cross-runtime pairing (target: C++ Aten ops, golden: Python APIs, counted per module call): "
                             + std::to_string(cross["paired_rows"].get<std::size_t>())
                             + " rows paired, 0 unpaired (warnings), 5 one-runtime-only argument rows left out</p>")
                != std::string::npos,
            report.c_str());

        const auto refused = runCli({ "compare", "-tp", q((sideDir("aten") / "dump.json").string()), "-gp",
            q((sideDir("python") / "dump.json").string()), "-o", out.path(), "--cross-runtime", "-fm" });
        QCOMPARE(refused.exitCode, 2);
        QVERIFY2(refused.err.contains("--cross-runtime cannot be combined with -dm, -cm, -fm or --consistent_check"), qPrintable(refused.err));
    }
};

QTEST_GUILESS_MAIN(TestCompareCrossRuntime)
#include "tst_compare_crossruntime.moc"
