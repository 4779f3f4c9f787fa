// SPDX-License-Identifier: Apache-2.0
// The parallelism panel in the studio window: the configuration read from the dumps (group_ranks) and from the
// pair dialog's parallel-merge flags (and which it was), remembered per input, a click on a block moving the
// whole window to that rank, and `msprobe-studio --export FILE --view parallel` with the CLI's flags.
#include "test_util.h"

#include "mainwindow.h"
#include "pairdialog.h"
#include "parallel/parallelpanel.h"
#include "parallel/parallelview.h"
#include "parallelsetup.h"

#include <QCheckBox>
#include <QDockWidget>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QProcess>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTemporaryDir>

using namespace msprobe::test;

namespace {

QString mergeData(const char* name) { return q((dataDir() / "graph_merge" / name).string()); }

bool openAndWait(MainWindow& window, const msprobe::studio::LoadRequest& request)
{
    QSignalSpy idle(&window, &MainWindow::idle);
    window.openRequest(request);
    return idle.wait(120000);
}

} // namespace

class TestParallelStudio : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QSettings().remove(QStringLiteral("parallel"));
        QVERIFY(m_scratch.isValid());
    }

    // The pair dialog offers graph_visualize's merge flags, checks them against the folders and passes them on.
    void pairDialogMergeFields()
    {
        PairDialog dialog;
        dialog.setPaths(mergeData("tp2"), mergeData("tp2"));
        QVERIFY(dialog.canOpen());
        QVERIFY(dialog.request().parallelMerge.empty());
        dialog.parallelMergeBox()->setChecked(true);
        QVERIFY2(dialog.whyNotOpen().contains(QStringLiteral("--rank_size is 8 but the dump has 2 rank folder(s)")), qPrintable(dialog.whyNotOpen()));
        for (int side = 0; side < 2; ++side) {
            dialog.mergeFields(side).rankSize->setValue(2);
            dialog.mergeFields(side).tp->setValue(2);
        }
        QVERIFY2(dialog.canOpen(), qPrintable(dialog.whyNotOpen()));
        dialog.mergeFields(1).vpp->setValue(2);
        QVERIFY2(dialog.whyNotOpen().contains(QStringLiteral("--vpp > 1 needs --pp >= 2")), qPrintable(dialog.whyNotOpen()));
        dialog.mergeFields(1).vpp->setValue(1);
        dialog.mergeFields(1).order->setText(QStringLiteral("tp-pp-dp"));
        const msprobe::studio::LoadRequest request = dialog.request();
        QCOMPARE(request.parallelMerge.size(), std::size_t(2));
        QCOMPARE(request.parallelMerge[0].rankSize, 2);
        QCOMPARE(request.parallelMerge[0].tp, 2);
        QCOMPARE(request.parallelMerge[0].pp, 1);
        QCOMPARE(request.parallelMerge[1].order, std::string("tp-pp-dp"));
    }

    // A pair opened with merge flags: the graphs are merged (one per data-parallel copy) and the panel takes its
    // configuration from the flags, the layer count from the merged graph.
    void configurationFromMergeFlags()
    {
        MainWindow window;
        window.show();
        msprobe::studio::LoadRequest request;
        request.kind = msprobe::studio::LoadRequest::Kind::Pair;
        request.path = mergeData("full8");
        request.bench = mergeData("full8");
        request.outputDir = m_scratch.filePath(QStringLiteral("full8"));
        msprobe::graph::ParallelParams params;
        params.rankSize = 8;
        params.tp = 2;
        params.pp = 2;
        request.parallelMerge = { params, params };
        QVERIFY(openAndWait(window, request));
        ParallelSetup* setup = window.parallelSetup();
        QCOMPARE(setup->source(), ParallelSetup::Source::MergeFlags);
        QVERIFY2(setup->hasLayout(), qPrintable(setup->sourceText()));
        QCOMPARE(setup->config().worldSize, 8LL);
        QCOMPARE(setup->config().tensorParallelSize, 2LL);
        QCOMPARE(setup->config().pipelineParallelSize, 2LL);
        QVERIFY2(setup->sourceText().contains(QStringLiteral("--rank_size 8 --tp 2 --pp 2")), qPrintable(setup->sourceText()));
        QCOMPARE(window.parallelPanel()->view()->grid().rowCount(), 4);
    }

    // A dump folder: world size from its rank folders, TP from the group_ranks of its first all_reduce (said so),
    // layers from the graphs; a click on a block moves the window to that rank; what the user sets is remembered.
    void configurationFromDumpsAndClick()
    {
        const QString dumps = mergeData("groups4");
        {
            MainWindow window;
            window.show();
            QVERIFY(window.parallelDock());
            window.parallelDock()->raise();
            msprobe::studio::LoadRequest request;
            request.path = dumps;
            request.outputDir = m_scratch.filePath(QStringLiteral("groups4"));
            QVERIFY(openAndWait(window, request));
            ParallelSetup* setup = window.parallelSetup();
            QCOMPARE(setup->source(), ParallelSetup::Source::Dumps);
            QCOMPARE(setup->config().worldSize, 4LL);
            QCOMPARE(setup->config().tensorParallelSize, 2LL);
            const QString source = setup->sourceText();
            QVERIFY2(source.contains(QStringLiteral("group_ranks [0, 2] of the first reduce_scatter/all_reduce in")) && source.contains(QStringLiteral("dump.json")),
                qPrintable(source));
            QVERIFY2(source.contains(QStringLiteral("world_size 4: the rank folders")), qPrintable(source));
            // [0, 2] is no TP group under Megatron's default order (tp varies fastest): dp-tp-pp makes it one.
            QCOMPARE(setup->config().order, std::string("dp-tp-pp"));
            QVERIFY2(source.contains(QStringLiteral("order dp-tp-pp: the first that makes that group a TP group")), qPrintable(source));
            QCOMPARE(setup->layout()->tpGroups, (std::vector<std::vector<int>> { { 0, 2 }, { 1, 3 } }));
            QCOMPARE(window.parallelPanel()->sourceLabel()->text(), source);

            ParallelView* view = window.parallelPanel()->view();
            QTRY_VERIFY(view->isVisible() && view->width() > 100);
            view->fitToView();
            QCOMPARE(window.studioFocus()->rank(), 0);
            // Row 1 is TP group [1, 3].
            QTest::mouseClick(view, Qt::LeftButton, {}, view->cellRect(1, 0).center().toPoint());
            QCOMPARE(window.studioFocus()->rank(), 1);
            QVERIFY(window.session()->graphs(window.studioFocus()->step(), 1).problem);

            msprobe::parallel::ParallelConfig config = setup->config();
            config.numLayers = 4;
            config.pipelineParallelSize = 2;
            QVERIFY(setup->setConfig(config, ParallelSetup::Source::User).isEmpty());
        }
        MainWindow again;
        msprobe::studio::LoadRequest request;
        request.path = dumps;
        request.outputDir = m_scratch.filePath(QStringLiteral("groups4-again"));
        QVERIFY(openAndWait(again, request));
        QCOMPARE(again.parallelSetup()->source(), ParallelSetup::Source::Remembered);
        QCOMPARE(again.parallelSetup()->config().numLayers, 4LL);
        QCOMPARE(again.parallelSetup()->config().pipelineParallelSize, 2LL);
    }

    // "Colour by compare result": each rank's worst Result at the focused step, which the verdict's counts give
    // by a second route (any error row: Error; else any warning: Warning; else Pass).
    void resultsFollowTheCompareTables()
    {
        MainWindow window;
        window.show();
        QSignalSpy idle(&window, &MainWindow::idle);
        window.openPaths({ QStringLiteral(MSPROBE_SAMPLES "/problem"), QStringLiteral(MSPROBE_SAMPLES "/bench") });
        QVERIFY(idle.wait(120000));
        ParallelPanel* panel = window.parallelPanel();
        QVERIFY(window.parallelSetup()->setConfig(msprobe::parallel::ParallelConfig { 2, 2 }, ParallelSetup::Source::User).isEmpty());
        for (int step : window.session()->steps()) {
            window.studioFocus()->setGraph(step, 0);
            const msprobe::compare::PairOutcome* verdict = window.session()->verdict(step, 0);
            QVERIFY(verdict);
            const msprobe::studio::RowResult expected = verdict->error > 0 ? msprobe::studio::RowResult::Error : verdict->warning > 0 ? msprobe::studio::RowResult::Warning : msprobe::studio::RowResult::Pass;
            QCOMPARE(panel->view()->rowResult(0), expected);
            QCOMPARE(panel->view()->rowResult(1), msprobe::studio::RowResult::None); // rank 1 was not opened
        }
        QVERIFY(panel->colourByResultBox()->isEnabled());
        panel->colourByResultBox()->setChecked(true);
        QVERIFY(panel->view()->colourByResult());
        QCOMPARE(panel->view()->blockColor(0), QColor(0xe5, 0x39, 0x35)); // the sample pair diverges
    }

    // The program draws the grid from the CLI's flags without any input and without a display.
    void headlessExport()
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.remove(QStringLiteral("DISPLAY"));
        env.remove(QStringLiteral("QT_QPA_PLATFORM"));
        env.insert(QStringLiteral("HOME"), m_scratch.filePath(QStringLiteral("home")));
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), m_scratch.filePath(QStringLiteral("home/.config")));
        auto run = [&](const QStringList& args) {
            QProcess process;
            process.setProcessEnvironment(env);
            process.start(QStringLiteral(MSPROBE_STUDIO_PATH), args);
            process.waitForFinished(300000);
            return std::pair { process.exitCode(), QString::fromUtf8(process.readAllStandardError()) };
        };
        const QString png = m_scratch.filePath(QStringLiteral("ws32.png"));
        const auto ok = run({ QStringLiteral("--export"), png, QStringLiteral("--view"), QStringLiteral("parallel"), QStringLiteral("--world_size"),
            QStringLiteral("32"), QStringLiteral("--num_layers"), QStringLiteral("48"), QStringLiteral("--tp"), QStringLiteral("4"),
            QStringLiteral("--pp"), QStringLiteral("4"), QStringLiteral("--vpp"), QStringLiteral("4") });
        QVERIFY2(ok.first == 0, qPrintable(ok.second));
        const QImage image(png);
        QVERIFY(!image.isNull());
        QVERIFY(image.width() > image.height()); // four stages side by side, eight groups high, plus the legend

        const QString svg = m_scratch.filePath(QStringLiteral("standalone.svg"));
        const auto standalone = run({ QStringLiteral("--export"), svg, QStringLiteral("--view"), QStringLiteral("parallel"),
            QStringLiteral("--world_size"), QStringLiteral("8"), QStringLiteral("--num_layers"), QStringLiteral("12"), QStringLiteral("--pp"),
            QStringLiteral("4"), QStringLiteral("--num_layers_per_virtual_pipeline_stage"), QStringLiteral("2"),
            QStringLiteral("--standalone_embedding_stage") });
        QVERIFY2(standalone.first == 0, qPrintable(standalone.second));
        QFile file(svg);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray text = file.readAll();
        QVERIFY(text.contains("L11-12+Out") && text.contains("Rank7") && text.contains("VPP=2"));

        // With an input: what the dumps carry (world size 4, tp 2 from group_ranks [0, 2], order dp-tp-pp), the flags
        // on top (4 layers over pp 2).
        const QString withInput = m_scratch.filePath(QStringLiteral("groups4.svg"));
        const auto fromDumps = run({ QStringLiteral("--export"), withInput, QStringLiteral("--view"), QStringLiteral("parallel"),
            QStringLiteral("--num_layers"), QStringLiteral("4"), QStringLiteral("--pp"), QStringLiteral("2"), mergeData("groups4") });
        QVERIFY2(fromDumps.first == 0, qPrintable(fromDumps.second));
        QFile dumpsFile(withInput);
        QVERIFY(dumpsFile.open(QIODevice::ReadOnly));
        const QByteArray dumpsText = dumpsFile.readAll();
        QVERIFY2(dumpsText.contains("Group0: Ranks0-2") && dumpsText.contains("Group1: Ranks1-3") && dumpsText.contains("DP=1 | TP=2 | PP=2"),
            dumpsText.left(2000).constData());

        const auto invalid = run({ QStringLiteral("--export"), m_scratch.filePath(QStringLiteral("bad.png")), QStringLiteral("--view"),
            QStringLiteral("parallel"), QStringLiteral("--world_size"), QStringLiteral("12"), QStringLiteral("--num_layers"), QStringLiteral("8"),
            QStringLiteral("--tp"), QStringLiteral("8") });
        QCOMPARE(invalid.first, 1);
        QVERIFY2(invalid.second.contains(QStringLiteral("world_size (12) is not divisible by tensor_parallel_size(8) x pipeline_parallel_size (1)")),
            qPrintable(invalid.second));
        QVERIFY(!QFileInfo::exists(m_scratch.filePath(QStringLiteral("bad.png"))));
        const auto missing = run({ QStringLiteral("--export"), m_scratch.filePath(QStringLiteral("none.png")), QStringLiteral("--view"), QStringLiteral("parallel") });
        QCOMPARE(missing.first, 1);
        QVERIFY2(missing.second.contains(QStringLiteral("--world_size and --num_layers")), qPrintable(missing.second));
    }

private:
    QTemporaryDir m_scratch;
};

QTEST_MAIN(TestParallelStudio)
#include "tst_views_parallel_studio.moc"
