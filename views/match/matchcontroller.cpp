// SPDX-License-Identifier: Apache-2.0
#include "match/matchcontroller.h"

#include "studiosession.h"

#include "graph/graph_run.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QUndoCommand>
#include <QUndoStack>

#include <exception>

using msprobe::graph::ManualMatcher;
using msprobe::graph::MappingFileReport;
using msprobe::graph::MatchRow;

namespace {

QString text(const std::string& s) { return QString::fromStdString(s); }

} // namespace

// One applied operation: redo writes the rows after it, undo the rows before it.
class MatchCommand : public QUndoCommand {
public:
    MatchCommand(MatchController* controller, const QString& name, msprobe::graph::MatchEdit edit)
        : QUndoCommand(name)
        , m_controller(controller)
        , m_edit(std::move(edit))
    {
    }
    void redo() override
    {
        if (!m_controller->write(m_edit.after))
            setObsolete(true);
    }
    void undo() override { m_controller->write(m_edit.before); }

private:
    MatchController* m_controller;
    msprobe::graph::MatchEdit m_edit;
};

MatchController::MatchController(StudioSession* session, QObject* parent)
    : QObject(parent)
    , m_stack(new QUndoStack(this))
    , m_session(session)
{
    m_worker.setMaxThreadCount(1);
}

MatchController::~MatchController() { m_worker.waitForDone(); }

bool MatchController::open(int step, int rank)
{
    close();
    m_matcher = m_session->manualMatcher(step, rank, &m_error);
    if (!m_matcher)
        return false;
    const StudioSession::GraphPair shown = m_session->graphs(step, rank);
    m_problem = shown.problem;
    m_bench = shown.bench;
    m_error.clear();
    return true;
}

void MatchController::close()
{
    waitForIdle();
    ++m_generation;
    m_stack->clear();
    m_matcher.reset();
    m_problem.reset();
    m_bench.reset();
}

void MatchController::waitForIdle()
{
    m_worker.waitForDone();
    QCoreApplication::sendPostedEvents(this); // deliver a finished plan now
}

std::pair<std::string, std::string> MatchController::nodeData(StudioFocus::Side side, const std::string& name) const
{
    if (!m_matcher)
        return {};
    return m_session->nodeData(m_matcher->step(), m_matcher->rank(), side, name);
}

QString MatchController::mappingFilePath() const
{
    return m_matcher ? QString::fromStdString(m_matcher->mappingFile().string()) : QString();
}

void MatchController::match(const QString& problemNode, const QString& benchNode, bool descendants)
{
    const std::string n = problemNode.toStdString(), b = benchNode.toStdString();
    run(tr("Match %1 with %2").arg(problemNode, benchNode),
        [n, b, descendants](const ManualMatcher& matcher) {
            MappingFileReport out;
            out.edit = matcher.planMatch(n, b, descendants);
            return out;
        },
        false);
}

void MatchController::unmatch(const QString& problemNode, bool descendants)
{
    const std::string n = problemNode.toStdString();
    run(tr("Unmatch %1").arg(problemNode),
        [n, descendants](const ManualMatcher& matcher) {
            MappingFileReport out;
            out.edit = matcher.planUnmatch(n, descendants);
            return out;
        },
        false);
}

void MatchController::applyMappingFile(const QString& file)
{
    const std::filesystem::path path = file.toStdString();
    run(tr("Apply %1").arg(QFileInfo(file).fileName()), [path](const ManualMatcher& matcher) { return matcher.planMappingFile(path); },
        true);
}

bool MatchController::writeMappingFile()
{
    if (!m_matcher)
        return false;
    try {
        m_matcher->writeMapping(m_matcher->mappingFile());
        return true;
    } catch (const std::exception& error) {
        emit failed(QString::fromUtf8(error.what()));
        return false;
    }
}

void MatchController::run(const QString& name, Plan plan, bool report)
{
    if (!m_matcher) {
        emit failed(tr("No compare graph is open for matching."));
        return;
    }
    if (m_busy) {
        emit failed(tr("A match is still being computed; try again when it is done."));
        return;
    }
    auto execute = [this, plan, name, report](auto deliver) {
        try {
            deliver(plan(*m_matcher), QString());
        } catch (const std::exception& error) {
            deliver(MappingFileReport {}, QString::fromUtf8(error.what()));
        }
    };
    const bool slow = m_matcher->mode() == msprobe::compare::CompareMode::Tensor;
    if (!slow) {
        execute([&](MappingFileReport result, const QString& error) {
            error.isEmpty() ? push(name, std::move(result), report) : emit failed(error);
        });
        return;
    }
    setBusy(true);
    const int generation = m_generation;
    m_worker.start([this, execute, generation, name, report] {
        execute([&](MappingFileReport result, const QString& error) {
            QMetaObject::invokeMethod(
                this,
                [this, generation, name, report, result = std::move(result), error]() mutable {
                    setBusy(false);
                    if (generation != m_generation)
                        return;
                    error.isEmpty() ? push(name, std::move(result), report) : emit failed(error);
                },
                Qt::QueuedConnection);
        });
    });
}

void MatchController::push(const QString& name, MappingFileReport result, bool report)
{
    if (report) {
        QStringList problems;
        for (const auto& problem : result.problems)
            problems << text(problem);
        emit mappingFileApplied(int(result.total), int(result.success), int(result.failed), problems);
    }
    if (result.edit.empty())
        return;
    m_stack->push(new MatchCommand(this, name, std::move(result.edit)));
}

bool MatchController::write(const std::vector<MatchRow>& rows)
{
    if (!m_matcher)
        return false;
    m_worker.waitForDone(); // a plan being computed reads the graphs this write changes
    try {
        m_matcher->apply(rows);
    } catch (const std::exception& error) {
        emit failed(QString::fromUtf8(error.what()));
        return false;
    }
    QStringList names;
    for (const auto& row : rows) {
        const bool npu = row.dataSource == "NPU";
        names << text(row.name);
        auto& shown = npu ? m_problem : m_bench;
        if (!shown)
            continue;
        const auto index = shown->find(row.name);
        if (index == msprobe::graph::kNoVisNode)
            continue;
        auto& node = shown->nodes[index];
        node.link = row.link;
        node.precision = row.precision;
        node.modified = row.modified;
        if (!node.inputData.empty() || !node.outputData.empty()) {
            node.inputData = row.inputData;
            node.outputData = row.outputData;
        }
    }
    names.removeDuplicates();
    emit nodesChanged(names);
    return true;
}

void MatchController::setBusy(bool busy)
{
    if (m_busy == busy)
        return;
    m_busy = busy;
    emit busyChanged(busy);
}
