// SPDX-License-Identifier: Apache-2.0
#include "studiosession.h"

#include "sessionloader.h"
#include "visdbcomparerows.h"

#include "dump/dump_tree.h"
#include "graph/visdb/error_magnitude.h"
#include "graph/visdb/stored_items.h"
#include "support/error.h"

#include <QFileInfo>
#include <QtConcurrent/QtConcurrentRun>

#include <set>

namespace fs = std::filesystem;

namespace {

fs::path nativePath(const QString& path) { return fs::path(path.toStdString()); }

bool isVisDbFile(const QFileInfo& info) { return info.isFile() && info.fileName().endsWith(QLatin1String(".db")); }
bool isCsvFile(const QFileInfo& info) { return info.isFile() && info.suffix().compare(QLatin1String("csv"), Qt::CaseInsensitive) == 0; }

// Scales a stage's 0..100 into [from, to] of the whole load.
msprobe::studio::sessionloader::Progress scaled(const msprobe::studio::sessionloader::Progress& report, int from, int to)
{
    return [report, from, to](int percent, const std::string& stage) { report(from + (to - from) * percent / 100, stage); };
}

} // namespace

msprobe::studio::LoadRequest msprobe::studio::LoadRequest::forPaths(const QStringList& paths, QString* error)
{
    msprobe::studio::LoadRequest request;
    for (const QString& path : paths) {
        if (!QFileInfo::exists(path)) {
            *error = QObject::tr("%1 does not exist.").arg(path);
            return request;
        }
    }
    if (paths.size() == 2) {
        request.kind = Kind::Pair;
        request.path = paths[0];
        request.bench = paths[1];
    } else if (paths.size() == 1) {
        const QFileInfo info(paths[0]);
        request.path = paths[0];
        request.kind = isVisDbFile(info) ? Kind::VisDb : isCsvFile(info) ? Kind::CompareCsv : Kind::DumpFolder;
    } else {
        *error = QObject::tr("Open one path (a dump folder, a .vis.db or a compare CSV) or two dump folders (problem, bench).");
    }
    return request;
}

StudioSession::StudioSession(QObject* parent)
    : QObject(parent)
{
}

StudioSession::~StudioSession()
{
    cancel();
    waitForIdle();
}

void StudioSession::cancel()
{
    if (m_cancel)
        m_cancel->store(true);
}

void StudioSession::waitForIdle() { m_future.waitForFinished(); }

void StudioSession::clear()
{
    m_summary.reset();
    m_visDbPath.clear();
    m_config = {};
    m_db.reset();
    m_graphs.clear();
    m_compare.clear();
    m_allCompare.reset();
    m_warnings.clear();
    m_verdicts.clear();
    m_graphUnavailable.clear();
    m_matcher.reset();
    m_matcherKey = { -1, -1 };
}

void StudioSession::open(const msprobe::studio::LoadRequest& request)
{
    cancel();
    waitForIdle();
    // What is open stays until the new load publishes its first part: a failed or cancelled open loses nothing.
    m_pendingRequest = request;
    m_replacePending = true;
    const std::uint64_t generation = ++m_generation;
    m_cancel = std::make_shared<std::atomic<bool>>(false);
    m_loading = true;
    emit loadStarted(request.kind == msprobe::studio::LoadRequest::Kind::Pair ? tr("%1 vs %2").arg(request.path, request.bench) : request.path);
    m_future = QtConcurrent::run([this, request, generation, cancelFlag = m_cancel] { runLoad(request, generation, cancelFlag); });
}

template <typename F>
void StudioSession::publish(std::uint64_t generation, F&& f)
{
    QMetaObject::invokeMethod(
        this,
        [this, generation, f = std::forward<F>(f)]() mutable {
            if (generation == m_generation.load())
                f();
        },
        Qt::QueuedConnection);
}

void StudioSession::replaceWithPending()
{
    if (!m_replacePending)
        return;
    m_replacePending = false;
    clear();
    m_request = m_pendingRequest;
    emit summaryChanged();
    emit graphsChanged();
    emit compareChanged();
}

template <typename F>
void StudioSession::publishPart(std::uint64_t generation, F&& f)
{
    publish(generation, [this, f = std::forward<F>(f)]() mutable {
        replaceWithPending();
        f();
    });
}

void StudioSession::applyGraphs(GraphStage stage)
{
    m_visDbPath = stage.visDbPath;
    m_db = std::move(stage.db);
    m_config = std::move(stage.config);
    m_graphs = std::move(stage.graphs);
    m_graphUnavailable.clear();
    m_matcher.reset();
    m_matcherKey = { -1, -1 };
    emit graphsChanged();
}

void StudioSession::runLoad(msprobe::studio::LoadRequest request, std::uint64_t generation, std::shared_ptr<std::atomic<bool>> cancelFlag)
{
    const std::atomic<bool>* cancel = cancelFlag.get();
    auto lastPercent = std::make_shared<int>(-1);
    const msprobe::studio::sessionloader::Progress report = [this, generation, lastPercent](int percent, const std::string& stage) {
        if (percent == *lastPercent)
            return;
        *lastPercent = percent;
        publish(generation, [this, percent, text = QString::fromStdString(stage)] { emit progress(percent, text); });
    };
    auto warn = [this, generation](const QString& message) {
        publishPart(generation, [this, message] {
            m_warnings << message;
            emit warning(message);
        });
    };
    const auto graphWarning = [warn](const std::string& message) { warn(QString::fromStdString(message)); };
    auto finish = [this, generation](bool ok, const QString& message) {
        publish(generation, [this, ok, message] {
            if (ok)
                replaceWithPending();
            m_replacePending = false;
            m_loading = false;
            emit loadFinished(ok, message);
        });
    };
    try {
        switch (request.kind) {
        case msprobe::studio::LoadRequest::Kind::DumpFolder: {
            report(0, "reading the dump folder");
            auto summary = std::make_shared<const msprobe::dump::TreeSummary>(msprobe::dump::summarizeDumpTree(msprobe::dump::discoverDumpTree(nativePath(request.path))));
            publishPart(generation, [this, summary] {
                m_summary = summary;
                emit summaryChanged();
            });
            try {
                auto stage = msprobe::studio::sessionloader::buildGraphs(nativePath(request.path), {}, msprobe::studio::sessionloader::newOutputDir(request.outputDir),
                    request, cancel, scaled(report, 30, 100), graphWarning);
                publishPart(generation, [this, stage]() mutable { applyGraphs(std::move(stage)); });
            } catch (const msprobe::support::Error& error) {
                if (cancel->load())
                    throw;
                const QString why = QString::fromUtf8(error.what());
                publishPart(generation, [this, why] { m_graphUnavailable = why; });
                warn(tr("No model graph for this dump: %1").arg(why));
            }
            break;
        }
        case msprobe::studio::LoadRequest::Kind::Pair: {
            QStringList failures;
            // One parse of each dump.json and one read of each tensor file, shared by the graphs and the compare tables.
            msprobe::dump::SharedDumps dumps;
            msprobe::compare::TensorMetricCache tensorMetrics;
            try {
                auto stage = msprobe::studio::sessionloader::buildGraphs(nativePath(request.path), nativePath(request.bench),
                    msprobe::studio::sessionloader::newOutputDir(request.outputDir), request, cancel, scaled(report, 0, 60), graphWarning, &dumps, &tensorMetrics);
                publishPart(generation, [this, stage]() mutable { applyGraphs(std::move(stage)); });
            } catch (const msprobe::support::Error& error) {
                if (cancel->load())
                    throw;
                const QString why = QString::fromUtf8(error.what());
                publishPart(generation, [this, why] { m_graphUnavailable = why; });
                failures << tr("Graph: %1").arg(why);
            }
            try {
                auto results = msprobe::studio::sessionloader::compareDumps(nativePath(request.path), nativePath(request.bench), request, cancel,
                    scaled(report, 60, 100), &dumps, &tensorMetrics);
                auto verdicts = msprobe::studio::summarizeComparisons(nativePath(request.path), nativePath(request.bench), results);
                publishPart(generation, [this, results, verdicts = std::move(verdicts)] {
                    m_compare = results;
                    m_verdicts = verdicts;
                    m_allCompare.reset();
                    emit compareChanged();
                });
            } catch (const msprobe::support::Error& error) {
                if (cancel->load())
                    throw;
                failures << tr("Compare: %1").arg(QString::fromUtf8(error.what()));
            }
            publish(generation, [this, parses = dumps.parses(), reads = tensorMetrics.reads(), reuses = tensorMetrics.reuses()] {
                m_dumpParses = parses;
                m_tensorReads = reads;
                m_tensorReuses = reuses;
            });
            if (failures.size() == 2) {
                finish(false, failures.join(QLatin1Char('\n')));
                return;
            }
            for (const QString& failure : failures)
                warn(failure);
            // The Dump summary tab: the problem side's, read last so the graphs and the table come first.
            try {
                auto summary = std::make_shared<const msprobe::dump::TreeSummary>(
                    msprobe::dump::summarizeDumpTree(msprobe::dump::discoverDumpTree(nativePath(request.path))));
                publishPart(generation, [this, summary] {
                    m_summary = summary;
                    emit summaryChanged();
                });
            } catch (const msprobe::support::Error& error) {
                if (cancel->load())
                    throw;
                warn(tr("Dump summary: %1").arg(QString::fromUtf8(error.what())));
            }
            break;
        }
        case msprobe::studio::LoadRequest::Kind::VisDb: {
            report(0, "reading the vis.db");
            auto stage = msprobe::studio::sessionloader::loadVisDb(nativePath(request.path));
            publishPart(generation, [this, stage]() mutable { applyGraphs(std::move(stage)); });
            // A compare db alone still has its compare columns: the table shows them.
            auto results = msprobe::studio::compareRowsFromVisDb(*stage.db, nativePath(request.path));
            publishPart(generation, [this, results] {
                m_compare = results;
                m_allCompare.reset();
                emit compareChanged();
            });
            break;
        }
        case msprobe::studio::LoadRequest::Kind::CompareCsv: {
            report(0, "reading the CSV");
            auto results = msprobe::studio::sessionloader::readCompareCsv(nativePath(request.path));
            publishPart(generation, [this, results] {
                m_compare = results;
                m_allCompare.reset();
                emit compareChanged();
            });
            break;
        }
        }
        report(100, "done");
        finish(true, QString());
    } catch (const std::exception& error) {
        finish(false, cancel->load() ? QString() : QString::fromUtf8(error.what()));
    }
}

StudioSession::GraphPair StudioSession::graphs(int step, int rank) const
{
    const auto it = m_graphs.find({ step, rank });
    return it == m_graphs.end() ? GraphPair {} : it->second;
}

std::shared_ptr<const msprobe::studio::CompareRows> StudioSession::compareRows(int step, int rank) const
{
    const auto it = m_compare.find({ step, rank });
    return it == m_compare.end() ? nullptr : it->second;
}

std::shared_ptr<const msprobe::studio::CompareRows> StudioSession::allCompareRows() const
{
    if (m_compare.size() < 2)
        return nullptr;
    if (!m_allCompare) {
        std::vector<msprobe::studio::CompareRowsPart> parts;
        for (const auto& [key, rows] : m_compare)
            parts.push_back({ key.first, key.second, rows });
        m_allCompare = msprobe::studio::combinedCompareRows(std::move(parts));
    }
    return m_allCompare;
}

std::vector<int> StudioSession::steps() const
{
    std::set<int> found;
    for (const auto& [key, pair] : m_graphs)
        found.insert(key.first);
    for (const auto& [key, rows] : m_compare)
        found.insert(key.first);
    return { found.begin(), found.end() };
}

std::vector<int> StudioSession::ranks() const
{
    std::set<int> found;
    for (const auto& [key, pair] : m_graphs)
        found.insert(key.second);
    for (const auto& [key, rows] : m_compare)
        found.insert(key.second);
    return { found.begin(), found.end() };
}

std::optional<msprobe::compare::DivergencePoint> StudioSession::firstDivergence(int step, int rank) const
{
    if (const msprobe::compare::PairOutcome* outcome = verdict(step, rank))
        return outcome->firstDivergence;
    const auto rows = compareRows(step, rank);
    const msprobe::compare::CompareTable* table = rows ? rows->table() : nullptr;
    if (!table)
        return std::nullopt;
    return msprobe::compare::firstDivergence(*table);
}

const msprobe::compare::PairOutcome* StudioSession::verdict(int step, int rank) const
{
    const auto it = m_verdicts.find({ step, rank });
    return it == m_verdicts.end() ? nullptr : &it->second;
}

std::shared_ptr<msprobe::graph::ManualMatcher> StudioSession::manualMatcher(int step, int rank, QString* error)
{
    if (m_matcher && m_matcherKey == Key { step, rank })
        return m_matcher;
    m_matcher.reset();
    m_matcherKey = { -1, -1 };
    QString why;
    if (m_visDbPath.isEmpty() || !m_config.isCompare()) {
        why = tr("No compare graph is open for matching.");
    } else {
        try {
            m_matcher = std::make_shared<msprobe::graph::ManualMatcher>(nativePath(m_visDbPath), step, rank);
            m_matcherKey = { step, rank };
        } catch (const std::exception& failure) {
            why = QString::fromUtf8(failure.what());
        }
    }
    if (error)
        *error = why;
    return m_matcher;
}

std::pair<std::string, std::string> StudioSession::nodeData(int step, int rank, StudioFocus::Side side, const std::string& name) const
{
    if (m_matcher && m_matcherKey == Key { step, rank }) {
        const auto& graph = side == StudioFocus::Side::Problem ? m_matcher->npu() : m_matcher->bench();
        const auto index = graph.find(name);
        if (index == msprobe::graph::kNoVisNode)
            return {};
        return { graph.nodes[index].inputData, graph.nodes[index].outputData };
    }
    if (!m_db)
        return {};
    try {
        return m_db->nodeData(step, rank, side == StudioFocus::Side::Bench ? "Bench" : "NPU", name);
    } catch (const std::exception&) {
        return {};
    }
}

std::vector<float> StudioSession::errorMagnitudes(int step, int rank) const
{
    const GraphPair pair = graphs(step, rank);
    if (!pair.problem || !pair.bench || !m_db || !m_config.isCompare())
        return {};
    try {
        const auto mode = msprobe::graph::compareModeOfTask(m_config.task, m_visDbPath.toStdString());
        // The matching handle holds the pair's graphs as edited; the vis.db has the same rows once written.
        if (m_matcher && m_matcherKey == Key { step, rank })
            return msprobe::graph::errorMagnitudes(m_matcher->npu(), mode);
        return msprobe::graph::errorMagnitudes(m_db->load(step, rank, "NPU", true), mode);
    } catch (const std::exception&) {
        return {};
    }
}
