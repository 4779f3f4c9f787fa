// SPDX-License-Identifier: Apache-2.0
// The trend panel's heat map (QCPColorMap): one cell per (x, y) of a TrendGrid, cells without data drawn in the
// "no data" grey (never as 0), continuous colour ramp or the 3-sigma pieces of spec §3.5, a draggable colour
// scale, wheel zoom and drag pan, a tooltip with the full target label and value, first divergences marked.
#pragma once

#include "trenddatabase.h"

#include "qcustomplot_include.h"

#include <vector>

namespace msprobe::views {

enum class HeatmapMode { Continuous, Piecewise };

// One 3-sigma piece: values in [lower, upper) take colour.
struct HeatmapPiece {
    double lower, upper;
    QColor colour;
    QString label; // "< a", "a ~ b", "> a"
};

// The pieces of spec §3.5 over the finite values (population standard deviation); thresholds that do not
// grow are skipped, so s = 0 gives two pieces.
std::vector<HeatmapPiece> piecewiseSegments(const std::vector<double>& values);
// The continuous ramp's ten colours, low to high.
const std::vector<QColor>& continuousColours();
QColor noDataColour();

} // namespace msprobe::views

class TrendHeatmap : public QCustomPlot {
    Q_OBJECT
public:
    explicit TrendHeatmap(QWidget* parent = nullptr);

    void setGrid(msprobe::studio::TrendGrid grid, msprobe::views::HeatmapMode mode);
    const msprobe::studio::TrendGrid& grid() const { return m_grid; }
    msprobe::views::HeatmapMode mode() const { return m_mode; }
    const std::vector<msprobe::views::HeatmapPiece>& pieces() const { return m_pieces; }
    // The colour a cell is drawn in (no data: noDataColour()).
    QColor cellColour(int column, int row) const;
    // Marks a row (linked selection) and brings it into view; -1 clears.
    void selectRow(int row);
    int selectedRow() const { return m_selectedRow; }
    // The cell under a widget position, or (-1, -1).
    QPoint cellAt(const QPointF& position) const;
    // The position in widget coordinates of a cell's centre (tests, linked selection).
    QPointF cellCentre(int column, int row) const;
    QString cellToolTip(int column, int row) const;

signals:
    void cellClicked(int column, int row);

protected:
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;

private:
    void updateTicks();

    msprobe::studio::TrendGrid m_grid;
    msprobe::views::HeatmapMode m_mode = msprobe::views::HeatmapMode::Continuous;
    std::vector<msprobe::views::HeatmapPiece> m_pieces;
    QCPColorMap* m_map;
    QCPColorScale* m_scale;
    QCPGraph* m_marks;
    QCPItemRect* m_rowMark;
    int m_selectedRow = -1;
    int m_xEvery = 0, m_yEvery = 0;
    const QStringList* m_ticksFor = nullptr; // the labels the ticks were made for; null: make them again
    QPoint m_pressAt;
};
