// SPDX-License-Identifier: Apache-2.0
// core/parallel: the Megatron parallelism layout against the reference's golden cases (fixture and spec 4.5),
// configurations derived by hand, every validation message, the JSON and the drawn picture.
#include "parallel_cases.h"
#include "test_util.h"

#include "parallel/parallel_layout.h"
#include "parallel/parallel_plot.h"
#include "parallel/png_codec.h"
#include "support/error.h"

#include <QTemporaryDir>

#include <set>

using namespace msprobe::test;
using namespace msprobe::parallel;

namespace {

std::string errorOf(const ParallelConfig& config)
{
    try {
        deriveLayout(config);
    } catch (const msprobe::support::Error& error) {
        return error.what();
    }
    return "(no error)";
}

void compareRows(const ParallelLayout& layout, const std::vector<ExpectedRow>& expected)
{
    QCOMPARE(layout.rows.size(), expected.size());
    for (std::size_t r = 0; r < expected.size(); ++r) {
        const LayoutRow& row = layout.rows[r];
        QCOMPARE(row.label, expected[r].label);
        QCOMPARE(row.copy + 1, expected[r].copy);
        QCOMPARE(static_cast<std::size_t>(layout.columnCount()), expected[r].cells.size());
        for (int c = 0; c < layout.columnCount(); ++c)
            QCOMPARE(layout.cellText(static_cast<int>(r), c), expected[r].cells[static_cast<std::size_t>(c)]);
    }
}

void replaceAll(std::string& text, const std::string& from, const std::string& to)
{
    for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
        text.replace(at, from.size(), to);
}

// Over white, as an alpha 0.8 block shows colour #rrggbb.
std::array<int, 3> blockShade(std::uint32_t hex)
{
    auto shade = [](std::uint32_t channel) { return static_cast<int>(std::lround(0.8 * channel + 0.2 * 255)); };
    return { shade((hex >> 16) & 0xff), shade((hex >> 8) & 0xff), shade(hex & 0xff) };
}

bool near(std::uint32_t argb, std::array<int, 3> rgb, int tolerance = 3)
{
    const int r = static_cast<int>((argb >> 16) & 0xff), g = static_cast<int>((argb >> 8) & 0xff), b = static_cast<int>(argb & 0xff);
    return std::abs(r - rgb[0]) <= tolerance && std::abs(g - rgb[1]) <= tolerance && std::abs(b - rgb[2]) <= tolerance;
}

// A point inside block (row, column), clear of the grid line through its centre and of its text.
std::pair<int, int> insideBlock(const PlotPicture& picture, int row, int column, double across = -0.35)
{
    const double cellW = picture.plotWidth / picture.columnCount, cellH = picture.plotHeight / picture.rowCount;
    const double x = picture.plotLeft + (column + 0.5 + across) * cellW;
    const double y = picture.plotTop + picture.plotHeight - (row + 0.5) * cellH + 0.35 * cellH;
    return { static_cast<int>(x), static_cast<int>(y) };
}

} // namespace

class TestParallelLayout : public QObject {
    Q_OBJECT

private slots:
    // Every full case of the fixture: file name, derived sizes, all groups, copies, representatives, rows, title, figure.
    void goldenLayoutsFromFixture()
    {
        const auto cases = readGoldenCases(dataDir() / "parallel" / "megatron_plot_cases.txt");
        int full = 0;
        for (const GoldenCase& golden : cases) {
            if (golden.error)
                continue;
            ++full;
            const ParallelLayout layout = deriveLayout(configOf(golden));
            QCOMPARE(layout.fileName, golden.file);
            const ParallelSizes& s = layout.sizes;
            QCOMPARE("pp=" + std::to_string(s.pipelineParallel) + " tpp=" + std::to_string(s.transformerPipelineParallel)
                    + " vpp=" + std::to_string(s.virtualPipelineParallel) + " dp=" + std::to_string(s.dataParallel),
                golden.derived);
            QCOMPARE(layout.tpGroups, golden.tpGroups);
            QCOMPARE(layout.ppGroups, golden.ppGroups);
            QCOMPARE(layout.dpGroups, golden.dpGroups);
            QCOMPARE(layout.copies, golden.copies);
            std::map<std::pair<int, int>, int> representatives;
            for (std::size_t t = 0; t < layout.rows.size(); ++t)
                representatives[{ layout.rows[t].copy, static_cast<int>(t) }] = layout.rows[t].representative;
            QCOMPARE(representatives, golden.representatives);
            QCOMPARE(layout.rows.size(), golden.rows.size());
            for (std::size_t r = 0; r < golden.rows.size(); ++r) {
                QCOMPARE(layout.rows[r].label, golden.rows[r].label);
                QCOMPARE(golden.rows[r].cells.size(), static_cast<std::size_t>(layout.columnCount()));
                for (const auto& [column, copy, text] : golden.rows[r].cells) {
                    QCOMPARE(layout.rows[r].copy, copy);
                    QCOMPARE(layout.cellText(static_cast<int>(r), column), text);
                }
            }
            QCOMPARE(layout.title, golden.title);
            QCOMPARE(layout.widthInches, golden.figsize.first);
            QCOMPARE(layout.heightInches, golden.figsize.second);
        }
        QCOMPARE(full, 1);
    }

    // Every error case of the fixture: the same message (the caps lifted and their values printed), exit before drawing.
    void goldenErrorsFromFixture()
    {
        const auto cases = readGoldenCases(dataDir() / "parallel" / "megatron_plot_cases.txt");
        int errors = 0;
        for (const GoldenCase& golden : cases) {
            if (!golden.error)
                continue;
            ++errors;
            ParallelConfig config = configOf(golden);
            const std::string& reference = *golden.error;
            if (reference.rfind("MsprobeException", 0) == 0) {
                // The reference logs the reason and raises a generic "invalid parameter"; we raise the reason.
                QCOMPARE(golden.config.at("order"), std::string("tp-dp"));
                QCOMPARE(errorOf(config), std::string("The parallel size (pp) is (2), but it's not specified in order (tp-dp)."));
                continue;
            }
            QVERIFY(reference.rfind("ValueError ", 0) == 0);
            std::string expected = reference.substr(11);
            if (expected.find("{self.world_size}") != std::string::npos) {
                QCOMPARE(errorOf(config), std::string("(no error)")); // 2,048 ranks are within our cap
                config.worldSize = kMaxWorldSize + 1;
                replaceAll(expected, "{self.world_size}", std::to_string(config.worldSize));
                replaceAll(expected, "1024", std::to_string(kMaxWorldSize));
            } else if (expected.find("{self.num_layers}") != std::string::npos) {
                QCOMPARE(errorOf(config), std::string("(no error)"));
                config.numLayers = kMaxNumLayers + 1;
                replaceAll(expected, "{self.num_layers}", std::to_string(config.numLayers));
                replaceAll(expected, "256", std::to_string(kMaxNumLayers));
            }
            QCOMPARE(errorOf(config), expected);
        }
        QCOMPARE(errors, 6);
    }

    // Spec 4.5 B to F, cell by cell.
    void specGoldenCases()
    {
        ParallelLayout b = deriveLayout(makeConfig(8, 8, 2, 2));
        QCOMPARE(b.fileName, std::string("ws8_ln8_tp2_pp2_vpp1.png"));
        QCOMPARE(b.sizes.dataParallel, 2);
        QCOMPARE(b.widthInches, 11.0);
        QCOMPARE(b.heightInches, 4.0);
        compareRows(b, { { "Group0: Ranks0-1", 1, { "Embed+L1-4" } }, { "Group1: Ranks2-3", 2, { "Embed+L1-4" } },
                           { "Group2: Ranks4-5", 1, { "L5-8+Out" } }, { "Group3: Ranks6-7", 2, { "L5-8+Out" } } });

        ParallelLayout c = deriveLayout(makeConfig(8, 6, 1, 4, std::nullopt, "tp-cp-ep-dp-pp", true));
        QCOMPARE(c.fileName, std::string("ws8_ln6_tp1_pp4_vpp1.png"));
        QCOMPARE(c.sizes.transformerPipelineParallel, 3);
        compareRows(c, { { "Rank0", 1, { "Embed" } }, { "Rank1", 2, { "Embed" } }, { "Rank2", 1, { "L1-2" } },
                           { "Rank3", 2, { "L1-2" } }, { "Rank4", 1, { "L3-4" } }, { "Rank5", 2, { "L3-4" } },
                           { "Rank6", 1, { "L5-6+Out" } }, { "Rank7", 2, { "L5-6+Out" } } });

        ParallelLayout d = deriveLayout(makeConfig(8, 12, 1, 4, 2, "tp-cp-ep-dp-pp", true));
        QCOMPARE(d.fileName, std::string("ws8_ln12_tp1_pp4_vpp2.png"));
        compareRows(d, { { "Rank0", 1, { "Embed", "" } }, { "Rank1", 2, { "Embed", "" } },
                           { "Rank2", 1, { "L1-2", "L7-8" } }, { "Rank3", 2, { "L1-2", "L7-8" } },
                           { "Rank4", 1, { "L3-4", "L9-10" } }, { "Rank5", 2, { "L3-4", "L9-10" } },
                           { "Rank6", 1, { "L5-6", "L11-12+Out" } }, { "Rank7", 2, { "L5-6", "L11-12+Out" } } });

        ParallelLayout e = deriveLayout(makeConfig(16, 8, 2, 2, 2, "tp-pp-dp"));
        QCOMPARE(e.sizes.dataParallel, 4);
        QCOMPARE(e.ppGroups, (RankGroups { { 0, 2 }, { 1, 3 }, { 4, 6 }, { 5, 7 }, { 8, 10 }, { 9, 11 }, { 12, 14 }, { 13, 15 } }));
        std::vector<ExpectedRow> rows;
        for (int r = 0; r < 8; ++r)
            rows.push_back({ "Group" + std::to_string(r) + ": Ranks" + std::to_string(2 * r) + "-" + std::to_string(2 * r + 1),
                r / 2 + 1, r % 2 == 0 ? std::vector<std::string> { "Embed+L1-2", "L5-6" } : std::vector<std::string> { "L3-4", "L7-8+Out" } });
        compareRows(e, rows);

        ParallelLayout f = deriveLayout(makeConfig(4, 4));
        QCOMPARE(f.sizes.dataParallel, 4);
        compareRows(f, { { "Rank0", 1, { "Embed+L1-4+Out" } }, { "Rank1", 2, { "Embed+L1-4+Out" } },
                           { "Rank2", 3, { "Embed+L1-4+Out" } }, { "Rank3", 4, { "Embed+L1-4+Out" } } });
    }

    // Order tp-pp-dp, ws 8, tp 2, pp 2: strides tp 1, pp 2, dp 4. Derived by hand.
    void orderTpPpDp()
    {
        const ParallelLayout layout = deriveLayout(makeConfig(8, 4, 2, 2, std::nullopt, "tp-pp-dp"));
        QCOMPARE(layout.order, std::string("tp-pp-dp-ep-cp"));
        QCOMPARE(layout.tpGroups, (RankGroups { { 0, 1 }, { 2, 3 }, { 4, 5 }, { 6, 7 } }));
        QCOMPARE(layout.ppGroups, (RankGroups { { 0, 2 }, { 1, 3 }, { 4, 6 }, { 5, 7 } }));
        QCOMPARE(layout.dpGroups, (RankGroups { { 0, 4 }, { 1, 5 }, { 2, 6 }, { 3, 7 } }));
        QCOMPARE(layout.copies, (RankGroups { { 0, 1, 2, 3 }, { 4, 5, 6, 7 } }));
        compareRows(layout, { { "Group0: Ranks0-1", 1, { "Embed+L1-2" } }, { "Group1: Ranks2-3", 1, { "L3-4+Out" } },
                                { "Group2: Ranks4-5", 2, { "Embed+L1-2" } }, { "Group3: Ranks6-7", 2, { "L3-4+Out" } } });
        QCOMPARE(layout.fileName, std::string("ws8_ln4_tp2_pp2_vpp1.png"));
    }

    // Order pp-dp-tp (upper case accepted): strides pp 1, dp 2, tp 4, so a TP group's ranks are 4 apart and its
    // label spans the ranks between them, as the reference prints min-max.
    void orderPpDpTp()
    {
        const ParallelLayout layout = deriveLayout(makeConfig(8, 8, 2, 2, std::nullopt, "PP-DP-TP"));
        QCOMPARE(layout.tpGroups, (RankGroups { { 0, 4 }, { 1, 5 }, { 2, 6 }, { 3, 7 } }));
        QCOMPARE(layout.ppGroups, (RankGroups { { 0, 1 }, { 2, 3 }, { 4, 5 }, { 6, 7 } }));
        QCOMPARE(layout.dpGroups, (RankGroups { { 0, 2 }, { 1, 3 }, { 4, 6 }, { 5, 7 } }));
        QCOMPARE(layout.copies, (RankGroups { { 0, 1, 4, 5 }, { 2, 3, 6, 7 } }));
        compareRows(layout, { { "Group0: Ranks0-4", 1, { "Embed+L1-4" } }, { "Group1: Ranks1-5", 1, { "L5-8+Out" } },
                                { "Group2: Ranks2-6", 2, { "Embed+L1-4" } }, { "Group3: Ranks3-7", 2, { "L5-8+Out" } } });
        QCOMPARE(layout.rows[3].representative, 3);
        QCOMPARE(layout.rows[3].pipelineStage, 1);
    }

    // Standalone embedding stage with VPP: ws 6, L 8, pp 3 (2 transformer stages of 4 layers), 2 layers per chunk.
    void standaloneWithVirtualPipeline()
    {
        const ParallelLayout layout = deriveLayout(makeConfig(6, 8, 1, 3, 2, "tp-cp-ep-dp-pp", true));
        QCOMPARE(layout.fileName, std::string("ws6_ln8_tp1_pp3_vpp2.png"));
        QCOMPARE(layout.title, std::string("Model Parallelism Configuration | Total Layers: 8 | DP=2 | TP=1 | PP=3 | VPP=2"));
        QCOMPARE(layout.ppGroups, (RankGroups { { 0, 2, 4 }, { 1, 3, 5 } }));
        compareRows(layout, { { "Rank0", 1, { "Embed", "" } }, { "Rank1", 2, { "Embed", "" } },
                                { "Rank2", 1, { "L1-2", "L5-6" } }, { "Rank3", 2, { "L1-2", "L5-6" } },
                                { "Rank4", 1, { "L3-4", "L7-8+Out" } }, { "Rank5", 2, { "L3-4", "L7-8+Out" } } });
    }

    // tp = pp = 1 with one rank and one layer: a single layer prints "L1-1".
    void singleRankSingleLayer()
    {
        const ParallelLayout layout = deriveLayout(makeConfig(1, 1));
        QCOMPARE(layout.fileName, std::string("ws1_ln1_tp1_pp1_vpp1.png"));
        compareRows(layout, { { "Rank0", 1, { "Embed+L1-1+Out" } } });
        QCOMPARE(layout.widthInches, 11.0);
        QCOMPARE(layout.heightInches, 4.0);
    }

    // 1,024 ranks, tp 8, pp 4, 2 layers per chunk of 32 layers: dp 32, vpp 4; TP group t = ranks 8t..8t+7 at
    // data-parallel index t % 32 and stage t / 32; chunk j of stage s holds layers 8j + 2s + 1 .. 8j + 2s + 2.
    void thousandRanks()
    {
        const ParallelLayout layout = deriveLayout(makeConfig(1024, 32, 8, 4, 2));
        QCOMPARE(layout.sizes.dataParallel, 32);
        QCOMPARE(layout.sizes.virtualPipelineParallel, 4);
        QCOMPARE(layout.rows.size(), std::size_t(128));
        QCOMPARE(layout.copyCount(), 32);
        for (int t = 0; t < 128; ++t) {
            const LayoutRow& row = layout.rows[static_cast<std::size_t>(t)];
            QCOMPARE(row.label, "Group" + std::to_string(t) + ": Ranks" + std::to_string(8 * t) + "-" + std::to_string(8 * t + 7));
            QCOMPARE(row.copy, t % 32);
            QCOMPARE(row.representative, 8 * t);
            const int stage = t / 32;
            for (int j = 0; j < 4; ++j) {
                std::string text = "L" + std::to_string(8 * j + 2 * stage + 1) + "-" + std::to_string(8 * j + 2 * stage + 2);
                if (stage == 0 && j == 0)
                    text = "Embed+" + text;
                if (stage == 3 && j == 3)
                    text += "+Out";
                QCOMPARE(layout.cellText(t, j), text);
            }
        }
        QCOMPARE(layout.widthInches, 13.0);
        QCOMPARE(layout.heightInches, 64.0);
    }

    // Validation in the reference's order: the first failing check names its value.
    void validationMessages()
    {
        QCOMPARE(errorOf(makeConfig(0, 0)), std::string("world_size must be a positive integer"));
        QCOMPARE(errorOf(makeConfig(8, -1)), std::string("num_layers must be a positive integer"));
        QCOMPARE(errorOf(makeConfig(8, 8, 0)), std::string("tensor_parallel_size must be a positive integer"));
        QCOMPARE(errorOf(makeConfig(8, 8, 1, 0)), std::string("pipeline_parallel_size must be a positive integer"));
        QCOMPARE(errorOf(makeConfig(8, 8, 1, 2, 0)), std::string("num_layers_per_virtual_pipeline_stage must be a positive integer"));
        // The positive-integer checks all come before the caps.
        QCOMPARE(errorOf(makeConfig(20000, 8, 0)), std::string("tensor_parallel_size must be a positive integer"));
        QCOMPARE(errorOf(makeConfig(20000, 5000)), std::string("world_size (20000) exceeds the maximum supported value of 16384."));
        QCOMPARE(errorOf(makeConfig(16384, 5000)), std::string("num_layers (5000) exceeds the maximum supported value of 4096."));
        QCOMPARE(errorOf(makeConfig(8, 8, 16)), std::string("world_size (8) is not divisible by tensor_parallel_size(16) x pipeline_parallel_size (1)"));
        QCOMPARE(errorOf(makeConfig(8, 8, 1, 3)), std::string("world_size (8) is not divisible by tensor_parallel_size(1) x pipeline_parallel_size (3)"));
        QCOMPARE(errorOf(makeConfig(8, 8, 1, 1, std::nullopt, "tp-cp-ep-dp-pp", true)),
            std::string("number of layers (8) must be divisible by transformer_pipeline_parallel_size (0), which is "
                        "pipeline_parallel_size-1 when standalone_embedding_stage is enabled."));
        QCOMPARE(errorOf(makeConfig(8, 8, 1, 4, std::nullopt, "tp-cp-ep-dp-pp", true)),
            std::string("number of layers (8) must be divisible by transformer_pipeline_parallel_size (3), which is "
                        "pipeline_parallel_size-1 when standalone_embedding_stage is enabled."));
        QCOMPARE(errorOf(makeConfig(4, 8, 1, 1, 2)), std::string("pipeline-model-parallel size should be greater than 1 with virtual-pipeline"));
        // One virtual stage per pipeline stage is no virtual pipeline, so pp 1 is fine.
        QCOMPARE(deriveLayout(makeConfig(4, 8, 1, 1, 8)).sizes.virtualPipelineParallel, 1);
        QCOMPARE(errorOf(makeConfig(8, 8, 2, 2, std::nullopt, "tp-ep-pp-dp")), std::string("The ep and dp must be adjacent in order (tp-ep-pp-dp)."));
        QCOMPARE(errorOf(makeConfig(8, 8, 2, 1, std::nullopt, "pp-dp")), std::string("The parallel size (tp) is (2), but it's not specified in order (pp-dp)."));
        QCOMPARE(errorOf(makeConfig(8, 8, 1, 1, std::nullopt, "tp-xp-dp")),
            std::string("The order (tp-xp-dp) has an unknown parallel dimension (xp); use tp, pp, dp, ep and cp joined by '-'."));
        QCOMPARE(errorOf(makeConfig(8, 8, 1, 1, std::nullopt, "tp-dp-tp")), std::string("The order (tp-dp-tp) names the parallel dimension (tp) twice."));
    }

    // Expert parallelism splits dp in the groups made with separateExpert (Megatron's generate_masked_orthogonal_rank_groups).
    void expertAndCombinedGroups()
    {
        const RankGenerator generator(1, 2, 4, 1, 1, "tp-ep-dp-pp");
        QCOMPARE(generator.groups("ep", true), (RankGroups { { 0, 1 }, { 2, 3 } }));
        QCOMPARE(generator.groups("dp", true), (RankGroups { { 0, 2 }, { 1, 3 } }));
        QCOMPARE(generator.groups("dp"), (RankGroups { { 0, 1, 2, 3 } }));
        const RankGenerator grid(2, 1, 2, 2, 1, "tp-cp-ep-dp-pp");
        QCOMPARE(grid.groups("tp-pp"), (RankGroups { { 0, 1, 4, 5 }, { 2, 3, 6, 7 } }));
        QCOMPARE(grid.groups("tp-dp"), (RankGroups { { 0, 1, 2, 3 }, { 4, 5, 6, 7 } }));
    }

    void chunkText()
    {
        QCOMPARE((ModelChunk { false, 5, 5, false }).text(), std::string("L5-5"));
        QCOMPARE((ModelChunk { true, 0, 0, true }).text(), std::string("Embed+Out"));
        QCOMPARE((ModelChunk {}).text(), std::string(""));
    }

    void jsonForScripts()
    {
        const ParallelLayout layout = deriveLayout(makeConfig(32, 48, 4, 4, 3));
        const auto json = nlohmann::json::parse(layoutJson(layout));
        QCOMPARE(json["file_name"].get<std::string>(), std::string("ws32_ln48_tp4_pp4_vpp4.png"));
        QCOMPARE(json["data_parallel_size"].get<int>(), 2);
        QCOMPARE(json["virtual_pipeline_parallel_size"].get<int>(), 4);
        QCOMPARE(json["order"].get<std::string>(), std::string("tp-cp-ep-dp-pp"));
        QCOMPARE(json["dp_groups"].get<RankGroups>(), layout.dpGroups);
        QCOMPARE(json["model_copies"].get<RankGroups>(), layout.copies);
        QCOMPARE(json["rows"].size(), std::size_t(8));
        const auto& last = json["rows"][7];
        QCOMPARE(last["label"].get<std::string>(), std::string("Group7: Ranks28-31"));
        QCOMPARE(last["copy"].get<int>(), 2);
        QCOMPARE(last["representative"].get<int>(), 28);
        QCOMPARE(last["pipeline_stage"].get<int>(), 3);
        QCOMPARE(last["cells"].get<std::vector<std::string>>(), (std::vector<std::string> { "L10-12", "L22-24", "L34-36", "L46-48+Out" }));
        QCOMPARE(json["figure_inches"].get<std::vector<double>>(), (std::vector<double> { 13, 4 }));
    }

    // Case A drawn, saved and read back: the figure's size at 100 dpi, each block in its copy's tab20 colour.
    void pictureOfGoldenCase()
    {
        const ParallelLayout layout = deriveLayout(makeConfig(32, 48, 4, 4, 3));
        const PlotPicture picture = drawParallelPlot(layout);
        QCOMPARE(picture.width, 1300);
        QCOMPARE(picture.height, 400);
        QVERIFY(!picture.summarised);
        QCOMPARE(picture.rowCount, 8);
        QCOMPARE(picture.columnCount, 4);
        QTemporaryDir dir;
        const std::filesystem::path file = std::filesystem::path(dir.path().toStdString()) / layout.fileName;
        savePicture(picture, file);
        const PngPixels pixels = readPng(file);
        QCOMPARE(pixels.width, 1300);
        QCOMPARE(pixels.height, 400);
        for (int row = 0; row < 8; ++row)
            for (int column = 0; column < 4; ++column) {
                const auto [x, y] = insideBlock(picture, row, column);
                QVERIFY2(near(pixels.at(x, y), blockShade(row % 2 == 0 ? 0x1f77b4 : 0xaec7e8)),
                    qPrintable(QStringLiteral("block %1,%2 at %3,%4: %5").arg(row).arg(column).arg(x).arg(y).arg(pixels.at(x, y), 0, 16)));
            }
        // Outside the axes, left of the plot and below the title, the page is white.
        QCOMPARE(pixels.at(2, pixels.height / 2) & 0xffffff, 0xffffffu);
        // Text drawn: dark pixels inside the first block's text box.
        int dark = 0;
        const int cx = static_cast<int>(picture.plotLeft + picture.plotWidth / 8), cy = static_cast<int>(picture.plotTop + picture.plotHeight * 15 / 16);
        for (int y = cy - 6; y <= cy + 6; ++y)
            for (int x = cx - 30; x <= cx + 30; ++x)
                dark += (pixels.at(x, y) & 0xff) < 80 ? 1 : 0;
        QVERIFY2(dark > 20, qPrintable(QString::number(dark)));
        QCOMPARE(drawParallelPlot(layout, { 300 }).width, 3900);
        // Over the pixel budget the dpi is lowered: 13 x 4 inches in 100,000 pixels is 43.85 dpi, 570 x 175.
        const PlotPicture small = drawParallelPlot(layout, { 100, 1e5 });
        QVERIFY(std::abs(small.dpi - 43.85) < 0.01);
        QCOMPARE(small.width, 570);
        QCOMPARE(small.height, 175);
    }

    // 1,024 TP groups: one row per pipeline stage, each block striped with the copies' colours (viridis for 512).
    void summarisedPicture()
    {
        const ParallelLayout layout = deriveLayout(makeConfig(1024, 8, 1, 2));
        QCOMPARE(layout.rows.size(), std::size_t(1024));
        const PlotPicture picture = drawParallelPlot(layout);
        QVERIFY(picture.summarised);
        QCOMPARE(picture.rowCount, 2);
        QCOMPARE(picture.width, 1100);
        QCOMPARE(picture.height, 400);
        QTemporaryDir dir;
        const std::filesystem::path file = std::filesystem::path(dir.path().toStdString()) / "summary.png";
        savePicture(picture, file);
        const PngPixels pixels = readPng(file);
        // The left of a block shows the first copies (viridis' dark purple #440154), the right the last ones (yellow
        // #fde725); the points sampled lie a few stripes in, hence the tolerance.
        const auto [lx, ly] = insideBlock(picture, 0, 0, -0.43);
        const auto [rx, ry] = insideBlock(picture, 1, 0, 0.43);
        QVERIFY2(near(pixels.at(lx, ly), blockShade(0x440154), 12), qPrintable(QString::number(pixels.at(lx, ly), 16)));
        QVERIFY2(near(pixels.at(rx, ry), blockShade(0xfde725), 12), qPrintable(QString::number(pixels.at(rx, ry), 16)));
        std::set<std::uint32_t> colours(pixels.argb.begin(), pixels.argb.end());
        QVERIFY(colours.size() > 200);
    }
};

QTEST_GUILESS_MAIN(TestParallelLayout)
#include "tst_parallel_layout.moc"
