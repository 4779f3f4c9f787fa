// SPDX-License-Identifier: Apache-2.0
// overflow_check (spec 3.1): the first node with finite inputs and a NaN/Inf output, reported with its data,
// construct chain and stack in the reference's anomaly_analyze JSON layout.
#include "test_util.h"

#include "diagnose/anomaly_check.h"
#include "support/error.h"

#include <QTemporaryDir>

#include <tuple>
#include <vector>

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


// One rank of a step whose ops are given as (name, input Max, output Max) in call order.
void writeRank(const fs::path& dir, const std::vector<std::tuple<std::string, const char*, const char*>>& ops)
{
    std::string data;
    for (const auto& [name, in, out] : ops) {
        if (!data.empty())
            data += ", ";
        data += "\"" + name + "\": {\"input_args\": [" + leaf(in, "0.0", "0.5") + "], \"input_kwargs\": {}, \"output\": ["
            + leaf(out, "0.0", "0.5") + "]}";
    }
    test::writeFile(dir / "dump.json",
        R"({"task": "statistics", "level": "mix", "framework": "pytorch", "dump_data_dir": null, "data": {)" + data + "}}");
}

// The op names reported, in order.
std::vector<std::string> reported(const std::string& text)
{
    std::vector<std::string> names;
    const std::string key = "\"op_name\": \"";
    for (std::size_t at = text.find(key); at != std::string::npos; at = text.find(key, at + 1)) {
        const std::size_t begin = at + key.size();
        names.push_back(text.substr(begin, text.find('"', begin) - begin));
    }
    return names;
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
        const std::string text = diagnose::analyzeOverflow(step);
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
        QVERIFY(diagnose::analyzeOverflow(step).empty());
        const fs::path other = fs::path(tmp.path().toStdString()) / "stepX";
        writeStep(other, "");
        bool threw = false;
        try {
            diagnose::analyzeOverflow(other); // no framework key: the reference refuses it
        } catch (const support::Error& e) {
            threw = std::string(e.what()).find("only available for PyTorch") != std::string::npos;
        }
        QVERIFY(threw);
    }

    // Anomalies after the first communication op: the cross-rank graph orders them by layer, then by the number
    // of compute ops since the last communication op; rank 1's comes first although rank 0 is read first.
    void anomalyThroughCommunication()
    {
        QTemporaryDir tmp;
        const fs::path step = fs::path(tmp.path().toStdString()) / "step0";
        writeRank(step / "rank0", { { "Torch.a.0.forward", "1.0", "1.0" }, { "Distributed.all_reduce.0.forward", "1.0", "1.0" },
            { "Torch.b.0.forward", "1.0", "1.0" }, { "Torch.mul.0.forward", "1.0", "NaN" },
            { "Distributed.all_reduce.1.forward", "NaN", "NaN" } });
        writeRank(step / "rank1", { { "Torch.a.0.forward", "1.0", "1.0" }, { "Distributed.all_reduce.0.forward", "1.0", "1.0" },
            { "Torch.add.0.forward", "1.0", "Infinity" }, { "Distributed.all_reduce.1.forward", "Infinity", "Infinity" } });
        const std::string text = diagnose::analyzeOverflow(step);
        QCOMPARE(reported(text), std::vector<std::string> { "Torch.add.0.forward" });
        QVERIFY2(text.starts_with("{\n  \"rank_1\": ["), text.c_str());
        QVERIFY(text.find("\"construct_info\": [\n        \"Torch.add.0.forward\"\n      ],") != std::string::npos);
        QVERIFY(text.find("\"stack_info\": {}") != std::string::npos);
    }

    // Eight ranks joined by all_reduce over all of them and a send/recv ring. Rank 3's anomaly (round 2) is read
    // first but sits a layer after rank 5's (round 1, whose NaN reaches the round-1 all_reduce of every rank):
    // the graph across ranks puts rank 5's first.
    void anomalyAcrossEightRanks()
    {
        QTemporaryDir tmp;
        const fs::path step = fs::path(tmp.path().toStdString()) / "step0";
        const int ranks = 8;
        const auto op = [](const std::string& name, const char* in, const char* out, const std::string& kwargs) {
            return "\"" + name + "\": {\"input_args\": [" + leaf(in, "0.0", "0.5") + "], \"input_kwargs\": {" + kwargs
                + "}, \"output\": [" + leaf(out, "0.0", "0.5") + "]}";
        };
        const std::string world = R"("group": {"type": "torch.ProcessGroup", "group_ranks": [0, 1, 2, 3, 4, 5, 6, 7], "group_id": 1})";
        for (int r = 0; r < ranks; ++r) {
            std::vector<std::string> ops;
            for (int k = 0; k < 3; ++k) {
                const std::string n = std::to_string(k);
                const bool anomaly = (r == 5 && k == 1) || (r == 3 && k == 2);
                const bool poisoned = k == 2 && r != 3; // NaN in, NaN out: downstream, not an anomaly
                ops.push_back(op("Torch.mul." + n + ".forward", poisoned ? "NaN" : "1.0", anomaly || poisoned ? "NaN" : "1.0", ""));
                ops.push_back(op("Distributed.all_reduce." + n + ".forward", r == 5 && k == 1 ? "NaN" : "1.0",
                    k >= 1 ? "NaN" : "1.0", world));
                ops.push_back(op("Distributed.send." + n + ".forward", "1.0", "1.0",
                    R"("dst": {"type": "int", "value": )" + std::to_string((r + 1) % ranks) + "}"));
                ops.push_back(op("Distributed.recv." + n + ".forward", "1.0", "1.0",
                    R"("src": {"type": "int", "value": )" + std::to_string((r + ranks - 1) % ranks) + "}"));
            }
            std::string data;
            for (const auto& text : ops)
                data += (data.empty() ? "" : ", ") + text;
            test::writeFile(step / ("rank" + std::to_string(r)) / "dump.json",
                R"({"task": "statistics", "level": "mix", "framework": "pytorch", "dump_data_dir": null, "data": {)" + data + "}}");
        }
        const std::string text = diagnose::analyzeOverflow(step);
        QCOMPARE(reported(text), std::vector<std::string> { "Torch.mul.1.forward" });
        QVERIFY2(text.starts_with("{\n  \"rank_5\": ["), text.c_str());
    }

    // No anomaly reaches a communication op: the first anomalous op after each rank's last one is reported.
    void anomalyAfterLastCommunication()
    {
        QTemporaryDir tmp;
        const fs::path step = fs::path(tmp.path().toStdString()) / "step0";
        writeRank(step / "rank0", { { "Distributed.all_reduce.0.forward", "1.0", "1.0" }, { "Torch.a.0.forward", "1.0", "1.0" },
            { "Torch.log.0.forward", "1.0", "-Infinity" }, { "Torch.log.1.forward", "1.0", "NaN" } });
        writeRank(step / "rank2", { { "Distributed.all_reduce.0.forward", "1.0", "1.0" }, { "Torch.exp.0.forward", "1.0", "Infinity" } });
        writeRank(step / "rank3", { { "Distributed.all_reduce.0.forward", "1.0", "1.0" }, { "Torch.exp.0.forward", "1.0", "1.0" } });
        const std::string text = diagnose::analyzeOverflow(step);
        QCOMPARE(reported(text), (std::vector<std::string> { "Torch.log.0.forward", "Torch.exp.0.forward" }));
        QVERIFY2(text.find("\"rank_0\": [") != std::string::npos && text.find("\"rank_2\": [") != std::string::npos, text.c_str());
    }

    // A construct.json whose parent chain is 200,000 modules deep: the whole chain, root first, in one pass
    // (the chain used to be built by inserting at its front, quadratic in its length).
    void longParentChain()
    {
        QTemporaryDir tmp;
        const fs::path step = fs::path(tmp.path().toStdString()) / "step0";
        writeStep(step);
        constexpr int depth = 200000;
        std::string construct = R"({"Torch.log.0.forward": "Module.m199999", "Module.m0": null)";
        for (int i = 1; i < depth; ++i)
            construct += ", \"Module.m" + std::to_string(i) + "\": \"Module.m" + std::to_string(i - 1) + "\"";
        construct += ", \"Module.loop.a\": \"Module.loop.b\", \"Module.loop.b\": \"Module.loop.a\"}";
        test::writeFile(step / "rank0" / "construct.json", construct);
        const std::string text = diagnose::analyzeOverflow(step);
        const std::size_t begin = text.find("\"construct_info\": [\n        \"Module.m0\",\n        \"Module.m1\",\n");
        QVERIFY(begin != std::string::npos);
        const std::size_t end = text.find("\n      ],", begin);
        const std::string chain = text.substr(begin, end - begin);
        std::size_t lines = 0;
        for (std::size_t at = chain.find("\n        \""); at != std::string::npos; at = chain.find("\n        \"", at + 1))
            ++lines;
        QCOMPARE(lines, std::size_t(depth + 1));
        QVERIFY(chain.ends_with("\"Module.m199998\",\n        \"Module.m199999\",\n        \"Torch.log.0.forward\""));

        // A parent loop ends the chain at the first name seen again.
        test::writeFile(step / "rank0" / "construct.json",
            R"({"Torch.log.0.forward": "Module.a", "Module.a": "Module.b", "Module.b": "Module.a"})");
        QVERIFY(diagnose::analyzeOverflow(step).find("\"construct_info\": [\n        \"Module.b\",\n        \"Module.a\",\n        "
                                            "\"Torch.log.0.forward\"\n      ],")
            != std::string::npos);
    }
};

QTEST_APPLESS_MAIN(TestCompareOverflow)
#include "tst_compare_overflow.moc"
