// SPDX-License-Identifier: Apache-2.0
// The verdict above the graphs: the shown pair's first divergence, its reason, the first NaN/Inf and the unpaired
// rows, in the words `msprobe compare` prints them. Clicking it selects the diverging entry.
#pragma once

#include <QFrame>

class QLabel;

class VerdictBar : public QFrame {
    Q_OBJECT
public:
    enum class Level { None, Pass, Diverged };

    explicit VerdictBar(QWidget* parent = nullptr);

    // text: the verdict line; entry: what a click selects (empty: nothing). Level::None hides the bar.
    void setVerdict(const QString& text, const QString& entry, Level level, const QString& toolTip = {});
    QString text() const;
    QString entry() const { return m_entry; }
    Level level() const { return m_level; }

signals:
    void entryActivated(const QString& entry);

protected:
    void mouseReleaseEvent(QMouseEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    void applyColours();

    QLabel* m_label;
    QString m_entry;
    Level m_level = Level::None;
};
