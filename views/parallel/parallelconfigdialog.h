// SPDX-License-Identifier: Apache-2.0
// The parallel configuration, with the fields of `msprobe parallel_plot`: world size, layers, TP, PP, layers per
// virtual pipeline stage, order and standalone embedding stage. Every change is checked by core/parallel; an
// invalid configuration shows the core's message and cannot be accepted.
#pragma once

#include "parallel/parallel_config.h"

#include <QDialog>

#include <vector>

class QCheckBox;
class QComboBox;
class QDialogButtonBox;
class QLabel;
class QSpinBox;

class ParallelConfigDialog : public QDialog {
    Q_OBJECT
public:
    explicit ParallelConfigDialog(QWidget* parent = nullptr);

    void setConfig(const msprobe::parallel::ParallelConfig& config);
    msprobe::parallel::ParallelConfig config() const;
    // The core's message for the configuration as entered; empty when it is valid.
    QString whyInvalid() const;
    bool canAccept() const;
    // A note shown above the fields (where a proposed configuration came from).
    void setNote(const QString& note);
    // A TP group seen in the dumps: the dialog warns while the configuration does not make it one.
    void setDumpTpGroup(std::vector<int> group);
    QString tpGroupWarning() const { return m_tpWarning; }

    QSpinBox* worldSizeBox() const { return m_worldSize; }
    QSpinBox* numLayersBox() const { return m_numLayers; }
    QSpinBox* tensorParallelBox() const { return m_tp; }
    QSpinBox* pipelineParallelBox() const { return m_pp; }
    QSpinBox* layersPerVirtualStageBox() const { return m_perVirtualStage; }
    QComboBox* orderBox() const { return m_order; }
    QCheckBox* standaloneBox() const { return m_standalone; }

private:
    void validate();

    QLabel* m_note;
    QSpinBox* m_worldSize;
    QSpinBox* m_numLayers;
    QSpinBox* m_tp;
    QSpinBox* m_pp;
    QSpinBox* m_perVirtualStage;
    QComboBox* m_order;
    QCheckBox* m_standalone;
    QLabel* m_summary;
    QLabel* m_error;
    QDialogButtonBox* m_buttons;
    std::vector<int> m_dumpTpGroup;
    QString m_tpWarning;
};
