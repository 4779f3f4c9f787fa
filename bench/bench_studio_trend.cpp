// SPDX-License-Identifier: Apache-2.0
// The trend panel on a synthetic trend.db of 256 targets x 1,024 ranks x 2 steps (524,288 rows, written with the
// core's TrendDbWriter), offscreen: the query of one heat map (Step dimension: every rank of every target), the
// redraw (cells into the colour map and a full replot), a replot alone (pan, zoom) and a click adding a line.
// Target: redraw < 50 ms.
//   bench_studio_trend [DIR] [--ranks R --targets T --steps S --metrics M]
//                                                writes DIR/bench.trend.db (default: a temporary folder) of T targets x
//                                                R ranks x S steps x M metrics (default 256 x 1024 x 2 x 1); an existing
//                                                file of that shape is reused. The size issue #19 names (a 700 MB
//                                                trend.db of 256 ranks, first heat map < 1 s):
//                                                --ranks 256 --targets 6000 --steps 2 --metrics 4
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
#include <string_view>

namespace {

int g_targets = 256, g_ranks = 1024, g_steps = 2, g_metrics = 1;

// Rows in key order (rank, step, target, metric), as data2db writes them.
void writeDatabase(const std::filesystem::path& file)
{
    msprobe::trend::TrendDbWriter writer(file, { "norm", "max", "min", "mean" });
    const char* const metricNames[] = { "actv", "actv_grad", "exp_avg", "exp_avg_sq", "grad_reduced", "param_origin" };
    std::vector<std::int64_t> metrics;
    for (int m = 0; m < g_metrics; ++m)
        metrics.push_back(writer.metricId(metricNames[m % 6]));
    std::vector<std::int64_t> targets;
    for (int t = 0; t < g_targets; ++t) {
        const auto id = writer.targetId("module.layers." + std::to_string(t / 8) + ".block" + std::to_string(t % 8) + ".output", 0, 0);
        for (const auto metric : metrics)
            writer.tagTarget(id, metric, { { "layers." + std::to_string(t / 8), "layer" } });
        targets.push_back(id);
    }
    std::vector<std::optional<double>> values(4);
    for (int rank = 0; rank < g_ranks; ++rank)
        for (int step = 0; step < g_steps; ++step)
            for (int t = 0; t < g_targets; ++t)
                for (int m = 0; m < g_metrics; ++m) {
                    const double v = 1 + 0.01 * t + 0.001 * rank + 0.1 * step + ((rank * 7 + t * 13) % 17) * 1e-4 + m;
                    values = { v, v * 0.3, -v * 0.3, v * 0.01 };
                    if ((rank + t) % 997 == 0)
                        values[0] = std::nullopt; // NULL cells
                    writer.addNewRow(rank, step, targets[static_cast<std::size_t>(t)], metrics[static_cast<std::size_t>(m)], values);
                }
    std::vector<std::pair<std::string, std::string>> metricStats;
    for (int m = 0; m < g_metrics; ++m)
        metricStats.emplace_back(metricNames[m % 6], "norm,max,min,mean");
    writer.writeGlobalStats({ { "min_step", 0 }, { "max_step", g_steps - 1 }, { "max_rank", g_ranks - 1 } }, metricStats);
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
    panel.finishHeatmap(); // a pair's difference map comes from the query thread
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
    std::filesystem::path dir = tmp.path().toStdString();
    for (int i = 1; i < argc; ++i) {
        const std::string_view arg = argv[i];
        int* count = arg == "--ranks" ? &g_ranks : arg == "--targets" ? &g_targets : arg == "--steps" ? &g_steps : arg == "--metrics" ? &g_metrics : nullptr;
        if (count && i + 1 < argc)
            *count = std::max(1, std::atoi(argv[++i]));
        else
            dir = argv[i];
    }
    const auto file = dir / ("bench_" + std::to_string(g_targets) + "t_" + std::to_string(g_ranks) + "r_" + std::to_string(g_steps) + "s_"
                                + std::to_string(g_metrics) + "m.trend.db");
    QElapsedTimer clock;
    clock.start();
    if (!std::filesystem::exists(file))
        writeDatabase(file);
    std::printf("%d targets x %d ranks x %d steps x %d metrics (%lld MB), written or found in %.1f s\n", g_targets, g_ranks, g_steps,
        g_metrics, static_cast<long long>(std::filesystem::file_size(file) >> 20), clock.elapsed() / 1000.0);
    { // the file in the page cache, as after data2db wrote it: the figures below are the queries, not the disk
        std::FILE* in = std::fopen(file.c_str(), "rb");
        static char buffer[1 << 20];
        while (in && std::fread(buffer, 1, sizeof buffer, in) == sizeof buffer) {
        }
        if (in)
            std::fclose(in);
    }

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

    msprobe::studio::TrendQuery query = panel.query();
    double queryMs = 0, redrawMs = 0, replotMs = 0;
    constexpr int kRounds = 5;
    for (int round = 0; round < kRounds; ++round) {
        query.value = round % g_steps;
        clock.restart();
        auto grid = source.grid(query);
        queryMs += static_cast<double>(clock.nsecsElapsed()) / 1e6;
        clock.restart();
        panel.heatmap()->setGrid(std::move(grid), round % 2 ? msprobe::views::HeatmapMode::Piecewise : msprobe::views::HeatmapMode::Continuous);
        redrawMs += static_cast<double>(clock.nsecsElapsed()) / 1e6;
        clock.restart();
        panel.heatmap()->xAxis->moveRange(1);
        panel.heatmap()->replot();
        replotMs += static_cast<double>(clock.nsecsElapsed()) / 1e6;
    }
    std::printf("heat map of %d x %d cells: query %.1f ms, redraw %.1f ms (target < 50), replot alone %.1f ms\n", g_ranks, g_targets,
        queryMs / kRounds, redrawMs / kRounds, replotMs / kRounds);
    for (const auto dimension : { msprobe::studio::Dimension::Rank, msprobe::studio::Dimension::Module }) {
        msprobe::studio::TrendQuery other = panel.query();
        other.dimension = dimension;
        other.value = dimension == msprobe::studio::Dimension::Rank ? g_ranks / 2 : 1 + g_targets / 2; // a rank; a target id
        clock.restart();
        const auto grid = source.grid(other);
        std::printf("%s dimension heat map query (%d x %d cells): %.1f ms\n", dimension == msprobe::studio::Dimension::Rank ? "Rank" : "Module",
            grid.columns(), grid.rows(), static_cast<double>(clock.nsecsElapsed()) / 1e6);
    }
    clock.restart();
    panel.activateCell(g_ranks / 2, g_targets / 2);
    std::printf("click adding a line: %.1f ms\n", static_cast<double>(clock.nsecsElapsed()) / 1e6);
    return redrawMs / kRounds < 50 ? 0 : 2;
}
