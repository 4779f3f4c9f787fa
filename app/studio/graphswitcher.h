// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "studiofocus.h"

#include <QObject>

#include <vector>

class QComboBox;
class QLabel;
class QToolBar;

// Step, rank and micro-step pickers in a toolbar, two-way bound to StudioFocus.
class GraphSwitcher : public QObject {
    Q_OBJECT
public:
    GraphSwitcher(StudioFocus* focus, QToolBar* toolBar);

    // What the loaded data has; microSteps 0 hides the micro-step picker.
    void setChoices(const std::vector<int>& steps, const std::vector<int>& ranks, int microSteps);
    void nextRank(int delta);
    void nextStep(int delta);

    QComboBox* stepBox() const { return m_step; }
    QComboBox* rankBox() const { return m_rank; }
    QComboBox* microStepBox() const { return m_microStep; }

private:
    void fromFocus();
    void toFocus();

    StudioFocus* m_focus;
    QComboBox* m_step;
    QComboBox* m_rank;
    QComboBox* m_microStep;
    class QAction* m_microStepAction;
    class QAction* m_microStepLabel;
    bool m_updating = false;
};
