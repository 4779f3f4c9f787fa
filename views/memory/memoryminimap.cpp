// SPDX-License-Identifier: Apache-2.0
#include "memoryminimap.h"

#include "memorytimelinestyle.h"

#include <QMouseEvent>
#include <QPainter>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

using namespace msprobe::views::memorytimeline;

MemoryMinimap::MemoryMinimap(QWidget* parent)
    : QWidget(parent)
{
    setMinimumHeight(36);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    setCursor(Qt::PointingHandCursor);
    setToolTip(tr("The whole capture: click to go there, drag to move the shown range, wheel to zoom"));
}

void MemoryMinimap::setDocument(std::shared_ptr<const msprobe::studio::MemoryDocument> document)
{
    m_document = std::move(document);
    m_begin = 0;
    m_end = spanNs();
    update();
}

void MemoryMinimap::setVisibleRange(double beginNs, double endNs)
{
    m_begin = beginNs;
    m_end = endNs;
    update();
}

double MemoryMinimap::spanNs() const
{
    if (!m_document)
        return 1;
    return static_cast<double>(std::max<std::int64_t>(m_document->timeline.endNs - m_document->timeline.beginNs, 1));
}

QRectF MemoryMinimap::stripRect() const { return QRectF(kLeft, 3, std::max(1.0, width() - kLeft - kRight), std::max(1, height() - 6)); }

double MemoryMinimap::xOfTime(double ns) const { return stripRect().left() + ns / spanNs() * stripRect().width(); }

double MemoryMinimap::timeOfX(double x) const { return (x - stripRect().left()) / stripRect().width() * spanNs(); }

std::vector<double> MemoryMinimap::liveColumns() const
{
    const auto count = static_cast<std::size_t>(std::ceil(stripRect().width()));
    std::vector<double> out(count, -1);
    if (!m_document || m_document->timeline.lod.empty() || count == 0)
        return out;
    // The coarsest level whose buckets are no wider than a column; each bucket goes to the column it starts in.
    const auto& lod = m_document->timeline.lod;
    const double columnNs = spanNs() / static_cast<double>(count);
    const std::size_t level = columnNs < lod.leafNs
        ? 0
        : std::min(lod.levels.size() - 1, static_cast<std::size_t>(std::floor(std::log2(columnNs / lod.leafNs))));
    const auto& buckets = lod.levels[level];
    const double bucketNs = lod.bucketNs(level);
    for (std::size_t j = 0; j < buckets.size(); ++j) {
        const auto c = std::min(count - 1, static_cast<std::size_t>(static_cast<double>(j) * bucketNs / columnNs));
        out[c] = std::max(out[c], static_cast<double>(buckets[j].liveMax));
    }
    return out;
}

void MemoryMinimap::paintEvent(QPaintEvent*)
{
    QPainter painter(this);
    painter.fillRect(rect(), palette().window());
    const QRectF strip = stripRect();
    painter.fillRect(strip, palette().base());
    if (!m_document)
        return;
    const auto columns = liveColumns();
    const double top = std::max<double>(1, static_cast<double>(m_document->timeline.peak.liveBytes)) * 1.05;
    QColor fill = palette().color(QPalette::Text);
    fill.setAlpha(110);
    for (std::size_t c = 0; c < columns.size(); ++c) {
        if (columns[c] <= 0)
            continue;
        const double h = columns[c] / top * strip.height();
        painter.fillRect(QRectF(strip.left() + static_cast<double>(c), strip.bottom() - h, 1, h), fill);
    }
    // The shown range: everything outside it dimmed, its edges drawn.
    const double left = std::clamp(xOfTime(m_begin), strip.left(), strip.right());
    const double right = std::clamp(xOfTime(m_end), strip.left(), strip.right());
    QColor shade = palette().color(QPalette::Window);
    shade.setAlpha(150);
    painter.fillRect(QRectF(strip.left(), strip.top(), left - strip.left(), strip.height()), shade);
    painter.fillRect(QRectF(right, strip.top(), strip.right() - right, strip.height()), shade);
    QColor band = palette().color(QPalette::Highlight);
    band.setAlpha(60);
    const QRectF shown(left, strip.top(), std::max(2.0, right - left), strip.height());
    painter.fillRect(shown, band);
    painter.setPen(QPen(palette().color(QPalette::Highlight), 1));
    painter.drawRect(shown.adjusted(0, 0, -1, -1));
    painter.setPen(palette().color(QPalette::Text));
    painter.drawText(QRectF(0, strip.top(), kLeft - 6, strip.height()), Qt::AlignRight | Qt::AlignVCenter, tr("overview"));
}

void MemoryMinimap::moveTo(double centreNs)
{
    const double half = (m_end - m_begin) / 2;
    emit rangeRequested(centreNs - half, centreNs + half);
}

void MemoryMinimap::mousePressEvent(QMouseEvent* event)
{
    if (!m_document || event->button() != Qt::LeftButton)
        return;
    const double t = timeOfX(event->position().x());
    const double centre = (m_begin + m_end) / 2;
    // Grabbing inside the shown range moves it from where it was grabbed; outside, it jumps there first.
    if (t >= m_begin && t <= m_end) {
        m_grabOffsetNs = t - centre;
    } else {
        m_grabOffsetNs = 0.0;
        moveTo(t);
    }
}

void MemoryMinimap::mouseMoveEvent(QMouseEvent* event)
{
    if (!m_grabOffsetNs)
        return;
    moveTo(timeOfX(event->position().x()) - *m_grabOffsetNs);
}

void MemoryMinimap::mouseReleaseEvent(QMouseEvent*) { m_grabOffsetNs.reset(); }

void MemoryMinimap::wheelEvent(QWheelEvent* event)
{
    if (!m_document)
        return;
    const double factor = std::pow(1.0015, event->angleDelta().y());
    const double centre = (m_begin + m_end) / 2, half = (m_end - m_begin) / 2 / factor;
    emit rangeRequested(centre - half, centre + half);
    event->accept();
}
