// SPDX-License-Identifier: Apache-2.0
#include "graphlegend.h"

#include <QPainter>

using msprobe::graph::PrecisionLevel;

namespace {

constexpr int kShapeWidth = 26, kShapeHeight = 12, kGap = 6, kEntryGap = 14;

} // namespace

GraphLegend::GraphLegend(QWidget* parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("legend"));
    setToolTip(tr("Rounded box: module (double-click to expand). Ellipse: node without children. Dashed box: "
                  "API list (standalone APIs between modules). Dotted box: multi collection (fused operators). "
                  "A badge on a collapsed module counts the warnings and errors inside it, in the worst colour."));
    setMinimumHeight(kShapeHeight + 8);
}

void GraphLegend::setMode(graphstyle::ColourMode mode, bool compare)
{
    m_mode = mode;
    m_compare = compare;
    updateGeometry();
    update();
}

QSize GraphLegend::sizeHint() const { return { 700, kShapeHeight + 8 }; }

void GraphLegend::paintEvent(QPaintEvent*)
{
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    int x = 2;
    const int y = (height() - kShapeHeight) / 2;
    auto entry = [&](const QString& text, auto&& drawShape) {
        const QRect shape(x, y, kShapeWidth, kShapeHeight);
        drawShape(shape);
        x += kShapeWidth + kGap;
        painter.setPen(palette().color(QPalette::WindowText));
        const int width = painter.fontMetrics().horizontalAdvance(text);
        painter.drawText(QRect(x, 0, width + 2, height()), Qt::AlignVCenter, text);
        x += width + kEntryGap;
    };
    auto outline = [&](Qt::PenStyle style, const QList<qreal>& dashes) {
        QPen pen(QColor(100, 100, 100), 1, style);
        if (!dashes.isEmpty())
            pen.setDashPattern(dashes);
        painter.setPen(pen);
        painter.setBrush(Qt::white);
    };
    entry(tr("Module"), [&](const QRect& r) { outline(Qt::SolidLine, {}); painter.drawRoundedRect(r, 4, 4); });
    entry(tr("Leaf"), [&](const QRect& r) { outline(Qt::SolidLine, {}); painter.drawEllipse(r); });
    entry(tr("API list"), [&](const QRect& r) { outline(Qt::CustomDashLine, { 6, 1 }); painter.drawRect(r); });
    entry(tr("Multi collection"), [&](const QRect& r) { outline(Qt::CustomDashLine, { 2, 1 }); painter.drawRect(r); });
    x += kEntryGap;
    auto chip = [&](const QString& text, const QColor& colour) {
        entry(text, [&](const QRect& r) {
            painter.setPen(graphstyle::borderOf(colour));
            painter.setBrush(colour);
            painter.drawRoundedRect(r, 4, 4);
        });
    };
    if (m_mode == graphstyle::ColourMode::Overflow) {
        chip(tr("Medium"), graphstyle::overflowColour("medium"));
        chip(tr("High"), graphstyle::overflowColour("high"));
        chip(tr("Critical"), graphstyle::overflowColour("critical"));
        return;
    }
    if (m_compare) {
        chip(tr("Pass"), graphstyle::precisionColour(PrecisionLevel::Pass));
        chip(tr("Warning"), graphstyle::precisionColour(PrecisionLevel::Warning));
        chip(tr("Error"), graphstyle::precisionColour(PrecisionLevel::Error));
        chip(tr("No grade"), Qt::white);
    }
    chip(tr("Unmatched"), graphstyle::precisionColour(PrecisionLevel::Unmatched));
}
