// SPDX-License-Identifier: Apache-2.0
#include "trendsource.h"

#include "sessionloader.h"

#include "support/error.h"
#include "trend/dump_import.h"
#include "trend/monitor_import.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QThread>
#include <QtConcurrent/QtConcurrentRun>

#include <cmath>

#include <sys/stat.h>

namespace fs = std::filesystem;
using msprobe::studio::Dimension;
using msprobe::studio::TrendGrid;
using msprobe::studio::TrendQuery;
using msprobe::studio::TrendSeries;

namespace {

// What tells one content of a file from another without reading it: path, device and inode (a database
// rewritten by data2db is a new file renamed over the old one), size, modification and change times.
QString contentStamp(const QString& file)
{
    if (file.isEmpty())
        return {};
    struct stat info {};
    if (::stat(QFile::encodeName(file).constData(), &info) != 0)
        return file;
    return QStringLiteral("%1|%2:%3|%4|%5.%6|%7.%8")
        .arg(file)
        .arg(info.st_dev)
        .arg(info.st_ino)
        .arg(info.st_size)
        .arg(info.st_mtim.tv_sec)
        .arg(info.st_mtim.tv_nsec)
        .arg(info.st_ctim.tv_sec)
        .arg(info.st_ctim.tv_nsec);
}

bool isTrendDbName(const QString& path) { return path.endsWith(QLatin1String(".trend.db"), Qt::CaseInsensitive); }

// The trend.db of one side: the file itself, a folder holding one, or a dump / monitor folder imported into
// outputDir as `msprobe data2db` would. Throws msprobe::Error naming the input.
QString trendDatabaseOf(const QString& input, const fs::path& outputDir, const char* side, const msprobe::trend::ImportOptions& options)
{
    const QFileInfo info(input);
    if (info.isFile())
        return input;
    if (!info.isDir())
        throw msprobe::support::Error(input.toStdString(), {}, "no such file or folder");
    const fs::path path(input.toStdString());
    if (msprobe::trend::hasDumpSteps(path)) {
        const fs::path db = outputDir / (std::string(side) + "_dump_data.trend.db");
        msprobe::trend::importDumpData(path, db, options);
        return QString::fromStdString(db.string());
    }
    if (msprobe::trend::hasMonitorData(path)) {
        const fs::path db = outputDir / (std::string(side) + "_monitor_data.trend.db");
        msprobe::trend::importMonitorData(path, db, options);
        return QString::fromStdString(db.string());
    }
    const QStringList databases = QDir(input).entryList({ QStringLiteral("*.trend.db") }, QDir::Files, QDir::Name);
    if (databases.size() == 1)
        return QDir(input).filePath(databases.front());
    throw msprobe::support::Error(input.toStdString(), {},
        databases.empty() ? "neither a dump folder (step{S}/...), a monitor folder ({time}-rank{N}-{hash}/ or rank_{N}/) "
                            "nor a folder with a *.trend.db"
                          : "holds several *.trend.db files: open the one to show");
}

} // namespace

TrendSource::TrendSource(QObject* parent)
    : QObject(parent)
{
    m_queryThread.setMaxThreadCount(1);
    m_queryThread.setExpiryTimeout(-1); // keeps its thread (the connections live in the requests' shared state)
}

TrendSource::~TrendSource()
{
    cancel();
    waitForIdle();
    m_gridRequest->fetch_add(1); // everything queued is stale
    m_queryThread.clear();
    m_queryThread.waitForDone();
}

bool TrendSource::canOpen(const QString& path)
{
    const QFileInfo info(path);
    if (info.isFile())
        return isTrendDbName(path);
    if (!info.isDir())
        return false;
    const fs::path dir(path.toStdString());
    return msprobe::trend::hasMonitorData(dir) || msprobe::trend::hasDumpSteps(dir)
        || !QDir(path).entryList({ QStringLiteral("*.trend.db") }, QDir::Files).isEmpty();
}

bool TrendSource::isTrendOnly(const QString& path)
{
    const QFileInfo info(path);
    if (info.isFile())
        return isTrendDbName(path);
    return info.isDir() && msprobe::trend::hasMonitorData(fs::path(path.toStdString()));
}

void TrendSource::cancel()
{
    if (m_cancel)
        m_cancel->store(true);
}

void TrendSource::waitForIdle() { m_future.waitForFinished(); }

void TrendSource::setTolerance(double tolerance) { m_tolerance = tolerance; }

void TrendSource::openPair(const QString& problem, const QString& bench)
{
    cancel();
    const std::uint64_t generation = ++m_generation;
    auto cancelFlag = std::make_shared<std::atomic<bool>>(false);
    m_cancel = cancelFlag;
    m_loading = true;
    emit loadStarted(bench.isEmpty() ? problem : tr("%1 vs %2").arg(problem, bench));
    m_future = QtConcurrent::run([this, problem, bench, cancelFlag, generation] {
        Resolved resolved = resolve(problem, bench, cancelFlag, generation);
        if (resolved.error.isEmpty() && !cancelFlag->load())
            openDatabases(resolved);
        QMetaObject::invokeMethod(this, [this, resolved, generation, cancelFlag] {
            if (generation != m_generation)
                return;
            m_loading = false;
            if (!resolved.error.isEmpty() || cancelFlag->load()) {
                emit loadFinished(false, cancelFlag->load() ? QString() : resolved.error);
                return;
            }
            m_problem = resolved.problemDb;
            m_bench = resolved.benchDb;
            m_firstQuery = resolved.firstQuery;
            m_firstGrid = resolved.firstGrid;
            m_gridRequest->fetch_add(1); // queries of the old databases are stale
            m_queryConnections = std::make_shared<QueryConnections>();
            m_queryConnections->problemFile = m_problem->file();
            m_queryConnections->benchFile = m_bench ? m_bench->file() : QString();
            emit opened();
            emit loadFinished(true, QString());
        }, Qt::QueuedConnection);
    });
}

TrendSource::Resolved TrendSource::resolve(QString problem, QString bench, std::shared_ptr<std::atomic<bool>> cancel, std::uint64_t generation)
{
    Resolved out;
    try {
        const bool importing = !QFileInfo(problem).isFile() || (!bench.isEmpty() && !QFileInfo(bench).isFile());
        const fs::path outputDir = importing ? msprobe::studio::sessionloader::newOutputDir(QString()) : fs::path();
        const int sides = bench.isEmpty() ? 1 : 2;
        auto optionsFor = [&](int side, const QString& name) {
            msprobe::trend::ImportOptions options;
            options.threads = 2;
            options.progress = [this, cancel, generation, side, sides, name](std::size_t done, std::size_t total) {
                if (cancel->load())
                    throw msprobe::support::Error("cancelled");
                const int percent = static_cast<int>((100 * side + 100 * done / std::max<std::size_t>(total, 1)) / sides);
                QMetaObject::invokeMethod(this, [this, generation, percent, name, done, total] {
                    if (generation == m_generation)
                        emit progress(percent, tr("importing %1: %2 of %3").arg(name).arg(done).arg(total));
                }, Qt::QueuedConnection);
            };
            return options;
        };
        out.problem = trendDatabaseOf(problem, outputDir, "problem", optionsFor(0, QFileInfo(problem).fileName()));
        if (!bench.isEmpty())
            out.bench = trendDatabaseOf(bench, outputDir, "bench", optionsFor(1, QFileInfo(bench).fileName()));
    } catch (const std::exception& error) {
        out.error = QString::fromUtf8(error.what());
    }
    return out;
}

// On the worker: the databases (used by one thread at a time, the GUI's from now on) and, for one run, the heat
// map the panel opens on: the first metric and statistic, Step dimension, the first step, no tags.
void TrendSource::openDatabases(Resolved& resolved) const
{
    try {
        resolved.problemDb = std::make_shared<const msprobe::studio::TrendDatabase>(resolved.problem);
        resolved.benchDb = resolved.bench.isEmpty() ? nullptr : std::make_shared<const msprobe::studio::TrendDatabase>(resolved.bench);
        const auto& db = *resolved.problemDb;
        if (!resolved.benchDb && !db.metrics().isEmpty() && !db.stats(db.metrics().front()).isEmpty()) {
            TrendQuery first;
            first.metric = db.metrics().front();
            first.stat = db.stats(first.metric).front();
            first.dimension = Dimension::Step;
            first.value = db.minStep();
            resolved.firstGrid = std::make_shared<const TrendGrid>(db.grid(first));
            resolved.firstQuery = first;
        }
    } catch (const std::exception& error) {
        resolved.error = QString::fromUtf8(error.what());
    }
}

const msprobe::trend::TrendCompareResult& TrendSource::compare(const QString& stat) const
{
    return compareFiles(m_problem ? m_problem->file() : QString(), m_bench ? m_bench->file() : QString(), stat, m_tolerance);
}

// Thread-safe: the GUI and the query thread both ask; a result, once in the map, stays where it is.
const msprobe::trend::TrendCompareResult& TrendSource::compareFiles(const QString& problemFile, const QString& benchFile,
    const QString& stat, double tolerance) const
{
    const std::lock_guard lock(m_compareMutex);
    const auto key = std::make_tuple(contentStamp(problemFile), contentStamp(benchFile), stat, tolerance);
    auto it = m_compare.find(key);
    if (it != m_compare.end())
        return it->second;
    msprobe::trend::TrendCompareResult result;
    if (!problemFile.isEmpty() && !benchFile.isEmpty()) {
        try {
            auto problem = msprobe::trend::readTrendPoints(problemFile.toStdString(), stat.toStdString());
            auto bench = msprobe::trend::readTrendPoints(benchFile.toStdString(), stat.toStdString());
            result = msprobe::trend::compareTrends(std::move(problem), std::move(bench), tolerance);
        } catch (const msprobe::support::Error&) {
            // A statistic one side lacks: nothing compared, no marks.
        }
    }
    return m_compare.emplace(key, std::move(result)).first->second;
}

std::shared_ptr<const TrendGrid> TrendSource::cachedGrid(const TrendQuery& query, bool difference) const
{
    if (m_problem && m_firstGrid && m_firstQuery && (!m_bench || !difference) && m_firstQuery->metric == query.metric
        && m_firstQuery->stat == query.stat && m_firstQuery->dimension == query.dimension && m_firstQuery->value == query.value
        && m_firstQuery->tags == query.tags)
        return m_firstGrid;
    return nullptr;
}

TrendGrid TrendSource::grid(const TrendQuery& query, bool difference) const
{
    if (!m_problem)
        return {};
    if (const auto cached = cachedGrid(query, difference))
        return *cached;
    const bool pair = m_bench && difference;
    return gridOf(*m_problem, m_bench.get(), query, difference, pair ? &compare(query.stat) : nullptr);
}

quint64 TrendSource::requestGrid(const TrendQuery& query, bool difference)
{
    const quint64 request = ++*m_gridRequest;
    auto deliver = [this, request, latest = m_gridRequest](std::shared_ptr<const TrendGrid> grid, QString error) {
        QMetaObject::invokeMethod(this, [this, request, latest, grid, error] {
            if (request == latest->load())
                emit gridReady(request, *grid, error);
        }, Qt::QueuedConnection);
    };
    if (!m_problem) {
        deliver(std::make_shared<const TrendGrid>(), QString());
        return request;
    }
    if (auto cached = cachedGrid(query, difference)) {
        deliver(std::move(cached), QString());
        return request;
    }
    m_queryThread.start([this, request, latest = m_gridRequest, connections = m_queryConnections, query, difference,
                            tolerance = m_tolerance, deliver] {
        if (request != latest->load())
            return; // a later request replaced it before it started
        auto grid = std::make_shared<TrendGrid>();
        QString error;
        try {
            if (!connections->problem)
                connections->problem = std::make_unique<msprobe::studio::TrendDatabase>(connections->problemFile);
            if (!connections->benchFile.isEmpty() && !connections->bench)
                connections->bench = std::make_unique<msprobe::studio::TrendDatabase>(connections->benchFile);
            const bool pair = connections->bench && difference;
            const auto* result = pair ? &compareFiles(connections->problemFile, connections->benchFile, query.stat, tolerance) : nullptr;
            if (request != latest->load())
                return;
            *grid = gridOf(*connections->problem, connections->bench.get(), query, difference, result);
        } catch (const std::exception& failure) {
            *grid = TrendGrid();
            error = QString::fromUtf8(failure.what());
        }
        m_lastQueryThread.store(QThread::currentThreadId());
        deliver(std::move(grid), error);
    });
    return request;
}

void TrendSource::finishQueries()
{
    m_queryThread.waitForDone();
    QCoreApplication::sendPostedEvents(this, QEvent::MetaCall);
}

TrendGrid TrendSource::gridOf(const msprobe::studio::TrendDatabase& problemDb, const msprobe::studio::TrendDatabase* benchDb,
    const TrendQuery& query, bool difference, const msprobe::trend::TrendCompareResult* compareResult)
{
    TrendGrid problem = problemDb.grid(query);
    if (!benchDb || !difference)
        return problem;

    TrendQuery benchQuery = query;
    QString moduleJoinName;
    if (query.dimension == Dimension::Module) {
        for (const auto& target : problemDb.targets(query.metric))
            if (target.id == query.value)
                moduleJoinName = target.joinName();
        const auto benchTarget = benchDb->targetByJoinName(moduleJoinName);
        benchQuery.value = benchTarget ? benchTarget->id : -1;
    }
    const TrendGrid bench = benchDb->grid(benchQuery);
    std::map<std::int64_t, int> benchColumn;
    for (int c = 0; c < bench.columns(); ++c)
        benchColumn[bench.xKeys[static_cast<std::size_t>(c)]] = c;
    std::map<QString, int> benchRowByName;
    std::map<std::int64_t, int> benchRowByKey;
    for (int r = 0; r < bench.rows(); ++r) {
        benchRowByName[bench.yJoinNames[static_cast<std::size_t>(r)]] = r;
        benchRowByKey[bench.yKeys[static_cast<std::size_t>(r)]] = r;
    }

    // Where each (target, rank) first leaves the tolerance.
    std::map<std::pair<QString, std::int64_t>, std::int64_t> firstStep;
    if (compareResult)
        for (const auto& d : compareResult->divergences)
            if (QString::fromStdString(d.metric) == query.metric)
                firstStep[{ QString::fromStdString(d.target), d.rank }] = d.step;

    TrendGrid out = problem;
    out.difference = true;
    out.firstDivergence.assign(out.values.size(), 0);
    for (int r = 0; r < out.rows(); ++r) {
        const auto row = static_cast<std::size_t>(r);
        int benchRow = -1;
        if (query.dimension == Dimension::Module) {
            if (auto it = benchRowByKey.find(out.yKeys[row]); it != benchRowByKey.end())
                benchRow = it->second;
        } else if (auto it = benchRowByName.find(out.yJoinNames[row]); it != benchRowByName.end()) {
            benchRow = it->second;
        }
        for (int c = 0; c < out.columns(); ++c) {
            const std::size_t i = out.index(c, r);
            const auto column = benchColumn.find(out.xKeys[static_cast<std::size_t>(c)]);
            if (benchRow < 0 || column == benchColumn.end() || out.cells[i] == TrendGrid::Cell::Missing
                || bench.cells[bench.index(column->second, benchRow)] == TrendGrid::Cell::Missing) {
                out.cells[i] = TrendGrid::Cell::Missing;
                out.values[i] = std::nan("");
                continue;
            }
            out.values[i] = msprobe::trend::relativeDifference(problem.value(c, r), bench.value(column->second, benchRow));
            out.cells[i] = TrendGrid::Cell::Value;
            const std::int64_t x = out.xKeys[static_cast<std::size_t>(c)], y = out.yKeys[row];
            const QString target = query.dimension == Dimension::Module ? moduleJoinName : out.yJoinNames[row];
            const std::int64_t rank = query.dimension == Dimension::Step ? x : query.dimension == Dimension::Rank ? query.value : y;
            const std::int64_t step = query.dimension == Dimension::Step ? query.value : x;
            const auto first = firstStep.find({ target, rank });
            out.firstDivergence[i] = first != firstStep.end() && first->second == step;
        }
    }
    return out;
}

std::vector<TrendSeries> TrendSource::series(const TrendQuery& query, std::int64_t xKey, std::int64_t yKey) const
{
    std::vector<TrendSeries> out;
    if (!m_problem)
        return out;
    out.push_back(m_problem->series(query, xKey, yKey));
    if (!m_bench)
        return out;
    out.front().name = tr("problem %1").arg(out.front().name);
    // The bench's ids of the same targets (ids differ between databases; names join them).
    std::map<std::int64_t, std::int64_t> benchIdOf, problemIdOf;
    const auto problemTargets = m_problem->targets(query.metric);
    const auto benchTargets = m_bench->targets(query.metric);
    std::map<QString, std::int64_t> benchByName;
    for (const auto& target : benchTargets)
        benchByName[target.joinName()] = target.id;
    for (const auto& target : problemTargets)
        if (auto it = benchByName.find(target.joinName()); it != benchByName.end()) {
            benchIdOf[target.id] = it->second;
            problemIdOf[it->second] = target.id;
        }
    TrendQuery benchQuery = query;
    std::int64_t benchY = yKey;
    if (query.dimension == Dimension::Module)
        benchQuery.value = benchIdOf.contains(query.value) ? benchIdOf[query.value] : -1;
    else
        benchY = benchIdOf.contains(yKey) ? benchIdOf[yKey] : -1;
    TrendSeries bench = m_bench->series(benchQuery, xKey, benchY);
    if (query.dimension == Dimension::Module) { // over targets: x in the problem's ids, targets it lacks left out
        TrendSeries mapped;
        for (std::size_t i = 0; i < bench.x.size(); ++i)
            if (auto it = problemIdOf.find(static_cast<std::int64_t>(bench.x[i])); it != problemIdOf.end()) {
                mapped.x.push_back(static_cast<double>(it->second));
                mapped.y.push_back(bench.y[i]);
                mapped.xLabels << bench.xLabels.value(static_cast<qsizetype>(i));
            }
        mapped.name = bench.name;
        bench = std::move(mapped);
    }
    bench.name = tr("bench %1").arg(out.front().name.mid(out.front().name.indexOf(QLatin1Char(' ')) + 1));
    out.push_back(std::move(bench));
    return out;
}
