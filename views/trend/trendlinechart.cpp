// SPDX-License-Identifier: Apache-2.0
#include "trendlinechart.h"

#include "trendplotstyle.h"

#include <QToolTip>

#include <algorithm>
#include <cmath>
#include <limits>

using msprobe::views::styleTrendPlot;
using msprobe::studio::TrendSeries;
using msprobe::views::downsampleMinMax;
using msprobe::views::DownsampledLine;

namespace {

constexpr double kDisplayLimit = 1e8;

double clampForDisplay(double y) { return std::isnan(y) ? y : std::clamp(y, -kDisplayLimit, kDisplayLimit); }

QColor lineColour(int index)
{
    static const QColor colours[] = { QColor(0x1f77b4), QColor(0xff7f0e), QColor(0x2ca02c), QColor(0xd62728), QColor(0x9467bd),
        QColor(0x8c564b), QColor(0xe377c2), QColor(0x7f7f7f), QColor(0xbcbd22), QColor(0x17becf) };
    return colours[index % 10];
}

// Labels as the reference: e-notation for |v| < 1e-4 or >= 1e4 (not 0), else trailing zeros trimmed.
class TrendValueTicker : public QCPAxisTicker {
protected:
    QString getTickLabel(double tick, const QLocale&, QChar, int) override
    {
        const double a = std::fabs(tick);
        if (a != 0 && (a < 1e-4 || a >= 1e4))
            return QString::number(tick, 'e', 2);
        return QString::number(tick, 'g', 6);
    }
};

} // namespace

namespace msprobe::views {

DownsampledLine downsampleMinMax(const std::vector<double>& x, const std::vector<double>& y, double low, double high, int columns)
{
    DownsampledLine out;
    const double nan = std::numeric_limits<double>::quiet_NaN();
    std::size_t first = 0, last = x.size();
    // One point either side of the range so the line runs to the edges.
    while (first + 1 < x.size() && x[first + 1] < low)
        ++first;
    while (last > first + 1 && x[last - 2] > high)
        --last;
    for (std::size_t i = first; i < last; ++i)
        if (std::isnan(y[i]))
            out.nanX.push_back(x[i]);
    columns = std::max(columns, 1);
    if (last - first <= static_cast<std::size_t>(2 * columns) || !(high > low)) {
        for (std::size_t i = first; i < last; ++i) {
            out.x.push_back(x[i]);
            out.y.push_back(clampForDisplay(y[i]));
        }
        return out;
    }
    const double width = (high - low) / columns;
    std::size_t i = first;
    while (i < last) {
        const double column = std::floor((x[i] - low) / width);
        std::size_t minAt = i, maxAt = i;
        bool hasNan = false, hasValue = false;
        std::size_t j = i;
        for (; j < last && std::floor((x[j] - low) / width) == column; ++j) {
            if (std::isnan(y[j])) {
                hasNan = true;
                continue;
            }
            if (!hasValue || y[j] < y[minAt])
                minAt = j;
            if (!hasValue || y[j] > y[maxAt])
                maxAt = j;
            hasValue = true;
        }
        if (hasValue) {
            const std::size_t a = std::min(minAt, maxAt), b = std::max(minAt, maxAt);
            out.x.push_back(x[a]);
            out.y.push_back(clampForDisplay(y[a]));
            if (b != a) {
                out.x.push_back(x[b]);
                out.y.push_back(clampForDisplay(y[b]));
            }
        }
        if (hasNan) {
            out.x.push_back(x[i]);
            out.y.push_back(nan);
        }
        i = j;
    }
    return out;
}

} // namespace msprobe::views

TrendLineChart::TrendLineChart(QWidget* parent)
    : QCustomPlot(parent)
    , m_crosshair(new QCPItemStraightLine(this))
{
    setObjectName(QStringLiteral("trendLineChart"));
    setInteractions(QCP::iRangeDrag | QCP::iRangeZoom | QCP::iSelectLegend);
    axisRect()->setRangeDrag(Qt::Horizontal);
    axisRect()->setRangeZoom(Qt::Horizontal);
    setMouseTracking(true);
    legend->setVisible(false); // shown once there is a line
    legend->setFont(QFont(font().family(), std::max(7, font().pointSize() - 1)));
    axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignLeft);
    yAxis->setTicker(QSharedPointer<TrendValueTicker>::create());
    // NULL markers sit on a hidden second axis, at the bottom whatever the values' range.
    yAxis2->setRange(0, 1);
    yAxis2->setVisible(false);
    m_crosshair->setPen(QPen(palette().color(QPalette::Mid), 1, Qt::DashLine));
    m_crosshair->setVisible(false);
    connect(xAxis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this, [this] { resample(); });
    connect(this, &QCustomPlot::legendClick, this, [this](QCPLegend*, QCPAbstractLegendItem* item, QMouseEvent*) {
        auto* plottableItem = qobject_cast<QCPPlottableLegendItem*>(item);
        for (std::size_t i = 0; plottableItem && i < m_lines.size(); ++i)
            if (m_lines[i].graph == plottableItem->plottable())
                toggleSeries(static_cast<int>(i));
    });
    styleTrendPlot(this);
}

bool TrendLineChart::addSeries(const TrendSeries& series)
{
    if (series.x.empty() || seriesNames().contains(series.name))
        return false;
    const QColor colour = lineColour(static_cast<int>(m_lines.size()));
    Line line { series, addGraph(xAxis, yAxis), addGraph(xAxis, yAxis2) };
    line.graph->setName(series.name);
    line.graph->setPen(QPen(colour, 1.5));
    line.graph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, 3));
    line.graph->setAdaptiveSampling(false); // ours keeps NaN markers and spikes; QCP's would resample again
    line.nanMarks->setLineStyle(QCPGraph::lsNone);
    line.nanMarks->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssTriangle, QPen(colour, 1.5), colour, 7));
    line.nanMarks->removeFromLegend();
    m_lines.push_back(std::move(line));
    legend->setVisible(true);
    // The x range of everything shown, the y range of the finite values.
    double xLow = std::numeric_limits<double>::max(), xHigh = std::numeric_limits<double>::lowest();
    double yLow = xLow, yHigh = xHigh;
    for (const Line& shown : m_lines)
        for (std::size_t i = 0; i < shown.data.x.size(); ++i) {
            xLow = std::min(xLow, shown.data.x[i]);
            xHigh = std::max(xHigh, shown.data.x[i]);
            const double y = clampForDisplay(shown.data.y[i]);
            if (std::isfinite(y)) {
                yLow = std::min(yLow, y);
                yHigh = std::max(yHigh, y);
            }
        }
    if (yLow > yHigh)
        yLow = 0, yHigh = 1;
    const double margin = yHigh > yLow ? (yHigh - yLow) * 0.08 : std::max(std::fabs(yHigh) * 0.1, 1e-12);
    yAxis->setRange(yLow - margin, yHigh + margin);
    xAxis->setRange(xLow - 0.5, xHigh + 0.5);
    resample(); // the range may not have changed
    replot();
    return true;
}

void TrendLineChart::clearSeries()
{
    for (const Line& line : m_lines) {
        removeGraph(line.graph);
        removeGraph(line.nanMarks);
    }
    m_lines.clear();
    legend->setVisible(false);
    m_crosshair->setVisible(false);
    replot();
}

QStringList TrendLineChart::seriesNames() const
{
    QStringList names;
    for (const Line& line : m_lines)
        names << line.data.name;
    return names;
}

bool TrendLineChart::isSeriesVisible(int index) const { return m_lines.at(static_cast<std::size_t>(index)).graph->visible(); }

void TrendLineChart::toggleSeries(int index)
{
    Line& line = m_lines.at(static_cast<std::size_t>(index));
    const bool visible = !line.graph->visible();
    line.graph->setVisible(visible);
    line.nanMarks->setVisible(visible);
    if (auto* item = legend->itemWithPlottable(line.graph))
        item->setTextColor(visible ? palette().color(QPalette::WindowText) : palette().color(QPalette::Mid));
    replot();
}

void TrendLineChart::setAxisTitles(const QString& x, const QString& y)
{
    xAxis->setLabel(x);
    yAxis->setLabel(y);
    replot();
}

int TrendLineChart::drawnPoints(int index) const { return m_lines.at(static_cast<std::size_t>(index)).graph->dataCount(); }

void TrendLineChart::resample()
{
    const QCPRange range = xAxis->range();
    const int columns = std::max(1, axisRect()->width());
    for (Line& line : m_lines) {
        const DownsampledLine drawn = downsampleMinMax(line.data.x, line.data.y, range.lower, range.upper, columns);
        line.graph->setData(QVector<double>(drawn.x.begin(), drawn.x.end()), QVector<double>(drawn.y.begin(), drawn.y.end()), true);
        line.nanMarks->setData(QVector<double>(drawn.nanX.begin(), drawn.nanX.end()), QVector<double>(static_cast<qsizetype>(drawn.nanX.size()), 0.04), true);
    }
}

void TrendLineChart::resizeEvent(QResizeEvent* event)
{
    QCustomPlot::resizeEvent(event);
    resample();
}

QString TrendLineChart::valuesAt(double x) const
{
    QStringList lines;
    for (const Line& line : m_lines) {
        if (!line.graph->visible() || line.data.x.empty())
            continue;
        const auto it = std::lower_bound(line.data.x.begin(), line.data.x.end(), x);
        std::size_t i = static_cast<std::size_t>(it - line.data.x.begin());
        if (i == line.data.x.size() || (i > 0 && x - line.data.x[i - 1] < line.data.x[i] - x))
            i = i == 0 ? 0 : i - 1;
        const double y = line.data.y[i];
        const QString at = line.data.xLabels.isEmpty() ? QString::number(line.data.x[i]) : line.data.xLabels.value(static_cast<qsizetype>(i));
        lines << QStringLiteral("%1 @ %2: %3").arg(line.data.name, at, std::isnan(y) ? tr("NULL (NaN)") : QString::number(y, 'g', 8));
    }
    return lines.join(QLatin1Char('\n'));
}

void TrendLineChart::mouseMoveEvent(QMouseEvent* event)
{
    QCustomPlot::mouseMoveEvent(event);
    if (m_lines.empty() || !axisRect()->rect().contains(event->pos())) {
        m_crosshair->setVisible(false);
        return;
    }
    const double x = xAxis->pixelToCoord(event->position().x());
    m_crosshair->point1->setCoords(x, 0);
    m_crosshair->point2->setCoords(x, 1);
    m_crosshair->setVisible(true);
    replot(QCustomPlot::rpQueuedReplot);
    if (event->buttons() == Qt::NoButton)
        QToolTip::showText(event->globalPosition().toPoint(), valuesAt(x), this);
}

