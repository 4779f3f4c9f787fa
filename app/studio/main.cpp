// SPDX-License-Identifier: Apache-2.0
// msprobe-studio: the desktop workstation.
#include "appearance.h"
#include "headlessexport.h"
#include "mainwindow.h"
#include "optionalviews.h"
#include "screenshotwhenloaded.h"
#include "trendsource.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDockWidget>
#include <QTimer>
#include <QTranslator>

#include <optional>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace {

// An export renders offscreen: no window shows, and no display is needed (unless QT_QPA_PLATFORM says otherwise).
void renderOffscreenForExport(int argc, char** argv)
{
    for (int i = 1; i < argc; ++i)
        if (std::strcmp(argv[i], "--export") == 0 || std::strncmp(argv[i], "--export=", 9) == 0) {
            if (!std::getenv("QT_QPA_PLATFORM"))
                setenv("QT_QPA_PLATFORM", "offscreen", 1);
            return;
        }
}

int fail(const QString& message)
{
    std::fprintf(stderr, "msprobe-studio: %s\n", qPrintable(message));
    return 1;
}

} // namespace

int main(int argc, char** argv)
{
    renderOffscreenForExport(argc, argv);
    QApplication::setHighDpiScaleFactorRoundingPolicy(Qt::HighDpiScaleFactorRoundingPolicy::PassThrough);
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("msprobe-studio"));
    QApplication::setOrganizationName(QStringLiteral("msprobe"));
    QApplication::setApplicationVersion(QStringLiteral(MSPROBE_VERSION));
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/msprobe-studio.svg")));
    QApplication::setDesktopFileName(QStringLiteral("msprobe-studio"));

    QTranslator translator, qtTranslator;
    msprobe::studio::appearance::installTranslator(app, translator, qtTranslator);
    msprobe::studio::appearance::applyTheme(msprobe::studio::appearance::darkTheme());

    QCommandLineParser parser;
    parser.setApplicationDescription(QApplication::translate("main", "Numerical-accuracy workstation for msprobe dumps."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("paths"),
        QApplication::translate("main", "A dump folder, dump.json, .vis.db or compare CSV; or two dump folders: PROBLEM BENCH."),
        QStringLiteral("[PATH | PROBLEM BENCH]"));
    QCommandLineOption screenshot(QStringLiteral("screenshot"),
        QApplication::translate("main", "Save a PNG of the window once loading is done, then quit (for docs and checks)."),
        QStringLiteral("file"));
    parser.addOption(screenshot);
    QCommandLineOption memoryDump(QStringLiteral("memory"),
        QApplication::translate("main", "Open a msMemScope memory dump (.csv or .db) or a PyTorch memory snapshot (.pickle) in the memory timeline."), QStringLiteral("file"));
    parser.addOption(memoryDump);
    QCommandLineOption memoryCompare(QStringLiteral("memory-compare"),
        QApplication::translate("main", "With --memory: a second memory dump to compare it with (the memory panel's compare tab)."),
        QStringLiteral("file"));
    parser.addOption(memoryCompare);
    QCommandLineOption exportFile(QStringLiteral("export"),
        QApplication::translate("main", "Open the input without a window, write FILE by its extension (.png, .svg: the view's picture; "
                                        ".html: the report; .json: the verdicts, as msprobe compare --json) and exit: 0 done, 1 failed."),
        QStringLiteral("file"));
    QCommandLineOption view(QStringLiteral("view"), QApplication::translate("main", "With --export: the view to draw, graph (default), compare, trend, parallel or memory. Without: parallel shows the parallelism panel in front."),
        QStringLiteral("view"), QStringLiteral("graph"));
    QCommandLineOption step(QStringLiteral("step"), QApplication::translate("main", "With --export: the step to show (with --rank)."), QStringLiteral("S"));
    QCommandLineOption rank(QStringLiteral("rank"), QApplication::translate("main", "With --export: the rank to show (with --step)."), QStringLiteral("R"));
    parser.addOptions({ exportFile, view, step, rank });
    // --view parallel: the configuration flags of msprobe parallel_plot.
    const QCommandLineOption worldSize(QStringLiteral("world_size"), QApplication::translate("main", "With --view parallel: the world size."), QStringLiteral("N"));
    const QCommandLineOption numLayers(QStringLiteral("num_layers"), QApplication::translate("main", "With --view parallel: the number of transformer layers."), QStringLiteral("N"));
    const QCommandLineOption tensorParallel({ QStringLiteral("tensor_parallel_size"), QStringLiteral("tp") },
        QApplication::translate("main", "With --view parallel: the tensor-parallel size."), QStringLiteral("N"));
    const QCommandLineOption pipelineParallel({ QStringLiteral("pipeline_parallel_size"), QStringLiteral("pp") },
        QApplication::translate("main", "With --view parallel: the pipeline-parallel size."), QStringLiteral("N"));
    const QCommandLineOption perVirtualStage(QStringLiteral("num_layers_per_virtual_pipeline_stage"),
        QApplication::translate("main", "With --view parallel: layers per virtual pipeline stage."), QStringLiteral("N"));
    const QCommandLineOption virtualStages(QStringLiteral("vpp"),
        QApplication::translate("main", "With --view parallel: the number of virtual pipeline stages (as graph_visualize --vpp)."), QStringLiteral("N"));
    const QCommandLineOption order(QStringLiteral("order"), QApplication::translate("main", "With --view parallel: the rank order, e.g. tp-cp-ep-dp-pp."), QStringLiteral("order"));
    const QCommandLineOption standalone(QStringLiteral("standalone_embedding_stage"),
        QApplication::translate("main", "With --view parallel: the embedding has a pipeline stage of its own."));
    parser.addOptions({ worldSize, numLayers, tensorParallel, pipelineParallel, perVirtualStage, virtualStages, order, standalone });
    parser.process(app);

    msprobe::studio::headlessexport::ParallelFlags parallelFlags;
    const std::pair<const QCommandLineOption*, std::optional<long long>*> numbers[] = {
        { &worldSize, &parallelFlags.worldSize },
        { &numLayers, &parallelFlags.numLayers },
        { &tensorParallel, &parallelFlags.tensorParallel },
        { &pipelineParallel, &parallelFlags.pipelineParallel },
        { &perVirtualStage, &parallelFlags.layersPerVirtualStage },
        { &virtualStages, &parallelFlags.virtualStages },
    };
    for (const auto& [option, value] : numbers) {
        if (!parser.isSet(*option))
            continue;
        bool ok = false;
        *value = parser.value(*option).toLongLong(&ok);
        if (!ok)
            return fail(QApplication::translate("main", "--%1 takes a whole number, not '%2'").arg(option->names().front(), parser.value(*option)));
    }
    if (parser.isSet(order))
        parallelFlags.order = parser.value(order);
    parallelFlags.standaloneEmbeddingStage = parser.isSet(standalone);

    MainWindow window;
    if (parser.isSet(exportFile)) {
        msprobe::studio::headlessexport::Request request;
        request.parallel = parallelFlags;
        request.file = parser.value(exportFile);
        request.view = parser.value(view);
        request.inputs = parser.positionalArguments();
        bool stepOk = true, rankOk = true;
        if (parser.isSet(step))
            request.step = parser.value(step).toInt(&stepOk);
        if (parser.isSet(rank))
            request.rank = parser.value(rank).toInt(&rankOk);
        if (!stepOk || !rankOk)
            return fail(QApplication::translate("main", "--step and --rank take whole numbers"));
        // Laid out as on a laptop screen: the compare view's picture has this size.
        window.resize(1366, 768);
        window.show();
        const QString error = msprobe::studio::headlessexport::run(window, request);
        if (!error.isEmpty())
            return fail(error);
        std::printf("%s\n", qPrintable(QApplication::translate("main", "written %1").arg(request.file)));
        return 0;
    }
    window.show();
    // --view parallel without --export: the parallelism panel in front, on the flags' configuration (applied
    // again once the inputs have loaded, over what they carry).
    if (parser.value(view) == QLatin1String("parallel")) {
        window.parallelDock()->show();
        window.parallelDock()->raise();
        window.resizeDocks({ window.parallelDock() }, { window.height() / 2 }, Qt::Vertical);
        if (parallelFlags.any()) {
            auto apply = [&window, parallelFlags] {
                if (const QString error = msprobe::studio::headlessexport::applyParallelFlags(window, parallelFlags); !error.isEmpty())
                    std::fprintf(stderr, "msprobe-studio: %s\n", qPrintable(error));
            };
            apply();
            QObject::connect(window.session(), &StudioSession::loadFinished, &window, apply);
        }
    }
    std::optional<ScreenshotWhenLoaded> screenshotWait;
    if (parser.isSet(screenshot))
        screenshotWait.emplace(window, parser.value(screenshot), [] { QApplication::quit(); });
    const QStringList paths = parser.positionalArguments();
    if (paths.size() > 2)
        parser.showHelp(2);
    if (!paths.isEmpty() && std::all_of(paths.begin(), paths.end(), &TrendSource::isTrendOnly))
        window.openTrend(paths);
    else if (!paths.isEmpty())
        window.openPaths(paths);
    else if (parser.isSet(screenshot))
        QMetaObject::invokeMethod(&window, &MainWindow::idle, Qt::QueuedConnection);
    if (parser.isSet(memoryDump))
        window.openMemoryDump(parser.value(memoryDump));
    if (parser.isSet(memoryCompare))
        window.openComparedMemoryDump(parser.value(memoryCompare));
    if (screenshotWait)
        screenshotWait->waitForMemoryLoads(int(parser.isSet(memoryDump)) + int(parser.isSet(memoryCompare)));
    return app.exec();
}
