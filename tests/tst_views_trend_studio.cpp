// SPDX-License-Identifier: Apache-2.0
// The trend panel in the studio window: a problem/bench pair (the monitor worked example with one activation
// changed) shows the difference heat map whose marked first divergence is the one `msprobe trend_compare --json`
// names; the linked selection between graph nodes and heat-map rows (dump trend.db of the synthetic dump); the
// panel's PNG/SVG/CSV export in the window and through `msprobe-studio --export FILE --view trend`.
#include "cli_runner.h"
#include "test_util.h"

#include "mainwindow.h"
#include "trend/trendpanel.h"
#include "trendsource.h"

#include <QCheckBox>
#include <QComboBox>
#include <QImage>
#include <QProcess>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>

#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>

using namespace msprobe::test;
using msprobe::studio::TrendGrid;
namespace fs = std::filesystem;

namespace {

// Heat maps other than the one read when opening come from the source's query thread: wait until the panel that
// holds `widget` shows the toolbar's choice.
void settle(QObject* widget)
{
    for (QObject* o = widget; o; o = o->parent())
        if (auto* panel = qobject_cast<TrendPanel*>(o)) {
            QVERIFY(QTest::qWaitFor([panel] { return !panel->heatmapPending(); }, 60000));
            return;
        }
}

void select(QComboBox* box, const QString& text)
{
    const int i = box->findText(text);
    QVERIFY2(i >= 0, qPrintable(text));
    box->setCurrentIndex(i);
    settle(box);
}

bool waitForTrend(MainWindow& window)
{
    QSignalSpy finished(window.trendSource(), &TrendSource::loadFinished);
    if (!finished.wait(120000) || !finished.front().front().toBool())
        return false;
    return QTest::qWaitFor([&window] { return !window.trendPanel()->heatmapPending(); }, 60000);
}

// The example's rank 1 with the norm of mlp.output at step 1, micro step 0 (trend step 2) changed 3.5 -> 3.6.
void writeProblemRun(const fs::path& bench, const fs::path& problem)
{
    fs::copy(bench, problem, fs::copy_options::recursive);
    const fs::path file = problem / "Dec03_21-34-40-rank1-abcd1234" / "actv_0-1.csv";
    std::ifstream in(file);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const std::string from = "0,module.layers.0.mlp.output,1,0,3.5,", to = "0,module.layers.0.mlp.output,1,0,3.6,";
    const auto at = text.find(from);
    QVERIFY(at != std::string::npos);
    text.replace(at, from.size(), to);
    writeFile(file, text);
}

QString rowTarget(const TrendGrid& grid, int row) { return grid.yJoinNames[static_cast<std::size_t>(row)]; }

} // namespace

class TestViewsTrendStudio : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_tmp;
    QString m_problem, m_bench, m_dumpDb;

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        const fs::path root = m_tmp.path().toStdString();
        writeProblemRun(dataDir() / "trend" / "monitor_input_example", root / "problem");
        m_problem = q((root / "problem").string());
        m_bench = q((dataDir() / "trend" / "monitor_input_example").string());
        const Run run = runCli({ QStringLiteral("data2db"), QStringLiteral("--db"), m_tmp.filePath(QStringLiteral("dump")), QStringLiteral("--data"),
            q((dataDir() / "trend" / "synthetic_dump").string()) });
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        m_dumpDb = m_tmp.filePath(QStringLiteral("dump/dump_data.trend.db"));
    }

    // Two folders open as a pair (each imported as data2db would); the difference heat map marks the cell that
    // trend_compare --json names as the first divergence, and nothing before it in that target's row leaves the
    // tolerance.
    void differenceMarksTrendCompareFirstDivergence()
    {
        const Run compare = runCli({ QStringLiteral("trend_compare"), QStringLiteral("-tp"), m_problem, QStringLiteral("-gp"), m_bench, QStringLiteral("--json") });
        QVERIFY2(compare.exitCode == 0, qPrintable(compare.err));
        const auto first = nlohmann::json::parse(compare.out.toStdString())["first_divergence"];
        QCOMPARE(first["target"].get<std::string>(), std::string("module.layers.0.mlp.output"));
        QCOMPARE(first["rank"].get<int>(), 1);
        QCOMPARE(first["step"].get<int>(), 2);

        MainWindow window;
        window.openTrend({ m_problem, m_bench });
        QVERIFY(waitForTrend(window));
        TrendPanel* panel = window.trendPanel();
        QVERIFY(window.trendSource()->isPair());
        QVERIFY(panel->differenceBox()->isChecked());
        select(panel->metricBox(), QString::fromStdString(first["metric"].get<std::string>()));
        select(panel->dimensionBox(), QStringLiteral("Rank"));
        select(panel->valueBox(), QStringLiteral("Rank%1").arg(first["rank"].get<int>()));
        const TrendGrid& grid = panel->heatmap()->grid();
        QVERIFY(grid.difference);
        int marked = 0, markedColumn = -1, markedRow = -1;
        for (int r = 0; r < grid.rows(); ++r)
            for (int c = 0; c < grid.columns(); ++c)
                if (grid.firstDivergence[grid.index(c, r)]) {
                    ++marked;
                    markedColumn = c;
                    markedRow = r;
                }
        QCOMPARE(marked, 1);
        QCOMPARE(grid.xKeys[static_cast<std::size_t>(markedColumn)], std::int64_t(first["step"].get<int>()));
        QCOMPARE(rowTarget(grid, markedRow), QString::fromStdString(first["target"].get<std::string>()));
        QVERIFY(std::fabs(*grid.value(markedColumn, markedRow) - first["rel_diff"].get<double>()) < 1e-12);
        QVERIFY(std::fabs(*grid.value(markedColumn, markedRow) - 0.1 / 3.5) < 1e-12);
        for (int c = 0; c < markedColumn; ++c)
            QCOMPARE(*grid.value(c, markedRow), 0.0);
        QVERIFY(panel->divergenceText().contains(QStringLiteral("module.layers.0.mlp.output")));
        QVERIFY(panel->heatmap()->cellToolTip(markedColumn, markedRow).contains(QStringLiteral("first divergence")));

        // Both runs' lines for a cell; without difference the problem's own values.
        panel->activateCell(markedColumn, markedRow);
        QCOMPARE(panel->lineChart()->seriesCount(), 2);
        QVERIFY(panel->lineChart()->seriesNames()[1].startsWith(QStringLiteral("bench")));
        // Both drawn: over the ranks 0 and 1 at step 2 (Rank dimension); at rank 1 the problem's 3.6, the bench's 3.5.
        QCOMPARE(panel->lineChart()->drawnPoints(0), 2);
        QCOMPARE(panel->lineChart()->drawnPoints(1), 2);
        QVERIFY(panel->lineChart()->valuesAt(1).contains(QStringLiteral("@ 1: 3.6\n")));
        QVERIFY(panel->lineChart()->valuesAt(1).endsWith(QStringLiteral("@ 1: 3.5")));
        panel->differenceBox()->setChecked(false);
        settle(panel);
        QCOMPARE(*panel->heatmap()->grid().value(markedColumn, markedRow), 3.6);
    }

    // The pair's compare is kept per statistic and per content of the two files: a problem trend.db written
    // again under the same name (data2db of other data) is compared again when the pair is opened again.
    void compareFollowsADatabaseRewrittenUnderItsName()
    {
        QTemporaryDir dir;
        const QString problemDir = dir.filePath(QStringLiteral("problem")), benchDir = dir.filePath(QStringLiteral("bench"));
        const auto importInto = [](const QString& db, const QString& data) {
            const Run run = runCli({ QStringLiteral("data2db"), QStringLiteral("--db"), db, QStringLiteral("--data"), data });
            QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        };
        importInto(problemDir, m_problem);
        importInto(benchDir, m_bench);
        const QString problemDb = problemDir + QStringLiteral("/monitor_data.trend.db");
        const QString benchDb = benchDir + QStringLiteral("/monitor_data.trend.db");
        TrendSource source;
        const auto openPair = [&] {
            QSignalSpy finished(&source, &TrendSource::loadFinished);
            source.openPair(problemDb, benchDb);
            QVERIFY(finished.wait(60000));
            QVERIFY(finished.front().front().toBool());
        };
        openPair();
        QVERIFY(!source.compare(QStringLiteral("norm")).divergences.empty());
        QCOMPARE(source.compare(QStringLiteral("norm")).divergences.front().target, std::string("module.layers.0.mlp.output"));
        QCOMPARE(source.compare(QStringLiteral("norm")).divergences.front().problem, std::optional<double>(3.6));

        importInto(problemDir, m_bench); // the problem database now holds the bench run's values
        openPair();
        QCOMPARE(source.compare(QStringLiteral("norm")).divergences.size(), std::size_t(0));
        QVERIFY(source.compare(QStringLiteral("norm")).comparedPoints > 0);
    }

    // A graph node selects the heat-map row of its module's tensors; a cell focuses its step, rank and node.
    void linkedSelection()
    {
        MainWindow window;
        window.openTrend({ m_dumpDb });
        QVERIFY(waitForTrend(window));
        TrendPanel* panel = window.trendPanel();
        StudioFocus* focus = window.studioFocus();
        QCOMPARE(panel->metricBox()->currentText(), QStringLiteral("forward"));
        select(panel->valueBox(), QStringLiteral("Step1"));
        focus->setNode(QStringLiteral("Module.model.fc2.Linear.forward.0"));
        const TrendGrid& grid = panel->heatmap()->grid();
        const int row = panel->heatmap()->selectedRow();
        QVERIFY(row >= 0);
        QVERIFY2(rowTarget(grid, row).startsWith(QStringLiteral("Module.model.fc2.Linear.")), qPrintable(rowTarget(grid, row)));
        focus->setNode(QStringLiteral("Module.model.nothing.Linear.forward.0"));
        QCOMPARE(panel->heatmap()->selectedRow(), -1);

        int outputRow = -1;
        for (int r = 0; r < grid.rows(); ++r)
            if (rowTarget(grid, r) == QLatin1String("Module.model.fc1.Linear.output.0"))
                outputRow = r;
        QVERIFY(outputRow >= 0);
        const int rankColumn = grid.columns() - 1;
        panel->activateCell(rankColumn, outputRow);
        QCOMPARE(focus->step(), 1);
        QCOMPARE(focus->rank(), int(grid.xKeys.back()));
        QCOMPARE(focus->node(), QStringLiteral("Module.model.fc1.Linear.forward.0"));
        QCOMPARE(panel->heatmap()->selectedRow(), outputRow);

        // A step and rank chosen elsewhere (graph, compare table, parallelism grid) become the shown step, or the
        // shown rank in the Rank dimension; one the database lacks leaves the choice as it was.
        focus->setGraph(0, 0);
        settle(panel);
        QCOMPARE(panel->valueBox()->currentText(), QStringLiteral("Step0"));
        focus->setGraph(99, 0);
        settle(panel);
        QCOMPARE(panel->valueBox()->currentText(), QStringLiteral("Step0"));
        const qlonglong lastRank = grid.xKeys.back(); // the Step dimension's columns are ranks
        select(panel->dimensionBox(), QStringLiteral("Rank"));
        focus->setGraph(1, static_cast<int>(lastRank));
        settle(panel);
        QCOMPARE(panel->valueBox()->currentData().toLongLong(), lastRank);
    }

    // In the window: PNG of the panel's size, SVG, CSV with one line per cell with data; headless the same.
    void exports()
    {
        MainWindow window;
        window.resize(1366, 768);
        window.show();
        window.openTrend({ m_dumpDb });
        QVERIFY(waitForTrend(window));
        const QString png = m_tmp.filePath(QStringLiteral("panel.png"));
        QCOMPARE(window.exportTrend(png), QString());
        const QImage image(png);
        QVERIFY(!image.isNull());
        QCOMPARE(image.size(), window.trendPanel()->size() * window.trendPanel()->devicePixelRatio());
        const QString svg = m_tmp.filePath(QStringLiteral("panel.svg"));
        QCOMPARE(window.exportTrend(svg), QString());
        QVERIFY(QFileInfo(svg).size() > 1000);
        const QString csv = m_tmp.filePath(QStringLiteral("panel.csv"));
        QCOMPARE(window.exportTrend(csv), QString());
        QFile csvFile(csv);
        QVERIFY(csvFile.open(QIODevice::ReadOnly));
        const QStringList lines = QString::fromUtf8(csvFile.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        const TrendGrid& grid = window.trendPanel()->heatmap()->grid();
        const auto withData = std::count_if(grid.cells.begin(), grid.cells.end(), [](TrendGrid::Cell c) { return c != TrendGrid::Cell::Missing; });
        QCOMPARE(lines.size(), withData + 1);
        QCOMPARE(lines.front(), QStringLiteral("rank,target,label,value"));
        QVERIFY(window.exportTrend(m_tmp.filePath(QStringLiteral("panel.txt"))).contains(QStringLiteral(".csv")));

        // The program: the panel alone at the window's export size (1366 x 768).
        const QString headless = m_tmp.filePath(QStringLiteral("headless.png"));
        QProcess studio;
        studio.setProcessEnvironment(QProcessEnvironment::systemEnvironment());
        studio.start(QStringLiteral(MSPROBE_STUDIO_PATH), { QStringLiteral("--export"), headless, QStringLiteral("--view"), QStringLiteral("trend"), m_dumpDb });
        QVERIFY(studio.waitForFinished(120000));
        QVERIFY2(studio.exitCode() == 0, studio.readAllStandardError().constData());
        const QImage written(headless);
        QCOMPARE(written.size(), QSize(1366, 768));
        int coloured = 0;
        for (int y = 0; y < written.height(); y += 4)
            for (int x = 0; x < written.width(); x += 4) {
                const QColor c = written.pixelColor(x, y);
                coloured += c.saturation() > 80;
            }
        QVERIFY(coloured > 1000); // the heat map's cells
        studio.start(QStringLiteral(MSPROBE_STUDIO_PATH), { QStringLiteral("--export"), m_tmp.filePath(QStringLiteral("x.html")), QStringLiteral("--view"),
            QStringLiteral("trend"), m_dumpDb });
        QVERIFY(studio.waitForFinished(120000));
        QCOMPARE(studio.exitCode(), 1);
        QVERIFY(studio.readAllStandardError().contains("trend view exports"));
    }
};

QTEST_MAIN(TestViewsTrendStudio)
#include "tst_views_trend_studio.moc"
