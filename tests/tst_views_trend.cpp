// SPDX-License-Identifier: Apache-2.0
// The trend panel on trend.db files `msprobe data2db` writes from the monitor worked example (spec §3.4) and the
// reference monitor run: toolbar choices -> heat-map cells (checked against SQLite queried by another route and
// against hand-read CSV values), NULL cells drawn as no data, tag filter, clicks adding lines, the 3-sigma
// pieces and the min/max downsampling on hand-computed data.
#include "cli_runner.h"
#include "test_util.h"

#include "trend/trend_db.h"
#include "trend/trendpanel.h"
#include "trendsource.h"

#include <QCheckBox>
#include <QComboBox>
#include <QListWidget>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QThread>

#include <sqlite3.h>

#include <cmath>
#include <optional>

using namespace msprobe::test;
using msprobe::studio::TrendGrid;
namespace fs = std::filesystem;

namespace {

// One statistic of one (metric, target name, rank, step), straight from the file: nullopt for NULL, NaN when
// there is no row.
double sqliteValue(const QString& db, const QString& metric, const QString& stat, const QString& target, qint64 rank, qint64 step)
{
    sqlite3* handle = nullptr;
    sqlite3_open_v2(db.toUtf8().constData(), &handle, SQLITE_OPEN_READONLY, nullptr);
    const QByteArray sql = QStringLiteral("SELECT %1 FROM trend_data WHERE rank = ?1 AND step = ?2 AND metric_id = (SELECT metric_id FROM "
                                          "monitoring_metrics WHERE metric_name = ?3) AND target_id = (SELECT target_id FROM "
                                          "monitoring_targets WHERE target_name = ?4 AND vpp_stage = 0 AND micro_step = 0)")
                               .arg(stat)
                               .toUtf8();
    sqlite3_stmt* statement = nullptr;
    sqlite3_prepare_v2(handle, sql.constData(), -1, &statement, nullptr);
    sqlite3_bind_int64(statement, 1, rank);
    sqlite3_bind_int64(statement, 2, step);
    const QByteArray metricText = metric.toUtf8(), targetText = target.toUtf8();
    sqlite3_bind_text(statement, 3, metricText.constData(), -1, SQLITE_STATIC);
    sqlite3_bind_text(statement, 4, targetText.constData(), -1, SQLITE_STATIC);
    double value = std::nan("");
    if (sqlite3_step(statement) == SQLITE_ROW)
        value = sqlite3_column_type(statement, 0) == SQLITE_NULL ? -12345.0 : sqlite3_column_double(statement, 0);
    sqlite3_finalize(statement);
    sqlite3_close(handle);
    return value;
}

int sqliteCount(const QString& db, const QString& sql)
{
    sqlite3* handle = nullptr;
    sqlite3_open_v2(db.toUtf8().constData(), &handle, SQLITE_OPEN_READONLY, nullptr);
    sqlite3_stmt* statement = nullptr;
    sqlite3_prepare_v2(handle, sql.toUtf8().constData(), -1, &statement, nullptr);
    const int count = sqlite3_step(statement) == SQLITE_ROW ? sqlite3_column_int(statement, 0) : -1;
    sqlite3_finalize(statement);
    sqlite3_close(handle);
    return count;
}

// "{id}_{vpp}_{name}_{micro}" -> name.
QString targetName(const QString& label) { return label.section(QLatin1Char('_'), 2, -2); }

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

} // namespace

class TestViewsTrend : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_tmp;
    QString m_exampleDb, m_benchDb;

    QString importMonitor(const fs::path& data, const QString& name)
    {
        const QString dir = m_tmp.filePath(name);
        const Run run = runCli({ QStringLiteral("data2db"), QStringLiteral("--db"), dir, QStringLiteral("--data"), q(data.string()) });
        if (run.exitCode != 0)
            qWarning() << run.err;
        return dir + QStringLiteral("/monitor_data.trend.db");
    }

    static bool openIn(TrendSource& source, const QString& problem, const QString& bench = {})
    {
        QSignalSpy finished(&source, &TrendSource::loadFinished);
        source.openPair(problem, bench);
        if (!finished.wait(120000))
            return false;
        return finished.front().front().toBool();
    }

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        m_exampleDb = importMonitor(dataDir() / "trend" / "monitor_input_example", QStringLiteral("example"));
        m_benchDb = importMonitor(dataDir() / "trend" / "monitor_bench", QStringLiteral("bench"));
        QVERIFY(QFileInfo::exists(m_exampleDb) && QFileInfo::exists(m_benchDb));
    }

    // The queries seek trend_data's key (rank, step, target, metric) rank by rank, or (rank, step) by (rank,
    // step): on sparse ranks and steps (0, 3, 7; 2, 5) and a target missing on one rank, every dimension's cells
    // and a line over ranks are the hand-written values 100 rank + 10 step + target.
    void sparseRanksAndStepsBySeeks()
    {
        QTemporaryDir dir;
        const fs::path file = fs::path(dir.path().toStdString()) / "sparse.trend.db";
        {
            msprobe::trend::TrendDbWriter writer(file, { "norm", "max", "min", "mean" });
            const auto metric = writer.metricId("actv");
            const auto other = writer.metricId("actv_grad");
            for (const char* name : { "a.x", "b.x", "c.x" })
                writer.tagTarget(writer.targetId(name, 0, 0), metric, { { std::string(name).substr(0, 1), "module" } });
            for (const std::int64_t rank : { 0, 3, 7 })
                for (const std::int64_t step : { 2, 5 })
                    for (std::int64_t target = 1; target <= 3; ++target) {
                        if (rank == 3 && target == 3)
                            continue;
                        const double v = 100.0 * rank + 10.0 * step + target;
                        writer.addNewRow(rank, step, target, metric, std::vector<std::optional<double>> { v, v, v, v });
                        writer.addNewRow(rank, step, target, other, std::vector<std::optional<double>> { -v, -v, -v, -v });
                    }
            writer.writeGlobalStats({ { "min_step", 2 }, { "max_step", 5 }, { "max_rank", 7 } },
                { { "actv", "norm,max,min,mean" }, { "actv_grad", "norm,max,min,mean" } });
            writer.finish();
        }
        const msprobe::studio::TrendDatabase db(QString::fromStdString(file.string()));
        QCOMPARE(db.targets(QStringLiteral("actv")).size(), std::size_t(3));
        QCOMPARE(db.tags(QStringLiteral("actv")).size(), std::size_t(3));
        msprobe::studio::TrendQuery query;
        query.metric = QStringLiteral("actv");
        query.stat = QStringLiteral("max");
        query.value = 5; // Step dimension: x = rank, y = target
        TrendGrid grid = db.grid(query);
        QVERIFY(grid.xKeys == (std::vector<std::int64_t> { 0, 3, 7 }));
        QVERIFY(grid.yKeys == (std::vector<std::int64_t> { 1, 2, 3 }));
        QCOMPARE(grid.value(2, 1).value_or(-1), 752.0);
        QVERIFY(grid.cells[grid.index(1, 2)] == TrendGrid::Cell::Missing);
        query.dimension = msprobe::studio::Dimension::Module; // x = step, y = rank
        query.value = 2;
        grid = db.grid(query);
        QVERIFY(grid.xKeys == (std::vector<std::int64_t> { 2, 5 }));
        QVERIFY(grid.yKeys == (std::vector<std::int64_t> { 0, 3, 7 }));
        QCOMPARE(grid.value(0, 1).value_or(-1), 322.0);
        query.dimension = msprobe::studio::Dimension::Rank; // x = step, y = target
        query.value = 7;
        grid = db.grid(query);
        QVERIFY(grid.xKeys == (std::vector<std::int64_t> { 2, 5 }));
        QCOMPARE(grid.value(1, 2).value_or(-1), 753.0);
        const msprobe::studio::TrendSeries line = db.series(query, 5, 1); // over ranks at step 5, target 1
        QVERIFY(line.x == (std::vector<double> { 0, 3, 7 }));
        QVERIFY(line.y == (std::vector<double> { 51, 351, 751 }));
    }

    // Every heat-map cell of the toolbar's choice equals the database's value read by another query; hand
    // values from the example's CSVs (rank 0 norm 1.5, rank 1 norm 2.5 at step 0).
    void toolbarToHeatmapCells()
    {
        TrendSource source;
        QVERIFY(openIn(source, m_exampleDb));
        TrendPanel panel;
        panel.setSource(&source);
        QCOMPARE(panel.metricBox()->currentText(), QStringLiteral("actv"));
        QCOMPARE(panel.statBox()->currentText(), QStringLiteral("norm"));
        QCOMPARE(panel.valueBox()->count(), 4); // Step0..Step3 (two steps of two micro steps)
        const TrendGrid& grid = panel.heatmap()->grid();
        QCOMPARE(grid.xKeys, (std::vector<std::int64_t> { 0, 1 }));
        QCOMPARE(grid.rows(), 2); // mlp.input, mlp.output
        QCOMPARE(*grid.value(0, 0), 1.5);
        QCOMPARE(*grid.value(1, 0), 2.5);

        for (const QString& dimension : { QStringLiteral("Step"), QStringLiteral("Rank") })
            for (const QString& stat : { QStringLiteral("norm"), QStringLiteral("max") }) {
                select(panel.dimensionBox(), dimension);
                select(panel.statBox(), stat);
                panel.valueBox()->setCurrentIndex(1);
                settle(&panel);
                const TrendGrid& shown = panel.heatmap()->grid();
                QVERIFY(shown.rows() > 0 && shown.columns() > 0);
                const qint64 fixed = panel.query().value;
                QCOMPARE(fixed, 1);
                for (int r = 0; r < shown.rows(); ++r)
                    for (int c = 0; c < shown.columns(); ++c) {
                        const qint64 x = shown.xKeys[static_cast<std::size_t>(c)];
                        const double expected = dimension == QLatin1String("Step")
                            ? sqliteValue(m_exampleDb, QStringLiteral("actv"), stat, targetName(shown.yLabels[r]), x, fixed)
                            : sqliteValue(m_exampleDb, QStringLiteral("actv"), stat, targetName(shown.yLabels[r]), fixed, x);
                        QVERIFY(!std::isnan(expected));
                        QCOMPARE(*shown.value(c, r), expected);
                    }
            }
    }

    // Past the heat map read when opening, a toolbar change queries on the source's query thread, never the GUI's:
    // the panel waits for the answer, which is the database's. Changed again before the answer came, only the
    // last choice is shown: the earlier request is stale, and its answer (if any) is dropped.
    void heatmapQueriedOffGuiThread()
    {
        TrendSource source;
        QVERIFY(openIn(source, m_exampleDb));
        TrendPanel panel;
        panel.setSource(&source);
        QVERIFY(!panel.heatmapPending()); // the first map (actv norm, Step0) was read when opening
        QCOMPARE(*panel.heatmap()->grid().value(0, 0), 1.5);
        QSignalSpy shown(&panel, &TrendPanel::heatmapShown);
        QVERIFY(source.lastQueryThread() == nullptr);

        panel.statBox()->setCurrentIndex(panel.statBox()->findText(QStringLiteral("max")));
        QVERIFY(panel.heatmapPending()); // returned without the grid: the GUI thread did not query
        QCOMPARE(*panel.heatmap()->grid().value(0, 0), 1.5); // the old map stays until the answer
        panel.valueBox()->setCurrentIndex(1); // Step1, before the answer for Step0 came
        QVERIFY(panel.heatmapPending());
        QVERIFY(QTest::qWaitFor([&] { return !panel.heatmapPending(); }, 60000));
        QTest::qWait(100); // time for a stale answer to arrive, if one were let through
        QCOMPARE(shown.count(), 1);
        QVERIFY(source.lastQueryThread() != nullptr);
        QVERIFY(source.lastQueryThread() != QThread::currentThreadId());

        const TrendGrid& grid = panel.heatmap()->grid();
        QCOMPARE(panel.query().stat, QStringLiteral("max"));
        QCOMPARE(panel.query().value, 1);
        const TrendGrid expected = source.grid(panel.query());
        QCOMPARE(grid.xKeys, expected.xKeys);
        QCOMPARE(grid.yKeys, expected.yKeys);
        QVERIFY(grid.rows() > 0 && grid.columns() > 0);
        for (int r = 0; r < grid.rows(); ++r)
            for (int c = 0; c < grid.columns(); ++c) {
                const double inDb = sqliteValue(m_exampleDb, QStringLiteral("actv"), QStringLiteral("max"), targetName(grid.yLabels[r]),
                    grid.xKeys[static_cast<std::size_t>(c)], 1);
                QVERIFY(!std::isnan(inDb));
                QCOMPARE(*grid.value(c, r), inDb);
            }
    }

    // grad_reduced's mean is "nan" in the CSV: NULL in the database, a no-data cell (grey, not the colour of 0).
    void nullCellIsNoData()
    {
        TrendSource source;
        QVERIFY(openIn(source, m_exampleDb));
        TrendPanel panel;
        panel.setSource(&source);
        select(panel.metricBox(), QStringLiteral("grad_reduced"));
        select(panel.statBox(), QStringLiteral("mean"));
        select(panel.dimensionBox(), QStringLiteral("Step"));
        select(panel.valueBox(), QStringLiteral("Step0"));
        const TrendGrid& grid = panel.heatmap()->grid();
        QCOMPARE(sqliteValue(m_exampleDb, QStringLiteral("grad_reduced"), QStringLiteral("mean"),
                     QStringLiteral("module.layers.0.mlp.linear_fc1.weight"), 0, 0),
            -12345.0); // NULL
        int nullRow = -1, valueRow = -1;
        for (int r = 0; r < grid.rows(); ++r)
            (targetName(grid.yLabels[r]) == QLatin1String("module.layers.0.mlp.linear_fc1.weight") ? nullRow : valueRow) = r;
        QVERIFY(nullRow >= 0 && valueRow >= 0);
        QCOMPARE(grid.cells[grid.index(0, nullRow)], TrendGrid::Cell::Null);
        QVERIFY(!grid.value(0, nullRow));
        QCOMPARE(panel.heatmap()->cellColour(0, nullRow), msprobe::views::noDataColour());
        QCOMPARE(*grid.value(0, valueRow), 0.0); // word_embeddings mean 0.0: a value, coloured
        QVERIFY(panel.heatmap()->cellColour(0, valueRow) != msprobe::views::noDataColour());
        QVERIFY(panel.heatmap()->cellToolTip(0, nullRow).contains(QStringLiteral("NULL")));
        QVERIFY(panel.heatmap()->cellToolTip(0, nullRow).contains(QStringLiteral("module.layers.0.mlp.linear_fc1.weight")));
        QVERIFY(panel.cellsCsv().contains(QStringLiteral("module.layers.0.mlp.linear_fc1.weight_0,\n")));
    }

    // Tags narrow the rows to targets carrying all of them; the Module dimension's value list follows them.
    void tagFilterAndModuleValues()
    {
        TrendSource source;
        QVERIFY(openIn(source, m_benchDb));
        TrendPanel panel;
        panel.setSource(&source);
        const int allRows = panel.heatmap()->grid().rows();
        const int actvTargets = sqliteCount(m_benchDb,
            QStringLiteral("SELECT COUNT(DISTINCT target_id) FROM trend_data WHERE metric_id = (SELECT metric_id FROM monitoring_metrics "
                           "WHERE metric_name = 'actv') AND step = 0"));
        QCOMPARE(allRows, actvTargets);
        QListWidget* tags = panel.tagList();
        const auto items = tags->findItems(QStringLiteral("blocks.1  [layer]"), Qt::MatchExactly);
        QCOMPARE(items.size(), 1);
        items.front()->setCheckState(Qt::Checked);
        settle(&panel);
        const TrendGrid& filtered = panel.heatmap()->grid();
        QVERIFY(filtered.rows() > 0 && filtered.rows() < allRows);
        for (const QString& label : filtered.yLabels)
            QVERIFY2(targetName(label).startsWith(QStringLiteral("blocks.1.")), qPrintable(label));
        select(panel.dimensionBox(), QStringLiteral("Module name"));
        QCOMPARE(panel.valueBox()->count(), sqliteCount(m_benchDb,
            QStringLiteral("SELECT COUNT(DISTINCT d.target_id) FROM trend_data d JOIN monitoring_targets m ON d.target_id = m.target_id "
                           "WHERE d.metric_id = (SELECT metric_id FROM monitoring_metrics WHERE metric_name = 'actv') "
                           "AND m.target_name LIKE 'blocks.1.%'")));
        // Module dimension: x = step, y = rank; the value box is searchable.
        QCOMPARE(panel.heatmap()->grid().yTitle, QStringLiteral("Rank"));
        QVERIFY(panel.valueBox()->isEditable());
    }

    // A click on a cell adds its line (over steps for the Step dimension), a second click on it adds nothing,
    // another cell adds a second line; the legend toggles, clear empties.
    void clickAddsLines()
    {
        TrendSource source;
        QVERIFY(openIn(source, m_benchDb));
        TrendPanel panel;
        panel.setSource(&source);
        panel.resize(1200, 700);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        TrendHeatmap* heatmap = panel.heatmap();
        TrendLineChart* lines = panel.lineChart();
        const TrendGrid& grid = heatmap->grid();
        heatmap->replot(); // lays the axes out at the shown size
        QCOMPARE(heatmap->cellAt(heatmap->cellCentre(0, 3)), QPoint(0, 3));
        QTest::mouseClick(heatmap, Qt::LeftButton, {}, heatmap->cellCentre(0, 3).toPoint());
        QCOMPARE(lines->seriesCount(), 1);
        const QString name = targetName(grid.yLabels[3]);
        QVERIFY(lines->seriesNames().front().contains(grid.yLabels[3]));
        // Over every step of rank 0: the same values as the database's.
        const int steps = sqliteCount(m_benchDb, QStringLiteral("SELECT COUNT(*) FROM trend_data WHERE rank = 0 AND metric_id = 1 AND target_id = %1").arg(grid.yKeys[3]));
        QCOMPARE(lines->drawnPoints(0), steps);
        QVERIFY(lines->valuesAt(2).contains(QString::number(sqliteValue(m_benchDb, QStringLiteral("actv"), QStringLiteral("norm"), name, 0, 2), 'g', 8)));
        panel.activateCell(0, 3);
        QCOMPARE(lines->seriesCount(), 1);
        panel.activateCell(0, 4);
        QCOMPARE(lines->seriesCount(), 2);
        QVERIFY(lines->isSeriesVisible(1));
        lines->toggleSeries(1);
        QVERIFY(!lines->isSeriesVisible(1));
        QVERIFY(!lines->valuesAt(2).contains(grid.yLabels[4]));
        lines->clearSeries();
        QCOMPARE(lines->seriesCount(), 0);
        // Any toolbar change reloads the heat map and clears the chart.
        panel.activateCell(0, 3);
        select(panel.statBox(), QStringLiteral("max"));
        QCOMPARE(lines->seriesCount(), 0);

        // Range sliders: the whole map shown, nothing to slide; zoomed to ten rows, the vertical slider moves
        // the view to the top rows.
        const int rows = panel.heatmap()->grid().rows();
        QVERIFY(!panel.ySlider()->isEnabled());
        QCPAxis* y = panel.heatmap()->yAxis;
        y->setRange(-0.5, 9.5);
        QVERIFY(panel.ySlider()->isEnabled());
        panel.ySlider()->setValue(panel.ySlider()->minimum());
        QVERIFY(std::fabs(y->range().upper - (rows - 0.5)) < 0.1);
        QVERIFY(std::fabs(y->range().size() - 10) < 1e-9);
    }

    // Spec §3.5's pieces over {1, 2, 3, 4, 5}: mean 3, population sd sqrt(2); equal values give two pieces.
    void piecewiseSegmentsByHand()
    {
        const auto pieces = msprobe::views::piecewiseSegments({ 1, 2, 3, 4, 5, std::nan("") });
        QCOMPARE(pieces.size(), std::size_t(7));
        const double s = std::sqrt(2.0);
        QCOMPARE(pieces[0].upper, 3 - 3 * s);
        QCOMPARE(pieces[3].lower, 3 - s);
        QCOMPARE(pieces[3].upper, 3 + s);
        QCOMPARE(pieces[3].colour, QColor(0xffffbf));
        QCOMPARE(pieces[0].label, QStringLiteral("< -1.24e+0"));
        QCOMPARE(pieces[6].label, QStringLiteral("> 7.24e+0"));
        QCOMPARE(pieces[1].label, QStringLiteral("-1.24e+0 ~ 1.72e-1"));
        const auto flat = msprobe::views::piecewiseSegments({ 2, 2, 2 });
        QCOMPARE(flat.size(), std::size_t(2));
        QCOMPARE(flat[0].upper, 2.0);
        QCOMPARE(flat[1].colour, QColor(0xd73027));
    }

    // 100,000 points in 200 pixel columns: at most two points per column plus NaN breaks, the one spike and the
    // NULL point still there.
    void downsamplingKeepsSpikeAndNan()
    {
        std::vector<double> x, y;
        for (int i = 0; i < 100000; ++i) {
            x.push_back(i);
            y.push_back(std::sin(i * 0.001));
        }
        y[43210] = 50;
        y[77777] = std::nan("");
        const auto drawn = msprobe::views::downsampleMinMax(x, y, 0, 99999, 200);
        QVERIFY(drawn.x.size() <= 2 * 200 + 2);
        QVERIFY(std::find(drawn.y.begin(), drawn.y.end(), 50.0) != drawn.y.end());
        QCOMPARE(drawn.nanX, std::vector<double> { 77777 });
        QVERIFY(std::any_of(drawn.y.begin(), drawn.y.end(), [](double v) { return std::isnan(v); }));
        // Few points: all of them, clamped to +-1e8 for display.
        const auto small = msprobe::views::downsampleMinMax({ 0, 1, 2 }, { 1, 3e9, 2 }, 0, 2, 200);
        QCOMPARE(small.y, (std::vector<double> { 1, 1e8, 2 }));
    }

    // A folder opens by importing it first (as data2db); a file that is no trend database names itself.
    void folderImportAndBadFile()
    {
        TrendSource source;
        QVERIFY(openIn(source, q((dataDir() / "trend" / "monitor_input_example").string())));
        QCOMPARE(source.problem()->metrics(), (QStringList { QStringLiteral("actv"), QStringLiteral("grad_reduced") }));
        QCOMPARE(source.problem()->maxStep(), 3);
        const QString bad = m_tmp.filePath(QStringLiteral("bad.trend.db"));
        writeFile(bad.toStdString(), "not a database");
        QSignalSpy finished(&source, &TrendSource::loadFinished);
        source.open(bad);
        QVERIFY(finished.wait(20000));
        QCOMPARE(finished.front()[0].toBool(), false);
        QVERIFY(finished.front()[1].toString().contains(bad));
        QVERIFY(source.problem()); // the earlier database stays open

        // Cancelling a folder's import: finished without a message, the open database kept.
        const QString kept = source.problem()->file();
        QSignalSpy cancelled(&source, &TrendSource::loadFinished);
        source.open(q((dataDir() / "trend" / "monitor_bench").string()));
        QVERIFY(source.isLoading());
        source.cancel();
        QVERIFY(cancelled.wait(60000));
        QCOMPARE(cancelled.front()[0].toBool(), false);
        QCOMPARE(cancelled.front()[1].toString(), QString());
        QCOMPARE(source.problem()->file(), kept);
        QVERIFY(!source.isLoading());
    }
};

QTEST_MAIN(TestViewsTrend)
#include "tst_views_trend.moc"
