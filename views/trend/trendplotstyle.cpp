// SPDX-License-Identifier: Apache-2.0
#include "trendplotstyle.h"

#include "qcustomplot_include.h"

namespace msprobe::views {

void styleTrendPlot(QCustomPlot* plot)
{
    const QPalette palette = plot->palette();
    const QColor text = palette.color(QPalette::WindowText), grid = palette.color(QPalette::Mid);
    plot->setBackground(palette.brush(QPalette::Base));
    for (QCPAxis* axis : plot->axisRect()->axes()) {
        axis->setBasePen(QPen(text));
        axis->setTickPen(QPen(text));
        axis->setSubTickPen(QPen(text));
        axis->setTickLabelColor(text);
        axis->setLabelColor(text);
        axis->grid()->setPen(QPen(grid, 0, Qt::DotLine));
    }
    if (plot->legend) {
        plot->legend->setBrush(palette.brush(QPalette::Base));
        plot->legend->setTextColor(text);
        plot->legend->setBorderPen(QPen(grid));
    }
    for (int i = 0; i < plot->plotLayout()->elementCount(); ++i)
        if (auto* scale = qobject_cast<QCPColorScale*>(plot->plotLayout()->elementAt(i))) {
            scale->axis()->setBasePen(QPen(text));
            scale->axis()->setTickPen(QPen(text));
            scale->axis()->setTickLabelColor(text);
            scale->axis()->setLabelColor(text);
        }
}

} // namespace msprobe::views
