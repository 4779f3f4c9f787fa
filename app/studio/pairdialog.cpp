// SPDX-License-Identifier: Apache-2.0
#include "pairdialog.h"

#include "graph/graph_run.h"
#include "support/error.h"

#include <QCheckBox>
#include <QGridLayout>
#include <QGroupBox>
#include <QSpinBox>
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
    buildMergeFields(form);
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
    return mergeProblem();
}

void PairDialog::buildMergeFields(QFormLayout* form)
{
    m_merge = new QGroupBox(tr("Parallel &merge: one graph per data-parallel copy (--rank_size, --tp, --pp, --vpp, --order)"), this);
    m_merge->setCheckable(true);
    m_merge->setChecked(false);
    auto* grid = new QGridLayout(m_merge);
    grid->addWidget(new QLabel(tr("Problem"), m_merge), 0, 1);
    grid->addWidget(new QLabel(tr("Bench"), m_merge), 0, 2);
    const QString labels[] = { tr("Ranks (--rank_size):"), tr("TP (--tp):"), tr("PP (--pp):"), tr("VPP (--vpp):"), tr("Order (--order):") };
    for (int row = 0; row < 5; ++row)
        grid->addWidget(new QLabel(labels[row], m_merge), row + 1, 0);
    for (int side = 0; side < 2; ++side) {
        MergeFields& f = m_mergeFields[side];
        auto number = [this, grid, side](int row, int value) {
            auto* box = new QSpinBox(m_merge);
            box->setRange(1, 1 << 16);
            box->setValue(value);
            grid->addWidget(box, row, side + 1);
            connect(box, &QSpinBox::valueChanged, this, &PairDialog::validate);
            return box;
        };
        f.rankSize = number(1, 8);
        f.tp = number(2, 1);
        f.pp = number(3, 1);
        f.vpp = number(4, 1);
        f.order = new QLineEdit(QStringLiteral("tp-cp-ep-dp-pp"), m_merge);
        grid->addWidget(f.order, 5, side + 1);
        connect(f.order, &QLineEdit::textChanged, this, &PairDialog::validate);
    }
    connect(m_merge, &QGroupBox::toggled, this, &PairDialog::validate);
    form->addRow(m_merge);
}

QString PairDialog::mergeProblem() const
{
    if (!m_merge || !m_merge->isChecked())
        return {};
    const msprobe::studio::LoadRequest wanted = request();
    for (int side = 0; side < 2; ++side) {
        const std::filesystem::path root = (side == 0 ? m_problem : m_bench)->text().toStdString();
        try {
            const std::size_t ranks = msprobe::graph::ranksToMerge(root);
            msprobe::graph::validateParallelParams(wanted.parallelMerge[static_cast<std::size_t>(side)], ranks, root.string());
        } catch (const std::exception& error) {
            return QString::fromUtf8(error.what());
        }
    }
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

msprobe::studio::LoadRequest PairDialog::request() const
{
    msprobe::studio::LoadRequest request;
    request.kind = msprobe::studio::LoadRequest::Kind::Pair;
    request.path = m_problem->text();
    request.bench = m_bench->text();
    request.fuzzyMatch = m_fuzzy->isChecked();
    request.overflowCheck = m_overflow->isChecked();
    request.outputDir = m_output->text();
    request.layerMappingFile = m_layerMapping->text().trimmed();
    if (m_merge && m_merge->isChecked())
        for (const MergeFields& f : m_mergeFields) {
            msprobe::graph::ParallelParams params;
            params.rankSize = f.rankSize->value();
            params.tp = f.tp->value();
            params.pp = f.pp->value();
            params.vpp = f.vpp->value();
            params.order = f.order->text().trimmed().toStdString();
            request.parallelMerge.push_back(params);
        }
    return request;
}
