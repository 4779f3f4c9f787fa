// SPDX-License-Identifier: Apache-2.0
// The two-run chart: x = the aligned outermost operators, the most live bytes during each on run A and run B as
// two step lines, and under them the difference B - A per aligned operator as bars (operators on one side only
// have no bar). Hovering an operator shows its name and both values.
#pragma once

#include "memorycomparison.h"

#include <QWidget>

#include <optional>

class MemoryDiffChart : public QWidget {
    Q_OBJECT
public:
    explicit MemoryDiffChart(QWidget* parent = nullptr);

    void setOperators(std::vector<msprobe::studio::AlignedOperator> operators);
    const std::vector<msprobe::studio::AlignedOperator>& operators() const { return m_operators; }

    QRectF curveRect() const;
    QRectF differenceRect() const;
    // The aligned operator under x, if any.
    std::optional<std::size_t> operatorAt(double x) const;
    QString operatorToolTip(std::size_t index) const;

signals:
    void operatorClicked(int index);

protected:
    void paintEvent(QPaintEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;

private:
    double xOf(std::size_t index) const;
    std::vector<msprobe::studio::AlignedOperator> m_operators;
    std::int64_t m_maxBytes = 1, m_maxDifference = 1;
};
