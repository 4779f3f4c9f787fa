// SPDX-License-Identifier: Apache-2.0
#include "match/nodematchpanel.h"

#include "match/matchcontroller.h"
#include "match/nodepicklist.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QFileInfo>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

namespace {

QString text(const std::string& s) { return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size())); }

QGroupBox* pairBox(const QString& title, NodePickList* left, NodePickList* right, QCheckBox* descendants, QPushButton* button, QWidget* parent)
{
    auto* box = new QGroupBox(title, parent);
    auto* layout = new QVBoxLayout(box);
    auto* lists = new QHBoxLayout;
    lists->addWidget(left);
    lists->addWidget(right);
    layout->addLayout(lists, 1);
    layout->addWidget(descendants);
    layout->addWidget(button);
    return box;
}

} // namespace

NodeMatchPanel::NodeMatchPanel(MatchController* controller, QWidget* parent)
    : QWidget(parent)
    , m_controller(controller)
{
    auto* layout = new QVBoxLayout(this);

    m_fileBox = new QGroupBox(tr("Match configuration file"), this);
    auto* fileLayout = new QVBoxLayout(m_fileBox);
    m_files = new QComboBox(m_fileBox);
    m_apply = new QPushButton(tr("Apply"), m_fileBox);
    m_generate = new QPushButton(tr("Generate match configuration file"), m_fileBox);
    m_report = new QLabel(m_fileBox);
    m_report->setWordWrap(true);
    auto* pick = new QHBoxLayout;
    pick->addWidget(m_files, 1);
    pick->addWidget(m_apply);
    fileLayout->addLayout(pick);
    fileLayout->addWidget(m_report);
    fileLayout->addWidget(m_generate);
    layout->addWidget(m_fileBox);

    m_problemUnmatched = new NodePickList(tr("Debug unmatched"), this);
    m_benchUnmatched = new NodePickList(tr("Bench unmatched"), this);
    m_matchDescendants = new QCheckBox(tr("Simultaneously operate descendant nodes"), this);
    m_match = new QPushButton(tr("Match"), this);
    layout->addWidget(pairBox(tr("Match nodes"), m_problemUnmatched, m_benchUnmatched, m_matchDescendants, m_match, this), 1);

    m_problemMatched = new NodePickList(tr("Debug matched"), this);
    m_benchMatched = new NodePickList(tr("Bench matched"), this);
    m_unmatchDescendants = new QCheckBox(tr("Simultaneously operate descendant nodes"), this);
    m_unmatch = new QPushButton(tr("Unmatch"), this);
    layout->addWidget(pairBox(tr("Unmatch nodes"), m_problemMatched, m_benchMatched, m_unmatchDescendants, m_unmatch, this), 1);

    connect(m_match, &QPushButton::clicked, this, &NodeMatchPanel::matchSelected);
    connect(m_unmatch, &QPushButton::clicked, this, &NodeMatchPanel::unmatchSelected);
    connect(m_apply, &QPushButton::clicked, this, &NodeMatchPanel::applySelectedFile);
    connect(m_generate, &QPushButton::clicked, this, &NodeMatchPanel::generateFile);
    // A matched debug node brings its partner into the bench list, and back.
    connect(m_problemMatched, &NodePickList::currentNameChanged, this, [this](const QString& name) {
        if (const auto* matcher = m_controller->matcher()) {
            const auto n = matcher->npu().find(name.toStdString());
            if (n != msprobe::graph::kNoVisNode && matcher->npu().nodes[n].matched())
                m_benchMatched->setCurrentName(text(matcher->npu().nodes[n].link.back()));
        }
    });
    connect(m_controller, &MatchController::nodesChanged, this, &NodeMatchPanel::refresh);
    connect(m_controller, &MatchController::busyChanged, this, [this](bool busy) {
        for (QPushButton* button : { m_match, m_unmatch, m_apply })
            button->setEnabled(!busy);
    });
    connect(m_controller, &MatchController::mappingFileApplied, this,
        [this](int total, int success, int failed, const QStringList& problems) {
            QString report = tr("total %1 / success %2 / failed %3").arg(total).arg(success).arg(failed);
            if (!problems.isEmpty())
                report += QLatin1Char('\n') + problems.join(QLatin1Char('\n'));
            m_report->setText(report);
        });
    connect(m_controller, &MatchController::failed, m_report, &QLabel::setText);
    refresh();
}

void NodeMatchPanel::setStudioFocus(StudioFocus* focus)
{
    if (m_focus)
        disconnect(m_focus, nullptr, this, nullptr);
    m_focus = focus;
    if (focus) {
        connect(focus, &StudioFocus::nodeChanged, this, &NodeMatchPanel::followFocus);
        connect(focus, &StudioFocus::microStepChanged, this, &NodeMatchPanel::refresh);
    }
}

void NodeMatchPanel::refresh()
{
    const auto* matcher = m_controller->matcher();
    QStringList lists[4]; // debug unmatched, bench unmatched, debug matched, bench matched
    // The lists follow the micro-step filter as the plugin's queries do: (? = -1 OR micro_step_id = ?).
    const int microStep = m_focus ? m_focus->microStep() : -1;
    const auto shown = [microStep](const msprobe::graph::VisNode& node) { return microStep == -1 || node.microStep == microStep; };
    if (matcher) {
        for (const auto& node : matcher->npu().nodes)
            if (shown(node))
                lists[node.matched() ? 2 : 0] << text(node.name);
        for (const auto& node : matcher->bench().nodes)
            if (shown(node))
                lists[node.matched() ? 3 : 1] << text(node.name);
    }
    m_problemUnmatched->setNames(lists[0]);
    m_benchUnmatched->setNames(lists[1]);
    m_problemMatched->setNames(lists[2]);
    m_benchMatched->setNames(lists[3]);
    // Tensor mode: the reference offers neither mapping files nor descendants there.
    const bool tensor = matcher && matcher->mode() == msprobe::compare::CompareMode::Tensor;
    m_fileBox->setVisible(!tensor);
    m_matchDescendants->setVisible(!tensor);
    m_unmatchDescendants->setVisible(!tensor);
    setEnabled(matcher != nullptr);
    m_generate->setToolTip(QFileInfo(m_controller->mappingFilePath()).fileName());
    listConfigFiles();
}

void NodeMatchPanel::listConfigFiles()
{
    const QString current = m_files->currentText();
    m_files->clear();
    const QString mapping = m_controller->mappingFilePath();
    if (mapping.isEmpty())
        return;
    const QDir dir = QFileInfo(mapping).absoluteDir();
    for (const QString& name : dir.entryList({ QStringLiteral("*.vis.config") }, QDir::Files, QDir::Name))
        m_files->addItem(name, dir.filePath(name));
    m_files->setCurrentIndex(std::max(0, m_files->findText(current)));
}

QString NodeMatchPanel::reportText() const { return m_report->text(); }

void NodeMatchPanel::matchSelected()
{
    const QString problem = m_problemUnmatched->currentName(), bench = m_benchUnmatched->currentName();
    if (problem.isEmpty() || bench.isEmpty()) {
        m_report->setText(tr("Pick a debug node and a bench node to match."));
        return;
    }
    m_controller->match(problem, bench, m_matchDescendants->isChecked() && m_matchDescendants->isVisible());
}

void NodeMatchPanel::unmatchSelected()
{
    const QString problem = m_problemMatched->currentName();
    if (problem.isEmpty()) {
        m_report->setText(tr("Pick a matched debug node to unmatch."));
        return;
    }
    m_controller->unmatch(problem, m_unmatchDescendants->isChecked() && m_unmatchDescendants->isVisible());
}

void NodeMatchPanel::applySelectedFile()
{
    const QString file = m_files->currentData().toString();
    if (file.isEmpty()) {
        m_report->setText(tr("No .vis.config file beside the database."));
        return;
    }
    m_controller->applyMappingFile(file);
}

void NodeMatchPanel::generateFile()
{
    if (m_controller->writeMappingFile()) {
        m_report->setText(tr("Written %1").arg(QDir::toNativeSeparators(m_controller->mappingFilePath())));
        listConfigFiles();
    }
}

void NodeMatchPanel::followFocus(const QString& name, StudioFocus::Side side)
{
    const bool problem = side == StudioFocus::Side::Problem;
    if (!(problem ? m_problemUnmatched : m_benchUnmatched)->setCurrentName(name))
        (problem ? m_problemMatched : m_benchMatched)->setCurrentName(name);
    if (!problem) {
        const auto* matcher = m_controller->matcher();
        const auto b = matcher ? matcher->bench().find(name.toStdString()) : msprobe::graph::kNoVisNode;
        if (b != msprobe::graph::kNoVisNode && matcher->bench().nodes[b].matched())
            m_problemMatched->setCurrentName(text(matcher->bench().nodes[b].link.back()));
    }
}
