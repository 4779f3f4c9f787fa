// SPDX-License-Identifier: Apache-2.0
// Parallel merge, part 2: graph_visualize --file_type json (the merged graph re-dumped as
// step{S}/rank{R}/{construct,dump,stack}.json and read back with our own reader and graph builder), its CLI
// rules, and tensor dumps (renamed nodes' item keys, a statistic written as the string "inf").
#include "cli_runner.h"
#include "dump/dump_json_reader.h"
#include "tst_graph_merge_util.h"
#include "graph/model/graph_builder.h"
#include "graph/merge/graph_merge.h"
#include "graph/model/graph_passes.h"
#include "graph/merge/merged_json_writer.h"
#include "graph/visdb/node_data.h"
#include "support/json_file.h"

#include <QTemporaryDir>
#include <QTest>

#include <filesystem>

using namespace msprobe;
using namespace msprobe::graph;
using namespace msprobe::test;
namespace fs = std::filesystem;

namespace {

const fs::path kData = test::kMergeData;

std::string parentOf(const Graph& graph, std::string_view id)
{
    const std::uint32_t node = graph.find(id);
    if (node == kNoNode || graph.node(node).parent == kNoNode)
        return "<none>";
    return std::string(graph.node(graph.node(node).parent).id);
}

QString q(const fs::path& path) { return QString::fromStdString(path.string()); }

bool hasVisDb(const fs::path& dir)
{
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(dir, ec))
        if (entry.path().string().ends_with(".vis.db"))
            return true;
    return false;
}

const std::vector<std::string> kLinearInfo = {
    "This data is the merged data after tensor parallelism(TP), and the data is merged from rank [0, 1].",
    "The Max value merging method for output.0 is: max(3.0, 4.0) = 4.0",
    "The Min value merging method for output.0 is: min(-2.0, -1.0) = -2.0",
    "The Mean value merging method for output.0 is: (0.5 + 1.5) / 2 = 1.0",
    "The Norm value merging method for output.0 is: (5.0 ** 2 + 12.0 ** 2) ** 0.5 = 13.0",
};

} // namespace

class TestGraphMergeJson : public QObject {
    Q_OBJECT

    QTemporaryDir m_tmp;
    fs::path tmp(const std::string& name) const { return fs::path(m_tmp.path().toStdString()) / name; }

private slots:
    // tp 2: the merged graph written as JSON, read back as an ordinary single-rank dump.
    void jsonBuildReadsBackAsADump()
    {
        const fs::path out = tmp("json");
        const auto run = test::runCli({ "graph_visualize", "-tp", q(kData / "tp2"), "-o", q(out), "--rank_size", "2", "--tp", "2",
            "--pp", "1", "--file_type", "json" });
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        const fs::path rankDir = out / "step0" / "rank0";
        for (const char* file : { "construct.json", "dump.json", "stack.json" })
            QVERIFY2(fs::is_regular_file(rankDir / file), file);
        QVERIFY(!hasVisDb(out));
        QVERIFY(!fs::exists(out / "step0" / "rank1"));
        // No temporary file left beside them.
        QCOMPARE(std::distance(fs::directory_iterator(rankDir), fs::directory_iterator {}), std::ptrdiff_t(3));

        // The top-level keys, in the reference's order, and the merge info of the TP-merged node.
        const auto dumpJson = support::readSmallJsonFile(rankDir / "dump.json");
        std::vector<std::string> keys;
        for (const auto& [key, value] : dumpJson.items())
            keys.push_back(key);
        QCOMPARE(keys, (std::vector<std::string> { "task", "level", "framework", "dump_data_dir", "is_merged", "data" }));
        QCOMPARE(dumpJson["is_merged"].get<bool>(), true);
        QCOMPARE(dumpJson["task"].get<std::string>(), std::string("statistics"));
        QVERIFY(dumpJson["dump_data_dir"].is_null());
        const auto& linear = dumpJson["data"]["Module.layer.Linear.forward.0"];
        QCOMPARE(linear["parallel_merge_info"].get<std::vector<std::string>>(), kLinearInfo);
        QVERIFY(!dumpJson["data"]["Torch.matmul.0.forward"].contains("parallel_merge_info"));
        // Nodes without data (the root, the API collections) have no entry; the renamed API has its own.
        std::vector<std::string> entries;
        for (const auto& [key, value] : dumpJson["data"].items())
            entries.push_back(key);
        QCOMPARE(entries,
            (std::vector<std::string> { "Torch.matmul.0.forward", "Module.layer.Linear.forward.0", "Tensor.add.0.forward",
                "Tensor.sum.0.forward", "Tensor.add_rank1.0.forward", "Tensor.sum_rank1.0.forward" }));
        // Pretty-printed as json.dump(indent=2) does.
        const std::string text = support::readWholeFile(rankDir / "dump.json");
        QVERIFY2(text.starts_with("{\n  \"task\": \"statistics\",\n  \"level\": \"mix\",\n"), text.substr(0, 80).c_str());
        QVERIFY(text.find("\"shape\": [\n            2,\n            2\n          ],") != std::string::npos);

        // construct.json: every node but the root, children before their parent.
        const auto construct = support::readSmallJsonFile(rankDir / "construct.json");
        QCOMPARE(construct.size(), std::size_t(9));
        QCOMPARE(construct["Tensor.add_rank1.0.forward"].get<std::string>(), std::string("Apis_Between_Modules_Rank1.0"));
        QCOMPARE(construct["Apis_Between_Modules_Rank1.0"].get<std::string>(), std::string("Apis_Between_Modules_All_Ranks.0"));
        QCOMPARE(construct["Module.layer.Linear.forward.0"].get<std::string>(), std::string("DefaultModel"));
        QCOMPARE(construct.begin().key(), std::string("Torch.matmul.0.forward"));

        // Read back with our reader and builder: the merged statistics are the dump's now.
        const Graph graph = buildGraph(rankDir);
        QCOMPARE(parentOf(graph, "Torch.matmul.0.forward"), std::string("Module.layer.Linear.forward.0"));
        QCOMPARE(parentOf(graph, "Tensor.sum_rank1.0.forward"), std::string("Apis_Between_Modules_Rank1.0"));
        QCOMPARE(parentOf(graph, "Apis_Between_Modules_Rank0.0"), std::string("Apis_Between_Modules_All_Ranks.0"));
        const std::string out0 = nodeData(graph, "Module.layer.Linear.forward.0", true);
        QVERIFY2(out0.find("\"Max\": \"4.0\", \"Min\": \"-2.0\", \"Mean\": \"1.0\", \"Norm\": \"13.0\"") != std::string::npos, out0.c_str());
        // Rank 1's API under its new name with rank 1's values (Max 3.0; rank 0's add has 2.0).
        const std::string add1 = nodeData(graph, "Tensor.add_rank1.0.forward", true);
        QVERIFY2(add1.find("\"Tensor.add_rank1.0.forward.output.0\": {") != std::string::npos, add1.c_str());
        QVERIFY2(add1.find("\"Max\": \"3.0\"") != std::string::npos, add1.c_str());
        QVERIFY(nodeData(graph, "Tensor.add.0.forward", true).find("\"Max\": \"2.0\"") != std::string::npos);
        const dump::DumpFile dump = dump::readDumpJson(rankDir / "dump.json");
        QCOMPARE(dump.entries.size(), std::size_t(6));
        QCOMPARE(dump.level, std::string("mix"));
    }

    // tp 2 x pp 2 with communication APIs, inside a step folder: leaves the reader kept as Python text
    // (ProcessGroup group_ranks, an int kwarg) come back as JSON values, and the step number names the folder.
    void jsonBuildOfStepsKeepsCommunicationLeaves()
    {
        const fs::path input = tmp("steps_in");
        fs::create_directories(input);
        fs::copy(kData / "groups4", input / "step3", fs::copy_options::recursive);
        const fs::path out = tmp("steps_out");
        const auto run = test::runCli({ "graph_visualize", "-tp", q(input), "-o", q(out), "--rank_size", "4", "--tp", "2", "--pp", "2",
            "--file_type", "json" });
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        const fs::path rankDir = out / "step3" / "rank0";
        QVERIFY(fs::is_regular_file(rankDir / "dump.json"));
        QCOMPARE(std::distance(fs::directory_iterator(out), fs::directory_iterator {}), std::ptrdiff_t(1));
        const auto dump = support::readSmallJsonFile(rankDir / "dump.json");
        const auto& reduce = dump["data"]["Distributed.all_reduce_rank1.0.forward"];
        QCOMPARE(reduce["input_kwargs"]["group"]["type"].get<std::string>(), std::string("torch.ProcessGroup"));
        QCOMPARE(reduce["input_kwargs"]["group"]["group_ranks"].get<std::vector<int>>(), (std::vector<int> { 1, 3 }));
        QCOMPARE(reduce["input_kwargs"]["group"]["group_id"].get<int>(), 101);
        const auto& send = dump["data"]["Distributed.send.0.forward"];
        QCOMPARE(send["input_kwargs"]["dst"]["value"].get<int>(), 1);
        QCOMPARE(send["output"].size(), std::size_t(0));
        QCOMPARE(dump["data"]["Module.model.layers.1.Block.forward.0"]["parallel_merge_info"][0].get<std::string>(),
            std::string("This data is the merged data after tensor parallelism(TP), and the data is merged from rank [1, 3]."));
        // Read back, the merged graph is an ordinary one-rank dump with the layers in place.
        const Graph graph = buildGraph(rankDir);
        QCOMPARE(parentOf(graph, "Torch.relu_rank1.0.forward"), std::string("Module.model.layers.1.Block.forward.0"));
        QCOMPARE(parentOf(graph, "Module.model.layers.1.Block.forward.0"), std::string("Module.model.forward.0"));
        const std::string model = nodeData(graph, "Module.model.forward.0", true);
        QVERIFY2(model.find("\"Max\": \"7.0\", \"Min\": \"0.0\", \"Mean\": \"3.0\", \"Norm\": \"10.0\"") != std::string::npos, model.c_str());
        const std::string group = nodeData(graph, "Distributed.all_reduce_rank1.0.forward", false);
        QVERIFY2(group.find("\"group_ranks\": \"[1, 3]\"") != std::string::npos, group.c_str());
    }

    void jsonNeedsParallelMergeAndNoBench()
    {
        // Without --rank_size: a warning, and the vis.db is written as usual.
        const fs::path out = tmp("plain");
        auto run = test::runCli({ "graph_visualize", "-tp", q(kData / "single"), "-o", q(out), "--file_type", "json" });
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        QVERIFY2(run.err.contains("[WARNING] --file_type json needs parallel merge (--rank_size); writing a vis.db"), qPrintable(run.err));
        QVERIFY(hasVisDb(out));
        QVERIFY(!fs::exists(out / "step0"));
        // With -gp: refused before anything is written.
        const fs::path refused = tmp("refused");
        run = test::runCli({ "graph_visualize", "-tp", q(kData / "tp2"), "-gp", q(kData / "tp2"), "-o", q(refused), "--rank_size",
            "2", "2", "--tp", "2", "2", "--pp", "1", "1", "--file_type", "json" });
        QVERIFY(run.exitCode != 0);
        QVERIFY2(run.err.contains("--file_type json is only for a parallel-merge build (no -gp)"), qPrintable(run.err));
        QVERIFY(!fs::exists(refused) || !hasVisDb(refused));
    }

    // A tensor dump: items are named after their data_name. The renamed API's keys follow its new name while
    // data_name still names rank 1's file; a Max written as the string "inf" is not merged (the reference skips
    // statistics that are not numbers), the other three are.
    void tensorDumpRenamesKeysAndSkipsStringStats()
    {
        auto merged = mergeDir(kData / "tp2_tensor", { 2, 2, 1, 1, "tp-cp-ep-dp-pp" });
        QCOMPARE(merged.size(), std::size_t(1));
        const Graph& graph = merged[0].graph;
        const std::string add1 = nodeData(graph, "Tensor.add_rank1.0.forward", true);
        QVERIFY2(add1.find("\"Tensor.add_rank1.0.forward.output.0\": {") != std::string::npos, add1.c_str());
        QVERIFY2(add1.find("\"data_name\": \"Tensor.add.0.forward.output.0.pt\"") != std::string::npos, add1.c_str());
        QVERIFY2(add1.find("\"Max\": \"3.0\"") != std::string::npos, add1.c_str());
        const std::string in1 = nodeData(graph, "Tensor.sum_rank1.0.forward", false);
        QVERIFY2(in1.find("\"Tensor.sum_rank1.0.forward.input.0\": {") != std::string::npos, in1.c_str());

        const std::uint32_t linear = graph.find("Module.layer.Linear.forward.0");
        QVERIFY(graph.parallelMergeInfo.contains(linear));
        QCOMPARE(graph.parallelMergeInfo.at(linear),
            (std::vector<std::string> {
                "This data is the merged data after tensor parallelism(TP), and the data is merged from rank [0, 1].",
                "The Min value merging method for output.0 is: min(-2.0, -1.0) = -2.0",
                "The Mean value merging method for output.0 is: (0.5 + 1.5) / 2 = 1.0",
                "The Norm value merging method for output.0 is: (5.0 ** 2 + 12.0 ** 2) ** 0.5 = 13.0" }));
        const std::string out = nodeData(graph, "Module.layer.Linear.forward.0", true);
        QVERIFY2(out.find("\"Max\": \"inf\", \"Min\": \"-2.0\", \"Mean\": \"1.0\", \"Norm\": \"13.0\"") != std::string::npos, out.c_str());

        // Written as JSON: the renamed node's tensors lose data_name (the reference rebuilds that entry from
        // its items), the others keep it; the string statistic stays a string.
        const std::string dump = mergedDumpJson(graph);
        QVERIFY(dump.find("\"data_name\": \"Tensor.add.0.forward.output.0.pt\"") != std::string::npos); // rank 0's add
        QVERIFY(dump.find("\"Max\": \"inf\",\n") != std::string::npos);
        const auto parsed = nlohmann::ordered_json::parse(dump);
        const auto& renamed = parsed["data"]["Tensor.add_rank1.0.forward"]["output"][0];
        QVERIFY(!renamed.contains("data_name"));
        QCOMPARE(renamed["Max"].get<double>(), 3.0);
        QCOMPARE(parsed["data"]["Module.layer.Linear.forward.0"]["output"][0]["data_name"].get<std::string>(),
            std::string("Module.layer.Linear.forward.0.output.0.pt"));
        QCOMPARE(parsed["data"]["Module.layer.Linear.forward.0"]["output"][0]["Norm"].get<double>(), 13.0);
    }
};

QTEST_APPLESS_MAIN(TestGraphMergeJson)
#include "tst_graph_merge_json.moc"
