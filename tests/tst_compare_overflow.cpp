// SPDX-License-Identifier: Apache-2.0
// overflow_check (spec 3.1): the first node with finite inputs and a NaN/Inf output, reported with its data,
// construct chain and stack in the reference's anomaly_analyze JSON layout.
#include "test_util.h"

#include "compare/anomaly_check.h"
#include "support/error.h"

#include <QTemporaryDir>

using namespace msprobe;
namespace fs = std::filesystem;

namespace {

std::string leaf(const char* max, const char* min, const char* mean)
{
    return std::string(R"({"type": "torch.Tensor", "dtype": "torch.float32", "shape": [2], "Max": )") + max + R"(, "Min": )" + min
        + R"(, "Mean": )" + mean + R"(, "Norm": 1.0, "requires_grad": false})";
}

void writeStep(const fs::path& step, const std::string& framework = R"("framework": "pytorch", )")
{
    const std::string finite = leaf("1.0", "0.0", "0.5");
    test::writeFile(step / "rank0" / "dump.json",
        "{\"task\": \"statistics\", \"level\": \"mix\", " + framework + "\"dump_data_dir\": null, \"data\": {"
            + "\"Torch.a.0.forward\": {\"input_args\": [" + finite + "], \"input_kwargs\": {}, \"output\": [" + finite + "]}, "
            + "\"Torch.log.0.forward\": {\"input_args\": [" + finite + "], \"input_kwargs\": {\"out\": null}, \"output\": ["
            + leaf("Infinity", "-Infinity", "NaN") + "]}, "
            + "\"Torch.exp.0.forward\": {\"input_args\": [" + leaf("NaN", "NaN", "NaN") + "], \"output\": [" + leaf("NaN", "NaN", "NaN") + "]}}}");
    test::writeFile(step / "rank0" / "construct.json", R"({"Torch.log.0.forward": "Module.m.M.forward.0", "Module.m.M.forward.0": null})");
    test::writeFile(step / "rank0" / "stack.json", R"J({"0": [["Torch.log.0.forward"], ["File a.py, line 1, in f, \n x = torch.log(y)"]]})J");
}

} // namespace

class TestCompareOverflow : public QObject {
    Q_OBJECT

private slots:
    void firstAnomalyBeforeCommunication()
    {
        QTemporaryDir tmp;
        const fs::path step = fs::path(tmp.path().toStdString()) / "step0";
        writeStep(step);
        const std::string text = analyzeOverflow(step);
        // Torch.log: finite input, inf/NaN output -> the anomaly; Torch.exp (NaN in, NaN out) is downstream.
        QVERIFY2(text.starts_with("{\n  \"rank_0\": [\n    {\n      \"op_name\": \"Torch.log.0.forward\",\n      \"data_info\": {\n"
                                  "        \"input_args\": [\n          {\n            \"type\": \"torch.Tensor\","),
            text.c_str());
        QVERIFY(text.find("\"shape\": [\n              2\n            ],") != std::string::npos); // json.dump indent 2
        QVERIFY(text.find("\"input_kwargs\": {\n          \"out\": null\n        },") != std::string::npos);
        QVERIFY(text.find("\"Max\": Infinity,\n            \"Min\": -Infinity,\n            \"Mean\": NaN,") != std::string::npos);
        QVERIFY(text.find("\"construct_info\": [\n        \"Module.m.M.forward.0\",\n        \"Torch.log.0.forward\"\n      ],") != std::string::npos);
        QVERIFY(text.find("\"stack_info\": [\n        \"File a.py, line 1, in f, \\n x = torch.log(y)\"\n      ]") != std::string::npos);
        QVERIFY(text.find("Torch.exp") == std::string::npos);
    }

    void noAnomalyAndBadInput()
    {
        QTemporaryDir tmp;
        const fs::path step = fs::path(tmp.path().toStdString()) / "step0";
        test::writeFile(step / "rank0" / "dump.json",
            std::string(R"({"task": "statistics", "level": "L1", "framework": "pytorch", "dump_data_dir": null, "data": {"Torch.a.0.forward": {"output": [)")
                + leaf("1.0", "0.0", "0.5") + "]}}}");
        QVERIFY(analyzeOverflow(step).empty());
        const fs::path other = fs::path(tmp.path().toStdString()) / "stepX";
        writeStep(other, "");
        bool threw = false;
        try {
            analyzeOverflow(other); // no framework key: the reference refuses it
        } catch (const Error& e) {
            threw = std::string(e.what()).find("only available for PyTorch") != std::string::npos;
        }
        QVERIFY(threw);
    }
};

QTEST_APPLESS_MAIN(TestCompareOverflow)
#include "tst_compare_overflow.moc"
