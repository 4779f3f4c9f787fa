// SPDX-License-Identifier: Apache-2.0
// Cross-runtime pairing of backward gradient lists. Python msprobe's backward `output` lists are irregular (seen in
// the genuine tool's dumps of tests' tiny transformer): null for a non-tensor argument (Tensor.__mul__(x, 0.35) ->
// [grad, null]), fewer gradients than inputs ([] for an Embedding module fed indices, a single weight-shaped one
// for Functional.linear). Our capture writes one gradient per tensor input (null where none flowed). The two
// dumps below are written by hand in each tool's style for the same three calls.
#include "compare_pairs.h"
#include "test_util.h"

#include "compare/compare_engine.h"
#include "compare/divergence.h"
#include "dump/dump_json_reader.h"

using namespace msprobe;
using namespace msprobe::test;

namespace {

std::string tensor(const char* shape, double max, double norm, const char* dtype = "torch.float32")
{
    return std::string(R"({"type": "torch.Tensor", "dtype": ")") + dtype + R"(", "shape": )" + shape + R"(, "Max": )"
        + std::to_string(max) + R"(, "Min": -1.0, "Mean": 0.0, "Norm": )" + std::to_string(norm) + R"(, "requires_grad": true})";
}

std::string dumpText(const std::string& entries)
{
    return R"({"task": "statistics", "level": "mix", "framework": "pytorch", "dump_data_dir": null, "data": {)" + entries + "}}";
}

// What both runtimes compute for the calls: x * 0.5, linear(x, w, b), an Embedding module fed int64 indices.
const std::string kX = tensor("[2, 3]", 1.0, 2.0), kW = tensor("[4, 3]", 1.5, 3.0), kB = tensor("[4]", 0.5, 1.0);
const std::string kY = tensor("[2, 4]", 2.0, 4.0), kIdx = tensor("[2]", 3.0, 3.5, "torch.int64"), kE = tensor("[2, 3]", 0.25, 0.5);
const std::string kGradY = tensor("[2, 4]", 0.125, 0.75), kGradX = tensor("[2, 3]", 0.375, 1.25);
const std::string kGradW = tensor("[4, 3]", 0.625, 1.75), kGradB = tensor("[4]", 0.875, 2.25);
const std::string kGradE = tensor("[2, 3]", 0.0625, 0.25), kScale = R"({"type": "float", "value": 0.5})";

std::string atenSide(const std::string& gradW = kGradW)
{
    return dumpText(R"("Aten.mul.0.forward": {"input_args": [)" + kX + "," + kScale + R"(], "input_kwargs": {}, "output": [)" + kX + R"(]},
        "Aten.linear.0.forward": {"input_args": [)" + kX + "," + kW + "," + kB + R"(], "input_kwargs": {}, "output": [)" + kY + R"(]},
        "Module.emb.Embedding.forward.0": {"input_args": [)" + kIdx + R"(], "input_kwargs": {}, "output": [)" + kE + R"(], "parameters": {}},
        "Module.emb.Embedding.backward.0": {"input": [)" + kGradE + R"(], "output": [null]},
        "Aten.linear.0.backward": {"input": [)" + kGradY + R"(], "output": [)" + kGradX + "," + gradW + "," + kGradB + R"(]},
        "Aten.mul.0.backward": {"input": [)" + kGradX + R"(], "output": [)" + kGradX + "]}");
}

std::string pythonSide()
{
    return dumpText(R"("Tensor.__mul__.0.forward": {"input_args": [)" + kX + "," + kScale + R"(], "input_kwargs": {}, "output": [)" + kX + R"(]},
        "Functional.linear.0.forward": {"input_args": [)" + kX + "," + kW + "," + kB + R"(], "input_kwargs": {}, "output": [)" + kY + R"(]},
        "Module.emb.Embedding.forward.0": {"input_args": [)" + kIdx + R"(], "input_kwargs": {}, "output": [)" + kE + R"(], "parameters": {}},
        "Module.emb.Embedding.backward.0": {"input": [)" + kGradE + R"(], "output": []},
        "Functional.linear.0.backward": {"input": [)" + kGradY + R"(], "output": [)" + kGradW + R"(]},
        "Tensor.__mul__.0.backward": {"input": [)" + kGradX + R"(], "output": [)" + kGradX + ", null]}");
}

std::unique_ptr<compare::CompareTable> compareTexts(const std::string& target, const std::string& golden)
{
    dump::DumpJsonReader npuReader, benchReader;
    return compare::compareDumps(npuReader.parse(target, "target.json"), benchReader.parse(golden, "golden.json"), {}, false, {}, {}, {});
}

} // namespace

class TestCompareCrossRuntimeGrads : public QObject {
    Q_OBJECT

private slots:
    void irregularPythonGradientListsPairByShape()
    {
        const auto table = compareTexts(atenSide(), pythonSide());
        const compare::CrossRuntimeReport& report = table->crossRuntime;
        QVERIFY(report.active);
        QCOMPARE(report.unpairedRows, std::size_t(0));
        QVERIFY2(report.unpairedBenchEntries.empty(), report.unpairedBenchEntries.empty() ? "" : report.unpairedBenchEntries[0].c_str());
        // Left out: linear's input and bias gradients (Python lists the weight's only), the Embedding's null, mul's
        // float argument on the forward is a Python argument both have (paired, not left out).
        QCOMPARE(report.ignoredRows, std::size_t(3));
        const auto pairs = pairsOf(*table);
        QCOMPARE(q(pairs.at("Aten.mul.0.backward.output.0")), QStringLiteral("Tensor.__mul__.0.backward.output.0"));
        QCOMPARE(q(pairs.at("Aten.linear.0.backward.output.1")), QStringLiteral("Functional.linear.0.backward.output.0"));
        QCOMPARE(q(pairs.at("Aten.linear.0.backward.input.0")), QStringLiteral("Functional.linear.0.backward.input.0"));
        QCOMPARE(q(pairs.at("Module.emb.Embedding.backward.0.input.0")), QStringLiteral("Module.emb.Embedding.backward.0.input.0"));
        QVERIFY(!pairs.contains("Aten.linear.0.backward.output.0"));
        QVERIFY(!pairs.contains("Aten.linear.0.backward.output.2"));
        QVERIFY(!pairs.contains("Module.emb.Embedding.backward.0.output.0"));
        QCOMPARE(table->countLevel(compare::ResultLevel::Pass), table->rows.size());
        QVERIFY(!compare::firstDivergence(*table));
    }

    void pythonAgainstAtenPairsTheSameGradients()
    {
        const auto table = compareTexts(pythonSide(), atenSide());
        const compare::CrossRuntimeReport& report = table->crossRuntime;
        QVERIFY(report.active);
        QCOMPARE(report.unpairedRows, std::size_t(0));
        QVERIFY(report.unpairedBenchEntries.empty());
        QCOMPARE(report.ignoredRows, std::size_t(1)); // Tensor.__mul__'s null
        const auto pairs = pairsOf(*table);
        QCOMPARE(q(pairs.at("Functional.linear.0.backward.output.0")), QStringLiteral("Aten.linear.0.backward.output.1"));
        QCOMPARE(table->countLevel(compare::ResultLevel::Pass), table->rows.size());
    }

    void faultInAGradientIsFoundAtItsBackward()
    {
        // The weight's gradient differs on the C++ side: found at linear's backward, not hidden by the shapes.
        const auto table = compareTexts(atenSide(tensor("[4, 3]", 6.5, 17.5)), pythonSide());
        const auto point = compare::firstDivergence(*table);
        QVERIFY(point);
        QCOMPARE(q(point->entry), QStringLiteral("Aten.linear.0.backward"));
        QCOMPARE(table->countLevel(compare::ResultLevel::Pass), table->rows.size() - 1);
    }

    void regularListsStillPairByPosition()
    {
        // Same length, no nulls: position decides, so a gradient of the wrong shape shows as a difference.
        std::string python = pythonSide();
        const std::string from = R"("output": [)" + kGradW + "]", to = R"("output": [)" + kGradX + "," + kGradW + "," + kGradB + "]";
        python.replace(python.find(from), from.size(), to);
        const auto pairs = pairsOf(*compareTexts(atenSide(), python));
        QCOMPARE(q(pairs.at("Aten.linear.0.backward.output.0")), QStringLiteral("Functional.linear.0.backward.output.0"));
        QCOMPARE(q(pairs.at("Aten.linear.0.backward.output.2")), QStringLiteral("Functional.linear.0.backward.output.2"));
    }
};

QTEST_GUILESS_MAIN(TestCompareCrossRuntimeGrads)
#include "tst_compare_crossruntime_grads.moc"
