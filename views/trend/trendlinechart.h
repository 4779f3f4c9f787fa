// SPDX-License-Identifier: Apache-2.0
// The trend panel's line chart: one line per clicked heat-map cell (several at once), a legend whose entries
// hide and show their line, a crosshair tooltip listing every line's value, wheel zoom and drag pan on x, clear.
// Long lines are drawn at most two points per pixel column (that column's minimum and maximum), so every spike
// stays visible; NULL points (NaN in the run) break the line and are marked under it.
#pragma once

#include "trenddatabase.h"

#include "qcustomplot_include.h"

#include <vector>

namespace msprobe::views {

struct DownsampledLine {
    std::vector<double> x, y; // NaN y: a gap
    std::vector<double> nanX; // where the line has NULL points
};

// The points of (x, y) (x ascending) inside [low, high] as drawn in `columns` pixel columns: all of them when
// they fit (2 per column), else per column its minimum and maximum in the order they occur, a NaN wherever the
// column holds one. y is clamped to +-1e8 for display.
DownsampledLine downsampleMinMax(const std::vector<double>& x, const std::vector<double>& y, double low, double high, int columns);

} // namespace msprobe::views

class TrendLineChart : public QCustomPlot {
    Q_OBJECT
public:
    explicit TrendLineChart(QWidget* parent = nullptr);

    // Adds a line; false (nothing added) when a line of that name is shown already or it has no point.
    bool addSeries(const msprobe::studio::TrendSeries& series);
    void clearSeries();
    int seriesCount() const { return static_cast<int>(m_lines.size()); }
    QStringList seriesNames() const;
    bool isSeriesVisible(int index) const;
    // What a legend click does: hides or shows a line.
    void toggleSeries(int index);
    void setAxisTitles(const QString& x, const QString& y);
    // The crosshair's text at x: each visible line's value at its nearest point.
    QString valuesAt(double x) const;
    // Points drawn for a line now (after downsampling).
    int drawnPoints(int index) const;

protected:
    void mouseMoveEvent(QMouseEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    void resample();

    struct Line {
        msprobe::studio::TrendSeries data;
        QCPGraph* graph;
        QCPGraph* nanMarks;
    };
    std::vector<Line> m_lines;
    QCPItemStraightLine* m_crosshair;
};
