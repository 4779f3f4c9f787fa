// SPDX-License-Identifier: Apache-2.0
// msprobe-studio: the desktop workstation.
#include "appearance.h"
#include "headlessexport.h"
#include "mainwindow.h"
#include "optionalviews.h"
#include "trendsource.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QTimer>
#include <QTranslator>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace {

// Saves the window once it has drawn what was loaded (the graph view lays out in the background), then quits.
void screenshotWhenIdle(MainWindow& window, const QString& file)
{
    QObject::connect(&window, &MainWindow::idle, &window, [&window, file] {
        auto save = [&window, file] {
            window.grab().save(file);
            QApplication::quit();
        };
#if MSPROBE_HAVE_GRAPH_VIEW
        if (window.graphView() && !window.graphView()->isSettled()) {
            QObject::connect(window.graphView(), &GraphDiffView::settled, &window, [save] { QTimer::singleShot(300, save); });
            QTimer::singleShot(10000, &window, save); // never wait for ever
            return;
        }
#endif
        QTimer::singleShot(300, &window, save);
    });
}

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
    appearance::installTranslator(app, translator, qtTranslator);
    appearance::applyTheme(appearance::darkTheme());

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
    QCommandLineOption exportFile(QStringLiteral("export"),
        QApplication::translate("main", "Open the input without a window, write FILE by its extension (.png, .svg: the view's picture; "
                                        ".html: the report; .json: the verdicts, as msprobe compare --json) and exit: 0 done, 1 failed."),
        QStringLiteral("file"));
    QCommandLineOption view(QStringLiteral("view"), QApplication::translate("main", "With --export: the view to draw, graph (default), compare or trend."),
        QStringLiteral("view"), QStringLiteral("graph"));
    QCommandLineOption step(QStringLiteral("step"), QApplication::translate("main", "With --export: the step to show (with --rank)."), QStringLiteral("S"));
    QCommandLineOption rank(QStringLiteral("rank"), QApplication::translate("main", "With --export: the rank to show (with --step)."), QStringLiteral("R"));
    parser.addOptions({ exportFile, view, step, rank });
    parser.process(app);

    MainWindow window;
    if (parser.isSet(exportFile)) {
        headlessexport::Request request;
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
        const QString error = headlessexport::run(window, request);
        if (!error.isEmpty())
            return fail(error);
        std::printf("%s\n", qPrintable(QApplication::translate("main", "written %1").arg(request.file)));
        return 0;
    }
    window.show();
    if (parser.isSet(screenshot))
        screenshotWhenIdle(window, parser.value(screenshot));
    const QStringList paths = parser.positionalArguments();
    if (paths.size() > 2)
        parser.showHelp(2);
    if (!paths.isEmpty() && std::all_of(paths.begin(), paths.end(), &TrendSource::isTrendOnly))
        window.openTrend(paths);
    else if (!paths.isEmpty())
        window.openPaths(paths);
    else if (parser.isSet(screenshot))
        QMetaObject::invokeMethod(&window, &MainWindow::idle, Qt::QueuedConnection);
    return app.exec();
}
