// SPDX-License-Identifier: Apache-2.0
#include "memorydiffchart.h"

#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>
#include <cmath>

namespace {

constexpr double kLeft = 84, kRight = 10, kTop = 24, kGap = 10, kBottom = 8;
const QColor kRunA(78, 121, 167), kRunB(242, 142, 43), kMore(214, 39, 40), kLess(89, 161, 79);

QString bytesText(std::int64_t bytes) { return QString::fromStdString(msprobe::studio::formatBytes(bytes)); }

} // namespace

MemoryDiffChart::MemoryDiffChart(QWidget* parent)
    : QWidget(parent)
{
    setMouseTracking(true);
    setMinimumSize(300, 160);
}

void MemoryDiffChart::setOperators(std::vector<msprobe::studio::AlignedOperator> operators)
{
    m_operators = std::move(operators);
    m_maxBytes = 1;
    m_maxDifference = 1;
    for (const auto& op : m_operators) {
        m_maxBytes = std::max({ m_maxBytes, op.peakA, op.peakB });
        if (op.a && op.b)
            m_maxDifference = std::max(m_maxDifference, std::abs(op.peakB - op.peakA));
    }
    update();
}

QRectF MemoryDiffChart::curveRect() const
{
    const double height = std::max(1.0, this->height() - kTop - kGap - kBottom);
    return QRectF(kLeft, kTop, std::max(1.0, width() - kLeft - kRight), height * 0.62);
}

QRectF MemoryDiffChart::differenceRect() const
{
    const QRectF curve = curveRect();
    return QRectF(curve.left(), curve.bottom() + kGap, curve.width(), std::max(1.0, height() - curve.bottom() - kGap - kBottom));
}

double MemoryDiffChart::xOf(std::size_t index) const
{
    const QRectF plot = curveRect();
    return plot.left() + plot.width() * static_cast<double>(index) / static_cast<double>(std::max<std::size_t>(1, m_operators.size()));
}

std::optional<std::size_t> MemoryDiffChart::operatorAt(double x) const
{
    const QRectF plot = curveRect();
    if (m_operators.empty() || x < plot.left() || x >= plot.right())
        return std::nullopt;
    return std::min(m_operators.size() - 1, static_cast<std::size_t>((x - plot.left()) / plot.width() * static_cast<double>(m_operators.size())));
}

QString MemoryDiffChart::operatorToolTip(std::size_t index) const
{
    const auto& op = m_operators.at(index);
    QString text = tr("#%1 %2").arg(index + 1).arg(QString::fromStdString(op.name));
    text += QLatin1Char('\n') + (op.a ? tr("A: %1 live at most").arg(bytesText(op.peakA)) : tr("A: not run"));
    text += QLatin1Char('\n') + (op.b ? tr("B: %1 live at most").arg(bytesText(op.peakB)) : tr("B: not run"));
    if (op.a && op.b)
        text += QLatin1Char('\n') + tr("B - A: %1").arg(bytesText(op.peakB - op.peakA));
    return text;
}

void MemoryDiffChart::paintEvent(QPaintEvent*)
{
    QPainter painter(this);
    painter.fillRect(rect(), palette().base());
    const QColor text = palette().color(QPalette::Text);
    painter.setPen(text);
    if (m_operators.empty()) {
        painter.drawText(rect(), Qt::AlignCenter, tr("No outermost operators in either run to align"));
        return;
    }
    const QRectF curve = curveRect(), diff = differenceRect();
    const double step = curve.width() / static_cast<double>(m_operators.size());
    auto yBytes = [&](std::int64_t bytes) { return curve.bottom() - static_cast<double>(bytes) / (static_cast<double>(m_maxBytes) * 1.05) * curve.height(); };
    const double zero = diff.center().y();
    auto yDiff = [&](std::int64_t bytes) { return zero - static_cast<double>(bytes) / (static_cast<double>(m_maxDifference) * 1.05) * diff.height() / 2; };

    painter.setPen(QPen(palette().color(QPalette::Mid), 0));
    painter.drawRect(curve);
    painter.drawRect(diff);
    painter.drawLine(QPointF(diff.left(), zero), QPointF(diff.right(), zero));
    painter.setPen(text);
    painter.drawText(QRectF(0, curve.top() - 8, kLeft - 6, 16), Qt::AlignRight | Qt::AlignVCenter, bytesText(m_maxBytes));
    painter.drawText(QRectF(0, curve.bottom() - 8, kLeft - 6, 16), Qt::AlignRight | Qt::AlignVCenter, bytesText(0));
    painter.drawText(QRectF(0, diff.top() - 2, kLeft - 6, 16), Qt::AlignRight | Qt::AlignVCenter, QLatin1Char('+') + bytesText(m_maxDifference));
    painter.drawText(QRectF(0, zero - 8, kLeft - 6, 16), Qt::AlignRight | Qt::AlignVCenter, tr("B - A"));

    for (std::size_t i = 0; i < m_operators.size(); ++i) {
        const auto& op = m_operators[i];
        if (!op.a || !op.b) {
            QColor missing = op.a ? kRunA : kRunB;
            missing.setAlpha(40);
            painter.fillRect(QRectF(xOf(i), curve.top(), std::max(1.0, step), curve.height()), missing);
            continue;
        }
        const double y = yDiff(op.peakB - op.peakA);
        painter.fillRect(QRectF(xOf(i), std::min(y, zero), std::max(1.0, step - (step > 3 ? 1 : 0)), std::max(1.0, std::abs(zero - y))),
            op.peakB >= op.peakA ? kMore : kLess);
    }
    auto line = [&](bool runB, const QColor& colour) {
        painter.setPen(QPen(colour, 2));
        QPolygonF points;
        for (std::size_t i = 0; i < m_operators.size(); ++i) {
            const std::int64_t value = runB ? m_operators[i].peakB : m_operators[i].peakA;
            if (value < 0) {
                if (points.size() > 1)
                    painter.drawPolyline(points);
                points.clear();
                continue;
            }
            points << QPointF(xOf(i), yBytes(value)) << QPointF(xOf(i) + step, yBytes(value));
        }
        if (points.size() > 1)
            painter.drawPolyline(points);
    };
    line(false, kRunA);
    line(true, kRunB);

    const QFontMetricsF metrics(font());
    double x = kLeft;
    auto legend = [&](const QColor& colour, const QString& label) {
        painter.fillRect(QRectF(x, 8, 14, 10), colour);
        painter.setPen(text);
        painter.drawText(QPointF(x + 18, 8 + metrics.ascent() - 2), label);
        x += 18 + metrics.horizontalAdvance(label) + 14;
    };
    legend(kRunA, tr("A: most live bytes per operator"));
    legend(kRunB, tr("B: most live bytes per operator"));
    legend(kMore, tr("B needs more"));
    legend(kLess, tr("B needs less"));
}

void MemoryDiffChart::mouseMoveEvent(QMouseEvent* event)
{
    if (const auto index = operatorAt(event->position().x()))
        QToolTip::showText(event->globalPosition().toPoint(), operatorToolTip(*index), this);
    else
        QToolTip::hideText();
}

void MemoryDiffChart::mousePressEvent(QMouseEvent* event)
{
    if (const auto index = operatorAt(event->position().x()))
        emit operatorClicked(static_cast<int>(*index));
}
