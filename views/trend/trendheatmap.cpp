// SPDX-License-Identifier: Apache-2.0
#include "trendheatmap.h"

#include "trendplotstyle.h"

#include <QToolTip>

#include <algorithm>
#include <cmath>
#include <limits>

using msprobe::views::noDataColour;
using msprobe::views::continuousColours;
using msprobe::views::piecewiseSegments;
using msprobe::views::styleTrendPlot;
using msprobe::studio::TrendGrid;
using msprobe::views::HeatmapMode;
using msprobe::views::HeatmapPiece;

namespace {

// JavaScript's toExponential(2): "1.23e+4", "-5.00e-7".
QString exponential(double value)
{
    if (std::isinf(value))
        return value > 0 ? QStringLiteral("∞") : QStringLiteral("-∞");
    QString text = QString::number(value, 'e', 2);
    const auto e = text.indexOf(QLatin1Char('e'));
    if (e < 0)
        return text;
    QString exponent = text.mid(e + 2);
    while (exponent.size() > 1 && exponent.startsWith(QLatin1Char('0')))
        exponent.remove(0, 1);
    return text.left(e + 2) + exponent;
}

QString shortLabel(const QString& label, int keep)
{
    return label.size() > keep ? label.left(keep - 1) + QStringLiteral("…") : label;
}

} // namespace

namespace msprobe::views {

const std::vector<QColor>& continuousColours()
{
    static const std::vector<QColor> colours = { QColor(0x4575b4), QColor(0x74add1), QColor(0xabd9e9), QColor(0xe0f3f8),
        QColor(0xffffbf), QColor(0xfee090), QColor(0xfdae61), QColor(0xf46d43), QColor(0xd73027), QColor(0xa50026) };
    return colours;
}

QColor noDataColour() { return QColor(0x9e9e9e); }

std::vector<HeatmapPiece> piecewiseSegments(const std::vector<double>& values)
{
    double sum = 0;
    std::size_t n = 0;
    for (double v : values)
        if (std::isfinite(v)) {
            sum += v;
            ++n;
        }
    const double mean = n ? sum / static_cast<double>(n) : 0;
    double squares = 0;
    for (double v : values)
        if (std::isfinite(v))
            squares += (v - mean) * (v - mean);
    const double sd = n ? std::sqrt(squares / static_cast<double>(n)) : 0;
    const double inf = std::numeric_limits<double>::infinity();
    const std::pair<double, QColor> thresholds[] = { { mean - 3 * sd, QColor(0x313695) }, { mean - 2 * sd, QColor(0x4575b4) },
        { mean - sd, QColor(0x74add1) }, { mean + sd, QColor(0xffffbf) }, { mean + 2 * sd, QColor(0xfdae61) },
        { mean + 3 * sd, QColor(0xf46d43) }, { inf, QColor(0xd73027) } };
    std::vector<HeatmapPiece> pieces;
    double lower = -inf;
    for (const auto& [upper, colour] : thresholds) {
        if (!(upper > lower))
            continue;
        pieces.push_back({ lower, upper, colour, {} });
        lower = upper;
    }
    for (auto& piece : pieces)
        piece.label = std::isinf(piece.lower) ? QStringLiteral("< %1").arg(exponential(piece.upper))
            : std::isinf(piece.upper)         ? QStringLiteral("> %1").arg(exponential(piece.lower))
                                              : QStringLiteral("%1 ~ %2").arg(exponential(piece.lower), exponential(piece.upper));
    return pieces;
}

} // namespace msprobe::views

TrendHeatmap::TrendHeatmap(QWidget* parent)
    : QCustomPlot(parent)
    , m_map(new QCPColorMap(xAxis, yAxis))
    , m_scale(new QCPColorScale(this))
    , m_marks(addGraph(xAxis, yAxis))
    , m_rowMark(new QCPItemRect(this))
{
    setObjectName(QStringLiteral("trendHeatmap"));
    setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    setMouseTracking(true);
    plotLayout()->addElement(0, 1, m_scale);
    m_scale->setType(QCPAxis::atRight);
    m_scale->setRangeDrag(true);
    m_scale->setRangeZoom(true);
    m_map->setColorScale(m_scale);
    m_map->setInterpolate(false);
    m_map->setTightBoundary(false);
    auto* margins = new QCPMarginGroup(this);
    axisRect()->setMarginGroup(QCP::msBottom | QCP::msTop, margins);
    m_scale->setMarginGroup(QCP::msBottom | QCP::msTop, margins);
    m_marks->setLineStyle(QCPGraph::lsNone);
    m_marks->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCross, QPen(Qt::black, 1), Qt::NoBrush, 6));
    m_marks->setName(tr("first divergence"));
    m_rowMark->setPen(QPen(QColor(0x1565c0), 2));
    m_rowMark->setVisible(false);
    connect(this, &QCustomPlot::beforeReplot, this, &TrendHeatmap::updateTicks);
    styleTrendPlot(this);
}

void TrendHeatmap::setGrid(TrendGrid grid, HeatmapMode mode)
{
    m_grid = std::move(grid);
    m_mode = mode;
    const int columns = m_grid.columns(), rows = m_grid.rows();
    // A one-cell dimension is stored as two equal cells (QCPColorMap needs a range); cells are centred on their index.
    const int keySize = std::max(columns, 2), valueSize = std::max(rows, 2);
    const QCPRange keyRange = columns > 1 ? QCPRange(0, columns - 1) : QCPRange(-0.25, 0.25);
    const QCPRange valueRange = rows > 1 ? QCPRange(0, rows - 1) : QCPRange(-0.25, 0.25);
    auto* data = new QCPColorMapData(keySize, valueSize, keyRange, valueRange);

    std::vector<double> finite;
    for (std::size_t i = 0; i < m_grid.values.size(); ++i)
        if (m_grid.cells[i] == TrendGrid::Cell::Value && std::isfinite(m_grid.values[i]))
            finite.push_back(m_grid.values[i]);
    double low = finite.empty() ? 0 : *std::min_element(finite.begin(), finite.end());
    double high = finite.empty() ? 1 : *std::max_element(finite.begin(), finite.end());
    m_pieces = mode == HeatmapMode::Piecewise ? piecewiseSegments(finite) : std::vector<HeatmapPiece>();

    auto shown = [&](int column, int row) -> double {
        const auto value = columns && rows ? m_grid.value(column, row) : std::nullopt;
        if (!value)
            return std::numeric_limits<double>::quiet_NaN();
        if (mode == HeatmapMode::Piecewise) {
            for (std::size_t k = 0; k < m_pieces.size(); ++k)
                if (*value < m_pieces[k].upper || k + 1 == m_pieces.size())
                    return static_cast<double>(k);
        }
        // An infinite relative difference (one side NaN, bench 0) takes the top colour.
        return std::isinf(*value) ? (*value > 0 ? high : low) : *value;
    };
    for (int key = 0; key < keySize; ++key)
        for (int value = 0; value < valueSize; ++value)
            data->setCell(key, value, shown(std::min(key, columns - 1), std::min(value, rows - 1)));
    m_map->setData(data);

    QCPColorGradient gradient;
    gradient.clearColorStops();
    gradient.setNanHandling(QCPColorGradient::nhNanColor);
    gradient.setNanColor(noDataColour());
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    if (mode == HeatmapMode::Piecewise) {
        const int n = static_cast<int>(m_pieces.size());
        for (int k = 0; k < n; ++k) {
            gradient.setColorStopAt(n > 1 ? static_cast<double>(k) / (n - 1) : 0.0, m_pieces[static_cast<std::size_t>(k)].colour);
            ticker->addTick(k, m_pieces[static_cast<std::size_t>(k)].label);
        }
        gradient.setLevelCount(std::max(n, 2));
        m_scale->axis()->setTicker(ticker);
        m_map->setDataRange(QCPRange(0, std::max(n - 1, 1)));
    } else {
        const auto& colours = continuousColours();
        for (std::size_t k = 0; k < colours.size(); ++k)
            gradient.setColorStopAt(static_cast<double>(k) / static_cast<double>(colours.size() - 1), colours[k]);
        m_scale->axis()->setTicker(QSharedPointer<QCPAxisTicker>::create());
        if (high <= low) {
            low -= 0.5;
            high += 0.5;
        }
        m_map->setDataRange(QCPRange(low, high));
    }
    m_map->setGradient(gradient);
    m_scale->setLabel(m_grid.difference ? tr("relative difference") : QString());

    m_marks->data()->clear();
    for (int row = 0; row < rows; ++row)
        for (int column = 0; column < columns; ++column)
            if (m_grid.difference && !m_grid.firstDivergence.empty() && m_grid.firstDivergence[m_grid.index(column, row)])
                m_marks->addData(column, row);
    xAxis->setLabel(m_grid.xTitle);
    yAxis->setLabel(m_grid.yTitle);
    xAxis->setRange(-0.5, std::max(columns, 1) - 0.5);
    yAxis->setRange(-0.5, std::max(rows, 1) - 0.5);
    m_selectedRow = -1;
    m_rowMark->setVisible(false);
    m_ticksFor = nullptr;
    replot();
}

void TrendHeatmap::updateTicks()
{
    // As many labels as fit the axes at their size and zoom (every n-th row or column); the tooltip has the
    // full label.
    const QFontMetrics metrics(yAxis->tickLabelFont());
    const int columns = m_grid.columns(), rows = m_grid.rows();
    const double rowPixels = std::max(1.0, axisRect()->height() / std::max(1.0, yAxis->range().size()));
    const double columnPixels = std::max(1.0, axisRect()->width() / std::max(1.0, xAxis->range().size()));
    const int yEvery = std::max(1, static_cast<int>(std::ceil(metrics.height() * 1.1 / rowPixels)));
    const int xEvery = std::max(1, static_cast<int>(std::ceil(metrics.horizontalAdvance(QStringLiteral("00000")) / columnPixels)));
    if (xEvery == m_xEvery && yEvery == m_yEvery && m_ticksFor == &m_grid.yLabels)
        return;
    m_xEvery = xEvery;
    m_yEvery = yEvery;
    m_ticksFor = &m_grid.yLabels;
    auto xTicks = QSharedPointer<QCPAxisTickerText>::create();
    for (int c = 0; c < columns; c += xEvery)
        xTicks->addTick(c, shortLabel(QString::number(m_grid.xKeys[static_cast<std::size_t>(c)]), 20));
    auto yTicks = QSharedPointer<QCPAxisTickerText>::create();
    for (int r = 0; r < rows; r += yEvery) {
        const QString& label = m_grid.yLabels[r];
        // "{id}_{vpp}_{name}_{micro}": the id and the end of the name tell rows apart.
        yTicks->addTick(r, m_grid.yJoinNames[static_cast<std::size_t>(r)].isEmpty()
                ? label
                : QStringLiteral("%1 %2").arg(m_grid.yKeys[static_cast<std::size_t>(r)]).arg(metrics.elidedText(m_grid.yJoinNames[static_cast<std::size_t>(r)], Qt::ElideLeft, 180)));
    }
    xAxis->setTicker(xTicks);
    yAxis->setTicker(yTicks);
}

QColor TrendHeatmap::cellColour(int column, int row) const
{
    if (!m_grid.value(column, row))
        return noDataColour();
    const double shown = m_map->data()->data(column, row);
    QCPColorGradient gradient = m_map->gradient();
    return QColor::fromRgba(gradient.color(shown, m_map->dataRange()));
}

void TrendHeatmap::selectRow(int row)
{
    m_selectedRow = row >= 0 && row < m_grid.rows() ? row : -1;
    m_rowMark->setVisible(m_selectedRow >= 0);
    if (m_selectedRow >= 0) {
        m_rowMark->topLeft->setCoords(-0.5, m_selectedRow + 0.5);
        m_rowMark->bottomRight->setCoords(m_grid.columns() - 0.5, m_selectedRow - 0.5);
        const QCPRange range = yAxis->range();
        if (!range.contains(m_selectedRow))
            yAxis->setRange(m_selectedRow, range.size(), Qt::AlignCenter);
    }
    replot();
}

QPoint TrendHeatmap::cellAt(const QPointF& position) const
{
    if (!axisRect()->rect().contains(position.toPoint()))
        return { -1, -1 };
    const int column = static_cast<int>(std::lround(xAxis->pixelToCoord(position.x())));
    const int row = static_cast<int>(std::lround(yAxis->pixelToCoord(position.y())));
    if (column < 0 || row < 0 || column >= m_grid.columns() || row >= m_grid.rows())
        return { -1, -1 };
    return { column, row };
}

QPointF TrendHeatmap::cellCentre(int column, int row) const
{
    return { xAxis->coordToPixel(column), yAxis->coordToPixel(row) };
}

QString TrendHeatmap::cellToolTip(int column, int row) const
{
    const std::size_t i = m_grid.index(column, row);
    QString value;
    switch (m_grid.cells[i]) {
    case TrendGrid::Cell::Missing:
        value = tr("no data (no row)");
        break;
    case TrendGrid::Cell::Null:
        value = tr("no data (NULL: NaN in the run)");
        break;
    case TrendGrid::Cell::Value:
        value = std::isinf(m_grid.values[i]) ? QStringLiteral("inf") : QString::number(m_grid.values[i], 'g', 8);
        break;
    }
    QString text = QStringLiteral("%1: %2\n%3: %4\n%5: %6")
                       .arg(m_grid.xTitle)
                       .arg(m_grid.xKeys[static_cast<std::size_t>(column)])
                       .arg(m_grid.yTitle, m_grid.yLabels.value(row), m_grid.difference ? tr("relative difference") : tr("value"), value);
    if (m_grid.difference && !m_grid.firstDivergence.empty() && m_grid.firstDivergence[i])
        text += QLatin1Char('\n') + tr("first divergence of this target");
    return text;
}

void TrendHeatmap::mousePressEvent(QMouseEvent* event)
{
    m_pressAt = event->pos();
    QCustomPlot::mousePressEvent(event);
}

void TrendHeatmap::mouseReleaseEvent(QMouseEvent* event)
{
    QCustomPlot::mouseReleaseEvent(event);
    if (event->button() != Qt::LeftButton || (event->pos() - m_pressAt).manhattanLength() > 4)
        return;
    const QPoint cell = cellAt(event->position());
    if (cell.x() >= 0)
        emit cellClicked(cell.x(), cell.y());
}

void TrendHeatmap::mouseMoveEvent(QMouseEvent* event)
{
    QCustomPlot::mouseMoveEvent(event);
    if (event->buttons() != Qt::NoButton)
        return;
    const QPoint cell = cellAt(event->position());
    if (cell.x() >= 0)
        QToolTip::showText(event->globalPosition().toPoint(), cellToolTip(cell.x(), cell.y()), this);
    else
        QToolTip::hideText();
}

