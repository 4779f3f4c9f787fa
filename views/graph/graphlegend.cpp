// SPDX-License-Identifier: Apache-2.0
#include "graphlegend.h"

#include "graph/visdb/error_magnitude.h"

#include <QHelpEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>

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
    QSizePolicy policy(QSizePolicy::Preferred, QSizePolicy::Preferred);
    policy.setHeightForWidth(true);
    setSizePolicy(policy);
}

void GraphLegend::setMode(msprobe::views::graphstyle::ColourMode mode, bool compare)
{
    m_mode = mode;
    m_compare = compare;
    updateGeometry();
    update();
}

// Every entry of the current mode: its label and how its sample is drawn.
std::vector<GraphLegend::Entry> GraphLegend::entries() const
{
    std::vector<Entry> out;
    out.push_back({ tr("Module"), Shape::Module, {}, tr("A module or operator; double-click a module to expand it") });
    out.push_back({ tr("Leaf"), Shape::Leaf, {}, tr("An unexpanded node: it has no children, so it cannot be expanded") });
    out.push_back({ tr("API list"), Shape::ApiList, {}, tr("A collection of standalone APIs between modules") });
    out.push_back({ tr("Multi collection"), Shape::MultiCollection, {}, tr("A collection of fused operators") });
    if (m_mode == msprobe::views::graphstyle::ColourMode::Overflow) {
        out.push_back({ tr("Medium"), Shape::Chip, msprobe::views::graphstyle::overflowColour("medium"), QString() });
        out.push_back({ tr("High"), Shape::Chip, msprobe::views::graphstyle::overflowColour("high"), QString() });
        out.push_back({ tr("Critical"), Shape::Chip, msprobe::views::graphstyle::overflowColour("critical"), QString() });
        return out;
    }
    const QString noGrade = tr("A matched node without a compared output (no grade); a matched bench node takes its "
                               "debug partner's colour");
    const QString unmatched = tr("No node on the other side");
    if (m_compare && m_mode == msprobe::views::graphstyle::ColourMode::Magnitude) {
        const QString why = tr("The node's worst output relative error (Max, Min, Mean, Norm; tensor mode: 1 - cosine or "
                               "MaxRelativeErr; md5: a differing checksum is 100%), capped at 100%");
        for (int step = 0; step < msprobe::graph::kMagnitudeSteps; ++step) {
            const int from = step * 100 / msprobe::graph::kMagnitudeSteps, to = (step + 1) * 100 / msprobe::graph::kMagnitudeSteps;
            const QString text = step + 1 == msprobe::graph::kMagnitudeSteps ? tr("≥ %1%").arg(from)
                : step == 0                                                 ? tr("< %1%").arg(to)
                                                                            : tr("%1–%2%").arg(from).arg(to);
            out.push_back({ text, Shape::Chip, msprobe::views::graphstyle::magnitudeColour((step + 0.5) / msprobe::graph::kMagnitudeSteps), why });
        }
        out.push_back({ tr("No grade"), Shape::Chip, msprobe::views::graphstyle::noGradeColour(), noGrade });
        out.push_back({ tr("Unmatched"), Shape::Chip, msprobe::views::graphstyle::precisionColour(PrecisionLevel::Unmatched), unmatched });
        return out;
    }
    if (m_compare) {
        out.push_back({ tr("Pass"), Shape::Chip, msprobe::views::graphstyle::precisionColour(PrecisionLevel::Pass), QString() });
        out.push_back({ tr("Warning"), Shape::Chip, msprobe::views::graphstyle::precisionColour(PrecisionLevel::Warning), QString() });
        out.push_back({ tr("Error"), Shape::Chip, msprobe::views::graphstyle::precisionColour(PrecisionLevel::Error), QString() });
        out.push_back({ tr("No grade"), Shape::Chip, msprobe::views::graphstyle::noGradeColour(), noGrade });
        out.push_back({ tr("Unmatched"), Shape::Chip, msprobe::views::graphstyle::precisionColour(PrecisionLevel::Unmatched), unmatched });
    } else {
        out.push_back({ tr("Node (one dump: not compared)"), Shape::Chip, msprobe::views::graphstyle::buildColour(), QString() });
    }
    return out;
}

// Where each entry goes when the legend is `width` wide: left to right, wrapping onto further rows.
std::vector<QRect> GraphLegend::placeEntries(int width) const
{
    std::vector<QRect> boxes;
    const QFontMetrics metrics = fontMetrics();
    const int rowHeight = std::max(kShapeHeight, metrics.height()) + 4;
    int x = 2, y = 2;
    for (const Entry& e : entries()) {
        const int w = kShapeWidth + kGap + metrics.horizontalAdvance(e.text) + 2;
        if (x > 2 && x + w > width) {
            x = 2;
            y += rowHeight;
        }
        boxes.emplace_back(x, y, w, rowHeight);
        x += w + kEntryGap;
    }
    return boxes;
}

bool GraphLegend::hasHeightForWidth() const { return true; }

int GraphLegend::heightForWidth(int width) const
{
    const auto boxes = placeEntries(width);
    return boxes.empty() ? 0 : boxes.back().bottom() + 3;
}

QSize GraphLegend::sizeHint() const
{
    const auto boxes = placeEntries(QWIDGETSIZE_MAX);
    return { boxes.empty() ? 0 : boxes.back().right() + 2, heightForWidth(QWIDGETSIZE_MAX) };
}

QSize GraphLegend::minimumSizeHint() const { return { 160, heightForWidth(160) }; }

int GraphLegend::rowCount() const
{
    int rows = 0, lastTop = -1;
    for (const QRect& box : placeEntries(width()))
        if (box.top() != lastTop) {
            ++rows;
            lastTop = box.top();
        }
    return rows;
}

QString GraphLegend::toolTipAt(const QPoint& pos) const
{
    const auto all = entries();
    const auto boxes = placeEntries(width());
    for (std::size_t i = 0; i < all.size(); ++i)
        if (boxes[i].contains(pos) && !all[i].tip.isEmpty())
            return all[i].tip;
    return toolTip();
}

bool GraphLegend::event(QEvent* event)
{
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        QToolTip::showText(help->globalPos(), toolTipAt(help->pos()), this);
        return true;
    }
    return QWidget::event(event);
}

void GraphLegend::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    const int wanted = heightForWidth(width());
    if (minimumHeight() != wanted)
        setMinimumHeight(wanted); // the header row grows when the entries wrap
}

void GraphLegend::paintEvent(QPaintEvent*)
{
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    const auto all = entries();
    const auto boxes = placeEntries(width());
    auto outline = [&](Qt::PenStyle style, const QList<qreal>& dashes) {
        QPen pen(QColor(100, 100, 100), 1, style);
        if (!dashes.isEmpty())
            pen.setDashPattern(dashes);
        painter.setPen(pen);
        painter.setBrush(palette().color(QPalette::Base));
    };
    for (std::size_t i = 0; i < all.size(); ++i) {
        const Entry& e = all[i];
        const QRect box = boxes[i];
        const QRect shape(box.left(), box.top() + (box.height() - kShapeHeight) / 2, kShapeWidth, kShapeHeight);
        switch (e.shape) {
        case Shape::Module: outline(Qt::SolidLine, {}); painter.drawRoundedRect(shape, 4, 4); break;
        case Shape::Leaf: outline(Qt::SolidLine, {}); painter.drawEllipse(shape); break;
        case Shape::ApiList: outline(Qt::CustomDashLine, { 6, 1 }); painter.drawRect(shape); break;
        case Shape::MultiCollection: outline(Qt::CustomDashLine, { 2, 1 }); painter.drawRect(shape); break;
        case Shape::Chip:
            painter.setPen(msprobe::views::graphstyle::borderOf(e.colour));
            painter.setBrush(e.colour);
            painter.drawRoundedRect(shape, 4, 4);
            break;
        }
        painter.setPen(palette().color(QPalette::WindowText));
        painter.drawText(QRect(shape.right() + kGap, box.top(), box.width() - kShapeWidth - kGap, box.height()), Qt::AlignVCenter, e.text);
    }
}
