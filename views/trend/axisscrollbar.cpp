// SPDX-License-Identifier: Apache-2.0
#include "axisscrollbar.h"

#include <algorithm>
#include <cmath>

AxisScrollBar::AxisScrollBar(Qt::Orientation orientation, QCPAxis* axis, QWidget* parent)
    : QScrollBar(orientation, parent)
    , m_axis(axis)
{
    connect(axis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this, &AxisScrollBar::follow);
    connect(this, &QScrollBar::valueChanged, this, &AxisScrollBar::move);
}

void AxisScrollBar::setExtent(const QCPRange& extent)
{
    m_extent = extent;
    follow(m_axis->range());
}

void AxisScrollBar::follow(const QCPRange& range)
{
    if (m_updating || m_extent.size() <= 0)
        return;
    m_updating = true;
    const double shown = std::clamp(range.size() / m_extent.size(), 0.0, 1.0);
    const int page = std::max(1, static_cast<int>(std::lround(shown * kSteps)));
    setPageStep(page);
    setSingleStep(std::max(1, page / 10));
    setRange(0, static_cast<int>(kSteps) - page);
    // A vertical bar's top is the axis' upper end.
    const double offset = (range.lower - m_extent.lower) / m_extent.size() * kSteps;
    const int value = static_cast<int>(std::lround(offset));
    setValue(orientation() == Qt::Vertical ? maximum() - value : value);
    setEnabled(page < kSteps);
    m_updating = false;
}

void AxisScrollBar::move(int value)
{
    if (m_updating)
        return;
    m_updating = true;
    const int fromLower = orientation() == Qt::Vertical ? maximum() - value : value;
    const double size = m_axis->range().size();
    const double lower = m_extent.lower + fromLower / kSteps * m_extent.size();
    m_axis->setRange(lower, lower + size);
    m_axis->parentPlot()->replot(QCustomPlot::rpQueuedReplot);
    m_updating = false;
}
