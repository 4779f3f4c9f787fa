// SPDX-License-Identifier: Apache-2.0
// The first-divergence summary on hand-made statistics dumps and on the bundled sample pair: statistic diffs are
// measured against the tensor's magnitude, so a near-zero Mean that doubles does not count as a divergence.
#include "test_util.h"
#include "tst_compare_divergence_inputs.h"

#include "compare/compare_engine.h"
#include "compare/divergence.h"

using namespace msprobe;
using namespace divergence_inputs;

namespace {

std::optional<compare::DivergencePoint> divergenceOf(const std::string& npu, const std::string& bench, double relative)
{
    const auto table = compare::compareDumps(parseDump(npu), parseDump(bench), {}, false, compare::CompareOptions {});
    compare::DivergenceTolerance tolerance;
    tolerance.relative = relative;
    return compare::firstDivergence(*table, tolerance);
}

} // namespace

class TestCompareDivergence : public QObject {
    Q_OBJECT

private slots:
    void nearZeroMeanIsNotADivergence()
    {
        // Mean 1e-9 vs 3e-9 is a 200% change of the Mean but 1e-9 of the tensor's range (2.0).
        const std::string npu = entry("Functional.layer_norm.0.backward", kSame, tensor("2.0", "-2.0", "1e-09", "3.0"))
            + "," + entry("Functional.relu.0.forward", kSame, tensor("2.0", "0.0", "0.5", "3.0"));
        const std::string bench = entry("Functional.layer_norm.0.backward", kSame, tensor("2.0", "-2.0", "3e-09", "3.0"))
            + "," + entry("Functional.relu.0.forward", kSame, tensor("2.1", "0.0", "0.5", "3.0"));
        const auto point = divergenceOf(npu, bench, 0.01);
        QVERIFY(point.has_value());
        QCOMPARE(point->entry, std::string("Functional.relu.0.forward"));
        QCOMPARE(point->row, std::size_t(3));
        // |2.0 - 2.1| / max(|2.0|, |0.0|, |2.1|, |0.0|) = 4.76%
        QCOMPARE(point->reason, std::string("output 0 Max relative error 0.0476 > 0.01 (2.0 vs 2.1, of max(|Max|, |Min|)) with inputs within tolerance"));
        // Within a 5% tolerance nothing diverges.
        QVERIFY(!divergenceOf(npu, bench, 0.05).has_value());
    }

    void normIsScaledByTheNorm()
    {
        // Norm 100 vs 100.5: 0.4975% of the larger Norm.
        const std::string npu = entry("Functional.linear.0.forward", kSame, tensor("2.0", "-2.0", "0.5", "100.0"));
        const std::string bench = entry("Functional.linear.0.forward", kSame, tensor("2.0", "-2.0", "0.5", "100.5"));
        QVERIFY(!divergenceOf(npu, bench, 0.005).has_value());
        const auto point = divergenceOf(npu, bench, 0.004);
        QVERIFY(point.has_value());
        QCOMPARE(point->reason, std::string("output 0 Norm relative error 0.00498 > 0.004 (100.0 vs 100.5, of the Norm) with inputs within tolerance"));
    }

    void entriesWithDivergentInputsAreSkipped()
    {
        // gelu's input already differs (so it is not where things go wrong); the add after it is the first entry
        // whose inputs agree and whose output does not.
        const std::string npu = entry("Functional.gelu.0.forward", tensor("1.0", "-1.0", "0.0", "2.0"), tensor("1.0", "0.0", "0.3", "1.0"))
            + "," + entry("Tensor.add.0.forward", kSame, tensor("4.0", "-4.0", "1.0", "6.0"));
        const std::string bench = entry("Functional.gelu.0.forward", tensor("1.5", "-1.0", "0.0", "2.0"), tensor("1.5", "0.0", "0.3", "1.0"))
            + "," + entry("Tensor.add.0.forward", kSame, tensor("4.0", "-4.0", "1.2", "6.0"));
        const auto point = divergenceOf(npu, bench, 0.01);
        QVERIFY(point.has_value());
        QCOMPARE(point->entry, std::string("Tensor.add.0.forward"));
        QCOMPARE(point->reason, std::string("output 0 Mean relative error 0.05 > 0.01 (1.0 vs 1.2, of max(|Max|, |Min|)) with inputs within tolerance"));
    }

    // The bundled pair differs only in the GELU approximation of block 1: the functional gelu's own "approximate"
    // argument differs, so it is named (not the GELU module around it, nor Functional.layer_norm.4.backward, whose
    // near-zero Mean moves by 200%).
    void samplePairNamesTheGelu()
    {
        const std::string samples = MSPROBE_SAMPLES;
        const auto table = compare::compareDumpFiles(samples + "/problem/step0/rank0/dump.json", samples + "/bench/step0/rank0/dump.json", compare::CompareOptions {});
        const auto point = compare::firstDivergence(*table);
        QVERIFY(point.has_value());
        QCOMPARE(point->entry, std::string("Functional.gelu.1.forward"));
        QCOMPARE(point->reason, std::string("kwarg approximate 'tanh' vs 'none'"));
        QVERIFY(!compare::firstNanInf(*table).has_value());
    }
};

QTEST_APPLESS_MAIN(TestCompareDivergence)
#include "tst_compare_divergence.moc"
