// SPDX-License-Identifier: Apache-2.0
// The "Node matching" side panel (spec 2.4): a mapping file to apply (with a total/success/failed report) or to
// generate; unmatched debug and bench nodes to pair; matched nodes to unpair; "also descendants" options.
// Picking a node in a graph (StudioFocus) pre-selects it, and its partner for a matched node.
#pragma once

#include "studiofocus.h"

#include <QPointer>
#include <QWidget>

class MatchController;
class NodePickList;
class QCheckBox;
class QComboBox;
class QLabel;
class QPushButton;
class QGroupBox;

class NodeMatchPanel : public QWidget {
    Q_OBJECT
public:
    explicit NodeMatchPanel(MatchController* controller, QWidget* parent = nullptr);

    void setStudioFocus(StudioFocus* focus);

    NodePickList* problemUnmatched() const { return m_problemUnmatched; }
    NodePickList* benchUnmatched() const { return m_benchUnmatched; }
    NodePickList* problemMatched() const { return m_problemMatched; }
    NodePickList* benchMatched() const { return m_benchMatched; }
    QString reportText() const;

public slots:
    // Re-reads the lists from the controller (after open, and after every change).
    void refresh();
    void matchSelected();
    void unmatchSelected();
    void applySelectedFile();
    void generateFile();

private:
    void followFocus(const QString& name, StudioFocus::Side side);
    void listConfigFiles();

    MatchController* m_controller;
    QPointer<StudioFocus> m_focus;
    QGroupBox* m_fileBox;
    QComboBox* m_files;
    QPushButton* m_apply;
    QPushButton* m_generate;
    QLabel* m_report;
    NodePickList *m_problemUnmatched, *m_benchUnmatched, *m_problemMatched, *m_benchMatched;
    QCheckBox *m_matchDescendants, *m_unmatchDescendants;
    QPushButton *m_match, *m_unmatch;
};
