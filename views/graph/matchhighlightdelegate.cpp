// SPDX-License-Identifier: Apache-2.0
#include "matchhighlightdelegate.h"

#include <QApplication>
#include <QPainter>
#include <QTextLayout>

MatchHighlightDelegate::MatchHighlightDelegate(int spanRole, QObject* parent)
    : QStyledItemDelegate(parent)
    , m_spanRole(spanRole)
{
}

void MatchHighlightDelegate::paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const
{
    const QPoint span = index.data(m_spanRole).toPoint();
    if (span.y() <= 0) {
        QStyledItemDelegate::paint(painter, option, index);
        return;
    }
    QStyleOptionViewItem opt = option;
    initStyleOption(&opt, index);
    const QString text = opt.text;
    opt.text.clear();
    QStyle* style = opt.widget ? opt.widget->style() : QApplication::style();
    style->drawControl(QStyle::CE_ItemViewItem, &opt, painter, opt.widget);

    const QRect textRect = style->subElementRect(QStyle::SE_ItemViewItemText, &opt, opt.widget).adjusted(2, 0, -2, 0);
    const QString shown = opt.fontMetrics.elidedText(text, Qt::ElideRight, textRect.width());
    QTextCharFormat marked;
    marked.setBackground(QColor(255, 213, 79, 170));
    marked.setFontWeight(QFont::Bold);
    QTextLayout layout(shown, opt.font);
    layout.setFormats({ QTextLayout::FormatRange { span.x(), std::min<int>(span.y(), std::max(0, int(shown.size()) - span.x())), marked } });
    layout.beginLayout();
    QTextLine line = layout.createLine();
    line.setLineWidth(textRect.width());
    layout.endLayout();
    painter->save();
    painter->setPen(opt.palette.color(opt.state & QStyle::State_Selected ? QPalette::HighlightedText : QPalette::Text));
    const qreal y = textRect.top() + (textRect.height() - line.height()) / 2;
    layout.draw(painter, QPointF(textRect.left(), y));
    painter->restore();
}
