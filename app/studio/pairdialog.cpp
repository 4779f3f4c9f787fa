// SPDX-License-Identifier: Apache-2.0
#include "pairdialog.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QToolButton>

PairDialog::PairDialog(QWidget* parent)
    : QDialog(parent)
{
    setWindowTitle(tr("Open problem/bench pair"));
    auto* form = new QFormLayout;
    m_problem = pathRow(tr("&Problem dump:"), tr("Problem (debug) dump folder"), form);
    m_bench = pathRow(tr("&Bench dump:"), tr("Benchmark dump folder"), form);
    m_output = pathRow(tr("&Output folder:"), tr("Folder for the vis.db"), form);
    m_output->setPlaceholderText(tr("a new folder in the cache"));
    m_layerMapping = pathRow(tr("&Layer mapping:"), tr("Layer mapping YAML (-lm)"), form, tr("YAML files (*.yaml *.yml)"));
    m_layerMapping->setPlaceholderText(tr("optional: a YAML file mapping renamed layers (-lm)"));
    m_fuzzy = new QCheckBox(tr("&Fuzzy match (-fm): ignore call counters inside matched modules"), this);
    m_overflow = new QCheckBox(tr("O&verflow check (-oc): grade NaN/Inf anomalies"), this);
    form->addRow(m_fuzzy);
    form->addRow(m_overflow);
    m_buttons = new QDialogButtonBox(QDialogButtonBox::Open | QDialogButtonBox::Cancel, this);
    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    m_why = new QLabel(this);
    m_why->setObjectName(QStringLiteral("whyNotOpen"));
    m_why->setWordWrap(true);
    form->addRow(m_why);
    form->addRow(m_buttons);
    setLayout(form);
    connect(m_problem, &QLineEdit::textChanged, this, &PairDialog::validate);
    connect(m_bench, &QLineEdit::textChanged, this, &PairDialog::validate);
    connect(m_layerMapping, &QLineEdit::textChanged, this, &PairDialog::validate);
    validate();
    resize(640, sizeHint().height());
}

QLineEdit* PairDialog::pathRow(const QString& label, const QString& dialogTitle, QFormLayout* form, const QString& fileFilter)
{
    auto* edit = new QLineEdit(this);
    auto* browse = new QToolButton(this);
    browse->setText(tr("Browse…"));
    connect(browse, &QToolButton::clicked, this, [this, edit, dialogTitle, fileFilter] {
        const QString picked = fileFilter.isEmpty() ? QFileDialog::getExistingDirectory(this, dialogTitle, edit->text())
                                                    : QFileDialog::getOpenFileName(this, dialogTitle, edit->text(), fileFilter);
        if (!picked.isEmpty())
            edit->setText(picked);
    });
    auto* row = new QHBoxLayout;
    row->addWidget(edit, 1);
    row->addWidget(browse);
    // The label is its edit's buddy, so "&Problem" is an Alt shortcut and not a literal ampersand.
    auto* caption = new QLabel(label, this);
    caption->setBuddy(edit);
    form->addRow(caption, row);
    return edit;
}

bool PairDialog::canOpen() const { return whyNotOpen().isEmpty(); }

QString PairDialog::whyNotOpen() const
{
    auto folderProblem = [](const QString& what, const QString& path) -> QString {
        if (path.trimmed().isEmpty())
            return tr("Choose the %1 folder.").arg(what);
        const QFileInfo info(path);
        if (!info.exists())
            return tr("The %1 folder does not exist: %2").arg(what, path);
        if (!info.isDir())
            return tr("The %1 path is not a folder: %2").arg(what, path);
        return {};
    };
    if (QString why = folderProblem(tr("problem dump"), m_problem->text()); !why.isEmpty())
        return why;
    if (QString why = folderProblem(tr("bench dump"), m_bench->text()); !why.isEmpty())
        return why;
    const QString mapping = m_layerMapping->text().trimmed();
    if (!mapping.isEmpty() && !QFileInfo(mapping).isFile())
        return tr("The layer mapping is not a file: %1").arg(mapping);
    return {};
}

void PairDialog::validate()
{
    const QString why = whyNotOpen();
    m_buttons->button(QDialogButtonBox::Open)->setEnabled(why.isEmpty());
    m_why->setText(why);
}

void PairDialog::setPaths(const QString& problem, const QString& bench)
{
    m_problem->setText(problem);
    m_bench->setText(bench);
}

LoadRequest PairDialog::request() const
{
    LoadRequest request;
    request.kind = LoadRequest::Kind::Pair;
    request.path = m_problem->text();
    request.bench = m_bench->text();
    request.fuzzyMatch = m_fuzzy->isChecked();
    request.overflowCheck = m_overflow->isChecked();
    request.outputDir = m_output->text();
    request.layerMappingFile = m_layerMapping->text().trimmed();
    return request;
}
