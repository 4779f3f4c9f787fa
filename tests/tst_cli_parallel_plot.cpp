// SPDX-License-Identifier: Apache-2.0
// msprobe parallel_plot: the picture's file name, size and content, --json, and every invalid configuration
// refused with the reference's message and exit code 1 before anything is written.
#include "cli_runner.h"
#include "test_util.h"

#include "parallel/png_codec.h"

#include <QTemporaryDir>

#include <nlohmann/json.hpp>

#include <set>

using namespace msprobe::test;

namespace {

QStringList plotArgs(const QString& outDir, const QStringList& options)
{
    return QStringList { QStringLiteral("parallel_plot") } + options + QStringList { QStringLiteral("-o"), outDir };
}

std::vector<std::string> filesIn(const QString& dir)
{
    std::vector<std::string> names;
    if (!std::filesystem::exists(dir.toStdString()))
        return names;
    for (const auto& item : std::filesystem::directory_iterator(dir.toStdString()))
        names.push_back(item.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
}

std::size_t pixelsNear(const msprobe::parallel::PngPixels& pixels, std::array<int, 3> rgb)
{
    return static_cast<std::size_t>(std::count_if(pixels.argb.begin(), pixels.argb.end(), [&](std::uint32_t argb) {
        return std::abs(static_cast<int>((argb >> 16) & 0xff) - rgb[0]) <= 2 && std::abs(static_cast<int>((argb >> 8) & 0xff) - rgb[1]) <= 2
            && std::abs(static_cast<int>(argb & 0xff) - rgb[2]) <= 2;
    }));
}

} // namespace

class TestCliParallelPlot : public QObject {
    Q_OBJECT

private slots:
    // Spec 4.5 A: the reference's file name, a 13 x 4 inch figure at 100 dpi, blocks in both copies' colours.
    void goldenCaseWritesPicture()
    {
        QTemporaryDir tmp;
        const QString out = tmp.path() + QStringLiteral("/plots/new");
        const Run run = runCli(plotArgs(out, { "--world_size", "32", "--num_layers", "48", "--tensor_parallel_size", "4",
            "--pipeline_parallel_size", "4", "--num_layers_per_virtual_pipeline_stage", "3" }));
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        QVERIFY2(run.out.contains(QStringLiteral("ws32_ln48_tp4_pp4_vpp4.png")), qPrintable(run.out));
        QCOMPARE(filesIn(out), std::vector<std::string> { "ws32_ln48_tp4_pp4_vpp4.png" });
        const auto pixels = msprobe::parallel::readPng(out.toStdString() + "/ws32_ln48_tp4_pp4_vpp4.png");
        QCOMPARE(pixels.width, 1300);
        QCOMPARE(pixels.height, 400);
        std::set<std::uint32_t> colours(pixels.argb.begin(), pixels.argb.end());
        QVERIFY(colours.size() > 50);
        // Copy 1 (#1f77b4) and copy 2 (#aec7e8) at alpha 0.8 over white fill most of each block (16 blocks).
        QVERIFY(pixelsNear(pixels, { 76, 146, 195 }) > 16 * 3000);
        QVERIFY(pixelsNear(pixels, { 190, 210, 237 }) > 16 * 3000);
        const std::size_t white = static_cast<std::size_t>(std::count(pixels.argb.begin(), pixels.argb.end(), 0xffffffffu));
        QVERIFY2(white < pixels.argb.size() * 8 / 10, "the picture is almost blank");
    }

    // The file names of spec 4.5 B to F.
    void fileNamesOfSpecCases()
    {
        const std::vector<std::pair<QStringList, std::string>> cases = {
            { { "--world_size", "8", "--num_layers", "8", "--tensor_parallel_size", "2", "--pipeline_parallel_size", "2" }, "ws8_ln8_tp2_pp2_vpp1.png" },
            { { "--world_size", "8", "--num_layers", "6", "--pipeline_parallel_size", "4", "--standalone_embedding_stage" }, "ws8_ln6_tp1_pp4_vpp1.png" },
            { { "--world_size", "8", "--num_layers", "12", "--pipeline_parallel_size", "4", "--num_layers_per_virtual_pipeline_stage", "2",
                  "--standalone_embedding_stage" }, "ws8_ln12_tp1_pp4_vpp2.png" },
            { { "--world_size", "16", "--num_layers", "8", "--tensor_parallel_size", "2", "--pipeline_parallel_size", "2",
                  "--num_layers_per_virtual_pipeline_stage", "2", "--order", "tp-pp-dp" }, "ws16_ln8_tp2_pp2_vpp2.png" },
            { { "--world_size", "4", "--num_layers", "4" }, "ws4_ln4_tp1_pp1_vpp1.png" },
        };
        for (const auto& [options, name] : cases) {
            QTemporaryDir tmp;
            const Run run = runCli(plotArgs(tmp.path(), options));
            QVERIFY2(run.exitCode == 0, qPrintable(run.err));
            QCOMPARE(filesIn(tmp.path()), std::vector<std::string> { name });
            const auto pixels = msprobe::parallel::readPng(tmp.path().toStdString() + "/" + name);
            QCOMPARE(pixels.width, 1100);
            QCOMPARE(pixels.height, 400);
        }
    }

    // --json: the layout of spec 4.5 D for scripts, the picture still written.
    void jsonLayout()
    {
        QTemporaryDir tmp;
        const Run run = runCli(plotArgs(tmp.path(), { "--world_size", "8", "--num_layers", "12", "--pipeline_parallel_size", "4",
            "--num_layers_per_virtual_pipeline_stage", "2", "--standalone_embedding_stage", "--json" }));
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        const auto json = nlohmann::json::parse(run.out.toStdString());
        QCOMPARE(json["file_name"].get<std::string>(), std::string("ws8_ln12_tp1_pp4_vpp2.png"));
        QCOMPARE(json["transformer_pipeline_parallel_size"].get<int>(), 3);
        QCOMPARE(json["rows"].size(), std::size_t(8));
        QCOMPARE(json["rows"][0]["label"].get<std::string>(), std::string("Rank0"));
        QCOMPARE(json["rows"][0]["cells"].get<std::vector<std::string>>(), (std::vector<std::string> { "Embed", "" }));
        QCOMPARE(json["rows"][7]["copy"].get<int>(), 2);
        QCOMPARE(json["rows"][7]["cells"].get<std::vector<std::string>>(), (std::vector<std::string> { "L5-6", "L11-12+Out" }));
        QCOMPARE(filesIn(tmp.path()), std::vector<std::string> { "ws8_ln12_tp1_pp4_vpp2.png" });
    }

    // 1,024 ranks in 256 TP groups: drawn in full, 100 inches high at 100 dpi; with tp 1, summarised by pipeline stage.
    void thousandRanks()
    {
        QTemporaryDir tmp;
        Run run = runCli(plotArgs(tmp.path(), { "--world_size", "1024", "--num_layers", "64", "--tensor_parallel_size", "4",
            "--pipeline_parallel_size", "8", "--num_layers_per_virtual_pipeline_stage", "4", "--json" }));
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        const auto json = nlohmann::json::parse(run.out.toStdString());
        QCOMPARE(json["rows"].size(), std::size_t(256));
        QCOMPARE(json["rows"][255]["cells"].get<std::vector<std::string>>(), (std::vector<std::string> { "L29-32", "L61-64+Out" }));
        auto pixels = msprobe::parallel::readPng(tmp.path().toStdString() + "/ws1024_ln64_tp4_pp8_vpp2.png");
        QCOMPARE(pixels.width, 1100);
        QCOMPARE(pixels.height, 10000);

        run = runCli(plotArgs(tmp.path(), { "--world_size", "1024", "--num_layers", "16", "--pipeline_parallel_size", "2" }));
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        QVERIFY2(run.err.contains(QStringLiteral("1024 TP groups are drawn as 2 pipeline-stage rows")), qPrintable(run.err));
        pixels = msprobe::parallel::readPng(tmp.path().toStdString() + "/ws1024_ln16_tp1_pp2_vpp1.png");
        QCOMPARE(pixels.width, 1100);
        QCOMPARE(pixels.height, 400);
    }

    // An older picture of the same name is replaced whole (written aside, then renamed), with a warning.
    void replacesExistingPicture()
    {
        QTemporaryDir tmp;
        const std::string file = tmp.path().toStdString() + "/ws4_ln4_tp1_pp1_vpp1.png";
        writeFile(file, "old");
        const Run run = runCli(plotArgs(tmp.path(), { "--world_size", "4", "--num_layers", "4" }));
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        QVERIFY2(run.err.contains(QStringLiteral("warning: replacing the existing")), qPrintable(run.err));
        QCOMPARE(filesIn(tmp.path()), std::vector<std::string> { "ws4_ln4_tp1_pp1_vpp1.png" });
        QCOMPARE(msprobe::parallel::readPng(file).width, 1100);
    }

    void dpiOption()
    {
        QTemporaryDir tmp;
        Run run = runCli(plotArgs(tmp.path(), { "--world_size", "4", "--num_layers", "4", "--dpi", "300" }));
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        QCOMPARE(msprobe::parallel::readPng(tmp.path().toStdString() + "/ws4_ln4_tp1_pp1_vpp1.png").width, 3300);
        run = runCli(plotArgs(tmp.path(), { "--world_size", "4", "--num_layers", "4", "--dpi", "1000" }));
        QCOMPARE(run.exitCode, 2);
    }

    // Every invalid configuration: exit 1, the reference's message (values printed), no output directory made.
    void invalidConfigurations_data()
    {
        QTest::addColumn<QStringList>("options");
        QTest::addColumn<QString>("message");
        QTest::newRow("world size not a number") << QStringList { "--world_size", "abc", "--num_layers", "8" }
                                                 << "world_size must be a positive integer";
        QTest::newRow("layers zero") << QStringList { "--world_size", "8", "--num_layers", "0" } << "num_layers must be a positive integer";
        QTest::newRow("tp negative") << QStringList { "--world_size", "8", "--num_layers", "8", "--tensor_parallel_size", "-2" }
                                     << "tensor_parallel_size must be a positive integer";
        QTest::newRow("pp fraction") << QStringList { "--world_size", "8", "--num_layers", "8", "--pipeline_parallel_size", "1.5" }
                                     << "pipeline_parallel_size must be a positive integer";
        QTest::newRow("per vpp zero") << QStringList { "--world_size", "8", "--num_layers", "8", "--num_layers_per_virtual_pipeline_stage", "0" }
                                      << "num_layers_per_virtual_pipeline_stage must be a positive integer";
        QTest::newRow("world size cap") << QStringList { "--world_size", "16385", "--num_layers", "8" }
                                        << "world_size (16385) exceeds the maximum supported value of 16384.";
        QTest::newRow("world size huge") << QStringList { "--world_size", "99999999999999999999999", "--num_layers", "8" }
                                         << "world_size (9223372036854775807) exceeds the maximum supported value of 16384.";
        QTest::newRow("layers cap") << QStringList { "--world_size", "8", "--num_layers", "4097" }
                                    << "num_layers (4097) exceeds the maximum supported value of 4096.";
        QTest::newRow("not divisible") << QStringList { "--world_size", "12", "--num_layers", "8", "--tensor_parallel_size", "8" }
                                       << "world_size (12) is not divisible by tensor_parallel_size(8) x pipeline_parallel_size (1)";
        QTest::newRow("layers by pp") << QStringList { "--world_size", "8", "--num_layers", "10", "--pipeline_parallel_size", "4" }
                                      << "number of layers (10) must be divisible by pipeline_parallel_size (4).";
        QTest::newRow("layers by pp-1") << QStringList { "--world_size", "8", "--num_layers", "8", "--pipeline_parallel_size", "4", "--standalone_embedding_stage" }
                                        << "number of layers (8) must be divisible by transformer_pipeline_parallel_size (3), which is "
                                           "pipeline_parallel_size-1 when standalone_embedding_stage is enabled.";
        QTest::newRow("layers per vpp") << QStringList { "--world_size", "8", "--num_layers", "8", "--pipeline_parallel_size", "4",
            "--num_layers_per_virtual_pipeline_stage", "4" }
                                        << "number of layers per pipeline stage (2) must be divisible by number of layers per virtual pipeline stage (4).";
        QTest::newRow("vpp without pp") << QStringList { "--world_size", "8", "--num_layers", "8", "--num_layers_per_virtual_pipeline_stage", "2" }
                                        << "pipeline-model-parallel size should be greater than 1 with virtual-pipeline";
        QTest::newRow("pp not in order") << QStringList { "--world_size", "8", "--num_layers", "8", "--tensor_parallel_size", "2",
            "--pipeline_parallel_size", "2", "--order", "tp-dp" }
                                         << "The parallel size (pp) is (2), but it's not specified in order (tp-dp).";
        QTest::newRow("ep apart from dp") << QStringList { "--world_size", "8", "--num_layers", "8", "--tensor_parallel_size", "2",
            "--pipeline_parallel_size", "2", "--order", "tp-ep-pp-dp" }
                                          << "The ep and dp must be adjacent in order (tp-ep-pp-dp).";
        QTest::newRow("unknown dimension") << QStringList { "--world_size", "8", "--num_layers", "8", "--order", "tp-dp-zz" }
                                           << "The order (tp-dp-zz) has an unknown parallel dimension (zz)";
    }

    void invalidConfigurations()
    {
        QFETCH(QStringList, options);
        QFETCH(QString, message);
        QTemporaryDir tmp;
        const QString out = tmp.path() + QStringLiteral("/never");
        const Run run = runCli(plotArgs(out, options));
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains(QStringLiteral("msprobe parallel_plot: error: ") + message), qPrintable(run.err));
        QVERIFY(!std::filesystem::exists(out.toStdString()));
    }

    void usageErrors()
    {
        QTemporaryDir tmp;
        Run run = runCli(plotArgs(tmp.path(), { "--num_layers", "8" }));
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains(QStringLiteral("--world_size is required")), qPrintable(run.err));
        run = runCli(plotArgs(tmp.path(), { "--world_size", "8", "--num_layers", "8", "--virtual_pipeline_parallel_size", "2" }));
        QCOMPARE(run.exitCode, 2);
        QVERIFY(run.err.contains(QStringLiteral("unknown option --virtual_pipeline_parallel_size")));
        run = runCli({ QStringLiteral("parallel_plot"), QStringLiteral("--help") });
        QCOMPARE(run.exitCode, 0);
        QVERIFY(run.out.contains(QStringLiteral("--num_layers_per_virtual_pipeline_stage")));
    }
};

QTEST_GUILESS_MAIN(TestCliParallelPlot)
#include "tst_cli_parallel_plot.moc"
