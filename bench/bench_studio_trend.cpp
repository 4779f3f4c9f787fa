// SPDX-License-Identifier: Apache-2.0
// The trend panel on a synthetic trend.db of 256 targets x 1,024 ranks x 2 steps (524,288 rows, written with the
// core's TrendDbWriter), offscreen: the query of one heat map (Step dimension: every rank of every target), the
// redraw (cells into the colour map and a full replot), a replot alone (pan, zoom) and a click adding a line.
// Target: redraw < 50 ms.
//   bench_studio_trend [DIR]                     writes DIR/bench.trend.db (default: a temporary folder)
//   bench_studio_trend --picture PNG DB [BENCH]  the panel with two cells' lines, as README shows it
#include "trend/trend_db.h"
#include "trend/trendpanel.h"
#include "trendsource.h"

#include <QApplication>
#include <QComboBox>
#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTemporaryDir>

#include <cmath>
#include <cstdio>
#include <cstring>

namespace {

constexpr int kTargets = 256, kRanks = 1024, kSteps = 2;

void writeDatabase(const std::filesystem::path& file)
{
    msprobe::trend::TrendDbWriter writer(file, { "norm", "max", "min", "mean" });
    const auto metric = writer.metricId("actv");
    std::vector<std::int64_t> targets;
    for (int t = 0; t < kTargets; ++t) {
        const auto id = writer.targetId("module.layers." + std::to_string(t / 8) + ".block" + std::to_string(t % 8) + ".output", 0, 0);
        writer.tagTarget(id, metric, { { "layers." + std::to_string(t / 8), "layer" } });
        targets.push_back(id);
    }
    std::vector<std::optional<double>> values(4);
    for (int step = 0; step < kSteps; ++step)
        for (int rank = 0; rank < kRanks; ++rank)
            for (int t = 0; t < kTargets; ++t) {
                const double v = 1 + 0.01 * t + 0.001 * rank + 0.1 * step + ((rank * 7 + t * 13) % 17) * 1e-4;
                values = { v, v * 0.3, -v * 0.3, v * 0.01 };
                if ((rank + t) % 997 == 0)
                    values[0] = std::nullopt; // NULL cells
                writer.addNewRow(rank, step, targets[static_cast<std::size_t>(t)], metric, values);
            }
    writer.writeGlobalStats({ { "min_step", 0 }, { "max_step", kSteps - 1 }, { "max_rank", kRanks - 1 } }, { { "actv", "norm,max,min,mean" } });
    writer.finish();
}

bool openSource(TrendSource& source, const QString& problem, const QString& bench)
{
    QSignalSpy finished(&source, &TrendSource::loadFinished);
    source.openPair(problem, bench);
    return finished.wait(600000) && finished.front().front().toBool();
}

int picture(const QString& png, const QString& problem, const QString& bench)
{
    TrendSource source;
    if (!openSource(source, problem, bench)) {
        std::fprintf(stderr, "cannot open %s\n", qPrintable(problem));
        return 1;
    }
    TrendPanel panel;
    panel.setSource(&source);
    panel.resize(1200, 680);
    panel.show();
    QApplication::processEvents();
    const auto& grid = panel.heatmap()->grid();
    // The most different cell and its neighbour row: their lines over the steps.
    int bestColumn = 0, bestRow = 0;
    double best = -1;
    for (int r = 0; r < grid.rows(); ++r)
        for (int c = 0; c < grid.columns(); ++c)
            if (const auto v = grid.value(c, r); v && std::isfinite(*v) && *v > best) {
                best = *v;
                bestColumn = c;
                bestRow = r;
            }
    panel.activateCell(bestColumn, bestRow);
    if (!source.isPair())
        panel.activateCell(std::max(0, bestColumn - 1), bestRow);
    QApplication::processEvents();
    return panel.grab().save(png, "PNG") ? 0 : 1;
}

} // namespace

int main(int argc, char** argv)
{
    if (!std::getenv("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    if (argc >= 4 && std::strcmp(argv[1], "--picture") == 0)
        return picture(QString::fromLocal8Bit(argv[2]), QString::fromLocal8Bit(argv[3]), argc > 4 ? QString::fromLocal8Bit(argv[4]) : QString());

    QTemporaryDir tmp;
    const std::filesystem::path dir = argc > 1 ? std::filesystem::path(argv[1]) : std::filesystem::path(tmp.path().toStdString());
    const auto file = dir / "bench.trend.db";
    QElapsedTimer clock;
    clock.start();
    writeDatabase(file);
    std::printf("wrote %d targets x %d ranks x %d steps (%lld MB) in %.1f s\n", kTargets, kRanks, kSteps,
        static_cast<long long>(std::filesystem::file_size(file) >> 20), clock.elapsed() / 1000.0);

    TrendSource source;
    clock.restart();
    if (!openSource(source, QString::fromStdString(file.string()), QString()))
        return 1;
    TrendPanel panel;
    panel.resize(1366, 700);
    panel.show();
    panel.setSource(&source); // opens the first heat map (Step0: every rank of every target)
    QApplication::processEvents();
    std::printf("open to first heat map: %.0f ms\n", static_cast<double>(clock.elapsed()));

    trendview::TrendQuery query = panel.query();
    double queryMs = 0, redrawMs = 0, replotMs = 0;
    constexpr int kRounds = 5;
    for (int round = 0; round < kRounds; ++round) {
        query.value = round % kSteps;
        clock.restart();
        auto grid = source.grid(query);
        queryMs += static_cast<double>(clock.nsecsElapsed()) / 1e6;
        clock.restart();
        panel.heatmap()->setGrid(std::move(grid), round % 2 ? trendview::HeatmapMode::Piecewise : trendview::HeatmapMode::Continuous);
        redrawMs += static_cast<double>(clock.nsecsElapsed()) / 1e6;
        clock.restart();
        panel.heatmap()->xAxis->moveRange(1);
        panel.heatmap()->replot();
        replotMs += static_cast<double>(clock.nsecsElapsed()) / 1e6;
    }
    std::printf("heat map of %d x %d cells: query %.1f ms, redraw %.1f ms (target < 50), replot alone %.1f ms\n", kRanks, kTargets,
        queryMs / kRounds, redrawMs / kRounds, replotMs / kRounds);
    clock.restart();
    panel.activateCell(kRanks / 2, kTargets / 2);
    std::printf("click adding a line: %.1f ms\n", static_cast<double>(clock.nsecsElapsed()) / 1e6);
    return redrawMs / kRounds < 50 ? 0 : 2;
}
