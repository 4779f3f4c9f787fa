// SPDX-License-Identifier: Apache-2.0
// The parallelism panel: the grid of ParallelView over the session's parallel configuration (ParallelSetup),
// a line saying where the configuration came from, "Configure…" (ParallelConfigDialog), "Colour by compare
// result" and "Export…". It follows the studio focus: clicking a block selects a rank, the focused rank is
// outlined, and the compare colours are those of the focused step.
#pragma once

#include "comparerows.h"

#include <QWidget>

#include <map>
#include <vector>

class ParallelSetup;
class ParallelView;
class QCheckBox;
class QLabel;
class QPushButton;
class StudioFocus;

class ParallelPanel : public QWidget {
    Q_OBJECT
public:
    explicit ParallelPanel(ParallelSetup* setup, QWidget* parent = nullptr);

    ParallelView* view() const { return m_view; }
    QCheckBox* colourByResultBox() const { return m_colourByResult; }
    QLabel* sourceLabel() const { return m_source; }
    void setStudioFocus(StudioFocus* focus);
    void setAvailableRanks(std::vector<int> ranks);
    void setResults(std::map<int, msprobe::studio::RowResult> results);

public slots:
    // Opens the configuration dialog on the current (or proposed) configuration; applies it when accepted.
    void configure();

signals:
    void exportRequested();

private:
    void refresh();

    ParallelSetup* m_setup;
    ParallelView* m_view;
    QLabel* m_source;
    QCheckBox* m_colourByResult;
    QPushButton* m_export;
};
