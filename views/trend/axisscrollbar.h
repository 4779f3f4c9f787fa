// SPDX-License-Identifier: Apache-2.0
// A scroll bar that shows and moves the visible part of a plot axis (the heat map's range sliders): its handle
// is the shown range within the whole extent, dragging it pans, zooming the plot resizes it.
#pragma once

#include "qcustomplot_include.h"

#include <QScrollBar>

class AxisScrollBar : public QScrollBar {
    Q_OBJECT
public:
    AxisScrollBar(Qt::Orientation orientation, QCPAxis* axis, QWidget* parent = nullptr);
    // The whole range the axis can show.
    void setExtent(const QCPRange& extent);

private:
    void follow(const QCPRange& range);
    void move(int value);

    QCPAxis* m_axis;
    QCPRange m_extent { 0, 1 };
    bool m_updating = false;
    static constexpr double kSteps = 1000; // scroll-bar units per extent
};
