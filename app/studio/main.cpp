// SPDX-License-Identifier: Apache-2.0
// msprobe-studio: the desktop workstation.
#include "mainwindow.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QLocale>
#include <QSettings>
#include <QTranslator>

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("msprobe-studio"));
    QApplication::setOrganizationName(QStringLiteral("msprobe"));
    QApplication::setApplicationVersion(QStringLiteral(MSPROBE_VERSION));

    // The language comes from the settings ("language" = "zh_CN", "en") or else the system locale.
    QTranslator translator;
    const QString language = QSettings().value(QStringLiteral("language")).toString();
    const QLocale locale = language.isEmpty() ? QLocale() : QLocale(language);
    if (translator.load(locale, QStringLiteral("msprobe"), QStringLiteral("_"), QStringLiteral(":/i18n")))
        QApplication::installTranslator(&translator);

    QCommandLineParser parser;
    parser.setApplicationDescription(QApplication::translate("main", "Numerical-accuracy workstation for msprobe dumps."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("path"), QApplication::translate("main", "A dump folder or dump.json to open."));
    QCommandLineOption screenshot(QStringLiteral("screenshot"),
        QApplication::translate("main", "Save a PNG of the window once loading is done, then quit (for docs and checks)."),
        QStringLiteral("file"));
    parser.addOption(screenshot);
    parser.process(app);

    MainWindow window;
    window.show();
    if (parser.isSet(screenshot)) {
        const QString file = parser.value(screenshot);
        QObject::connect(&window, &MainWindow::idle, &app, [&window, file] {
            window.grab().save(file);
            QApplication::quit();
        });
    }
    if (!parser.positionalArguments().isEmpty())
        window.openPath(parser.positionalArguments().first());
    else if (parser.isSet(screenshot))
        QMetaObject::invokeMethod(&window, &MainWindow::idle, Qt::QueuedConnection);
    return app.exec();
}
