// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "studiosession.h"

#include <QDialog>

class QCheckBox;
class QGroupBox;
class QLabel;
class QSpinBox;
class QDialogButtonBox;
class QLineEdit;

// "Open problem/bench pair": the two dump paths, -fm / -oc, and where the vis.db goes.
class PairDialog : public QDialog {
    Q_OBJECT
public:
    explicit PairDialog(QWidget* parent = nullptr);

    msprobe::studio::LoadRequest request() const;
    QLineEdit* layerMappingEdit() const { return m_layerMapping; }
    bool canOpen() const;
    // Empty when Open can be pressed; otherwise why not (shown under the fields).
    QString whyNotOpen() const;
    void setPaths(const QString& problem, const QString& bench);

    // The parallel merge of graph_visualize (--rank_size/--tp/--pp/--vpp/--order), per side (0 problem, 1 bench).
    struct MergeFields {
        QSpinBox* rankSize;
        QSpinBox* tp;
        QSpinBox* pp;
        QSpinBox* vpp;
        QLineEdit* order;
    };
    QGroupBox* parallelMergeBox() const { return m_merge; }
    const MergeFields& mergeFields(int side) const { return m_mergeFields[side]; }

private:
    // A path box with "Browse…": a folder, or a file matching fileFilter when one is given.
    QLineEdit* pathRow(const QString& label, const QString& dialogTitle, class QFormLayout* form, const QString& fileFilter = {});
    void validate();
    void buildMergeFields(class QFormLayout* form);
    // Why the merge parameters do not fit the folders (graph_visualize's own check); empty when they do.
    QString mergeProblem() const;

    QLineEdit* m_problem;
    QLineEdit* m_bench;
    QLineEdit* m_output;
    QLineEdit* m_layerMapping;
    QLabel* m_why = nullptr;
    QCheckBox* m_fuzzy;
    QCheckBox* m_overflow;
    QDialogButtonBox* m_buttons;
    QGroupBox* m_merge = nullptr;
    MergeFields m_mergeFields[2] {};
};
