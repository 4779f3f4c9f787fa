// SPDX-License-Identifier: Apache-2.0
// The first-divergence rule (compare/divergence.h) on the genuine tool's fault pair (a GELU switched to
// approximate='tanh') in every mode and level, and on hand-made pairs for each part of the rule: a scalar argument,
// a kwarg, an output-only change, a change inside a module, L0-only and L1-only dumps, device strings, md5.
#include "test_util.h"
#include "tst_first_divergence_inputs.h"

#include "compare/compare_engine.h"
#include "compare/compare_job.h"
#include "compare/divergence.h"

#include <nlohmann/json.hpp>

#include <sstream>

using namespace msprobe;
using namespace msprobe::test;
using namespace first_divergence_inputs;
namespace fs = std::filesystem;

namespace {

const std::string A = tensor("2.0", "-2.0", "0.5", "3.0");
const std::string B = tensor("2.1", "-2.0", "0.5", "3.0"); // A's Max moved by 0.1: 4.76% of max(|Max|, |Min|)
const std::string C = tensor("1.0", "-1.0", "0.1", "1.5");

std::optional<compare::DivergencePoint> divergence(const std::vector<std::string>& npu, const std::vector<std::string>& bench,
    const dump::ConstructInfo* construct = nullptr, const char* level = "L1")
{
    const auto table = compare::compareDumps(dumpOf(npu, level), dumpOf(bench, level), {}, false, compare::CompareOptions {});
    return compare::firstDivergence(*table, {}, construct);
}

fs::path fixtureJson(const std::string& folder, int step = 0)
{
    return onlySubdir(refDumps() / folder / ("step" + std::to_string(step))) / "dump.json";
}

std::optional<compare::DivergencePoint> fixtureDivergence(const std::string& npu, const std::string& bench, int step = 0)
{
    const fs::path npuJson = fixtureJson(npu, step);
    const auto table = compare::compareDumpFiles(npuJson, fixtureJson(bench, step), compare::CompareOptions {});
    return compare::firstDivergence(*table, {}, npuJson);
}

std::string readText(const fs::path& file)
{
    std::ifstream in(file);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

} // namespace

class TestFirstDivergence : public QObject {
    Q_OBJECT

private slots:
    void fixturesNameTheChangedGelu_data()
    {
        QTest::addColumn<QString>("mode");
        QTest::addColumn<int>("step");
        QTest::newRow("statistics step0") << "statistics" << 0;
        QTest::newRow("statistics step1") << "statistics" << 1;
        QTest::newRow("md5 step0") << "md5" << 0;
        QTest::newRow("md5 step1") << "md5" << 1;
        QTest::newRow("tensor step0") << "tensor" << 0;
    }

    // The planted fault is the functional gelu's own kwarg: not the GELU module around it, not a far-downstream op.
    void fixturesNameTheChangedGelu()
    {
        QFETCH(QString, mode);
        QFETCH(int, step);
        const std::string m = mode.toStdString();
        const auto point = fixtureDivergence("problem_mix_" + m, "bench_mix_" + m, step);
        QVERIFY(point.has_value());
        QCOMPARE(point->entry, std::string("Functional.gelu.1.forward"));
        QCOMPARE(point->reason, std::string("kwarg approximate 'tanh' vs 'none'"));
        QCOMPARE(std::string(toString(point->rule)), std::string("argument"));
    }

    void benchAgainstBenchHasNone()
    {
        QVERIFY(!fixtureDivergence("bench_mix_statistics", "bench_mix_statistics").has_value());
        QVERIFY(!fixtureDivergence("bench_mix_md5", "bench_mix_md5").has_value());
        QVERIFY(!fixtureDivergence("bench_mix_statistics", "bench_mix_statistics", 1).has_value());
        // Two separate runs of the bench model: some in-place optimizer updates differ in md5 (their inputs differ
        // too), which is not a divergence.
        QVERIFY(!fixtureDivergence("bench_1rank_mix_md5", "bench_mix_md5").has_value());
        QVERIFY(!fixtureDivergence("bench_1rank_mix_statistics", "bench_mix_statistics").has_value());
    }

    // The fixture pair cut down to L1 (no modules) and L0 (modules only).
    void fixtureLevels()
    {
        const std::string problem = fixtureJson("problem_mix_statistics").string(), bench = fixtureJson("bench_mix_statistics").string();
        auto l1 = compare::compareDumps(levelOnly(problem, false), levelOnly(bench, false), {}, false, compare::CompareOptions {});
        auto point = compare::firstDivergence(*l1);
        QVERIFY(point.has_value());
        QCOMPARE(point->entry, std::string("Functional.gelu.1.forward"));
        QCOMPARE(point->reason, std::string("kwarg approximate 'tanh' vs 'none'"));

        // L0 sees no kwarg: the GELU module's output moves while its input does not.
        auto l0 = compare::compareDumps(levelOnly(problem, true), levelOnly(bench, true), {}, false, compare::CompareOptions {});
        point = compare::firstDivergence(*l0);
        QVERIFY(point.has_value());
        QCOMPARE(point->entry, std::string("Module.blocks.1.mlp.act.GELU.forward.0"));
        QCOMPARE(std::string(toString(point->rule)), std::string("output"));
        QVERIFY2(point->reason.starts_with("output 0 Max relative error 3.79e-05 > 1e-05 (1.9229975938796997 vs 1.9229247570037842"),
            point->reason.c_str());
        QVERIFY2(point->reason.ends_with("with inputs within tolerance"), point->reason.c_str());
    }

    void scalarChanged()
    {
        // The attention scale: q·kᵀ * 0.35 vs * 0.25. Everything after it differs too (inputs differ: not named).
        const auto mul = [&](const char* scale, const std::string& out) {
            return entry("Tensor.__mul__.0.forward", { A, value("float", scale) }, {}, { out });
        };
        const auto point = divergence({ entry("Torch.matmul.0.forward", { A, A }, {}, { A }), mul("0.35", C),
                                          entry("Functional.softmax.0.forward", { C }, {}, { C }) },
            { entry("Torch.matmul.0.forward", { A, A }, {}, { A }), mul("0.25", B), entry("Functional.softmax.0.forward", { B }, {}, { B }) });
        QVERIFY(point.has_value());
        QCOMPARE(point->entry, std::string("Tensor.__mul__.0.forward"));
        QCOMPARE(point->reason, std::string("argument 1 0.35 vs 0.25"));
        QCOMPARE(point->row, std::size_t(4)); // matmul: 3 rows; the scalar is the mul's second row
    }

    void kwargChanged()
    {
        // The kwarg decides even though gelu's output stays within tolerance (and even when its input had moved).
        const auto gelu = [&](const char* approximate) {
            return entry("Functional.gelu.0.forward", { A }, { { "approximate", value("str", approximate) } }, { A });
        };
        auto point = divergence({ gelu("\"tanh\""), entry("Functional.linear.0.forward", { A }, {}, { C }) },
            { gelu("\"none\""), entry("Functional.linear.0.forward", { A }, {}, { B }) });
        QVERIFY(point.has_value());
        QCOMPARE(point->entry, std::string("Functional.gelu.0.forward"));
        QCOMPARE(point->reason, std::string("kwarg approximate 'tanh' vs 'none'"));

        // A kwarg passed on one side only.
        const std::string plain = entry("Functional.gelu.0.forward", { A }, {}, { A });
        point = divergence({ gelu("\"tanh\"") }, { plain });
        QVERIFY(point.has_value());
        QCOMPARE(point->reason, std::string("kwarg approximate 'tanh' vs absent"));
        point = divergence({ plain }, { gelu("\"tanh\"") });
        QVERIFY(point.has_value());
        QCOMPARE(point->reason, std::string("kwarg approximate absent vs 'tanh'"));

        // A dtype kwarg.
        point = divergence({ entry("Tensor.to.0.forward", { A }, { { "dtype", value("torch.dtype", "\"torch.float16\"") } }, { A }) },
            { entry("Tensor.to.0.forward", { A }, { { "dtype", value("torch.dtype", "\"torch.float32\"") } }, { A }) });
        QVERIFY(point.has_value());
        QCOMPARE(point->reason, std::string("kwarg dtype torch.float16 vs torch.float32"));
    }

    void outputOnlyChange()
    {
        const auto point = divergence(
            { entry("Functional.linear.0.forward", { A }, {}, { A }), entry("Functional.relu.0.forward", { A }, {}, { A }),
                entry("Tensor.add.0.forward", { A, A }, {}, { C }) },
            { entry("Functional.linear.0.forward", { A }, {}, { A }), entry("Functional.relu.0.forward", { A }, {}, { B }),
                entry("Tensor.add.0.forward", { B, A }, {}, { A }) });
        QVERIFY(point.has_value());
        QCOMPARE(point->entry, std::string("Functional.relu.0.forward"));
        QCOMPARE(std::string(toString(point->rule)), std::string("output"));
        QCOMPARE(point->reason,
            std::string("output 0 Max relative error 0.0476 > 1e-05 (2.0 vs 2.1, of max(|Max|, |Min|)) with inputs within tolerance"));
        QCOMPARE(point->row, std::size_t(3));
    }

    void changeInsideAModule()
    {
        // Written as msprobe does (a module after the calls it encloses): the operator comes first anyway.
        std::vector<std::string> npu = { entry("Functional.gelu.0.forward", { A }, {}, { A }), entry("Module.act.GELU.forward.0", { A }, {}, { A }) };
        std::vector<std::string> bench = { entry("Functional.gelu.0.forward", { A }, {}, { B }), entry("Module.act.GELU.forward.0", { A }, {}, { B }) };
        auto point = divergence(npu, bench, nullptr, "mix");
        QVERIFY(point.has_value());
        QCOMPARE(point->entry, std::string("Functional.gelu.0.forward"));

        // Modules written before their calls: construct.json's parent chain takes the innermost diverging entry,
        // through a nested module; without it the dump order names the outer module.
        npu = { entry("Module.mlp.MLP.forward.0", { A }, {}, { C }), entry("Functional.linear.0.forward", { A }, {}, { A }),
            entry("Module.mlp.act.GELU.forward.0", { A }, {}, { C }), entry("Functional.gelu.0.forward", { A }, {}, { C }),
            entry("Tensor.add.0.forward", { A }, {}, { C }) };
        bench = { entry("Module.mlp.MLP.forward.0", { A }, {}, { B }), entry("Functional.linear.0.forward", { A }, {}, { A }),
            entry("Module.mlp.act.GELU.forward.0", { A }, {}, { B }), entry("Functional.gelu.0.forward", { A }, {}, { B }),
            entry("Tensor.add.0.forward", { A }, {}, { B }) };
        const dump::ConstructInfo links = construct({ { "Module.mlp.MLP.forward.0", "" }, { "Functional.linear.0.forward", "Module.mlp.MLP.forward.0" },
            { "Module.mlp.act.GELU.forward.0", "Module.mlp.MLP.forward.0" }, { "Functional.gelu.0.forward", "Module.mlp.act.GELU.forward.0" },
            { "Tensor.add.0.forward", "" } });
        point = divergence(npu, bench, &links, "mix");
        QVERIFY(point.has_value());
        QCOMPARE(point->entry, std::string("Functional.gelu.0.forward"));
        point = divergence(npu, bench, nullptr, "mix");
        QVERIFY(point.has_value());
        QCOMPARE(point->entry, std::string("Module.mlp.MLP.forward.0"));
    }

    void l0ModulesOnly()
    {
        const auto point = divergence(
            { entry("Module.fc1.Linear.forward.0", { A }, {}, { A }), entry("Module.act.GELU.forward.0", { A }, {}, { A }),
                entry("Module.mlp.MLP.forward.0", { A }, {}, { A }), entry("Module.act.GELU.backward.0", { A }, {}, { C }) },
            { entry("Module.fc1.Linear.forward.0", { A }, {}, { A }), entry("Module.act.GELU.forward.0", { A }, {}, { B }),
                entry("Module.mlp.MLP.forward.0", { A }, {}, { B }), entry("Module.act.GELU.backward.0", { A }, {}, { A }) },
            nullptr, "L0");
        QVERIFY(point.has_value());
        QCOMPARE(point->entry, std::string("Module.act.GELU.forward.0"));
    }

    void l1ForwardBeforeBackward()
    {
        // A backward written before a forward (interleaved micro-batches): the forward is judged first.
        std::vector<std::string> npu = { entry("Functional.relu.0.backward", { A }, {}, { C }), entry("Functional.linear.1.forward", { A }, {}, { C }) };
        std::vector<std::string> bench = { entry("Functional.relu.0.backward", { A }, {}, { A }), entry("Functional.linear.1.forward", { A }, {}, { A }) };
        auto point = divergence(npu, bench);
        QVERIFY(point.has_value());
        QCOMPARE(point->entry, std::string("Functional.linear.1.forward"));
        // Only the backward diverges: it is named.
        bench[1] = npu[1];
        point = divergence(npu, bench);
        QVERIFY(point.has_value());
        QCOMPARE(point->entry, std::string("Functional.relu.0.backward"));
        QVERIFY2(point->reason.starts_with("output 0 Max relative error"), point->reason.c_str());
    }

    void placementIsNoDivergence()
    {
        const auto group = [](const char* ranks) {
            return std::string(R"({"type": "torch.ProcessGroup", "group_ranks": )") + ranks + R"(, "group_id": "1a2b"})";
        };
        const auto calls = [&](const char* device, const char* ranks, const char* stream, const char* scale) {
            return std::vector<std::string> { entry("Tensor.to.0.forward", { A }, { { "device", value("torch.device", device) } }, { A }),
                entry("Tensor.to.1.forward", { A, value("str", device) }, {}, { A }),
                entry("Distributed.all_reduce.0.forward", { A }, { { "group", group(ranks) } }, { A }),
                entry("Tensor.record_stream.0.forward", { A, value("torch.npu.Stream", stream) }, {}, { A }),
                entry("Tensor.__mul__.0.forward", { A, value("int", scale) }, {}, { A }) };
        };
        QVERIFY(!divergence(calls("\"npu:0\"", "[0, 1]", "\"<stream 1>\"", "2"), calls("\"cuda:0\"", "[0, 2]", "\"<stream 7>\"", "2")).has_value());
        // The walk goes on past them: a real argument change after them is found.
        const auto point = divergence(calls("\"npu:0\"", "[0, 1]", "\"s\"", "2"), calls("\"cuda:0\"", "[0, 1]", "\"s\"", "3"));
        QVERIFY(point.has_value());
        QCOMPARE(point->entry, std::string("Tensor.__mul__.0.forward"));
        QCOMPARE(point->reason, std::string("argument 1 2 vs 3"));
    }

    void md5ChangeWithEqualInputs()
    {
        const auto t = [](const char* md5) { return tensor("2.0", "-2.0", "0.5", "3.0", md5); };
        const auto point = divergence(
            { entry("Functional.relu.0.forward", { t("00000001") }, {}, { t("00000002") }),
                entry("Functional.linear.0.forward", { t("0000000a") }, {}, { t("0000000b") }) },
            { entry("Functional.relu.0.forward", { t("10000001") }, {}, { t("10000002") }),
                entry("Functional.linear.0.forward", { t("0000000a") }, {}, { t("1000000b") }) });
        QVERIFY(point.has_value());
        QCOMPARE(point->entry, std::string("Functional.linear.0.forward"));
        QCOMPARE(point->reason, std::string("output 0 CRC-32 0000000b vs 1000000b with equal inputs"));
    }

    // The compare job carries the point into the verdict JSON (first_divergence {entry, reason}) and the HTML report.
    void verdictJsonAndHtml()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        compare::ComparePair pair;
        pair.npuJson = fixtureJson("problem_mix_statistics");
        pair.benchJson = fixtureJson("bench_mix_statistics");
        pair.outputDir = fs::path(dir.path().toStdString());
        compare::JobOptions options;
        options.json = options.html = true;
        options.progress = false;
        options.outputRoot = pair.outputDir;
        const compare::JobOutcome job = compare::runCompareJob({ pair }, options, nullptr);
        const auto verdict = nlohmann::json::parse(readText(job.jsonFile));
        const auto& point = verdict["pairs"][0]["first_divergence"];
        QCOMPARE(point["entry"].get<std::string>(), std::string("Functional.gelu.1.forward"));
        QCOMPARE(point["reason"].get<std::string>(), std::string("kwarg approximate 'tanh' vs 'none'"));
        QCOMPARE(point["rule"].get<std::string>(), std::string("argument"));
        const std::string html = readText(job.htmlFile);
        QVERIFY(html.find("<code>Functional.gelu.1.forward</code>") != std::string::npos);
        QVERIFY(html.find("kwarg approximate &#39;tanh&#39; vs &#39;none&#39;") != std::string::npos
            || html.find("kwarg approximate 'tanh' vs 'none'") != std::string::npos);
    }
};

QTEST_APPLESS_MAIN(TestFirstDivergence)
#include "tst_first_divergence.moc"
