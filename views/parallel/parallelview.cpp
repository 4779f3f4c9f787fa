// SPDX-License-Identifier: Apache-2.0
#include "parallelview.h"

#include "studiofocus.h"

#include <QContextMenuEvent>
#include <QFileInfo>
#include <QHelpEvent>
#include <QMenu>
#include <QPainter>
#include <QSvgGenerator>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace {

constexpr double kCellWidth = 120, kCellHeight = 34, kMargin = 12, kTitleHeight = 34, kAxisHeight = 44;
constexpr double kLegendWidth = 150, kMinScale = 0.02, kMaxScale = 8;
constexpr int kDragPixels = 4, kMaxMenuRanks = 64, kMaxStripes = 64;

QFont sceneFont(double points, bool bold = false)
{
    QFont font;
    font.setPointSizeF(points);
    font.setBold(bold);
    return font;
}

QColor resultColor(msprobe::studio::RowResult result)
{
    switch (result) {
    case msprobe::studio::RowResult::Pass:
        return QColor(0x66, 0xbb, 0x6a);
    case msprobe::studio::RowResult::Warning:
        return QColor(0xff, 0xa7, 0x26);
    case msprobe::studio::RowResult::Error:
        return QColor(0xe5, 0x39, 0x35);
    case msprobe::studio::RowResult::None:
        break;
    }
    return QColor(0xbd, 0xbd, 0xbd);
}

QString resultName(msprobe::studio::RowResult result)
{
    switch (result) {
    case msprobe::studio::RowResult::Pass:
        return ParallelView::tr("pass");
    case msprobe::studio::RowResult::Warning:
        return ParallelView::tr("warning");
    case msprobe::studio::RowResult::Error:
        return ParallelView::tr("error");
    case msprobe::studio::RowResult::None:
        break;
    }
    return ParallelView::tr("not compared");
}

} // namespace

ParallelView::ParallelView(QWidget* parent)
    : QWidget(parent)
{
    setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus);
    setMinimumSize(200, 120);
    setAttribute(Qt::WA_OpaquePaintEvent);
}

void ParallelView::setGrid(ParallelGrid grid)
{
    m_grid = std::move(grid);
    m_fitted = false;
    fitToView();
}

void ParallelView::setStudioFocus(StudioFocus* focus)
{
    if (m_focus)
        disconnect(m_focus, nullptr, this, nullptr);
    m_focus = focus;
    if (focus)
        connect(focus, &StudioFocus::graphChanged, this, qOverload<>(&QWidget::update));
    update();
}

void ParallelView::setAvailableRanks(std::vector<int> ranks)
{
    m_availableRanks = std::move(ranks);
    std::sort(m_availableRanks.begin(), m_availableRanks.end());
}

void ParallelView::setResults(std::map<int, msprobe::studio::RowResult> results)
{
    m_results = std::move(results);
    update();
}

void ParallelView::setColourByResult(bool on)
{
    m_colourByResult = on;
    update();
}

msprobe::studio::RowResult ParallelView::rowResult(int row) const
{
    msprobe::studio::RowResult worst = msprobe::studio::RowResult::None;
    for (int rank : m_grid.rowRanks(row))
        if (auto it = m_results.find(rank); it != m_results.end())
            worst = std::max(worst, it->second);
    return worst;
}

QColor ParallelView::blockColor(int row) const
{
    if (m_colourByResult)
        return resultColor(rowResult(row));
    const int copy = m_grid.rowCopy(row);
    return copy < 0 ? QColor(0x9e, 0x9e, 0x9e) : ParallelGrid::copyColor(copy, m_grid.copyCount());
}

int ParallelView::currentRank() const { return m_focus ? m_focus->rank() : -1; }

int ParallelView::rankForRow(int row) const
{
    const std::vector<int>& ranks = m_grid.rowRanks(row);
    if (ranks.empty())
        return -1;
    if (std::find(ranks.begin(), ranks.end(), currentRank()) != ranks.end())
        return currentRank();
    for (int rank : ranks)
        if (std::binary_search(m_availableRanks.begin(), m_availableRanks.end(), rank))
            return rank;
    return ranks.front();
}

ParallelView::Geometry ParallelView::geometry() const
{
    Geometry g;
    const QFontMetricsF labels(sceneFont(9));
    double labelWidth = 60;
    for (int row = 0; row < m_grid.rowCount(); ++row)
        labelWidth = std::max(labelWidth, labels.horizontalAdvance(m_grid.rowLabel(row)));
    g.cellWidth = kCellWidth;
    g.cellHeight = kCellHeight;
    g.left = kMargin + 24 + labelWidth + 8; // axis title, labels
    g.top = kMargin + kTitleHeight;
    g.legendLeft = g.left + g.cellWidth * m_grid.columnCount() + 16;
    g.width = g.legendLeft + kLegendWidth + kMargin;
    g.height = g.top + g.cellHeight * std::max(1, m_grid.rowCount()) + kAxisHeight + kMargin;
    const QFontMetricsF title(sceneFont(11, true));
    g.width = std::max(g.width, 2 * kMargin + title.horizontalAdvance(m_grid.title()));
    return g;
}

QSizeF ParallelView::sceneSize() const
{
    const Geometry g = geometry();
    return { g.width, g.height };
}

QRectF ParallelView::sceneBlock(int row, int column) const
{
    const Geometry g = geometry();
    const double x = g.left + column * g.cellWidth, y = g.top + (m_grid.rowCount() - 1 - row) * g.cellHeight;
    return QRectF(x + 0.05 * g.cellWidth, y + 0.05 * g.cellHeight, 0.9 * g.cellWidth, 0.9 * g.cellHeight);
}

QRectF ParallelView::cellRect(int row, int column) const
{
    const QRectF scene = sceneBlock(row, column);
    return QRectF(m_offset + scene.topLeft() * m_scale, scene.size() * m_scale);
}

QPointF ParallelView::toScene(const QPointF& widgetPoint) const { return (widgetPoint - m_offset) / m_scale; }

std::pair<int, int> ParallelView::cellAt(const QPointF& position) const
{
    if (m_grid.isEmpty())
        return { -1, -1 };
    const Geometry g = geometry();
    const QPointF p = toScene(position);
    const int column = static_cast<int>(std::floor((p.x() - g.left) / g.cellWidth));
    const int fromTop = static_cast<int>(std::floor((p.y() - g.top) / g.cellHeight));
    const int row = m_grid.rowCount() - 1 - fromTop;
    if (column < 0 || column >= m_grid.columnCount() || row < 0 || row >= m_grid.rowCount())
        return { -1, -1 };
    return sceneBlock(row, column).contains(p) ? std::pair { row, column } : std::pair { -1, -1 };
}

void ParallelView::fitToView()
{
    if (m_grid.isEmpty() || width() <= 0 || height() <= 0) {
        update();
        return;
    }
    const QSizeF size = sceneSize();
    m_scale = std::clamp(std::min(width() / size.width(), height() / size.height()), kMinScale, 1.5);
    m_offset = QPointF((width() - size.width() * m_scale) / 2, (height() - size.height() * m_scale) / 2);
    m_fitted = true;
    update();
}

void ParallelView::zoomBy(double factor, const QPointF& anchor)
{
    const double scale = std::clamp(m_scale * factor, kMinScale, kMaxScale);
    const QPointF scenePoint = toScene(anchor);
    m_scale = scale;
    m_offset = anchor - scenePoint * m_scale;
    m_fitted = false;
    update();
}

void ParallelView::paintEvent(QPaintEvent*)
{
    QPainter painter(this);
    painter.fillRect(rect(), palette().base());
    if (m_grid.isEmpty()) {
        painter.setPen(palette().color(QPalette::PlaceholderText));
        painter.drawText(rect().adjusted(16, 16, -16, -16), Qt::AlignCenter | Qt::TextWordWrap,
            tr("No parallel configuration. Use Configure… to give world size, layers, TP, PP and VPP, or open "
               "dumps that carry them."));
        return;
    }
    painter.setRenderHint(QPainter::Antialiasing);
    painter.translate(m_offset);
    painter.scale(m_scale, m_scale);
    paintScene(painter, m_scale);
}

void ParallelView::paintScene(QPainter& painter, double pixelsPerUnit) const
{
    const Geometry g = geometry();
    const QColor text = palette().color(QPalette::Text);
    const int rows = m_grid.rowCount(), columns = m_grid.columnCount();

    painter.setPen(text);
    painter.setFont(sceneFont(11, true));
    painter.drawText(QRectF(kMargin, kMargin, g.width - 2 * kMargin, kTitleHeight - 6), Qt::AlignCenter, m_grid.title());

    // Dashed grid lines through the cell centres, as the reference's axes grid.
    QPen gridPen(text, 0, Qt::DashLine);
    gridPen.setColor(QColor(text.red(), text.green(), text.blue(), 60));
    painter.setPen(gridPen);
    const double plotBottom = g.top + rows * g.cellHeight, plotRight = g.left + columns * g.cellWidth;
    for (int c = 0; c < columns && c < 512; ++c)
        painter.drawLine(QPointF(g.left + (c + 0.5) * g.cellWidth, g.top), QPointF(g.left + (c + 0.5) * g.cellWidth, plotBottom));
    painter.setPen(QPen(text, 0));
    painter.drawRect(QRectF(g.left, g.top, plotRight - g.left, plotBottom - g.top));

    // Row labels: every n-th when rows are too thin to read them all.
    const double rowPixels = g.cellHeight * pixelsPerUnit;
    const int labelStep = rowPixels >= 11 ? 1 : static_cast<int>(std::ceil(11 / std::max(rowPixels, 0.01)));
    painter.setFont(sceneFont(9));
    for (int row = 0; row < rows; row += labelStep) {
        const double y = g.top + (rows - 1 - row) * g.cellHeight;
        painter.drawText(QRectF(kMargin + 24, y, g.left - kMargin - 32, g.cellHeight), Qt::AlignRight | Qt::AlignVCenter, m_grid.rowLabel(row));
    }
    const int columnStep = g.cellWidth * pixelsPerUnit >= 50 ? 1 : static_cast<int>(std::ceil(50 / (g.cellWidth * pixelsPerUnit)));
    for (int c = 0; c < columns; c += columnStep)
        painter.drawText(QRectF(g.left + c * g.cellWidth, plotBottom + 2, g.cellWidth, 18), Qt::AlignCenter, m_grid.columnLabel(c));
    painter.setFont(sceneFont(10));
    painter.drawText(QRectF(g.left, plotBottom + 20, plotRight - g.left, 20), Qt::AlignCenter | Qt::TextDontClip, tr("Virtual Pipeline Stage"));
    painter.save();
    painter.translate(kMargin + 10, g.top + (plotBottom - g.top) / 2);
    painter.rotate(-90);
    painter.drawText(QRectF(-100, -10, 200, 20), Qt::AlignCenter | Qt::TextDontClip, m_grid.summarised() ? tr("PP stage") : tr("TP Group"));
    painter.restore();

    // Blocks.
    const bool showText = g.cellHeight * pixelsPerUnit >= 9;
    const QFont blockFont = sceneFont(8);
    painter.setFont(blockFont);
    const int current = currentRank();
    const int currentRow = current >= 0 ? m_grid.rowOfRank(current) : -1;
    for (int row = 0; row < rows; ++row) {
        const QColor fill = blockColor(row);
        QColor translucent = fill;
        translucent.setAlphaF(0.8f);
        const int copy = m_grid.rowCopy(row);
        for (int column = 0; column < columns; ++column) {
            const QRectF block = sceneBlock(row, column);
            painter.setPen(QPen(Qt::white, 1));
            painter.setBrush(translucent);
            painter.drawRect(block);
            if (copy < 0 && !m_colourByResult)
                paintCopyStripes(painter, block);
            if (m_colourByResult) {
                // The copy stays visible as a band on the left.
                const QColor band = copy < 0 ? QColor(0x9e, 0x9e, 0x9e) : ParallelGrid::copyColor(copy, m_grid.copyCount());
                painter.setPen(Qt::NoPen);
                painter.setBrush(band);
                painter.drawRect(QRectF(block.left(), block.top(), block.width() * 0.1, block.height()));
            }
            const QString cellText = m_grid.cellText(row, column);
            if (showText && !cellText.isEmpty()) {
                const QFontMetricsF metrics(blockFont);
                const QSizeF box(metrics.horizontalAdvance(cellText) + 6, metrics.height() + 2);
                const QRectF textBox(block.center() - QPointF(box.width() / 2, box.height() / 2), box);
                painter.setPen(Qt::NoPen);
                painter.setBrush(QColor(255, 255, 255, 77));
                painter.drawRect(textBox);
                painter.setPen(Qt::black);
                painter.drawText(textBox, Qt::AlignCenter, cellText);
            }
        }
    }
    if (currentRow >= 0) {
        // The focused rank's row: one outline around all its blocks.
        const QRectF first = sceneBlock(currentRow, 0), last = sceneBlock(currentRow, columns - 1);
        QPen pen(palette().color(QPalette::Highlight), 3 / std::max(pixelsPerUnit, 0.01));
        painter.setPen(pen);
        painter.setBrush(Qt::NoBrush);
        painter.drawRect(first.united(last).adjusted(-2, -2, 2, 2));
    }
    paintLegend(painter, g);
}

// A summarised block stands for every copy: stripes in their colours, as the CLI's picture draws it.
void ParallelView::paintCopyStripes(QPainter& painter, const QRectF& block) const
{
    const int copies = m_grid.copyCount();
    const int stripes = std::min(copies, kMaxStripes);
    const double width = block.width() / stripes;
    painter.setPen(Qt::NoPen);
    for (int i = 0; i < stripes; ++i) {
        QColor colour = ParallelGrid::copyColor(i * copies / stripes, copies);
        colour.setAlphaF(0.8f);
        painter.setBrush(colour);
        painter.drawRect(QRectF(block.left() + i * width, block.top(), width, block.height()));
    }
}

void ParallelView::paintLegend(QPainter& painter, const Geometry& g) const
{
    const QColor text = palette().color(QPalette::Text);
    const double line = 16, top = g.top;
    const int copies = m_grid.copyCount();
    const int fit = std::max(3, static_cast<int>((g.height - top - kMargin - 2 * line) / line));
    std::vector<int> shown; // -1: the "… n more" line
    for (int k = 0; k < copies && (copies <= fit || k < fit - 2); ++k)
        shown.push_back(k);
    const int hidden = copies > fit ? copies - fit + 1 : 0;
    if (hidden > 0) {
        shown.push_back(-1);
        shown.push_back(copies - 1);
    }
    const bool results = m_colourByResult;
    const double height = line * (static_cast<double>(shown.size()) + 1 + (results ? 5 : 0)) + 8;
    painter.setPen(QPen(text, 0));
    painter.setBrush(Qt::NoBrush);
    painter.drawRect(QRectF(g.legendLeft, top, kLegendWidth, height));
    painter.setFont(sceneFont(9, true));
    painter.drawText(QRectF(g.legendLeft, top + 4, kLegendWidth, line), Qt::AlignCenter, tr("Model Copies"));
    painter.setFont(sceneFont(9));
    double y = top + 4 + line;
    auto entry = [&](const QColor& colour, const QString& label) {
        if (colour.isValid()) {
            painter.setPen(Qt::NoPen);
            painter.setBrush(colour);
            painter.drawRect(QRectF(g.legendLeft + 8, y + 4, 20, line - 8));
        }
        painter.setPen(text);
        painter.drawText(QRectF(g.legendLeft + 34, y, kLegendWidth - 38, line), Qt::AlignLeft | Qt::AlignVCenter, label);
        y += line;
    };
    for (int k : shown)
        entry(k < 0 ? QColor() : ParallelGrid::copyColor(k, copies), k < 0 ? tr("… %1 more").arg(hidden) : tr("Model Copy %1").arg(k + 1));
    if (results) {
        painter.setFont(sceneFont(9, true));
        painter.drawText(QRectF(g.legendLeft, y, kLegendWidth, line), Qt::AlignCenter, tr("Compare result"));
        y += line;
        painter.setFont(sceneFont(9));
        for (msprobe::studio::RowResult r : { msprobe::studio::RowResult::Pass, msprobe::studio::RowResult::Warning, msprobe::studio::RowResult::Error, msprobe::studio::RowResult::None })
            entry(resultColor(r), resultName(r));
    }
}

void ParallelView::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    if (m_fitted || m_scale == 1)
        fitToView();
}

void ParallelView::wheelEvent(QWheelEvent* event)
{
    const double steps = event->angleDelta().y() / 120.0;
    if (steps != 0)
        zoomBy(std::pow(1.15, steps), event->position());
    event->accept();
}

void ParallelView::mousePressEvent(QMouseEvent* event)
{
    if (event->button() != Qt::LeftButton)
        return QWidget::mousePressEvent(event);
    m_pressed = true;
    m_dragging = false;
    m_pressAt = event->position().toPoint();
    m_pressOffset = m_offset;
}

void ParallelView::mouseMoveEvent(QMouseEvent* event)
{
    if (!m_pressed)
        return;
    const QPoint moved = event->position().toPoint() - m_pressAt;
    if (!m_dragging && moved.manhattanLength() < kDragPixels)
        return;
    m_dragging = true;
    m_fitted = false;
    setCursor(Qt::ClosedHandCursor);
    m_offset = m_pressOffset + moved;
    update();
}

void ParallelView::mouseReleaseEvent(QMouseEvent* event)
{
    if (event->button() != Qt::LeftButton || !m_pressed)
        return QWidget::mouseReleaseEvent(event);
    m_pressed = false;
    unsetCursor();
    if (m_dragging) {
        m_dragging = false;
        return;
    }
    const auto [row, column] = cellAt(event->position());
    if (row >= 0)
        activateRow(row);
}

void ParallelView::mouseDoubleClickEvent(QMouseEvent* event)
{
    if (cellAt(event->position()).first < 0)
        fitToView();
}

void ParallelView::keyPressEvent(QKeyEvent* event)
{
    const QPointF centre(width() / 2.0, height() / 2.0);
    switch (event->key()) {
    case Qt::Key_Plus:
    case Qt::Key_Equal:
        zoomBy(1.25, centre);
        break;
    case Qt::Key_Minus:
        zoomBy(0.8, centre);
        break;
    case Qt::Key_0:
        fitToView();
        break;
    default:
        QWidget::keyPressEvent(event);
    }
}

void ParallelView::contextMenuEvent(QContextMenuEvent* event)
{
    const int row = cellAt(event->pos()).first;
    QMenu menu(this);
    if (row >= 0) {
        QMenu* select = menu.addMenu(tr("Select rank"));
        const std::vector<int>& ranks = m_grid.rowRanks(row);
        for (std::size_t i = 0; i < ranks.size() && i < kMaxMenuRanks; ++i) {
            const int rank = ranks[i];
            QAction* action = select->addAction(tr("Rank %1").arg(rank), this, [this, row, rank] { activateRow(row, rank); });
            action->setCheckable(true);
            action->setChecked(rank == currentRank());
        }
        menu.addSeparator();
    }
    menu.addAction(tr("Fit to view"), this, &ParallelView::fitToView);
    menu.exec(event->globalPos());
}

void ParallelView::activateRow(int row, int rank)
{
    if (rank < 0)
        rank = rankForRow(row);
    if (rank < 0)
        return;
    if (m_focus)
        m_focus->setGraph(m_focus->step(), rank);
    emit rankActivated(rank);
    update();
}

bool ParallelView::event(QEvent* event)
{
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const auto [row, column] = cellAt(help->pos());
        if (row < 0) {
            QToolTip::hideText();
            event->ignore();
            return true;
        }
        QString text = m_grid.tooltip(row, column);
        if (!m_results.empty())
            text += QLatin1Char('\n') + tr("Compare: %1 (worst of its ranks)").arg(resultName(rowResult(row)));
        QToolTip::showText(help->globalPos(), text, this);
        return true;
    }
    return QWidget::event(event);
}

QImage ParallelView::renderImage(double scale) const
{
    const QSizeF size = sceneSize() * scale;
    QImage image(size.toSize().expandedTo(QSize(1, 1)), QImage::Format_ARGB32_Premultiplied);
    image.fill(palette().color(QPalette::Base));
    if (m_grid.isEmpty())
        return image;
    QPainter painter(&image);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.scale(scale, scale);
    paintScene(painter, scale);
    return image;
}

bool ParallelView::exportImage(const QString& file, QString* error) const
{
    auto fail = [&](const QString& why) {
        if (error)
            *error = why;
        return false;
    };
    if (m_grid.isEmpty())
        return fail(tr("%1: there is no parallel configuration to draw").arg(file));
    if (QFileInfo(file).suffix().compare(QLatin1String("svg"), Qt::CaseInsensitive) == 0) {
        const QSizeF size = sceneSize();
        QSvgGenerator generator;
        generator.setFileName(file);
        generator.setSize(size.toSize());
        generator.setViewBox(QRectF(QPointF(0, 0), size));
        generator.setTitle(m_grid.title());
        QPainter painter;
        if (!painter.begin(&generator))
            return fail(tr("Cannot write %1").arg(file));
        painter.fillRect(QRectF(QPointF(0, 0), size), palette().color(QPalette::Base));
        paintScene(painter, 1);
        painter.end();
        return QFileInfo(file).size() > 0 ? true : fail(tr("Cannot write %1").arg(file));
    }
    // Twice the natural size reads well in a document, capped for very large grids.
    const QSizeF natural = sceneSize();
    const double scale = std::clamp(std::min(16000 / natural.width(), 16000 / natural.height()), 0.1, 2.0);
    return renderImage(scale).save(file, "PNG") ? true : fail(tr("Cannot write %1").arg(file));
}
