// SPDX-License-Identifier: Apache-2.0
// The memory panel in the studio: File > Open memory dump through the window (background load, the dock shows
// the document) and `msprobe-studio --export FILE --view memory INPUT.csv` (PNG at the window's 1366x768, SVG,
// clear errors), run as the program with no display.
#include "mainwindow.h"
#include "memory/memorypanel.h"
#include "memory/memorytimelineview.h"
#include "memorysession.h"
#include "test_util.h"

#include <QFile>
#include <QImage>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

namespace {

QString leaksCsv() { return QString::fromStdString((msprobe::test::dataDir() / "memory" / "leaks.csv").string()); }

} // namespace

class TestMemoryExport : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QVERIFY(m_scratch.isValid());
        qputenv("HOME", m_scratch.filePath(QStringLiteral("home")).toUtf8());
        qputenv("XDG_CONFIG_HOME", m_scratch.filePath(QStringLiteral("home/.config")).toUtf8());
    }

    void windowOpensAMemoryDump()
    {
        MainWindow window;
        window.setRemembersRecent(false);
        window.resize(1366, 768);
        window.show();
        QVERIFY(!window.memorySession());
        window.openMemoryDump(leaksCsv());
        QVERIFY(window.memorySession());
        QSignalSpy finished(window.memorySession(), &MemorySession::loadFinished);
        QVERIFY(finished.wait(60000));
        QVERIFY(finished.first().at(0).toBool());
        const auto* document = window.memoryPanel()->timeline()->document();
        QVERIFY(document);
        QCOMPARE(document->timeline.blocks.size(), std::size_t(20));
    }

    void exportWritesThePicture()
    {
        const QString png = m_scratch.filePath(QStringLiteral("memory.png"));
        const auto ok = run({ QStringLiteral("--export"), png, QStringLiteral("--view"), QStringLiteral("memory"), leaksCsv() });
        QVERIFY2(ok.first == 0, qPrintable(ok.second));
        const QImage image(png);
        QCOMPARE(image.size(), QSize(1366, 768));
        // Not blank: the blocks alive at the end of the capture are painted light red somewhere.
        bool red = false;
        for (int y = 0; y < image.height() && !red; y += 2)
            for (int x = 0; x < image.width() && !red; ++x)
                red = image.pixelColor(x, y) == QColor(240, 150, 150);
        QVERIFY(red);

        const QString svg = m_scratch.filePath(QStringLiteral("memory.svg"));
        const auto svgOk = run({ QStringLiteral("--export"), svg, QStringLiteral("--view"), QStringLiteral("memory"), leaksCsv() });
        QVERIFY2(svgOk.first == 0, qPrintable(svgOk.second));
        QFile file(svg);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QVERIFY(file.readAll().contains("<svg"));
    }

    void exportErrorsNameTheProblem()
    {
        const auto html = run({ QStringLiteral("--export"), m_scratch.filePath(QStringLiteral("x.html")), QStringLiteral("--view"),
            QStringLiteral("memory"), leaksCsv() });
        QCOMPARE(html.first, 1);
        QVERIFY2(html.second.contains(QStringLiteral(".png or .svg")), qPrintable(html.second));
        const QString missing = m_scratch.filePath(QStringLiteral("nowhere.csv"));
        const auto absent = run({ QStringLiteral("--export"), m_scratch.filePath(QStringLiteral("y.png")), QStringLiteral("--view"),
            QStringLiteral("memory"), missing });
        QCOMPARE(absent.first, 1);
        QVERIFY2(absent.second.contains(QStringLiteral("nowhere.csv")), qPrintable(absent.second));
        QVERIFY(!QFile::exists(m_scratch.filePath(QStringLiteral("y.png"))));
    }

private:
    std::pair<int, QString> run(const QStringList& args)
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.remove(QStringLiteral("DISPLAY"));
        env.remove(QStringLiteral("QT_QPA_PLATFORM"));
        env.insert(QStringLiteral("HOME"), m_scratch.filePath(QStringLiteral("home")));
        QProcess process;
        process.setProcessEnvironment(env);
        process.start(QStringLiteral(MSPROBE_STUDIO_PATH), args);
        process.waitForFinished(300000);
        return { process.exitCode(), QString::fromUtf8(process.readAllStandardError()) };
    }

    QTemporaryDir m_scratch;
};

QTEST_MAIN(TestMemoryExport)
#include "tst_views_memory_export.moc"
