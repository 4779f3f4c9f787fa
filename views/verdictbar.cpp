// SPDX-License-Identifier: Apache-2.0
#include "verdictbar.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QMouseEvent>

VerdictBar::VerdictBar(QWidget* parent)
    : QFrame(parent)
    , m_label(new QLabel(this))
{
    setObjectName(QStringLiteral("verdictBar"));
    setFrameShape(QFrame::StyledPanel);
    setAutoFillBackground(true);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(8, 4, 8, 4);
    m_label->setWordWrap(true);
    m_label->setTextFormat(Qt::PlainText);
    // A long reason wraps instead of widening the window.
    m_label->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    layout->addWidget(m_label, 1);
    hide();
}

void VerdictBar::setVerdict(const QString& text, const QString& entry, Level level, const QString& toolTip)
{
    m_label->setText(text);
    m_entry = entry;
    m_level = level;
    setToolTip(entry.isEmpty() ? toolTip : toolTip + (toolTip.isEmpty() ? QString() : QStringLiteral("\n")) + tr("Click to select %1").arg(entry));
    setCursor(entry.isEmpty() ? Qt::ArrowCursor : Qt::PointingHandCursor);
    setVisible(level != Level::None);
    applyColours();
}

QString VerdictBar::text() const { return m_label->text(); }

void VerdictBar::mouseReleaseEvent(QMouseEvent* event)
{
    if (event->button() == Qt::LeftButton && !m_entry.isEmpty())
        emit entryActivated(m_entry);
    QFrame::mouseReleaseEvent(event);
}

void VerdictBar::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::ApplicationPaletteChange) {
        // Our own palette change (applyColours) must not loop.
        if (!property("applyingColours").toBool())
            applyColours();
    }
    QFrame::changeEvent(event);
}

// A tint of the result colours that keeps the text readable on the light and the dark theme.
void VerdictBar::applyColours()
{
    setProperty("applyingColours", true);
    QPalette p = parentWidget() ? parentWidget()->palette() : palette();
    const bool dark = p.color(QPalette::Window).lightness() < 128;
    const QColor tint = m_level == Level::Diverged ? QColor(0xe5, 0x39, 0x35) : QColor(0x43, 0xa0, 0x47);
    QColor background = p.color(QPalette::Window);
    const double share = dark ? 0.35 : 0.18;
    background.setRgbF(background.redF() * (1 - share) + tint.redF() * share, background.greenF() * (1 - share) + tint.greenF() * share,
        background.blueF() * (1 - share) + tint.blueF() * share);
    p.setColor(QPalette::Window, background);
    setPalette(p);
    setProperty("applyingColours", false);
}
