// SPDX-License-Identifier: Apache-2.0
// Parallel merge (graph_visualize --rank_size/--tp/--pp): TP statistics and their parallel_merge_info, PP layer
// renumbering, the folding of Apis_Between_Modules, a compare of a merged side and the CLI end to end, on the
// tiny hand-written two-rank dumps in tests/data/graph_merge.
#include "cli_runner.h"
#include "tst_graph_merge_util.h"
#include "graph/model/graph_builder.h"
#include "graph/merge/graph_merge.h"
#include "graph/model/graph_passes.h"
#include "graph/visdb/node_data.h"
#include "support/sqlite_util.h"
#include "support/error.h"

#include <QTemporaryDir>
#include <QTest>

#include <filesystem>
#include <map>

using namespace msprobe;
using namespace msprobe::graph;
using namespace msprobe::test;
namespace fs = std::filesystem;

namespace {

const fs::path kData = test::kMergeData;

struct Row {
    std::string type, up, subNodes, mergeInfo, input, output;
    std::optional<double> precision;
    std::string link;
};

std::map<std::string, Row> readRows(const fs::path& db, const std::string& source, int* rank = nullptr)
{
    support::SqliteDb sqlite(db, true);
    support::SqliteStatement select(sqlite,
        "SELECT node_name, node_type, up_node, sub_nodes, parallel_merge_info, input_data, output_data, precision_index, "
        "matched_node_link, rank FROM tb_nodes WHERE data_source = ?");
    select.bindText(1, source);
    std::map<std::string, Row> rows;
    while (select.step()) {
        Row row { std::string(select.columnText(1)), std::string(select.columnText(2)), std::string(select.columnText(3)),
            std::string(select.columnText(4)), std::string(select.columnText(5)), std::string(select.columnText(6)), std::nullopt,
            std::string(select.columnText(8)) };
        if (!select.isNull(7))
            row.precision = select.columnDouble(7);
        if (rank)
            *rank = static_cast<int>(select.columnInt(9));
        rows.emplace(std::string(select.columnText(0)), std::move(row));
    }
    return rows;
}

fs::path onlyVisDb(const fs::path& dir)
{
    for (const auto& entry : fs::directory_iterator(dir))
        if (entry.path().string().ends_with(".vis.db"))
            return entry.path();
    return {};
}

} // namespace

class TestGraphMerge : public QObject {
    Q_OBJECT

    QTemporaryDir m_tmp;
    fs::path tmp(const std::string& name) const { return fs::path(m_tmp.path().toStdString()) / name; }

private slots:
    void tpMergesStatisticsWithFormulas()
    {
        auto merged = mergeDir(kData / "tp2", { 2, 2, 1, 1, "tp-cp-ep-dp-pp" });
        QCOMPARE(merged.size(), std::size_t(1));
        QCOMPARE(merged[0].rank, 0);
        const Graph& graph = merged[0].graph;
        const std::uint32_t linear = graph.find("Module.layer.Linear.forward.0");
        QVERIFY(linear != kNoNode);
        // rank 0: 3.0 / -2.0 / 0.5 / 5.0, rank 1: 4.0 / -1.0 / 1.5 / 12.0
        const std::vector<std::string> expected = {
            "This data is the merged data after tensor parallelism(TP), and the data is merged from rank [0, 1].",
            "The Max value merging method for output.0 is: max(3.0, 4.0) = 4.0",
            "The Min value merging method for output.0 is: min(-2.0, -1.0) = -2.0",
            "The Mean value merging method for output.0 is: (0.5 + 1.5) / 2 = 1.0",
            "The Norm value merging method for output.0 is: (5.0 ** 2 + 12.0 ** 2) ** 0.5 = 13.0",
        };
        QVERIFY(graph.parallelMergeInfo.contains(linear));
        QCOMPARE(graph.parallelMergeInfo.at(linear), expected);
        const std::string out = outputData(graph, "Module.layer.Linear.forward.0");
        QVERIFY2(out.find("\"Max\": \"4.0\", \"Min\": \"-2.0\", \"Mean\": \"1.0\", \"Norm\": \"13.0\"") != std::string::npos, out.c_str());
        // Equal on both ranks: no merge, no info.
        QVERIFY(!graph.parallelMergeInfo.contains(graph.find("Torch.matmul.0.forward")));
        QVERIFY(outputData(graph, "Torch.matmul.0.forward").find("\"Norm\": \"3.0\"") != std::string::npos);
    }

    void apisBetweenModulesFoldIntoAllRanks()
    {
        auto merged = mergeDir(kData / "tp2", { 2, 2, 1, 1, "tp-cp-ep-dp-pp" });
        const Graph& graph = merged[0].graph;
        QCOMPARE(childIds(graph, "DefaultModel"), (std::vector<std::string> { "Module.layer.Linear.forward.0", "Apis_Between_Modules_All_Ranks.0" }));
        QCOMPARE(childIds(graph, "Apis_Between_Modules_All_Ranks.0"),
            (std::vector<std::string> { "Apis_Between_Modules_Rank0.0", "Apis_Between_Modules_Rank1.0" }));
        QCOMPARE(childIds(graph, "Apis_Between_Modules_Rank0.0"), (std::vector<std::string> { "Tensor.add.0.forward", "Tensor.sum.0.forward" }));
        QCOMPARE(childIds(graph, "Apis_Between_Modules_Rank1.0"),
            (std::vector<std::string> { "Tensor.add_rank1.0.forward", "Tensor.sum_rank1.0.forward" }));
        QCOMPARE(graph.node(graph.find("Apis_Between_Modules_All_Ranks.0")).op, NodeOp::ApiCollection);
        QVERIFY(graph.find("Apis_Between_Modules.0") == kNoNode);
        // The renamed API keeps rank 1's data under its new name (Max 3.0 there, 2.0 on rank 0).
        QVERIFY(outputData(graph, "Tensor.add_rank1.0.forward").find("\"Tensor.add_rank1.0.forward.output.0\": {") != std::string::npos);
        QVERIFY(outputData(graph, "Tensor.add_rank1.0.forward").find("\"Max\": \"3.0\"") != std::string::npos);
        QVERIFY(outputData(graph, "Tensor.add.0.forward").find("\"Max\": \"2.0\"") != std::string::npos);
    }

    void ppRenumbersLayersAndTakesLastOutputs()
    {
        auto merged = mergeDir(kData / "pp2", { 2, 1, 2, 1, "tp-cp-ep-dp-pp" });
        QCOMPARE(merged.size(), std::size_t(1));
        const Graph& graph = merged[0].graph;
        QCOMPARE(childIds(graph, "Module.model.forward.0"),
            (std::vector<std::string> { "Module.model.layers.0.Block.forward.0", "Module.model.layers.1.Block.forward.0" }));
        QCOMPARE(childIds(graph, "Module.model.layers.1.Block.forward.0"), (std::vector<std::string> { "Torch.relu_rank1.0.forward" }));
        QCOMPARE(childIds(graph, "Module.model.layers.0.Block.forward.0"), (std::vector<std::string> { "Torch.relu.0.forward" }));
        // Layer 1 is rank 1's layer 0 (output Max 7.0); the model's output is the last stage's.
        QVERIFY(outputData(graph, "Module.model.layers.1.Block.forward.0").find("\"Max\": \"7.0\"") != std::string::npos);
        QVERIFY(outputData(graph, "Module.model.layers.0.Block.forward.0").find("\"Max\": \"2.0\"") != std::string::npos);
        const std::string model = outputData(graph, "Module.model.forward.0");
        QVERIFY2(model.find("\"Max\": \"7.0\", \"Min\": \"0.0\", \"Mean\": \"2.0\", \"Norm\": \"4.0\"") != std::string::npos, model.c_str());
        QVERIFY(graph.parallelMergeInfo.empty());
    }

    // tp 2 x pp 2 (Megatron order: tensor groups [0, 1] and [2, 3], pipeline groups [0, 2] and [1, 3]): the
    // stages' layers are renumbered and each layer's statistics merged over its tensor-parallel pair.
    void tpTimesPpMergesLayersAndStatistics()
    {
        auto merged = mergeDir(kData / "tppp4", { 4, 2, 2, 1, "tp-cp-ep-dp-pp" });
        QCOMPARE(merged.size(), std::size_t(1));
        QCOMPARE(merged[0].rank, 0);
        const Graph& graph = merged[0].graph;
        QCOMPARE(childIds(graph, "Module.model.forward.0"),
            (std::vector<std::string> { "Module.model.layers.0.Block.forward.0", "Module.model.layers.1.Block.forward.0" }));
        // Stage 0, ranks 0 and 1: max(2, 3), min(0, -1), (0.75 + 1.25) / 2, (2.5^2 + 6^2)^0.5.
        const std::string layer0 = outputData(graph, "Module.model.layers.0.Block.forward.0");
        QVERIFY2(layer0.find("\"Max\": \"3.0\", \"Min\": \"-1.0\", \"Mean\": \"1.0\", \"Norm\": \"6.5\"") != std::string::npos, layer0.c_str());
        // Stage 1, ranks 2 and 3 (their local layer 0): max(7, 8), min(0, -3), (2 + 3) / 2, (4^2 + 3^2)^0.5.
        const std::string layer1 = outputData(graph, "Module.model.layers.1.Block.forward.0");
        QVERIFY2(layer1.find("\"Max\": \"8.0\", \"Min\": \"-3.0\", \"Mean\": \"2.5\", \"Norm\": \"5.0\"") != std::string::npos, layer1.c_str());
        // Layer 1 is rank 2's node (pipeline [0, 2]) merged with rank 3's (pipeline [1, 3]); its relu, renamed
        // Torch.relu_rank2.0.forward, finds Torch.relu_rank3.0.forward through the TP group [2, 3].
        const std::vector<std::string> stage1 = {
            "This data is the merged data after tensor parallelism(TP), and the data is merged from rank [2, 3].",
            "The Max value merging method for output.0 is: max(7.0, 8.0) = 8.0",
            "The Min value merging method for output.0 is: min(0.0, -3.0) = -3.0",
            "The Mean value merging method for output.0 is: (2.0 + 3.0) / 2 = 2.5",
            "The Norm value merging method for output.0 is: (4.0 ** 2 + 3.0 ** 2) ** 0.5 = 5.0",
        };
        for (const char* id : { "Module.model.layers.1.Block.forward.0", "Torch.relu_rank2.0.forward" }) {
            const std::uint32_t node = graph.find(id);
            QVERIFY2(graph.parallelMergeInfo.contains(node), id);
            QCOMPARE(graph.parallelMergeInfo.at(node), stage1);
        }
        QCOMPARE(childIds(graph, "Module.model.layers.1.Block.forward.0"), (std::vector<std::string> { "Torch.relu_rank2.0.forward" }));
        // The model's output is the last stage's, merged over its tensor pair.
        const std::string model = outputData(graph, "Module.model.forward.0");
        QVERIFY2(model.find("\"Max\": \"8.0\", \"Min\": \"-3.0\", \"Mean\": \"2.5\", \"Norm\": \"5.0\"") != std::string::npos, model.c_str());
    }

    // pp 2 x vpp 2: rank 0 holds layers 0 and 2 (model chunks 0 and 1), rank 1 layers 1 and 3, each chunk numbering
    // its layer locally as layers.0. The merge keeps chunk 0 with the four layers in model order (layer L's
    // output Max is L + 1 in the dumps); chunk 1 leaves the graph.
    void vppFoldsChunksIntoModelOrder()
    {
        auto merged = mergeDir(kData / "vpp2", { 2, 1, 2, 2, "tp-cp-ep-dp-pp" });
        QCOMPARE(merged.size(), std::size_t(1));
        const Graph& graph = merged[0].graph;
        std::vector<std::string> layers;
        for (int l = 0; l < 4; ++l)
            layers.push_back("Module.0.model.layers." + std::to_string(l) + ".Block.forward.0");
        QCOMPARE(childIds(graph, "Module.0.model.Model.forward.0"), layers);
        QVERIFY(graph.find("Module.1.model.Model.forward.0") == kNoNode);
        QCOMPARE(childIds(graph, "DefaultModel"), (std::vector<std::string> { "Module.0.model.Model.forward.0" }));
        for (int l = 0; l < 4; ++l) {
            const std::string out = outputData(graph, layers[static_cast<std::size_t>(l)]);
            const std::string max = "\"Max\": \"" + std::to_string(l + 1) + ".0\"";
            QVERIFY2(out.find(max) != std::string::npos, (layers[static_cast<std::size_t>(l)] + ": " + out).c_str());
        }
    }

    void dataParallelReplicasStayApart()
    {
        // rank_size 2, tp 1, pp 1: two replicas of one rank each, stored under their own ranks.
        auto merged = mergeDir(kData / "tp2", { 2, 1, 1, 1, "tp-cp-ep-dp-pp" });
        QCOMPARE(merged.size(), std::size_t(2));
        QCOMPARE(merged[0].rank, 0);
        QCOMPARE(merged[1].rank, 1);
        QVERIFY(merged[0].graph.parallelMergeInfo.empty());
        QVERIFY(outputData(merged[1].graph, "Module.layer.Linear.forward.0").find("\"Norm\": \"12.0\"") != std::string::npos);
    }

    void cliBuildWritesMergedRows()
    {
        const auto run = test::runCli({ "graph_visualize", "-tp", QString::fromStdString((kData / "tp2").string()), "-o",
            QString::fromStdString(tmp("build").string()), "--rank_size", "2", "--tp", "2", "--pp", "1" });
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        int rank = -1;
        const auto rows = readRows(onlyVisDb(tmp("build")), "NPU", &rank);
        QCOMPARE(rank, 0);
        QCOMPARE(rows.size(), std::size_t(10));
        const Row& linear = rows.at("Module.layer.Linear.forward.0");
        QCOMPARE(linear.mergeInfo,
            std::string("[\"This data is the merged data after tensor parallelism(TP), and the data is merged from rank [0, 1].\", "
                        "\"The Max value merging method for output.0 is: max(3.0, 4.0) = 4.0\", "
                        "\"The Min value merging method for output.0 is: min(-2.0, -1.0) = -2.0\", "
                        "\"The Mean value merging method for output.0 is: (0.5 + 1.5) / 2 = 1.0\", "
                        "\"The Norm value merging method for output.0 is: (5.0 ** 2 + 12.0 ** 2) ** 0.5 = 13.0\"]"));
        QVERIFY(linear.output.find("\"Norm\": \"13.0\"") != std::string::npos);
        QCOMPARE(rows.at("Torch.matmul.0.forward").mergeInfo, std::string());
        QCOMPARE(rows.at("Apis_Between_Modules_All_Ranks.0").type, std::string("9"));
        QCOMPARE(rows.at("Apis_Between_Modules_All_Ranks.0").subNodes, std::string("[\"Apis_Between_Modules_Rank0.0\", \"Apis_Between_Modules_Rank1.0\"]"));
        QCOMPARE(rows.at("Tensor.sum_rank1.0.forward").up, std::string("Apis_Between_Modules_Rank1.0"));
        support::SqliteDb db(onlyVisDb(tmp("build")), true);
        support::SqliteStatement config(db, "SELECT rank_list, graph_type FROM tb_config");
        QVERIFY(config.step());
        QCOMPARE(std::string(config.columnText(0)), std::string("[0]"));
        QCOMPARE(std::string(config.columnText(1)), std::string("build"));
    }

    void cliComparesMergedSideWithSingleRank()
    {
        const auto run = test::runCli({ "graph_visualize", "-tp", QString::fromStdString((kData / "tp2").string()), "-gp",
            QString::fromStdString((kData / "single").string()), "-o", QString::fromStdString(tmp("compare").string()), "--rank_size", "2",
            "1", "--tp", "2", "1", "--pp", "1", "1" });
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        const auto npu = readRows(onlyVisDb(tmp("compare")), "NPU");
        const auto bench = readRows(onlyVisDb(tmp("compare")), "Bench");
        // The merged output (4.0 / -2.0 / 1.0 / 13.0) equals the single-rank run's: pass.
        const Row& linear = npu.at("Module.layer.Linear.forward.0");
        QVERIFY(linear.precision.has_value());
        QCOMPARE(*linear.precision, 0.0);
        QCOMPARE(linear.link, std::string("[\"DefaultModel\", \"Module.layer.Linear.forward.0\"]"));
        QVERIFY2(linear.output.find("\"NormRelativeErr\": \"0.0%\"") != std::string::npos, linear.output.c_str());
        QVERIFY(!linear.mergeInfo.empty());
        // The bench side was folded too (one rank): its APIs keep their names.
        QCOMPARE(bench.at("Apis_Between_Modules_All_Ranks.0").subNodes, std::string("[\"Apis_Between_Modules_Rank0.0\"]"));
        QVERIFY(npu.at("Tensor.add.0.forward").link.find("Tensor.add.0.forward") != std::string::npos);
        QCOMPARE(npu.at("Tensor.add_rank1.0.forward").link, std::string("[]"));
    }

    // Two data-parallel replicas per side (tp 1, pp 1): each pair reports matching, comparing and writing, and
    // the percentages never go back (the replicas share the step's span).
    void cliMergedCompareReportsProgress()
    {
        const auto run = test::runCli({ "graph_visualize", "-tp", QString::fromStdString((kData / "tp2").string()), "-gp",
            QString::fromStdString((kData / "tp2").string()), "-o", QString::fromStdString(tmp("progress").string()), "--rank_size",
            "2", "2", "--tp", "1", "1", "--pp", "1", "1" });
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        for (const char* stage : { "step 0: building and merging the ranks", "step 0 rank 0: matching", "step 0 rank 0: comparing and writing",
                 "step 0 rank 1: matching", "step 0 rank 1: comparing and writing", "creating indexes", "100% done" })
            QVERIFY2(run.err.contains(QString::fromUtf8(stage)), stage);
        // tp 1: one-rank groups, nothing to read from the dumps and nothing to warn about.
        QVERIFY2(!run.err.contains("[WARNING]"), qPrintable(run.err));
        int last = -1;
        for (const QString& line : run.err.split('\n', Qt::SkipEmptyParts)) {
            if (!line.startsWith("[Graph]"))
                continue;
            const int percent = line.mid(7).trimmed().section('%', 0, 0).toInt();
            QVERIFY2(percent >= last, qPrintable(run.err));
            last = percent;
        }
        QCOMPARE(last, 100);
    }

    void cliRefusesDifferentReplicaCounts()
    {
        auto run = test::runCli({ "graph_visualize", "-tp", QString::fromStdString((kData / "tp2").string()), "-gp",
            QString::fromStdString((kData / "tp2").string()), "-o", QString::fromStdString(tmp("dp").string()), "--rank_size", "2", "2",
            "--tp", "2", "1", "--pp", "1", "1" });
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains("NPU side merges into 1 data-parallel replica(s) but the bench side into 2"), qPrintable(run.err));
        // --file_type json: tst_graph_merge_json.
    }

    void cliPpBuild()
    {
        const auto run = test::runCli({ "graph_visualize", "-tp", QString::fromStdString((kData / "pp2").string()), "-o",
            QString::fromStdString(tmp("pp").string()), "--rank_size", "2", "--tp", "1", "--pp", "2" });
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        const auto rows = readRows(onlyVisDb(tmp("pp")), "NPU");
        QCOMPARE(rows.size(), std::size_t(6));
        QCOMPARE(rows.at("Module.model.forward.0").subNodes,
            std::string("[\"Module.model.layers.0.Block.forward.0\", \"Module.model.layers.1.Block.forward.0\"]"));
        QCOMPARE(rows.at("Torch.relu_rank1.0.forward").up, std::string("Module.model.layers.1.Block.forward.0"));
        QVERIFY(rows.at("Torch.relu_rank1.0.forward").input.find("\"Torch.relu_rank1.0.forward.input.0\"") != std::string::npos);
    }
};

QTEST_APPLESS_MAIN(TestGraphMerge)
#include "tst_graph_merge.moc"
