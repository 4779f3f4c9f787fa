// SPDX-License-Identifier: Apache-2.0
// The parallelism grid: TP groups (rows, row 0 at the bottom) by virtual pipeline stages (columns), every block
// in its model copy's colour with its "Embed+L1-3+Out" text, the "Model Copies" legend and the title, as the
// CLI's picture draws them. Wheel zooms at the pointer, dragging pans, 0 fits; hovering a block tells its ranks,
// PP stage, DP copy and layers. Clicking a block selects one of its ranks in the studio focus, so the graph and
// the compare table follow; the focused rank's row is outlined. Optionally each block is filled with the worst
// compare Result of its ranks (its copy colour kept as a band on the left).
#pragma once

#include "comparerows.h"
#include "parallelgrid.h"

#include <QPointer>
#include <QWidget>

#include <map>

class StudioFocus;

class ParallelView : public QWidget {
    Q_OBJECT
public:
    explicit ParallelView(QWidget* parent = nullptr);

    void setGrid(ParallelGrid grid);
    const ParallelGrid& grid() const { return m_grid; }
    void setStudioFocus(StudioFocus* focus);
    // The ranks the session has data for; a click prefers them (empty: any rank).
    void setAvailableRanks(std::vector<int> ranks);
    void setResults(std::map<int, msprobe::studio::RowResult> results);
    void setColourByResult(bool on);
    bool colourByResult() const { return m_colourByResult; }
    // The worst Result of the ranks of a row; None when none of them was compared.
    msprobe::studio::RowResult rowResult(int row) const;
    // The fill of a block as drawn (copy colour, or result colour when colouring by result).
    QColor blockColor(int row) const;

    // The focused rank, or -1 without a focus.
    int currentRank() const;
    // The rank a click on the row selects: the focused rank when the row holds it, else the first rank of the row
    // the session has, else the row's first rank.
    int rankForRow(int row) const;
    // Block under a widget position: (row, column), or (-1, -1).
    std::pair<int, int> cellAt(const QPointF& position) const;
    // A block's rectangle in widget coordinates, and in the coordinates of renderImage(1).
    QRectF cellRect(int row, int column) const;
    QRectF sceneBlock(int row, int column) const;

    double zoom() const { return m_scale; }
    QSizeF sceneSize() const;
    void fitToView();
    void zoomBy(double factor, const QPointF& anchor);

    // The whole grid at its natural size (times scale), for exports.
    QImage renderImage(double scale = 1.0) const;
    // PNG or SVG by the file's suffix; false with *error set when it cannot be written.
    bool exportImage(const QString& file, QString* error = nullptr) const;

signals:
    void rankActivated(int rank);

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void contextMenuEvent(QContextMenuEvent* event) override;
    bool event(QEvent* event) override;

private:
    struct Geometry {
        double left = 0, top = 0, cellWidth = 120, cellHeight = 34, legendLeft = 0, width = 0, height = 0;
    };
    Geometry geometry() const;
    void paintScene(QPainter& painter, double pixelsPerUnit) const;
    void paintLegend(QPainter& painter, const Geometry& g) const;
    void paintCopyStripes(QPainter& painter, const QRectF& block) const;
    QPointF toScene(const QPointF& widgetPoint) const;
    void activateRow(int row, int rank = -1);

    ParallelGrid m_grid;
    QPointer<StudioFocus> m_focus;
    std::vector<int> m_availableRanks;
    std::map<int, msprobe::studio::RowResult> m_results;
    bool m_colourByResult = false;
    double m_scale = 1;
    QPointF m_offset;
    bool m_fitted = false;
    QPoint m_pressAt;
    QPointF m_pressOffset;
    bool m_dragging = false, m_pressed = false;
};
