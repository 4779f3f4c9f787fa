// SPDX-License-Identifier: Apache-2.0
// Hand-computed cases for the compare metrics: Python/pandas formatting, statistics diff rules, tensor metrics
// (numpy dtype rules, NaN/Inf, shapes, 0-d, empty, bf16) and the Result checkers. Each expectation is worked
// out in the comment next to it.
#include "test_util.h"

#include "compare/mapping_yaml.h"
#include "compare/matching.h"
#include "compare/py_value.h"
#include "compare/result_rules.h"
#include "compare/stats_diff.h"
#include "compare/tensor_metrics.h"
#include "support/error.h"

#include <cmath>
#include <limits>

using namespace msprobe;

namespace {

std::pair<std::string, std::string> diff(const compare::PyVal& a, const compare::PyVal& b, bool intA = false, bool intB = false)
{
    std::string d, r;
    compare::statisticDiff(a, b, intA, intB, d, r);
    return { d, r };
}

dump::TensorData tensor(dump::ElementType type, std::vector<std::int64_t> shape, std::vector<double> values)
{
    dump::TensorData t;
    t.elementType = type;
    t.shape = std::move(shape);
    t.values = std::move(values);
    return t;
}

std::string text(const compare::PyVal& v) { return compare::pyText(v); }

compare::RuleRow row(bool output, bool matched = true)
{
    compare::RuleRow r;
    r.isOutput = output;
    r.matched = matched;
    r.npuMax = r.npuMin = r.benchMax = r.benchMin = compare::PyVal::real(1.0);
    r.npuReqGrad = r.benchReqGrad = "True";
    r.npuDtype = r.benchDtype = "torch.float32";
    r.npuShape = r.benchShape = "[2, 3]";
    r.normRelativeErr = "0";
    r.cosine = r.oneThousandth = compare::PyVal::real(1.0);
    r.npuMd5 = r.benchMd5 = "00000000";
    return r;
}

std::vector<compare::RuleOutcome> rules(compare::CompareMode mode, const std::vector<compare::RuleRow>& rows)
{
    std::vector<compare::RuleOutcome> out(rows.size());
    compare::applyResultRules(mode, rows, out);
    return out;
}

} // namespace

class TestCompareMetrics : public QObject {
    Q_OBJECT

private slots:
    void pythonFormatting()
    {
        auto repr = [](double x) { return compare::pyText(compare::PyVal::real(x)); };
        QCOMPARE(repr(1e-05), std::string("1e-05"));
        QCOMPARE(repr(0.0001), std::string("0.0001"));
        QCOMPARE(repr(1e16), std::string("1e+16"));
        QCOMPARE(repr(123.0), std::string("123.0"));
        QCOMPARE(repr(0.1 + 0.2), std::string("0.30000000000000004"));
        QCOMPARE(repr(-2.5e-07), std::string("-2.5e-07"));
        QCOMPARE(compare::pyText(compare::PyVal::real(NAN)), std::string("Nan")); // a NaN cell is the string "Nan"
        QCOMPARE(compare::pyText(compare::PyVal::boolean(true)), std::string("True"));
        // float('{:.12f}'.format(x)): 1/3 -> 0.333333333333, 5e-13 -> 0.000000000001 rounds up, 4e-13 -> 0.0
        QCOMPARE(compare::roundTo12Decimals(1.0 / 3.0), 0.333333333333);
        QCOMPARE(compare::roundTo12Decimals(4e-13), 0.0);
        QCOMPARE(compare::roundTo6Decimals(0.999998786893), 0.999999);
        // zlib crc32: the standard check value of "123456789" is cbf43926; "" is 00000000.
        QCOMPARE(compare::crc32Hex("123456789"), std::string("cbf43926"));
        QCOMPARE(compare::crc32Hex(""), std::string("00000000"));
        QCOMPARE(compare::crc32Hex("True"), std::string("5dcee3b3")); // zlib.crc32(b'True')
        QVERIFY(compare::hasFormulaPrefix("=cmd"));
        QVERIFY(compare::hasFormulaPrefix("a;@b"));
        QVERIFY(compare::hasFormulaPrefix("\xEF\xBC\x8B" "1")); // full-width plus
        QVERIFY(!compare::hasFormulaPrefix("Functional.relu.0.forward"));
        std::string json;
        support::appendJsonString(json, "a\"b\n\xC3\xA9");
        QCOMPARE(json, std::string("\"a\\\"b\\n\\u00e9\"")); // json.dumps ensure_ascii
    }

    void pandasParsing()
    {
        // pandas' precise_xstrtod: 17 digits then one division by 1e17 -- not the correctly rounded double.
        // "-0.0782649964094162" - "-0.07826502621173859" gives 2.9802322304428586e-08 in pandas (checked against
        // the reference CSV), while exact parsing gives 2^-25 = 2.9802322387695312e-08.
        const double a = compare::pandasStrtod("-0.0782649964094162"), b = compare::pandasStrtod("-0.07826502621173859");
        QCOMPARE(compare::pyText(compare::PyVal::real(a - b)), std::string("2.9802322304428586e-08"));
        QCOMPARE(compare::pandasStrtod("1e-05"), 1e-05);
        QCOMPARE(compare::pandasStrtod("29"), 29.0);
        double value = 0;
        bool isInt = false;
        std::int64_t i = 0;
        QVERIFY(compare::parsePandasNumber("-3", value, isInt, i) && isInt && i == -3);
        QVERIFY(compare::parsePandasNumber("2.5", value, isInt, i) && !isInt);
        QVERIFY(!compare::parsePandasNumber("tanh", value, isInt, i));
        QCOMPARE(compare::percentToFraction("60.0%"), 0.6);
        QCOMPARE(compare::percentToFraction("N/A"), 0.0); // float() raises -> 0
        QVERIFY(std::isinf(compare::percentToFraction("inf")));
    }

    void statisticsRules()
    {
        // NUM, NUM: 10.0 - 5.0 = 5.0; |5 / 5 * 100| = 100.0%
        QCOMPARE(diff(compare::PyVal::real(10.0), compare::PyVal::real(5.0)), std::make_pair(std::string("5.0"), std::string("100.0%")));
        // equal text -> "0", "0" (also for None/None and N/A/N/A)
        QCOMPARE(diff(compare::PyVal::real(1.5), compare::PyVal::real(1.5)), std::make_pair(std::string("0"), std::string("0")));
        QCOMPARE(diff(compare::PyVal::str("None"), compare::PyVal::str("None")), std::make_pair(std::string("0"), std::string("0")));
        // bench == 0 -> rel "inf" (DOC != CODE: docs say N/A)
        QCOMPARE(diff(compare::PyVal::real(1.5), compare::PyVal::real(0.0)), std::make_pair(std::string("1.5"), std::string("inf")));
        // int64 columns: 29 - 30 = -1; |-1 / 30 * 100| = 3.3333333333333335%
        QCOMPARE(diff(compare::PyVal::integer(29), compare::PyVal::integer(30), true, true), std::make_pair(std::string("-1"), std::string("3.3333333333333335%")));
        // float64 columns (a None elsewhere in the column): 29 - 30 = -1.0
        QCOMPARE(diff(compare::PyVal::integer(29), compare::PyVal::integer(30)).first, std::string("-1.0"));
        // NaN with a number -> Nan; inf/-inf rules
        QCOMPARE(diff(compare::PyVal::str("Nan"), compare::PyVal::real(1.0)).first, std::string("Nan"));
        QCOMPARE(diff(compare::PyVal::real(1.0), compare::PyVal::str("Nan")).second, std::string("Nan"));
        QCOMPARE(diff(compare::PyVal::real(INFINITY), compare::PyVal::real(1.0)).first, std::string("inf"));
        QCOMPARE(diff(compare::PyVal::real(-INFINITY), compare::PyVal::real(1.0)).first, std::string("-inf"));
        QCOMPARE(diff(compare::PyVal::real(1.0), compare::PyVal::real(INFINITY)).first, std::string("-inf"));
        QCOMPARE(diff(compare::PyVal::real(1.0), compare::PyVal::real(-INFINITY)).second, std::string("inf"));
        QCOMPARE(diff(compare::PyVal::real(INFINITY), compare::PyVal::real(-INFINITY)).first, std::string("inf"));
        // devices: both -> N/A; device vs number -> Diff; other text -> Diff; N/A with anything -> N/A
        QCOMPARE(diff(compare::PyVal::str("npu:0"), compare::PyVal::str("cpu")).first, std::string("N/A"));
        QCOMPARE(diff(compare::PyVal::str("cuda:0"), compare::PyVal::real(1.0)).first, std::string("Diff"));
        QCOMPARE(diff(compare::PyVal::str("abc"), compare::PyVal::real(1.0)).first, std::string("Diff"));
        QCOMPARE(diff(compare::PyVal::str("tanh"), compare::PyVal::str("none")).second, std::string("Diff"));
        QCOMPARE(diff(compare::PyVal::boolean(true), compare::PyVal::boolean(false)).first, std::string("Diff")); // bools are OTHER
        QCOMPARE(diff(compare::PyVal::real(1.0), compare::PyVal::str("N/A")).first, std::string("N/A"));
        // a numeric string is NUM: "3" - 1.0 = 2.0; |2/1*100| = 200.0%
        QCOMPARE(diff(compare::PyVal::str("3"), compare::PyVal::real(1.0)), std::make_pair(std::string("2.0"), std::string("200.0%")));
        QVERIFY(compare::classifyStat(compare::PyVal::str("INF")) == compare::StatClass::Inf);
        QVERIFY(compare::classifyStat(compare::PyVal::str("True")) == compare::StatClass::Other);
    }

    void tensorIdentical()
    {
        // identical float32 [1, 2, 3, 4]: cosine 1.0 (dot/(|n||b|) rounds to 1 at 12 decimals), distance 0, errors 0,
        // every relative error 0 < 0.001 -> ratios 1.0
        const auto t = tensor(dump::ElementType::Float32, { 4 }, { 1, 2, 3, 4 });
        const auto m = compare::compareTensors(t, t);
        QCOMPARE(text(m.cells[0]), std::string("1.0"));
        QCOMPARE(text(m.cells[1]), std::string("0.0"));
        QCOMPARE(text(m.cells[2]), std::string("0.0"));
        QCOMPARE(text(m.cells[3]), std::string("0.0"));
        QCOMPARE(text(m.cells[4]), std::string("1.0"));
        QCOMPARE(text(m.cells[5]), std::string("1.0"));
    }

    void tensorHandComputed()
    {
        // n = [1, 2], b = [1, 4] (float64): dot 9, |n| = sqrt 5, |b| = sqrt 17, cos = 9/sqrt 85 = 0.97618706018395..
        // -> 0.976187060184; EucDist = |[0, -2]| = 2.0; MaxAbsErr 2.0; RE = [0, 0.5] -> MaxRelativeErr 0.5;
        // one of two below 0.001 and 0.005 -> 0.5, 0.5
        const auto m = compare::compareTensors(tensor(dump::ElementType::Float64, { 2 }, { 1, 2 }), tensor(dump::ElementType::Float64, { 2 }, { 1, 4 }));
        QCOMPARE(m.cells[0].f, 0.976187060184);
        QCOMPARE(m.cells[1].f, 2.0);
        QCOMPARE(m.cells[2].f, 2.0);
        QCOMPARE(m.cells[3].f, 0.5);
        QCOMPARE(m.cells[4].f, 0.5);
        QCOMPARE(m.cells[5].f, 0.5);
    }

    void tensorZeroBench()
    {
        // b all zero: both norms? |n| = 1 > eps, |b| = 0 -> cosine Nan. RE where b == 0 adds eps to both sides:
        // (1 + eps - eps) / eps = 1/eps = 4503599627370496.0 and (eps - eps)/eps = 0 -> MaxRelativeErr 4503599627370496.0,
        // one of two below the thresholds -> 0.5
        const auto m = compare::compareTensors(tensor(dump::ElementType::Float64, { 2 }, { 1, 0 }), tensor(dump::ElementType::Float64, { 2 }, { 0, 0 }));
        QCOMPARE(text(m.cells[0]), std::string("Nan"));
        QVERIFY(m.message.find("All the data is Zero in Bench dump data.") != std::string::npos);
        QCOMPARE(m.cells[3].f, 4503599627370496.0);
        QCOMPARE(m.cells[4].f, 0.5);
        // both all zero -> cosine 1.0
        const auto z = compare::compareTensors(tensor(dump::ElementType::Float32, { 3 }, { 0, 0, 0 }), tensor(dump::ElementType::Float32, { 3 }, { 0, 0, 0 }));
        QCOMPARE(z.cells[0].f, 1.0);
    }

    void tensorNanInf()
    {
        // NaN at the same place: zeroed on both sides. n = [0, 1, 2], b = [0, 1, 3]: cos = 7 / sqrt(5 * 10)
        // = 0.98994949366 -> 0.989949493661; EucDist 1.0; MaxAbsErr 1.0; RE = [0 (eps/eps - 1 = 0), 0, 1/3]
        // -> 0.333333333333; 2 of 3 below 0.001 -> 0.666666666667
        const double nan = std::numeric_limits<double>::quiet_NaN();
        const auto m = compare::compareTensors(tensor(dump::ElementType::Float64, { 3 }, { nan, 1, 2 }), tensor(dump::ElementType::Float64, { 3 }, { nan, 1, 3 }));
        QCOMPARE(m.cells[0].f, 0.989949493661);
        QCOMPARE(m.cells[1].f, 1.0);
        QCOMPARE(m.cells[3].f, 0.333333333333);
        QCOMPARE(m.cells[4].f, 0.666666666667);
        // +inf vs -inf at the same place counts as matching (masks of isinf are equal)
        const auto inf = compare::compareTensors(tensor(dump::ElementType::Float64, { 2 }, { INFINITY, 1 }), tensor(dump::ElementType::Float64, { 2 }, { -INFINITY, 1 }));
        QCOMPARE(inf.cells[2].f, 0.0);
        // NaN on one side only -> all six N/A
        const auto bad = compare::compareTensors(tensor(dump::ElementType::Float64, { 2 }, { nan, 1 }), tensor(dump::ElementType::Float64, { 2 }, { 1, 1 }));
        for (const auto& cell : bad.cells)
            QCOMPARE(text(cell), std::string("N/A"));
        QCOMPARE(bad.message, std::string("The position of inf or nan in NPU and bench Tensor do not match."));
    }

    void tensorShapes()
    {
        // np.squeeze: [1, 4] and [4] compare; [2, 2] vs [4] -> "shape unmatched" x6
        const auto a = tensor(dump::ElementType::Float32, { 1, 4 }, { 1, 2, 3, 4 });
        const auto b = tensor(dump::ElementType::Float32, { 4 }, { 1, 2, 3, 4 });
        QCOMPARE(compare::compareTensors(a, b).cells[0].f, 1.0);
        const auto c = tensor(dump::ElementType::Float32, { 2, 2 }, { 1, 2, 3, 4 });
        const auto m = compare::compareTensors(c, b);
        for (const auto& cell : m.cells)
            QCOMPARE(text(cell), std::string("shape unmatched"));
        // empty NPU tensor -> unsupported x6
        const auto empty = compare::compareTensors(tensor(dump::ElementType::Float32, { 0, 3 }, {}), tensor(dump::ElementType::Float32, { 0, 3 }, {}));
        for (const auto& cell : empty.cells)
            QCOMPARE(text(cell), std::string("unsupported"));
        QCOMPARE(empty.message, std::string("This is empty data, can not compare."));
    }

    void tensorZeroD()
    {
        // [1] squeezes to 0-d: Cosine, EucDist and the ratios unsupported; MaxAbsErr |3 - 1| = 2.0 in float32;
        // RE |(3 - 1) / 1| = 2.0
        const auto m = compare::compareTensors(tensor(dump::ElementType::Float32, { 1 }, { 3 }), tensor(dump::ElementType::Float32, {}, { 1 }));
        QCOMPARE(text(m.cells[0]), std::string("unsupported"));
        QCOMPARE(text(m.cells[1]), std::string("unsupported"));
        QCOMPARE(m.cells[2].f, 2.0);
        QCOMPARE(m.cells[3].f, 2.0);
        QCOMPARE(text(m.cells[4]), std::string("unsupported"));
        QCOMPARE(text(m.cells[5]), std::string("unsupported"));
    }

    void tensorBf16AndDtypes()
    {
        // bf16 [1, 2] is widened to float32; vs float32 [1, 2.0078125] the relative error is computed in float32:
        // (2 - 2.0078125) / 2.0078125 = -0.0038910505827516317 (f32) -> MaxRelativeErr 0.003891050583;
        // it is not < f32(0.001) but is < f32(0.005): ratios 0.5 and 1.0. Cosine 0.99999878689.. > 0.9999 -> round
        // to 6 decimals = 0.999999; EucDist |2 - 2.0078125| = 0.0078125
        const auto m = compare::compareTensors(tensor(dump::ElementType::BFloat16, { 2 }, { 1, 2 }), tensor(dump::ElementType::Float32, { 2 }, { 1, 2.0078125 }));
        QCOMPARE(m.cells[0].f, 0.999999);
        QCOMPARE(m.cells[1].f, 0.0078125);
        QCOMPARE(m.cells[3].f, 0.003891050583);
        QCOMPARE(m.cells[4].f, 0.5);
        QCOMPARE(m.cells[5].f, 1.0);
        QVERIFY(m.message.empty()); // bf16 -> float32 on both sides: same numpy dtype
        // float16 vs float32: dtype message, metrics still computed
        const auto d = compare::compareTensors(tensor(dump::ElementType::Float16, { 2 }, { 1, 2 }), tensor(dump::ElementType::Float32, { 2 }, { 1, 2 }));
        QCOMPARE(d.message, std::string("Dtype of NPU and bench tensor do not match."));
        QCOMPARE(d.cells[0].f, 1.0);
        // int64: relative error in float64; [1, 3] vs [1, 2] -> RE [0, 0.5]
        const auto i = compare::compareTensors(tensor(dump::ElementType::Int64, { 2 }, { 1, 3 }), tensor(dump::ElementType::Int64, { 2 }, { 1, 2 }));
        QCOMPARE(i.cells[3].f, 0.5);
        QCOMPARE(i.cells[2].f, 1.0);
    }

    void resultRulesStatistics()
    {
        // input NormRelativeErr 0.05% (0.0005 < 0.1) and output 60.0% (0.6 > 0.5) -> RelativeErr error on the
        // output row; RelativeWarn: 0.6 / 0.0005 > 10 -> warning appended on the first output row.
        std::vector<compare::RuleRow> rows = { row(false), row(true) };
        rows[0].normRelativeErr = "0.05%";
        rows[1].normRelativeErr = "60.0%";
        auto out = rules(compare::CompareMode::Statistics, rows);
        QVERIFY(out[0].level == compare::ResultLevel::Pass);
        QVERIFY(out[1].level == compare::ResultLevel::Error);
        QCOMPARE(compare::errMessageText(out[1].messages), std::string("[\"error: The NormRelativeErr of output is greater than 0.5.\", "
                                                              "\"warning: The norm relative error of output is 10 times that of input.\"]"));
        // input 0 -> warn when output > 0.1: "20.0%" -> warning only
        rows[0].normRelativeErr = "0";
        rows[1].normRelativeErr = "20.0%";
        out = rules(compare::CompareMode::Statistics, rows);
        QVERIFY(out[1].level == compare::ResultLevel::Warning);
        QCOMPARE(compare::errMessageText(out[0].messages), std::string("[]"));
        // NaN/Inf: NPU max inf with a normal bench -> error; bench inf as well -> ignored
        rows = { row(true) };
        rows[0].npuMax = compare::PyVal::real(INFINITY);
        QCOMPARE(rules(compare::CompareMode::Statistics, rows)[0].messages, std::uint16_t(compare::kMsgInfNan));
        rows[0].benchMin = compare::PyVal::str("-inf");
        QVERIFY(rules(compare::CompareMode::Statistics, rows)[0].level == compare::ResultLevel::Pass);
    }

    void resultRulesRowCheckers()
    {
        std::vector<compare::RuleRow> rows = { row(false), row(false), row(true), row(true, false) };
        rows[0].npuDtype = rows[0].benchDtype = "<class 'str'>";
        rows[0].npuShape = rows[0].benchShape = "[]";
        rows[0].npuMax = compare::PyVal::str("tanh");
        rows[0].benchMax = compare::PyVal::str("none");
        rows[1].npuReqGrad = "False";
        rows[2].npuDtype = "torch.float16";
        rows[2].npuShape = "[3, 2]";
        rows[3].npuReqGrad = "False"; // unmatched rows are not checked
        rows[3].benchReqGrad = "N/A";
        const auto out = rules(compare::CompareMode::Statistics, rows);
        QCOMPARE(out[0].messages, std::uint16_t(compare::kMsgParameters));
        QCOMPARE(out[1].messages, std::uint16_t(compare::kMsgRequiresGrad));
        QCOMPARE(out[2].messages, std::uint16_t(compare::kMsgDtype | compare::kMsgShape));
        QVERIFY(out[3].level == compare::ResultLevel::Pass);
        // A fused bench name (qkv / gate_up) skips the dtype check.
        rows[2].benchFused = true;
        QCOMPARE(rules(compare::CompareMode::Statistics, rows)[2].messages, std::uint16_t(compare::kMsgShape));
        // ALL-ignored API ("empty"): no checker runs.
        rows[0].apiSegment = "empty";
        for (const auto& o : rules(compare::CompareMode::Statistics, rows))
            QVERIFY(o.level == compare::ResultLevel::Pass);
    }

    void resultRulesTensorAndMd5()
    {
        // OneThousandth: min input ratio 1.0 > 0.9 and min output 0.05 < 0.1 -> error on the first output row;
        // CosineWarn: min input 1.0 > 0.9 and 1.0 - 0.5 > 0.1 -> warning there too.
        std::vector<compare::RuleRow> rows = { row(false), row(true), row(true) };
        rows[1].oneThousandth = compare::PyVal::real(0.05);
        rows[2].cosine = compare::PyVal::real(0.5);
        auto out = rules(compare::CompareMode::Tensor, rows);
        QCOMPARE(out[1].messages, std::uint16_t(compare::kMsgOneThousandth | compare::kMsgCosineWarn));
        QVERIFY(out[2].level == compare::ResultLevel::Pass);
        // a group without inputs uses the default 1.0: OneThousandth fires on an output ratio of 0.0
        rows = { row(true) };
        rows[0].oneThousandth = compare::PyVal::real(0.0);
        QVERIFY(rules(compare::CompareMode::Tensor, rows)[0].level == compare::ResultLevel::Error);
        // md5: different checksums -> error; N/A on one side -> warning
        rows = { row(false), row(false, false) };
        rows[0].npuMd5 = "1a2b3c4d";
        rows[1].benchMd5 = "N/A";
        out = rules(compare::CompareMode::Md5, rows);
        QCOMPARE(out[0].messages, std::uint16_t(compare::kMsgCrcError));
        QVERIFY(out[1].level == compare::ResultLevel::Warning);
    }

    void nameRewrites()
    {
        // fuzzy: APIs lose the counter, modules lose the class (quirk)
        QCOMPARE(compare::fuzzyName("Functional.relu.3.forward.input.0"), std::string("Functional.relu.forward.input.0"));
        QCOMPARE(compare::fuzzyName("Module.layer1.0.conv1.Conv2d.forward.0.input.0"), std::string("Module.layer1.0.conv1.forward.0.input.0"));
        QCOMPARE(compare::fuzzyName("Tensor.add"), std::string("Tensor.add"));
        // -cm: Cell -> Module, exact cell-name mapping, then substring mapping
        QCOMPARE(compare::cellMappedName("Cell.fc1.Dense.forward.0.input.0", { { "fc1.Dense", "fc1.Linear" } }),
            std::string("Module.fc1.Linear.forward.0.input.0"));
        QCOMPARE(compare::cellMappedName("Cell.conv1.Conv2d.backward.0.output.0", { { "conv1", "conv3" } }),
            std::string("Module.conv3.Conv2d.backward.0.output.0"));
        QCOMPARE(compare::cellMappedName("Tensor.add.0.forward", {}), std::string("N/A"));
        QVERIFY(compare::dtypesMatch("torch.float16", "torch.bfloat16"));
        QVERIFY(!compare::dtypesMatch("torch.float32", "torch.float64"));
        QVERIFY(!compare::dtypesMatch("torch.int32", "torch.int64"));
    }

    void yamlMapping()
    {
        const auto mapping = compare::parseFlatYamlMapping("# comment\nNPU.npu_fusion_attention.4.forward.input.0: NPU.npu_fusion_attention.4.forward.input.0\n"
                                                  "'a.b': \"c d\"  # trailing\n\nx: y\nx: z\n",
            "m.yaml");
        QCOMPARE(mapping.size(), std::size_t(3));
        QCOMPARE(mapping[1].first, std::string("a.b"));
        QCOMPARE(mapping[1].second, std::string("c d"));
        QCOMPARE(mapping[2].second, std::string("z")); // last value of a repeated key
        bool threw = false;
        try {
            compare::parseFlatYamlMapping("a:\n  b: c\n", "nested.yaml");
        } catch (const support::Error& e) {
            threw = std::string(e.what()).find("nested.yaml: line 2") != std::string::npos; // the nested value
        }
        QVERIFY(threw);
    }
};

QTEST_APPLESS_MAIN(TestCompareMetrics)
#include "tst_compare_metrics.moc"
