// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "studiosession.h"

#include <QDialog>

class QCheckBox;
class QLabel;
class QDialogButtonBox;
class QLineEdit;

// "Open problem/bench pair": the two dump paths, -fm / -oc, and where the vis.db goes.
class PairDialog : public QDialog {
    Q_OBJECT
public:
    explicit PairDialog(QWidget* parent = nullptr);

    LoadRequest request() const;
    QLineEdit* layerMappingEdit() const { return m_layerMapping; }
    bool canOpen() const;
    // Empty when Open can be pressed; otherwise why not (shown under the fields).
    QString whyNotOpen() const;
    void setPaths(const QString& problem, const QString& bench);

private:
    // A path box with "Browse…": a folder, or a file matching fileFilter when one is given.
    QLineEdit* pathRow(const QString& label, const QString& dialogTitle, class QFormLayout* form, const QString& fileFilter = {});
    void validate();

    QLineEdit* m_problem;
    QLineEdit* m_bench;
    QLineEdit* m_output;
    QLineEdit* m_layerMapping;
    QLabel* m_why = nullptr;
    QCheckBox* m_fuzzy;
    QCheckBox* m_overflow;
    QDialogButtonBox* m_buttons;
};
