// SPDX-License-Identifier: Apache-2.0
#include "parallelconfigdialog.h"

#include "parallel/parallel_layout.h"
#include "support/error.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>

#include <algorithm>

namespace {

// Large enough to type a world size past the core's limit and read its message.
constexpr int kMaxField = 1 << 20;

QSpinBox* numberBox(QWidget* parent, int minimum, int value)
{
    auto* box = new QSpinBox(parent);
    box->setRange(minimum, kMaxField);
    box->setValue(value);
    box->setAccelerated(true);
    return box;
}

} // namespace

ParallelConfigDialog::ParallelConfigDialog(QWidget* parent)
    : QDialog(parent)
{
    setWindowTitle(tr("Parallel configuration"));
    auto* form = new QFormLayout(this);
    m_note = new QLabel(this);
    m_note->setWordWrap(true);
    m_note->hide();
    form->addRow(m_note);
    m_worldSize = numberBox(this, 0, 8);
    m_numLayers = numberBox(this, 0, 8);
    m_tp = numberBox(this, 0, 1);
    m_pp = numberBox(this, 0, 1);
    m_perVirtualStage = numberBox(this, 0, 0);
    m_perVirtualStage->setSpecialValueText(tr("none (no virtual pipeline)"));
    m_order = new QComboBox(this);
    m_order->setEditable(true);
    m_order->addItems({ QStringLiteral("tp-cp-ep-dp-pp"), QStringLiteral("tp-pp-dp"), QStringLiteral("tp-dp-pp"), QStringLiteral("tp-cp-dp-pp") });
    m_standalone = new QCheckBox(tr("Embedding on a stage of its own (--standalone_embedding_stage)"), this);
    form->addRow(tr("&World size:"), m_worldSize);
    form->addRow(tr("&Layers:"), m_numLayers);
    form->addRow(tr("&Tensor parallel (TP):"), m_tp);
    form->addRow(tr("&Pipeline parallel (PP):"), m_pp);
    form->addRow(tr("Layers per &virtual stage:"), m_perVirtualStage);
    form->addRow(tr("&Order:"), m_order);
    form->addRow(m_standalone);
    m_summary = new QLabel(this);
    m_summary->setObjectName(QStringLiteral("parallelSummary"));
    m_summary->setWordWrap(true);
    form->addRow(m_summary);
    m_error = new QLabel(this);
    m_error->setObjectName(QStringLiteral("parallelConfigError"));
    m_error->setWordWrap(true);
    m_error->setTextInteractionFlags(Qt::TextSelectableByMouse);
    form->addRow(m_error);
    m_buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    form->addRow(m_buttons);
    connect(m_buttons, &QDialogButtonBox::accepted, this, [this] {
        if (canAccept())
            accept();
    });
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    for (QSpinBox* box : { m_worldSize, m_numLayers, m_tp, m_pp, m_perVirtualStage })
        connect(box, &QSpinBox::valueChanged, this, &ParallelConfigDialog::validate);
    connect(m_order, &QComboBox::currentTextChanged, this, &ParallelConfigDialog::validate);
    connect(m_standalone, &QCheckBox::toggled, this, &ParallelConfigDialog::validate);
    validate();
}

void ParallelConfigDialog::setNote(const QString& note)
{
    m_note->setText(note);
    m_note->setVisible(!note.isEmpty());
}

void ParallelConfigDialog::setDumpTpGroup(std::vector<int> group)
{
    std::sort(group.begin(), group.end());
    m_dumpTpGroup = std::move(group);
    validate();
}

void ParallelConfigDialog::setConfig(const msprobe::parallel::ParallelConfig& config)
{
    auto clamp = [](long long value) { return static_cast<int>(std::clamp<long long>(value, 0, kMaxField)); };
    m_worldSize->setValue(clamp(config.worldSize));
    m_numLayers->setValue(clamp(config.numLayers));
    m_tp->setValue(clamp(config.tensorParallelSize));
    m_pp->setValue(clamp(config.pipelineParallelSize));
    m_perVirtualStage->setValue(clamp(config.layersPerVirtualStage.value_or(0)));
    m_order->setCurrentText(QString::fromStdString(config.order));
    m_standalone->setChecked(config.standaloneEmbeddingStage);
    validate();
}

msprobe::parallel::ParallelConfig ParallelConfigDialog::config() const
{
    msprobe::parallel::ParallelConfig config;
    config.worldSize = m_worldSize->value();
    config.numLayers = m_numLayers->value();
    config.tensorParallelSize = m_tp->value();
    config.pipelineParallelSize = m_pp->value();
    if (m_perVirtualStage->value() > 0)
        config.layersPerVirtualStage = m_perVirtualStage->value();
    config.order = m_order->currentText().trimmed().toStdString();
    config.standaloneEmbeddingStage = m_standalone->isChecked();
    return config;
}

QString ParallelConfigDialog::whyInvalid() const
{
    try {
        msprobe::parallel::deriveLayout(config());
    } catch (const msprobe::support::Error& error) {
        return QString::fromUtf8(error.what());
    }
    return {};
}

bool ParallelConfigDialog::canAccept() const { return whyInvalid().isEmpty(); }

void ParallelConfigDialog::validate()
{
    QString summary, why;
    m_tpWarning.clear();
    try {
        const auto layout = msprobe::parallel::deriveLayout(config());
        const auto& sizes = layout.sizes;
        summary = tr("DP %1, VPP %2, %3 TP groups; the CLI's picture: %4")
                      .arg(sizes.dataParallel)
                      .arg(sizes.virtualPipelineParallel)
                      .arg(sizes.worldSize / sizes.tensorParallel)
                      .arg(QString::fromStdString(layout.fileName));
        const bool seen = m_dumpTpGroup.empty() || std::any_of(layout.tpGroups.begin(), layout.tpGroups.end(), [this](std::vector<int> group) {
            std::sort(group.begin(), group.end());
            return group == m_dumpTpGroup;
        });
        if (!seen) {
            QStringList ranks;
            for (int rank : m_dumpTpGroup)
                ranks << QString::number(rank);
            m_tpWarning = tr("The dumps' group_ranks [%1] is not a TP group of this configuration; check the order.").arg(ranks.join(QStringLiteral(", ")));
            summary += QLatin1Char('\n') + m_tpWarning;
        }
    } catch (const msprobe::support::Error& error) {
        why = QString::fromUtf8(error.what());
    }
    m_summary->setText(summary);
    m_error->setText(why);
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(why.isEmpty());
}
