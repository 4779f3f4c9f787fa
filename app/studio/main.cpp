// SPDX-License-Identifier: Apache-2.0
// msprobe-studio: the desktop workstation.
#include "appearance.h"
#include "mainwindow.h"
#include "optionalviews.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QTimer>
#include <QTranslator>

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

} // namespace

int main(int argc, char** argv)
{
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
    parser.process(app);

    MainWindow window;
    window.show();
    if (parser.isSet(screenshot))
        screenshotWhenIdle(window, parser.value(screenshot));
    const QStringList paths = parser.positionalArguments();
    if (paths.size() > 2)
        parser.showHelp(2);
    if (!paths.isEmpty())
        window.openPaths(paths);
    else if (parser.isSet(screenshot))
        QMetaObject::invokeMethod(&window, &MainWindow::idle, Qt::QueuedConnection);
    return app.exec();
}
