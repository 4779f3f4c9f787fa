// SPDX-License-Identifier: Apache-2.0
// The parallelism panel: the grid it draws against the reference's golden cases (fixture and spec 4.5) and
// configurations derived by hand, the configuration dialog refusing what the core refuses, clicks selecting a
// rank in the studio focus, result colouring, exports, and the configuration read from dumps and merge flags.
#include "parallel_cases.h"
#include "test_util.h"

#include "parallel/parallelconfigdialog.h"
#include "parallel/parallelgrid.h"
#include "parallel/parallelpanel.h"
#include "parallel/parallelview.h"
#include "parallelsetup.h"
#include "studiofocus.h"

#include "parallel/parallel_layout.h"
#include "support/error.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QToolTip>

using namespace msprobe::test;
using namespace msprobe::parallel;

namespace {

// The grid the panel shows for a configuration, through the session's setup as the studio derives it.
ParallelGrid gridOf(const ParallelConfig& config)
{
    ParallelSetup setup;
    const QString error = setup.setConfig(config, ParallelSetup::Source::User);
    if (!error.isEmpty())
        qFatal("unexpected refusal: %s", qPrintable(error));
    return ParallelGrid(setup.layout());
}

void compareGrid(const ParallelGrid& grid, const std::vector<ExpectedRow>& expected)
{
    QVERIFY(!grid.summarised());
    QCOMPARE(grid.rowCount(), static_cast<int>(expected.size()));
    for (int r = 0; r < grid.rowCount(); ++r) {
        const ExpectedRow& row = expected[static_cast<std::size_t>(r)];
        QCOMPARE(grid.rowLabel(r), q(row.label));
        QCOMPARE(grid.rowCopy(r) + 1, row.copy);
        QCOMPARE(grid.columnCount(), static_cast<int>(row.cells.size()));
        for (int c = 0; c < grid.columnCount(); ++c)
            QCOMPARE(grid.cellText(r, c), q(row.cells[static_cast<std::size_t>(c)]));
    }
}

void replaceAll(std::string& text, const std::string& from, const std::string& to)
{
    for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
        text.replace(at, from.size(), to);
}

bool near(QRgb pixel, const QColor& colour, int tolerance = 4)
{
    return std::abs(qRed(pixel) - colour.red()) <= tolerance && std::abs(qGreen(pixel) - colour.green()) <= tolerance
        && std::abs(qBlue(pixel) - colour.blue()) <= tolerance;
}

// An alpha 0.8 block of `colour` over white.
QColor overWhite(const QColor& colour)
{
    auto mix = [](int channel) { return static_cast<int>(std::lround(0.8 * channel + 0.2 * 255)); };
    return QColor(mix(colour.red()), mix(colour.green()), mix(colour.blue()));
}

QPalette whitePalette()
{
    QPalette palette;
    palette.setColor(QPalette::Base, Qt::white);
    palette.setColor(QPalette::Text, Qt::black);
    return palette;
}

} // namespace

class TestViewsParallel : public QObject {
    Q_OBJECT

private slots:
    // The fixture's full case, row by row from the reference's output (not from the core's layout).
    void goldenCaseFromFixture()
    {
        const auto cases = readGoldenCases(dataDir() / "parallel" / "megatron_plot_cases.txt");
        int full = 0;
        for (const GoldenCase& golden : cases) {
            if (golden.error)
                continue;
            ++full;
            const ParallelGrid grid = gridOf(configOf(golden));
            QCOMPARE(grid.layout()->fileName, golden.file);
            QCOMPARE(grid.title(), q(golden.title));
            QCOMPARE(grid.rowCount(), static_cast<int>(golden.rows.size()));
            for (int r = 0; r < grid.rowCount(); ++r) {
                const GoldenRow& row = golden.rows[static_cast<std::size_t>(r)];
                QCOMPARE(grid.rowLabel(r), q(row.label));
                QCOMPARE(grid.rowRanks(r), golden.tpGroups[static_cast<std::size_t>(r)]);
                QCOMPARE(grid.columnCount(), static_cast<int>(row.cells.size()));
                for (const auto& [column, copy, text] : row.cells) {
                    QCOMPARE(grid.rowCopy(r), copy);
                    QCOMPARE(grid.cellText(r, column), q(text));
                }
            }
            for (std::size_t k = 0; k < golden.copies.size(); ++k)
                for (int rank : golden.copies[k])
                    QCOMPARE(grid.copyOfRank(rank), static_cast<int>(k));
            // Hover: ranks, PP stage, DP copy and layers.
            QCOMPARE(grid.tooltip(6, 3), QStringLiteral("Ranks 24-27 (TP group 6)\nPP stage 3, DP copy 1 of 2\nVirtual stage 3: layers 46–48, output layer"));
        }
        QCOMPARE(full, 1);
    }

    // Spec 4.5 B to F.
    void specGoldenCases()
    {
        compareGrid(gridOf(makeConfig(8, 8, 2, 2)),
            { { "Group0: Ranks0-1", 1, { "Embed+L1-4" } }, { "Group1: Ranks2-3", 2, { "Embed+L1-4" } },
                { "Group2: Ranks4-5", 1, { "L5-8+Out" } }, { "Group3: Ranks6-7", 2, { "L5-8+Out" } } });
        compareGrid(gridOf(makeConfig(8, 6, 1, 4, std::nullopt, "tp-cp-ep-dp-pp", true)),
            { { "Rank0", 1, { "Embed" } }, { "Rank1", 2, { "Embed" } }, { "Rank2", 1, { "L1-2" } }, { "Rank3", 2, { "L1-2" } },
                { "Rank4", 1, { "L3-4" } }, { "Rank5", 2, { "L3-4" } }, { "Rank6", 1, { "L5-6+Out" } }, { "Rank7", 2, { "L5-6+Out" } } });
        compareGrid(gridOf(makeConfig(8, 12, 1, 4, 2, "tp-cp-ep-dp-pp", true)),
            { { "Rank0", 1, { "Embed", "" } }, { "Rank1", 2, { "Embed", "" } }, { "Rank2", 1, { "L1-2", "L7-8" } },
                { "Rank3", 2, { "L1-2", "L7-8" } }, { "Rank4", 1, { "L3-4", "L9-10" } }, { "Rank5", 2, { "L3-4", "L9-10" } },
                { "Rank6", 1, { "L5-6", "L11-12+Out" } }, { "Rank7", 2, { "L5-6", "L11-12+Out" } } });
        compareGrid(gridOf(makeConfig(16, 8, 2, 2, 2, "tp-pp-dp")),
            { { "Group0: Ranks0-1", 1, { "Embed+L1-2", "L5-6" } }, { "Group1: Ranks2-3", 1, { "L3-4", "L7-8+Out" } },
                { "Group2: Ranks4-5", 2, { "Embed+L1-2", "L5-6" } }, { "Group3: Ranks6-7", 2, { "L3-4", "L7-8+Out" } },
                { "Group4: Ranks8-9", 3, { "Embed+L1-2", "L5-6" } }, { "Group5: Ranks10-11", 3, { "L3-4", "L7-8+Out" } },
                { "Group6: Ranks12-13", 4, { "Embed+L1-2", "L5-6" } }, { "Group7: Ranks14-15", 4, { "L3-4", "L7-8+Out" } } });
        compareGrid(gridOf(makeConfig(4, 4)),
            { { "Rank0", 1, { "Embed+L1-4+Out" } }, { "Rank1", 2, { "Embed+L1-4+Out" } }, { "Rank2", 3, { "Embed+L1-4+Out" } },
                { "Rank3", 4, { "Embed+L1-4+Out" } } });
    }

    // Derived by hand (see the comments), not taken from the reference.
    void handDerivedConfigurations()
    {
        // order tp-pp-dp, ws 8, tp 2, pp 2: pp stride tp = 2 -> pp groups [0,2],[1,3],[4,6],[5,7]; dp stride tp*pp = 4 ->
        // dp groups [0,4],[1,5],[2,6],[3,7], so copy 1 = ranks 0-3, copy 2 = ranks 4-7.
        const ParallelGrid order = gridOf(makeConfig(8, 4, 2, 2, std::nullopt, "tp-pp-dp"));
        compareGrid(order,
            { { "Group0: Ranks0-1", 1, { "Embed+L1-2" } }, { "Group1: Ranks2-3", 1, { "L3-4+Out" } },
                { "Group2: Ranks4-5", 2, { "Embed+L1-2" } }, { "Group3: Ranks6-7", 2, { "L3-4+Out" } } });
        QCOMPARE(order.rowPipelineStage(1), 1);
        QCOMPARE(order.rowOfRank(5), 2);
        // Standalone + VPP: ws 6, 8 layers, pp 3 (2 transformer stages of 4 layers), 2 layers per virtual stage -> vpp 2,
        // dp 2. Stage 0 holds the embedding only (its second chunk is empty); stage s >= 1 chunk c starts at
        // c * 8/2 + (s-1) * 4/2.
        compareGrid(gridOf(makeConfig(6, 8, 1, 3, 2, "tp-cp-ep-dp-pp", true)),
            { { "Rank0", 1, { "Embed", "" } }, { "Rank1", 2, { "Embed", "" } }, { "Rank2", 1, { "L1-2", "L5-6" } },
                { "Rank3", 2, { "L1-2", "L5-6" } }, { "Rank4", 1, { "L3-4", "L7-8+Out" } }, { "Rank5", 2, { "L3-4", "L7-8+Out" } } });
        // tp = pp = 1: every rank is a copy holding the whole model.
        compareGrid(gridOf(makeConfig(2, 3)), { { "Rank0", 1, { "Embed+L1-3+Out" } }, { "Rank1", 2, { "Embed+L1-3+Out" } } });

        // 1,024 ranks, tp 8, pp 4: 128 TP groups of 8 consecutive ranks; dp 32; pp stride tp*dp = 256, so group t is at
        // stage t / 32 and holds layers 8s+1..8s+8; its copy is the dp index (rank / 8) % 32 = t % 32.
        const ParallelGrid large = gridOf(makeConfig(1024, 32, 8, 4));
        QVERIFY(!large.summarised());
        QCOMPARE(large.rowCount(), 128);
        QCOMPARE(large.copyCount(), 32);
        for (int t = 0; t < 128; ++t) {
            const int stage = t / 32;
            QCOMPARE(large.rowLabel(t), QStringLiteral("Group%1: Ranks%2-%3").arg(t).arg(8 * t).arg(8 * t + 7));
            QCOMPARE(large.rowCopy(t), t % 32);
            QCOMPARE(large.rowPipelineStage(t), stage);
            QString text = QStringLiteral("L%1-%2").arg(8 * stage + 1).arg(8 * stage + 8);
            if (stage == 0)
                text = QStringLiteral("Embed+") + text;
            if (stage == 3)
                text += QStringLiteral("+Out");
            QCOMPARE(large.cellText(t, 0), text);
            QCOMPARE(large.rowOfRank(8 * t + 3), t);
        }

        // 1,024 ranks with tp 1: 1,024 TP groups, more than the CLI draws one by one -> one row per PP stage, every copy.
        const ParallelGrid summarised = gridOf(makeConfig(1024, 4, 1, 2));
        QVERIFY(summarised.summarised());
        QCOMPARE(summarised.rowCount(), 2);
        QCOMPARE(summarised.rowLabel(1), QStringLiteral("PP stage 1: 512 TP groups"));
        QCOMPARE(summarised.rowCopy(0), -1);
        QCOMPARE(summarised.cellText(0, 0), QStringLiteral("Embed+L1-2"));
        QCOMPARE(summarised.cellText(1, 0), QStringLiteral("L3-4+Out"));
        QCOMPARE(summarised.rowOfRank(511), 0); // pp stride = dp = 512
        QCOMPARE(summarised.rowOfRank(512), 1);
        QCOMPARE(summarised.rowRanks(1).size(), std::size_t(512));
    }

    // Every error case of the fixture is refused by the dialog with the core's message (the caps lifted, the
    // values printed), and OK stays disabled.
    void dialogRefusesInvalidConfigurations()
    {
        const auto cases = readGoldenCases(dataDir() / "parallel" / "megatron_plot_cases.txt");
        ParallelConfigDialog dialog;
        int errors = 0;
        for (const GoldenCase& golden : cases) {
            if (!golden.error)
                continue;
            ++errors;
            ParallelConfig config = configOf(golden);
            std::string expected = golden.error->substr(golden.error->find(' ') + 1);
            if (golden.error->rfind("MsprobeException", 0) == 0)
                expected = "The parallel size (pp) is (2), but it's not specified in order (tp-dp).";
            if (expected.find("{self.world_size}") != std::string::npos) {
                config.worldSize = kMaxWorldSize + 1;
                replaceAll(expected, "{self.world_size}", std::to_string(config.worldSize));
                replaceAll(expected, "1024", std::to_string(kMaxWorldSize));
            } else if (expected.find("{self.num_layers}") != std::string::npos) {
                config.numLayers = kMaxNumLayers + 1;
                replaceAll(expected, "{self.num_layers}", std::to_string(config.numLayers));
                replaceAll(expected, "256", std::to_string(kMaxNumLayers));
            }
            dialog.setConfig(config);
            QCOMPARE(dialog.whyInvalid(), q(expected));
            QCOMPARE(dialog.findChild<QLabel*>(QStringLiteral("parallelConfigError"))->text(), q(expected));
            QVERIFY(!dialog.findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok)->isEnabled());
            // The session's setup refuses it with the same message and keeps what it had.
            ParallelSetup setup;
            QVERIFY(setup.setConfig(makeConfig(4, 4), ParallelSetup::Source::User).isEmpty());
            QCOMPARE(setup.setConfig(config, ParallelSetup::Source::User), q(expected));
            QCOMPARE(setup.config().worldSize, 4LL);
        }
        QCOMPARE(errors, 6);

        // Typed into the fields: a valid configuration enables OK and names the CLI's picture.
        dialog.worldSizeBox()->setValue(32);
        dialog.numLayersBox()->setValue(48);
        dialog.tensorParallelBox()->setValue(4);
        dialog.pipelineParallelBox()->setValue(4);
        dialog.layersPerVirtualStageBox()->setValue(3);
        dialog.orderBox()->setCurrentText(QStringLiteral("tp-cp-ep-dp-pp"));
        dialog.standaloneBox()->setChecked(false);
        QCOMPARE(dialog.whyInvalid(), QString());
        QVERIFY(dialog.findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok)->isEnabled());
        QVERIFY(dialog.findChild<QLabel*>(QStringLiteral("parallelSummary"))->text().contains(QStringLiteral("ws32_ln48_tp4_pp4_vpp4.png")));
        // A TP group seen in the dumps that this configuration does not make: a warning, not a refusal.
        dialog.setDumpTpGroup({ 4, 0 });
        QCOMPARE(dialog.tpGroupWarning(), QStringLiteral("The dumps' group_ranks [0, 4] is not a TP group of this configuration; check the order."));
        QVERIFY(dialog.findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok)->isEnabled());
        dialog.setDumpTpGroup({ 3, 1, 2, 0 });
        QCOMPARE(dialog.tpGroupWarning(), QString());
        dialog.orderBox()->setCurrentText(QStringLiteral("tp-ep-pp-dp"));
        QVERIFY(dialog.whyInvalid().contains(QStringLiteral("ep and dp must be adjacent")));
    }

    // A click on a block selects a rank of its TP group in the focus; the focused rank's row is the outlined one.
    void clickSelectsRank()
    {
        StudioFocus focus;
        ParallelView view;
        view.setStudioFocus(&focus);
        view.resize(900, 420);
        view.setGrid(gridOf(makeConfig(32, 48, 4, 4, 3)));
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QSignalSpy changed(&focus, &StudioFocus::graphChanged);
        QTest::mouseClick(&view, Qt::LeftButton, {}, view.cellRect(2, 1).center().toPoint());
        QCOMPARE(focus.rank(), 8); // row 2 = ranks 8-11
        QCOMPARE(changed.count(), 1);
        QCOMPARE(view.grid().rowOfRank(view.currentRank()), 2);
        // The session has only some ranks: the first of the group it has.
        view.setAvailableRanks({ 0, 13, 14 });
        QTest::mouseClick(&view, Qt::LeftButton, {}, view.cellRect(3, 0).center().toPoint());
        QCOMPARE(focus.rank(), 13);
        // A click on the focused rank's own row keeps it.
        QTest::mouseClick(&view, Qt::LeftButton, {}, view.cellRect(3, 2).center().toPoint());
        QCOMPARE(focus.rank(), 13);
        // Outside the blocks: nothing.
        QTest::mouseClick(&view, Qt::LeftButton, {}, QPoint(2, 2));
        QCOMPARE(focus.rank(), 13);
        QCOMPARE(view.cellAt(QPointF(2, 2)).first, -1);
        // Hovering a block tells its ranks, PP stage, DP copy and layers.
        const QPoint hover = view.cellRect(7, 3).center().toPoint();
        QHelpEvent help(QEvent::ToolTip, hover, view.mapToGlobal(hover));
        QApplication::sendEvent(&view, &help);
        QTRY_COMPARE(QToolTip::text(), QStringLiteral("Ranks 28-31 (TP group 7)\nPP stage 3, DP copy 2 of 2\nVirtual stage 3: layers 46–48, output layer"));
        // Zooming keeps the block under the pointer.
        const QPointF anchor = view.cellRect(5, 1).center();
        view.zoomBy(2.0, anchor);
        QCOMPARE(view.cellAt(anchor), std::make_pair(5, 1));
    }

    // The worst compare Result of a row's ranks fills its blocks when asked.
    void resultColouring()
    {
        ParallelView view;
        view.setGrid(gridOf(makeConfig(8, 8, 2, 2)));
        view.setResults({ { 0, msprobe::studio::RowResult::Pass }, { 1, msprobe::studio::RowResult::Error }, { 2, msprobe::studio::RowResult::Warning }, { 3, msprobe::studio::RowResult::Pass } });
        QCOMPARE(view.rowResult(0), msprobe::studio::RowResult::Error);
        QCOMPARE(view.rowResult(1), msprobe::studio::RowResult::Warning);
        QCOMPARE(view.rowResult(2), msprobe::studio::RowResult::None);
        QCOMPARE(view.blockColor(0), ParallelGrid::copyColor(0, 2));
        view.setColourByResult(true);
        QCOMPARE(view.blockColor(0), QColor(0xe5, 0x39, 0x35));
        QCOMPARE(view.blockColor(1), QColor(0xff, 0xa7, 0x26));
        QVERIFY(view.blockColor(2) != view.blockColor(0));
    }

    // PNG: the blocks in their copy colours at their places; SVG: the texts and the title.
    void exportsPngAndSvg()
    {
        QTemporaryDir dir;
        ParallelView view;
        view.setPalette(whitePalette());
        view.setGrid(gridOf(makeConfig(32, 48, 4, 4, 3)));
        const QString png = dir.filePath(QStringLiteral("grid.png"));
        QString error;
        QVERIFY2(view.exportImage(png, &error), qPrintable(error));
        QImage image(png);
        QVERIFY(!image.isNull());
        const double scale = image.width() / view.sceneSize().width();
        QVERIFY(scale >= 1.0);
        for (int row : { 0, 1, 6 }) {
            const QRectF block = view.sceneBlock(row, 0);
            const QPoint inside((block.left() + 0.1 * block.width()) * scale, (block.top() + 0.2 * block.height()) * scale);
            const QColor expected = overWhite(ParallelGrid::copyColor(row % 2, 2));
            QVERIFY2(near(image.pixel(inside), expected), qPrintable(QStringLiteral("row %1: %2 vs %3").arg(row).arg(QColor(image.pixel(inside)).name(), expected.name())));
        }
        const QString svg = dir.filePath(QStringLiteral("grid.svg"));
        QVERIFY2(view.exportImage(svg, &error), qPrintable(error));
        QFile file(svg);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray text = file.readAll();
        for (const char* expected : { "Embed+L1-3", "L46-48+Out", "Group7: Ranks28-31", "Model Copy 2", "DP=2 | TP=4 | PP=4 | VPP=4" })
            QVERIFY2(text.contains(expected), expected);
        ParallelView empty;
        QVERIFY(!empty.exportImage(dir.filePath(QStringLiteral("none.png")), &error));
        QVERIFY(error.contains(QStringLiteral("no parallel configuration")));
    }

    // What dumps and merge flags tell: group_ranks of the first reduce_scatter/all_reduce, and --vpp as a count.
    void hintsFromDumpsAndFlags()
    {
        QTemporaryDir dir;
        const std::filesystem::path dump = std::filesystem::path(dir.path().toStdString()) / "dump.json";
        // A broadcast over the world group comes first; the all_reduce's group is the TP group.
        writeFile(dump, R"({"task": "statistics", "level": "mix", "data": {
"Distributed.broadcast.0.forward": {"input_kwargs": {"group": {"type": "torch.ProcessGroup", "group_ranks": [0, 1, 2, 3, 4, 5, 6, 7]}}},
"Distributed.all_reduce.0.forward": {"input_args": [{"type": "torch.Tensor", "Max": 1.0}],
  "input_kwargs": {"group": {"type": "torch.ProcessGroup", "group_ranks": [4, 5], "group_id": 7}}},
"Distributed.reduce_scatter.0.forward": {"input_kwargs": {"group": {"type": "torch.ProcessGroup", "group_ranks": [0, 1, 2, 3]}}}}})");
        QCOMPARE(msprobe::studio::groupRanksInDumpJson(dump), std::vector<int>({ 4, 5 }));
        writeFile(dump, R"({"data": {"Functional.linear.0.forward": {"input_args": []}}})");
        QVERIFY(msprobe::studio::groupRanksInDumpJson(dump).empty());
        QCOMPARE(msprobe::studio::groupRanksInText(R"({"type": "torch.ProcessGroup", "group_ranks": "[0, 2]", "data_name": "-1"})"), std::vector<int>({ 0, 2 }));

        msprobe::graph::ParallelParams flags;
        flags.rankSize = 16;
        flags.tp = 2;
        flags.pp = 2;
        flags.vpp = 2;
        flags.order = "tp-pp-dp";
        msprobe::studio::ParallelHints hints = msprobe::studio::hintsFromMergeFlags({ flags });
        hints.numLayers = 8;
        const ParallelConfig config = msprobe::studio::configFromHints(hints, {});
        QCOMPARE(config.worldSize, 16LL);
        QCOMPARE(config.tensorParallelSize, 2LL);
        QCOMPARE(config.pipelineParallelSize, 2LL);
        QCOMPARE(config.layersPerVirtualStage.value_or(0), 2LL); // 8 layers / 2 stages / 2 virtual stages
        QCOMPARE(config.order, std::string("tp-pp-dp"));
        QVERIFY(hints.sources.join(QString()).contains(QStringLiteral("--rank_size 16 --tp 2 --pp 2 --vpp 2 --order tp-pp-dp")));
        // Spec E again, reached from the flags.
        QCOMPARE(gridOf(config).cellText(1, 1), QStringLiteral("L7-8+Out"));
    }

    // The panel shows the setup's grid and where it came from; the configuration is remembered per input key.
    void panelFollowsSetup()
    {
        QTemporaryDir home;
        QSettings::setDefaultFormat(QSettings::IniFormat);
        QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, home.path());
        ParallelSetup setup;
        ParallelPanel panel(&setup);
        QVERIFY(panel.view()->grid().isEmpty());
        QVERIFY(panel.sourceLabel()->text().contains(QStringLiteral("Configure")));
        QVERIFY(setup.setConfig(makeConfig(8, 8, 2, 2), ParallelSetup::Source::CommandLine).isEmpty());
        QCOMPARE(panel.view()->grid().rowCount(), 4);
        QCOMPARE(panel.sourceLabel()->text(), QStringLiteral("From the command line."));
        setup.remember(QStringLiteral("key"));
        ParallelSetup other;
        QVERIFY(other.restore(QStringLiteral("key")));
        QCOMPARE(other.source(), ParallelSetup::Source::Remembered);
        QCOMPARE(other.config().tensorParallelSize, 2LL);
        QCOMPARE(other.layout()->fileName, std::string("ws8_ln8_tp2_pp2_vpp1.png"));
        QVERIFY(!other.restore(QStringLiteral("unknown")));
        panel.setResults({});
        QVERIFY(!panel.colourByResultBox()->isEnabled());
        panel.setResults({ { 0, msprobe::studio::RowResult::Error } });
        QVERIFY(panel.colourByResultBox()->isEnabled());
    }
};

QTEST_MAIN(TestViewsParallel)
#include "tst_views_parallel.moc"
