// SPDX-License-Identifier: Apache-2.0
// The header legend of the graph diff: node shapes, then the colours of the current mode.
#pragma once

#include "graphstyle.h"

#include <QWidget>

class GraphLegend : public QWidget {
    Q_OBJECT
public:
    explicit GraphLegend(QWidget* parent = nullptr);
    void setMode(graphstyle::ColourMode mode, bool compare);
    QSize sizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    graphstyle::ColourMode m_mode = graphstyle::ColourMode::Precision;
    bool m_compare = true;
};
