// SPDX-License-Identifier: Apache-2.0
// msprobe-studio --export on the bundled problem/bench pair: the verdict JSON carries what `msprobe compare --json`
// says (first divergence, first NaN/Inf, counts), the HTML is the report, the graph PNG/SVG is a drawn picture
// with title and legend, the compare view draws the table; bad requests fail with a message naming what is wrong.
// The program itself runs without a display.
#include "cli_runner.h"
#include "test_util.h"
#include "tst_first_divergence_inputs.h"

#include "headlessexport.h"
#include "mainwindow.h"

#include <QImage>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QXmlStreamReader>

#include <nlohmann/json.hpp>

#include <fstream>

namespace fs = std::filesystem;

namespace {

QString samplePath(const char* side) { return QStringLiteral(MSPROBE_SAMPLES "/") + QLatin1String(side); }

nlohmann::json readJson(const QString& file)
{
    std::ifstream in(file.toStdString());
    return nlohmann::json::parse(in);
}

QString findFile(const QString& dir, const QString& pattern)
{
    for (const auto& item : fs::recursive_directory_iterator(dir.toStdString()))
        if (QString::fromStdString(item.path().filename().string()).contains(pattern))
            return QString::fromStdString(item.path().string());
    return {};
}

// The pixels that are not the background white.
int drawnPixels(const QImage& image)
{
    int drawn = 0;
    for (int y = 0; y < image.height(); y += 2)
        for (int x = 0; x < image.width(); x += 2)
            drawn += image.pixel(x, y) != qRgb(255, 255, 255);
    return drawn;
}

} // namespace

class TestStudioExport : public QObject {
    Q_OBJECT

    QTemporaryDir m_scratch;
    nlohmann::json m_cliJson;

    QString exportTo(const QString& name, const QStringList& inputs, const QString& view = QStringLiteral("graph"),
        std::optional<int> step = {}, std::optional<int> rank = {})
    {
        MainWindow window;
        window.resize(1366, 768);
        window.show();
        msprobe::studio::headlessexport::Request request;
        request.file = m_scratch.filePath(name);
        request.inputs = inputs;
        request.view = view;
        request.step = step;
        request.rank = rank;
        return msprobe::studio::headlessexport::run(window, request);
    }

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("msprobe-tests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_views_studioexport"));
        const QString out = m_scratch.filePath(QStringLiteral("cli"));
        const auto run = msprobe::test::runCli({ QStringLiteral("compare"), QStringLiteral("-tp"), samplePath("problem"), QStringLiteral("-gp"),
            samplePath("bench"), QStringLiteral("-o"), out, QStringLiteral("--json"), QStringLiteral("--no-progress") });
        QCOMPARE(run.exitCode, 0);
        const QString json = findFile(out, QStringLiteral("compare_verdict_"));
        QVERIFY(!json.isEmpty());
        m_cliJson = readJson(json);
        QCOMPARE(m_cliJson["pairs"].size(), 2u);
    }

    // Per pair, the fields a script reads are the CLI's, value for value.
    void jsonIsTheCliVerdict()
    {
        QCOMPARE(exportTo(QStringLiteral("verdict.json"), { samplePath("problem"), samplePath("bench") }), QString());
        const nlohmann::json studio = readJson(m_scratch.filePath(QStringLiteral("verdict.json")));
        QCOMPARE(studio["pairs"].size(), m_cliJson["pairs"].size());
        for (std::size_t i = 0; i < studio["pairs"].size(); ++i) {
            const auto& mine = studio["pairs"][i];
            const auto& cli = m_cliJson["pairs"][i];
            for (const char* field : { "step", "rank", "npu", "bench", "mode", "verdict", "rows", "pass", "warning", "error", "unpaired",
                     "first_divergence", "first_nan_inf", "failed_rows" })
                QVERIFY2(mine[field] == cli[field], qPrintable(QStringLiteral("pair %1 field %2: %3 vs %4")
                                                                   .arg(i)
                                                                   .arg(QLatin1String(field))
                                                                   .arg(QString::fromStdString(mine[field].dump()), QString::fromStdString(cli[field].dump()))));
        }
        QVERIFY(studio["pairs"][0]["first_divergence"]["entry"] == "Functional.gelu.1.forward");
        QVERIFY(studio["counts"] == m_cliJson["counts"]);
        QVERIFY(studio["verdict"] == m_cliJson["verdict"]);

        // --step/--rank: that pair only.
        QCOMPARE(exportTo(QStringLiteral("step1.json"), { samplePath("problem"), samplePath("bench") }, QStringLiteral("graph"), 1, 0), QString());
        const nlohmann::json one = readJson(m_scratch.filePath(QStringLiteral("step1.json")));
        QCOMPARE(one["pairs"].size(), 1u);
        QVERIFY(one["pairs"][0]["step"] == "step1");
        QVERIFY(one["pairs"][0]["first_divergence"] == m_cliJson["pairs"][1]["first_divergence"]);
    }

    void htmlIsTheReport()
    {
        QCOMPARE(exportTo(QStringLiteral("report.html"), { samplePath("problem"), samplePath("bench") }), QString());
        QFile file(m_scratch.filePath(QStringLiteral("report.html")));
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QString html = QString::fromUtf8(file.readAll());
        QVERIFY(html.contains(QStringLiteral("<html")));
        QVERIFY(html.contains(QStringLiteral("step1")));
        QVERIFY(html.contains(QStringLiteral("Functional.gelu.1.forward")));
    }

    // The report's first divergence is the CLI's, also where the innermost-entry rule needs the NPU side's
    // construct.json: here a module written before its calls diverges first in dump order, and the GELU inside
    // it is what `msprobe compare --json` names.
    void htmlFirstDivergenceIsTheCli()
    {
        using namespace first_divergence_inputs;
        const std::string A = tensor("1.0", "0.0", "0.5", "2.0"), B = tensor("1.5", "0.0", "0.5", "2.0"), C = tensor("3.0", "0.0", "0.5", "2.0");
        const auto writePair = [&](const QString& side, const std::string& out) {
            const fs::path rank = fs::path(m_scratch.filePath(side).toStdString()) / "step0" / "rank0";
            msprobe::test::writeFile(rank / "dump.json",
                R"({"task": "statistics", "level": "mix", "framework": "pytorch", "dump_data_dir": null, "data": {)"
                    + join({ entry("Module.mlp.MLP.forward.0", { A }, {}, { out }), entry("Functional.linear.0.forward", { A }, {}, { A }),
                        entry("Module.mlp.act.GELU.forward.0", { A }, {}, { out }), entry("Functional.gelu.0.forward", { A }, {}, { out }) })
                    + "}}");
            msprobe::test::writeFile(rank / "construct.json",
                R"({"Module.mlp.MLP.forward.0": null, "Functional.linear.0.forward": "Module.mlp.MLP.forward.0", )"
                R"("Module.mlp.act.GELU.forward.0": "Module.mlp.MLP.forward.0", "Functional.gelu.0.forward": "Module.mlp.act.GELU.forward.0"})");
            msprobe::test::writeFile(rank / "stack.json", "{}");
        };
        writePair(QStringLiteral("inner_problem"), C);
        writePair(QStringLiteral("inner_bench"), B);
        const QStringList pair { m_scratch.filePath(QStringLiteral("inner_problem")), m_scratch.filePath(QStringLiteral("inner_bench")) };
        const QString out = m_scratch.filePath(QStringLiteral("inner_cli"));
        const auto run = msprobe::test::runCli(
            { QStringLiteral("compare"), QStringLiteral("-tp"), pair[0], QStringLiteral("-gp"), pair[1], QStringLiteral("-o"), out,
                QStringLiteral("--json"), QStringLiteral("--no-progress") });
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        const nlohmann::json cli = readJson(findFile(out, QStringLiteral("compare_verdict_")));
        const std::string entryName = cli["pairs"][0]["first_divergence"]["entry"];
        QCOMPARE(entryName, std::string("Functional.gelu.0.forward"));

        QCOMPARE(exportTo(QStringLiteral("inner.html"), pair), QString());
        QFile file(m_scratch.filePath(QStringLiteral("inner.html")));
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QString html = QString::fromUtf8(file.readAll());
        QVERIFY2(html.contains(QStringLiteral(": <code>Functional.gelu.0.forward</code>")), qPrintable(html.left(4000)));
        QVERIFY(!html.contains(QStringLiteral("<code>Module.mlp.MLP.forward.0</code>")));
    }

    // The graph picture: both graphs side by side under a title and the legend, a margin of white all round.
    void graphPngAndSvg()
    {
        QCOMPARE(exportTo(QStringLiteral("graph.png"), { samplePath("problem"), samplePath("bench") }, QStringLiteral("graph"), 0, 0), QString());
        const QImage image(m_scratch.filePath(QStringLiteral("graph.png")));
        QVERIFY(!image.isNull());
        QVERIFY2(image.width() > 600 && image.height() > 200, qPrintable(QStringLiteral("%1x%2").arg(image.width()).arg(image.height())));
        QVERIFY(drawnPixels(image) > 500);
        // The margin: the outer 20 px rows and columns stay white (on a 2x scaled picture: 2 * 24 px).
        for (int x = 0; x < image.width(); x += 7) {
            QCOMPARE(image.pixel(x, 2), qRgb(255, 255, 255));
            QCOMPARE(image.pixel(x, image.height() - 3), qRgb(255, 255, 255));
        }
        for (int y = 0; y < image.height(); y += 7)
            QCOMPARE(image.pixel(2, y), qRgb(255, 255, 255));

        QCOMPARE(exportTo(QStringLiteral("graph.svg"), { samplePath("problem"), samplePath("bench") }), QString());
        QFile svg(m_scratch.filePath(QStringLiteral("graph.svg")));
        QVERIFY(svg.open(QIODevice::ReadOnly));
        QXmlStreamReader xml(&svg);
        QStringList texts;
        while (!xml.atEnd())
            if (xml.readNext() == QXmlStreamReader::StartElement && xml.name() == QLatin1String("text"))
                texts << xml.readElementText(QXmlStreamReader::IncludeChildElements);
        QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
        const QString all = texts.join(QLatin1Char('|'));
        QVERIFY2(all.contains(QStringLiteral("step 0, rank 0")), qPrintable(all.left(400))); // the title
        QVERIFY2(all.contains(QStringLiteral("Pass")) && all.contains(QStringLiteral("Error")), qPrintable(all.left(400))); // the legend
        QVERIFY(all.contains(QStringLiteral("Debug")) && all.contains(QStringLiteral("Bench")));
    }

    void compareViewPng()
    {
        QCOMPARE(exportTo(QStringLiteral("table.png"), { samplePath("problem"), samplePath("bench") }, QStringLiteral("compare")), QString());
        const QImage image(m_scratch.filePath(QStringLiteral("table.png")));
        QVERIFY(!image.isNull());
        QVERIFY(image.width() > 300 && image.height() > 100);
    }

    void badRequestsSayWhy()
    {
        const QStringList pair { samplePath("problem"), samplePath("bench") };
        QVERIFY(exportTo(QStringLiteral("x.bmp"), pair).contains(QStringLiteral(".png, .svg, .html or .json")));
        QVERIFY(exportTo(QStringLiteral("x.png"), pair, QStringLiteral("nosuch")).contains(QStringLiteral("--view nosuch")));
        const QString missingStep = exportTo(QStringLiteral("x.json"), pair, QStringLiteral("graph"), 9, 0);
        QVERIFY2(missingStep.contains(QStringLiteral("step 9, rank 0")) && missingStep.contains(QStringLiteral("steps: 0, 1")), qPrintable(missingStep));
        const QString missingInput = exportTo(QStringLiteral("x.json"), { m_scratch.filePath(QStringLiteral("nowhere")) });
        QVERIFY2(missingInput.contains(QStringLiteral("nowhere")), qPrintable(missingInput));
        QVERIFY(!QFileInfo::exists(m_scratch.filePath(QStringLiteral("x.json"))));
    }

    // The program: no display needed (no DISPLAY, no QT_QPA_PLATFORM), exit 0 with the file, 1 with a message.
    void programRunsWithoutADisplay()
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.remove(QStringLiteral("DISPLAY"));
        env.remove(QStringLiteral("WAYLAND_DISPLAY"));
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
        const QString file = m_scratch.filePath(QStringLiteral("program.json"));
        const auto ok = run({ QStringLiteral("--export"), file, samplePath("problem"), samplePath("bench") });
        QVERIFY2(ok.first == 0, qPrintable(ok.second));
        QVERIFY(readJson(file)["pairs"][0]["first_divergence"] == m_cliJson["pairs"][0]["first_divergence"]);
        const auto bad = run({ QStringLiteral("--export"), m_scratch.filePath(QStringLiteral("x.txt")), samplePath("problem"), samplePath("bench") });
        QCOMPARE(bad.first, 1);
        QVERIFY2(bad.second.contains(QStringLiteral("x.txt")), qPrintable(bad.second));
    }
};

QTEST_MAIN(TestStudioExport)
#include "tst_views_studioexport.moc"
