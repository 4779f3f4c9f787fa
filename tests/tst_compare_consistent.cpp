// SPDX-License-Identifier: Apache-2.0
// --consistent_check (spec 2.11) on hand-written verl-style dumps: a FSDP training dump against a vLLM inference
// dump (q/k/v projections joined onto qkv_proj, training parse stopped at the model's backward and resumed at the
// next embedding forward, rows kept in both dump orders, rows without a partner on either side), the Megatron
// mapping with the inference side aggregated, the summary text round trip, the Result rules, and tensor
// concatenation. Expected values are worked out by hand from the reference's algorithm.
#include "test_util.h"

#include "compare/compare_engine.h"
#include "compare/consistent_match.h"
#include "compare/consistent_table.h"
#include "compare/csv_writer.h"
#include "dump/dump_json_reader.h"
#include "support/error.h"
#include "tst_compare_consistent_inputs.h"

#include <QTemporaryDir>

using namespace msprobe;
using namespace msprobe::test;


class TestCompareConsistent : public QObject {
    Q_OBJECT

private slots:
    void fsdpRowsAndOrder()
    {
        const auto table = compareConsistent(fsdpTraining(), fsdpInference(), "fsdp");
        const std::string q = kLayer0 + "self_attn.q_proj.Linear.forward.0", k = kLayer0 + "self_attn.k_proj.Linear.forward.0",
                          v = kLayer0 + "self_attn.v_proj.Linear.forward.0";
        const std::string qkv = kInfer + "layers.0.self_attn.qkv_proj.QKVParallelLinear.forward.0";
        const std::string gateUp = kInfer + "layers.0.mlp.gate_up_proj.MergedColumnParallelLinear.forward.0";
        const std::vector<std::pair<std::string, std::string>> expected = {
            { kTrain + "embed_tokens.Embedding.forward.0.input.0", kInfer + "embed_tokens.VocabParallelEmbedding.forward.0.input.0" },
            { kTrain + "embed_tokens.Embedding.forward.0.output.0", kInfer + "embed_tokens.VocabParallelEmbedding.forward.0.output.0" },
            { q + ".input.0;  " + k + ".input.0;  " + v + ".input.0", qkv + ".input.0" },
            { q + ".output.0;  " + k + ".output.0;  " + v + ".output.0", qkv + ".output.0" },
            { kLayer0 + "mlp.down_proj.Linear.forward.0.input.0", kInfer + "layers.0.mlp.down_proj.RowParallelLinear.forward.0.input.0" },
            { kLayer0 + "mlp.down_proj.Linear.forward.0.output.0", kInfer + "layers.0.mlp.down_proj.RowParallelLinear.forward.0.output.0" },
            // The second embedding forward is counted as the op's forward 1: no inference partner.
            { kTrain + "embed_tokens.Embedding.forward.1.input.0", "N/A" },
            { kTrain + "embed_tokens.Embedding.forward.1.output.0", "N/A" },
            { "N/A", gateUp + ".input.0" },
            { "N/A", gateUp + ".output.0" },
        };
        QCOMPARE(table->rows.size(), expected.size());
        for (std::size_t r = 0; r < expected.size(); ++r) {
            QCOMPARE(cellText(*table, r, compare::Column::NpuName), expected[r].first);
            QCOMPARE(cellText(*table, r, compare::Column::BenchName), expected[r].second);
        }
        // Joined dtype/shape cells; the skipped backward entries left no row.
        QCOMPARE(cellText(*table, 3, compare::Column::NpuShape), std::string("\"[2, 4, 8];[2, 4, 2];[2, 4, 2]\""));
        QCOMPARE(cellText(*table, 3, compare::Column::NpuDtype), std::string("torch.float32;torch.float32;torch.float32"));
        QCOMPARE(cellText(*table, 8, compare::Column::NpuDtype), std::string("N/A"));
    }

    void fsdpSummaryRoundTrip()
    {
        const auto table = compareConsistent(fsdpTraining(), fsdpInference(), "fsdp");
        // Aggregated outputs: max of the Max values, min of the Min values, Means and Norms joined as text.
        QCOMPARE(cellText(*table, 3, compare::Column::NpuMax), std::string("3.0"));
        QCOMPARE(cellText(*table, 3, compare::Column::NpuMin), std::string("-4.0"));
        QCOMPARE(cellText(*table, 3, compare::Column::NpuMean), std::string("0.5;0.125;-0.5"));
        QCOMPARE(cellText(*table, 3, compare::Column::NpuNorm), std::string("6.0;2.0;3.0"));
        QCOMPARE(cellText(*table, 3, compare::Column::MaxDiff), std::string("0"));
        QCOMPARE(cellText(*table, 3, compare::Column::MeanDiff), std::string("Diff"));
        // A single item goes through the same text: the int64 statistics come back as floats.
        QCOMPARE(cellText(*table, 0, compare::Column::NpuMax), std::string("9.0"));
        QCOMPARE(cellText(*table, 0, compare::Column::BenchMean), std::string("4.5"));
        QCOMPARE(cellText(*table, 0, compare::Column::MaxDiff), std::string("0"));
        QCOMPARE(cellText(*table, 5, compare::Column::NormDiff), std::string("5.0"));
        QCOMPARE(cellText(*table, 5, compare::Column::NormRelativeErr), std::string("100.0%"));
        QCOMPARE(cellText(*table, 8, compare::Column::NpuMax), std::string("N/A"));
        QCOMPARE(cellText(*table, 8, compare::Column::MaxDiff), std::string("N/A"));
        QCOMPARE(cellText(*table, 6, compare::Column::BenchNorm), std::string("N/A"));
    }

    void fsdpResultRules()
    {
        const auto table = compareConsistent(fsdpTraining(), fsdpInference(), "fsdp");
        const std::string shape = R"("[""error: The shape of NPU and Bench are inconsistent.""]")";
        QCOMPARE(cellText(*table, 0, compare::Column::Result), std::string("pass"));
        QCOMPARE(cellText(*table, 1, compare::Column::Result), std::string("pass"));
        // Joined shapes never equal the fused one (the dtype check skips qkv rows).
        QCOMPARE(cellText(*table, 2, compare::Column::Result), std::string("error"));
        QCOMPARE(cellText(*table, 2, compare::Column::ErrMessage), shape);
        QCOMPARE(cellText(*table, 3, compare::Column::ErrMessage), shape);
        // down_proj's output Norm is off by 100% with an exact input: error and the 10x warning.
        QCOMPARE(cellText(*table, 5, compare::Column::Result), std::string("error"));
        QCOMPARE(cellText(*table, 5, compare::Column::ErrMessage),
            std::string(R"("[""error: The NormRelativeErr of output is greater than 0.5."", ""warning: The norm relative error of output is 10 times that of input.""]")"));
        QCOMPARE(cellText(*table, 6, compare::Column::Result), std::string("pass"));
        QCOMPARE(cellText(*table, 6, compare::Column::RequiresGradConsistent), std::string("False"));
        // Inference-only rows: "N/A" against the inference values for requires_grad and shape.
        QCOMPARE(cellText(*table, 9, compare::Column::Result), std::string("error"));
        QCOMPARE(cellText(*table, 9, compare::Column::ErrMessage),
            std::string(R"("[""error: The Required_Grad of NPU and Bench are inconsistent"", ""error: The shape of NPU and Bench are inconsistent.""]")"));
        QCOMPARE(table->countLevel(compare::ResultLevel::Error), std::size_t { 5 });
    }

    void xlsxNameSeparator()
    {
        const auto table = compareConsistent(fsdpTraining(), fsdpInference(), "fsdp", "statistics", true);
        compare::Cell cell;
        table->cell(2, compare::Column::NpuName, cell);
        QVERIFY(cell.text.find(".input.0;\n" + kLayer0 + "self_attn.k_proj") != std::string::npos);
    }

    void megatronAggregatesInference()
    {
        const std::string x = tensor("torch.bfloat16", "[4, 2, 8]", "1.0", "-1.0", "0.0", "2.0");
        const std::string train = entry("Module.module.module.decoder.layers.0.mlp.linear_fc1.ColumnParallelLinear.forward.0", x,
            tensor("torch.bfloat16", "[4, 2, 32]", "6.0", "-6.0", "0.5", "9.0"));
        const std::string l0 = kInfer + "layers.0.";
        const std::string infer = entry(l0 + "mlp.gate_up_proj.MergedColumnParallelLinear.forward.0", x,
                                      tensor("torch.bfloat16", "[8, 16]", "4.0", "-6.5", "0.25", "5.0"))
            + ", "
            + entry(l0 + "shared.gate_up_proj.MergedColumnParallelLinear.forward.0", x,
                tensor("torch.bfloat16", "[8, 16]", "6.5", "-2.0", "0.75", "4.0"));
        const auto table = compareConsistent(train, infer, "megatron");
        QCOMPARE(table->rows.size(), std::size_t { 2 });
        const std::string a = l0 + "mlp.gate_up_proj.MergedColumnParallelLinear.forward.0";
        const std::string b = l0 + "shared.gate_up_proj.MergedColumnParallelLinear.forward.0";
        QCOMPARE(cellText(*table, 1, compare::Column::NpuName), std::string("Module.module.module.decoder.layers.0.mlp.linear_fc1.ColumnParallelLinear.forward.0.output.0"));
        QCOMPARE(cellText(*table, 1, compare::Column::BenchName), a + ".output.0;  " + b + ".output.0");
        QCOMPARE(cellText(*table, 1, compare::Column::BenchMax), std::string("6.5"));
        QCOMPARE(cellText(*table, 1, compare::Column::BenchMin), std::string("-6.5"));
        QCOMPARE(cellText(*table, 1, compare::Column::BenchMean), std::string("0.25;0.75"));
        QCOMPARE(cellText(*table, 1, compare::Column::MaxRelativeErr), std::string("7.6923076923076925%"));
    }

    void layerAndShapeHelpers()
    {
        QCOMPARE(compare::consistentLayer("Module.model.layers.12.mlp"), 12LL);
        QCOMPARE(compare::consistentLayer("Module.model.layers.x.layers.3.mlp"), 3LL);
        QCOMPARE(compare::consistentLayer("Module.model.embed_tokens"), -1LL);
        QCOMPARE(compare::squeezeShapeText("[1, 217, 1, 896]"), std::string("[217,896]"));
        QCOMPARE(compare::squeezeShapeText("[]"), std::string("[]"));
        QCOMPARE(compare::squeezeShapeText("[1]"), std::string("[]"));
    }

    void tensorConcatenation()
    {
        dump::TensorData a, b;
        a.shape = { 2, 2 };
        a.values = { 1, 2, 3, 4 };
        b.shape = { 2, 1 };
        b.values = { 5, 6 };
        const dump::TensorData byColumns = compare::concatenateTensors({ a, b }, 1, "t");
        QCOMPARE(byColumns.shape, (std::vector<std::int64_t> { 2, 3 }));
        QCOMPARE(byColumns.values, (std::vector<double> { 1, 2, 5, 3, 4, 6 }));
        dump::TensorData c;
        c.shape = { 1, 2 };
        c.values = { 7, 8 };
        const dump::TensorData byRows = compare::concatenateTensors({ a, c }, 0, "t");
        QCOMPARE(byRows.shape, (std::vector<std::int64_t> { 3, 2 }));
        QCOMPARE(byRows.values, (std::vector<double> { 1, 2, 3, 4, 7, 8 }));
        bool threw = false;
        try {
            compare::concatenateTensors({ a, c }, 1, "q.weight.pt;k.weight.pt");
        } catch (const support::Error& e) {
            threw = std::string(e.what()).find("q.weight.pt;k.weight.pt") != std::string::npos;
        }
        QVERIFY(threw);
    }

    // Tensor mode on real .pt files: a joined parameter is concatenated along axis 0 (so its shape doubles against
    // the single inference file), a joined input reads only the first file.
    void tensorModeReadsJoinedFiles()
    {
        QTemporaryDir dir;
        const std::filesystem::path root = dir.path().toStdString();
        const std::filesystem::path weight = test::dataDir() / "tensor" / "Module.blocks.0.attn.q_proj.Linear.forward.0.parameters.weight.pt";
        const std::filesystem::path input = test::dataDir() / "tensor" / "Functional.gelu.0.forward.output.0.pt";
        for (const char* side : { "train", "infer" })
            std::filesystem::create_directories(root / side / "dump_tensor_data");
        const std::string q = kLayer0 + "self_attn.q_proj.Linear.forward.0", k = kLayer0 + "self_attn.k_proj.Linear.forward.0";
        const std::string qkv = kInfer + "layers.0.self_attn.qkv_proj.QKVParallelLinear.forward.0";
        for (const std::string& name : { q, k }) {
            std::filesystem::copy_file(weight, root / "train" / "dump_tensor_data" / (name + ".parameters.weight.pt"));
            std::filesystem::copy_file(input, root / "train" / "dump_tensor_data" / (name + ".input.0.pt"));
        }
        std::filesystem::copy_file(weight, root / "infer" / "dump_tensor_data" / (qkv + ".parameters.weight.pt"));
        std::filesystem::copy_file(input, root / "infer" / "dump_tensor_data" / (qkv + ".input.0.pt"));
        test::writeFile(root / "train" / "dump.json", tensorDumpJson({ q, k }));
        test::writeFile(root / "infer" / "dump.json", tensorDumpJson({ qkv }));
        compare::CompareOptions options;
        options.consistentBackend = "fsdp";
        const auto table = compare::compareDumpFiles(root / "train" / "dump.json", root / "infer" / "dump.json", options);
        QCOMPARE(table->rows.size(), std::size_t { 2 });
        QVERIFY(cellText(*table, 0, compare::Column::NpuName).find(".input.0;  ") != std::string::npos);
        QCOMPARE(cellText(*table, 0, compare::Column::Cosine), std::string("1.0"));
        QVERIFY(cellText(*table, 1, compare::Column::NpuName).find(".parameters.weight;  ") != std::string::npos);
        QCOMPARE(cellText(*table, 1, compare::Column::Cosine), std::string("shape unmatched"));
    }

    void rejectsUnsupportedCombinations()
    {
        compare::CompareOptions options;
        options.consistentBackend = "fsdp";
        options.firstDiffAnalyze = true;
        QVERIFY_THROWS_EXCEPTION(support::Error, compare::compareDumps(parseDump(fsdpTraining()), parseDump(fsdpInference()), {}, false, options));
    }
};

QTEST_GUILESS_MAIN(TestCompareConsistent)
#include "tst_compare_consistent.moc"
