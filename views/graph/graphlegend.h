// SPDX-License-Identifier: Apache-2.0
// The header legend of the graph diff: node shapes, then the colours of the current mode.
#pragma once

#include "graphstyle.h"

#include <QWidget>

#include <vector>

class GraphLegend : public QWidget {
    Q_OBJECT
public:
    explicit GraphLegend(QWidget* parent = nullptr);
    void setMode(msprobe::views::graphstyle::ColourMode mode, bool compare);
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;
    bool hasHeightForWidth() const override;
    int heightForWidth(int width) const override;
    // How many rows the entries take at the current width (they wrap instead of being cut off).
    int rowCount() const;
    // The explanation of the entry under `pos` (the plugin's per-entry header tooltips); the
    // widget's general tooltip when no entry has one.
    QString toolTipAt(const QPoint& pos) const;

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    bool event(QEvent* event) override;

private:
    enum class Shape { Module, Leaf, ApiList, MultiCollection, Chip };
    struct Entry {
        QString text;
        Shape shape;
        QColor colour;
        QString tip;
    };
    std::vector<Entry> entries() const;
    std::vector<QRect> placeEntries(int width) const;

    msprobe::views::graphstyle::ColourMode m_mode = msprobe::views::graphstyle::ColourMode::Precision;
    bool m_compare = true;
};
