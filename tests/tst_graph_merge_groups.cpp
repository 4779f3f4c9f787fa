// SPDX-License-Identifier: Apache-2.0
// Parallel merge, part 3: TP groups and PP chains read from the dumps (and the warning when they fall back to
// Megatron's defaults), and the RowParallelLinear forward / ColumnParallelLinear backward rule, on the
// hand-written dumps tests/data/graph_merge/groups4 and linear2. Every expected value is computed by hand in
// the comments.
#include "tst_graph_merge_util.h"
#include "graph/model/graph_builder.h"
#include "graph/merge/graph_merge.h"
#include "graph/model/graph_passes.h"
#include "graph/visdb/node_data.h"

#include <QTest>

#include <filesystem>

using namespace msprobe;
using namespace msprobe::graph;
using namespace msprobe::test;
namespace fs = std::filesystem;

namespace {

const fs::path kData = test::kMergeData;

std::vector<std::string> infoOf(const Graph& graph, std::string_view id)
{
    const std::uint32_t node = graph.find(id);
    auto it = graph.parallelMergeInfo.find(node);
    return node == kNoNode || it == graph.parallelMergeInfo.end() ? std::vector<std::string> {} : it->second;
}

std::string stats(const char* max, const char* min, const char* mean, const char* norm)
{
    return std::string("\"Max\": \"") + max + "\", \"Min\": \"" + min + "\", \"Mean\": \"" + mean + "\", \"Norm\": \"" + norm + "\"";
}

const std::string kTp = "This data is the merged data after tensor parallelism(TP), and the data is merged from rank ";

// The four formula lines of one item, values as Python prints them.
std::vector<std::string> formulas(const std::string& key, const char* max, const char* min, const char* mean, const char* norm)
{
    return { "The Max value merging method for " + key + " is: " + max, "The Min value merging method for " + key + " is: " + min,
        "The Mean value merging method for " + key + " is: " + mean, "The Norm value merging method for " + key + " is: " + norm };
}

std::vector<std::string> concat(std::vector<std::string> a, const std::vector<std::string>& b)
{
    a.insert(a.end(), b.begin(), b.end());
    return a;
}

} // namespace

class TestGraphMergeGroups : public QObject {
    Q_OBJECT

private slots:
    // groups4, tp 2 x pp 2. The dumps say: all_reduce group_ranks [0, 2] and [1, 3]; sends 0 -> 1 -> 0 and
    // 2 -> 3 -> 2, so the pipelines are [0, 1] and [2, 3]. Megatron's defaults would be the transpose (TP [0, 1],
    // [2, 3]; PP [0, 2], [1, 3]), under which ranks 0 and 2 would form a pipeline and no layers.1 would exist.
    void groupsComeFromTheDumps()
    {
        std::vector<std::string> warnings;
        auto merged = mergeDir(kData / "groups4", { 4, 2, 2, 1, "tp-cp-ep-dp-pp" }, &warnings);
        QCOMPARE(warnings, std::vector<std::string> {});
        QCOMPARE(merged.size(), std::size_t(1));
        QCOMPARE(merged[0].rank, 0);
        const Graph& graph = merged[0].graph;
        // Pipeline [0, 1]: rank 1's layer 0 appended as layer 1 (after the plain children), its APIs renamed.
        QCOMPARE(childIds(graph, "Module.model.forward.0"),
            (std::vector<std::string> { "Module.model.layers.0.Block.forward.0", "Distributed.send.0.forward",
                "Module.model.layers.1.Block.forward.0" }));
        QCOMPARE(childIds(graph, "Module.model.layers.1.Block.forward.0"),
            (std::vector<std::string> { "Torch.relu_rank1.0.forward", "Distributed.all_reduce_rank1.0.forward" }));

        // Layer 0 over TP group [0, 2]: outputs (2, 0, 0.5, 3) and (1, -1, 1.5, 4); inputs equal (not merged).
        const auto layer0 = concat({ kTp + "[0, 2]." },
            formulas("output.0", "max(2.0, 1.0) = 2.0", "min(0.0, -1.0) = -1.0", "(0.5 + 1.5) / 2 = 1.0", "(3.0 ** 2 + 4.0 ** 2) ** 0.5 = 5.0"));
        QCOMPARE(infoOf(graph, "Module.model.layers.0.Block.forward.0"), layer0);
        QCOMPARE(infoOf(graph, "Torch.relu.0.forward"), layer0);
        QVERIFY(nodeData(graph, "Module.model.layers.0.Block.forward.0", true).find(stats("2.0", "-1.0", "1.0", "5.0")) != std::string::npos);
        // Layer 1 is ranks 1 and 3: outputs (5, 1, 2, 6) and (7, 0, 4, 8). Rank 1's relu finds rank 3's
        // (Torch.relu_rank3.0.forward) through the TP group [1, 3] read from the dumps.
        const auto layer1 = formulas("output.0", "max(5.0, 7.0) = 7.0", "min(1.0, 0.0) = 0.0", "(2.0 + 4.0) / 2 = 3.0",
            "(6.0 ** 2 + 8.0 ** 2) ** 0.5 = 10.0");
        QCOMPARE(infoOf(graph, "Module.model.layers.1.Block.forward.0"), concat({ kTp + "[1, 3]." }, layer1));
        QCOMPARE(infoOf(graph, "Torch.relu_rank1.0.forward"), concat({ kTp + "[1, 3]." }, layer1));
        QVERIFY(nodeData(graph, "Torch.relu_rank1.0.forward", true).find(stats("7.0", "0.0", "3.0", "10.0")) != std::string::npos);
        // The model's output is each pipeline's last stage (ranks 1 and 3), merged over the TP pair of the
        // model nodes (ranks 0 and 2).
        QCOMPARE(infoOf(graph, "Module.model.forward.0"), concat({ kTp + "[0, 2]." }, layer1));
        QVERIFY(nodeData(graph, "Module.model.forward.0", true).find(stats("7.0", "0.0", "3.0", "10.0")) != std::string::npos);
        // Communication APIs are never merged.
        QCOMPARE(infoOf(graph, "Distributed.all_reduce_rank1.0.forward"), std::vector<std::string> {});
    }

    // tppp4 has no communication APIs: both group kinds fall back to Megatron's defaults, with a warning each.
    void fallbackToMegatronGroupsWarns()
    {
        std::vector<std::string> warnings;
        auto merged = mergeDir(kData / "tppp4", { 4, 2, 2, 1, "tp-cp-ep-dp-pp" }, &warnings);
        QCOMPARE(merged.size(), std::size_t(1));
        QCOMPARE(warnings,
            (std::vector<std::string> {
                "no send/isend/batch_isend_irecv destination found in the dumps; using Megatron's default PP groups [[0, 2], [1, 3]]",
                "no reduce_scatter/all_reduce with group_ranks found in the dumps; using Megatron's default TP groups [[0, 1], [2, 3]]" }));
        // And the PP groups the dumps contradict Megatron's on are used, not the defaults: groups4 gave none.
    }

    // full8: rank_size 8, tp 2, pp 2 (dp 2) is the full strategy. Megatron's groups (no communication APIs):
    // PP [0, 4], [1, 5], [2, 6], [3, 7], TP [0, 1], [2, 3], [4, 5], [6, 7]. Pipelines first, then TP within each
    // TP group of the pipeline results: two replicas, under ranks 0 and 2. Rank r's layer output is
    // (r + 1, -r, r, 3 or 4 for even or odd r); stage 1 (ranks 4..7) is layer 1.
    void fullMergeGivesOneGraphPerReplica()
    {
        std::vector<std::string> warnings;
        auto merged = mergeDir(kData / "full8", { 8, 2, 2, 1, "tp-cp-ep-dp-pp" }, &warnings);
        QCOMPARE(warnings.size(), std::size_t(2));
        QCOMPARE(merged.size(), std::size_t(2));
        QCOMPARE(merged[0].rank, 0);
        QCOMPARE(merged[1].rank, 2);
        struct Expected {
            int replica;
            const char* renamedRelu;
            std::string layer0Ranks, layer1Ranks;
            std::vector<std::string> layer0, layer1;
        };
        const Expected expected[2] = {
            { 0, "Torch.relu_rank4.0.forward", "[0, 1].", "[4, 5].",
                formulas("output.0", "max(1.0, 2.0) = 2.0", "min(0.0, -1.0) = -1.0", "(0.0 + 1.0) / 2 = 0.5", "(3.0 ** 2 + 4.0 ** 2) ** 0.5 = 5.0"),
                formulas("output.0", "max(5.0, 6.0) = 6.0", "min(-4.0, -5.0) = -5.0", "(4.0 + 5.0) / 2 = 4.5", "(3.0 ** 2 + 4.0 ** 2) ** 0.5 = 5.0") },
            { 1, "Torch.relu_rank6.0.forward", "[2, 3].", "[6, 7].",
                formulas("output.0", "max(3.0, 4.0) = 4.0", "min(-2.0, -3.0) = -3.0", "(2.0 + 3.0) / 2 = 2.5", "(3.0 ** 2 + 4.0 ** 2) ** 0.5 = 5.0"),
                formulas("output.0", "max(7.0, 8.0) = 8.0", "min(-6.0, -7.0) = -7.0", "(6.0 + 7.0) / 2 = 6.5", "(3.0 ** 2 + 4.0 ** 2) ** 0.5 = 5.0") },
        };
        for (const Expected& e : expected) {
            const Graph& graph = merged[static_cast<std::size_t>(e.replica)].graph;
            QCOMPARE(childIds(graph, "Module.model.forward.0"),
                (std::vector<std::string> { "Module.model.layers.0.Block.forward.0", "Module.model.layers.1.Block.forward.0" }));
            QCOMPARE(childIds(graph, "Module.model.layers.1.Block.forward.0"), std::vector<std::string> { e.renamedRelu });
            QCOMPARE(infoOf(graph, "Module.model.layers.0.Block.forward.0"), concat({ kTp + e.layer0Ranks }, e.layer0));
            QCOMPARE(infoOf(graph, "Torch.relu.0.forward"), concat({ kTp + e.layer0Ranks }, e.layer0));
            QCOMPARE(infoOf(graph, "Module.model.layers.1.Block.forward.0"), concat({ kTp + e.layer1Ranks }, e.layer1));
            QCOMPARE(infoOf(graph, e.renamedRelu), concat({ kTp + e.layer1Ranks }, e.layer1));
            // The model output: each pipeline's last stage, merged over the model nodes' TP pair.
            QCOMPARE(infoOf(graph, "Module.model.forward.0"), concat({ kTp + e.layer0Ranks }, e.layer1));
        }
        QVERIFY(nodeData(merged[1].graph, "Module.model.forward.0", true).find(stats("8.0", "-7.0", "6.5", "5.0")) != std::string::npos);
        QVERIFY(nodeData(merged[0].graph, "Module.model.layers.0.Block.forward.0", true).find(stats("2.0", "-1.0", "0.5", "5.0"))
            != std::string::npos);
    }

    // linear2, tp 2. RowParallelLinear forward: the matmul's partial outputs (3, -2, 0.5, 5) and
    // (4, -1, 1.5, 12) are replaced by the all_reduce output ("inf", -3, 1, 13; Max written as the string "inf",
    // which the reference copies as it is) instead of being merged; its inputs
    // (1, -1, 0, 3) and (2, -2, 1, 4) merge. ColumnParallelLinear backward: the matmul's grad output becomes
    // rank 0's _reduce_scatter_base output (5, -4, 0.5, 8); its grad inputs (1, -1, 0, 3) and (2, -1, 0.5, 4)
    // merge.
    void linearLayerOutputsComeFromTheirReduce()
    {
        std::vector<std::string> warnings;
        auto merged = mergeDir(kData / "linear2", { 2, 2, 1, 1, "tp-cp-ep-dp-pp" }, &warnings);
        QCOMPARE(warnings, std::vector<std::string> {});
        QCOMPARE(merged.size(), std::size_t(1));
        const Graph& graph = merged[0].graph;

        QCOMPARE(infoOf(graph, "Torch.matmul.0.forward"),
            concat(concat({ kTp + "[0, 1]." },
                       formulas("input.0", "max(1.0, 2.0) = 2.0", "min(-1.0, -2.0) = -2.0", "(0.0 + 1.0) / 2 = 0.5",
                           "(3.0 ** 2 + 4.0 ** 2) ** 0.5 = 5.0")),
                { "The output of this data is merged from Distributed.all_reduce.0.forward.output.0" }));
        QVERIFY2(nodeData(graph, "Torch.matmul.0.forward", true).find(stats("inf", "-3.0", "1.0", "13.0")) != std::string::npos,
            nodeData(graph, "Torch.matmul.0.forward", true).c_str());
        QVERIFY(nodeData(graph, "Torch.matmul.0.forward", false).find(stats("2.0", "-2.0", "0.5", "5.0")) != std::string::npos);

        QCOMPARE(infoOf(graph, "Torch.matmul.0.backward"),
            concat(concat({ kTp + "[0, 1]." },
                       formulas("input.0", "max(1.0, 2.0) = 2.0", "min(-1.0, -1.0) = -1.0", "(0.0 + 0.5) / 2 = 0.25",
                           "(3.0 ** 2 + 4.0 ** 2) ** 0.5 = 5.0")),
                { "The output of this data is merged from Distributed._reduce_scatter_base.0.forward.output.0" }));
        QVERIFY2(nodeData(graph, "Torch.matmul.0.backward", true).find(stats("5.0", "-4.0", "0.5", "8.0")) != std::string::npos,
            nodeData(graph, "Torch.matmul.0.backward", true).c_str());
        QVERIFY(nodeData(graph, "Torch.matmul.0.backward", false).find(stats("2.0", "-1.0", "0.25", "5.0")) != std::string::npos);
        QCOMPARE(infoOf(graph, "Distributed.all_reduce.0.forward"), std::vector<std::string> {});
    }
};

QTEST_APPLESS_MAIN(TestGraphMergeGroups)
#include "tst_graph_merge_groups.moc"
