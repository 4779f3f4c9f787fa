// SPDX-License-Identifier: Apache-2.0
#include "headlessexport.h"

#include "comparetableview.h"
#include "mainwindow.h"
#include "memory/memorypanel.h"
#include "optionalviews.h"
#include "parallelsetup.h"
#include "trendsource.h"

#include "support/atomic_file.h"

#include <QCoreApplication>
#include <QEventLoop>
#include <QFileInfo>
#include <QPainter>
#include <QSvgGenerator>
#include <QTimer>

#include <algorithm>

namespace msprobe::studio::headlessexport {

namespace {

constexpr int kLoadTimeoutMs = 30 * 60 * 1000, kLayoutTimeoutMs = 5 * 60 * 1000;

// Runs the event loop until signal fires or timeoutMs passes; false on timeout.
template <typename Sender, typename Signal>
bool waitFor(Sender* sender, Signal signal, int timeoutMs)
{
    QEventLoop loop;
    QTimer timer;
    timer.setSingleShot(true);
    bool fired = false;
    QObject::connect(sender, signal, &loop, [&] {
        fired = true;
        loop.quit();
    });
    QObject::connect(&timer, &QTimer::timeout, &loop, &QEventLoop::quit);
    timer.start(timeoutMs);
    loop.exec();
    return fired;
}

QString joinNumbers(const std::vector<int>& numbers)
{
    QStringList out;
    for (int n : numbers)
        out << QString::number(n);
    return out.join(QStringLiteral(", "));
}

QString writeWidgetPicture(QWidget* widget, const QString& file, bool svg)
{
    if (svg) {
        QSvgGenerator generator;
        generator.setFileName(file);
        generator.setSize(widget->size());
        generator.setViewBox(QRect(QPoint(0, 0), widget->size()));
        QPainter painter;
        if (!painter.begin(&generator))
            return QCoreApplication::translate("headlessexport", "Cannot write %1").arg(file);
        widget->render(&painter);
        painter.end();
        return QFileInfo(file).size() > 0 ? QString() : QCoreApplication::translate("headlessexport", "Cannot write %1").arg(file);
    }
    return widget->grab().save(file, "PNG") ? QString() : QCoreApplication::translate("headlessexport", "Cannot write %1").arg(file);
}

QString writeJson(const StudioSession& session, const QString& file, std::optional<msprobe::studio::Key> only)
{
    if (session.verdicts().empty())
        return QCoreApplication::translate("headlessexport", "%1: no verdict to write; a JSON export needs a problem/bench pair of dump folders (not a vis.db or a CSV).").arg(file);
    try {
        msprobe::support::AtomicFile out(std::filesystem::path(file.toStdString()));
        out.write(msprobe::studio::verdictJson(session.verdicts(), only));
        out.commit();
    } catch (const std::exception& error) {
        return QString::fromUtf8(error.what());
    }
    return {};
}

// --view memory: the memory panel (timeline and decomposition at the peak) of one msMemScope dump, at size.
QString writeMemoryPicture(const Request& request, const QSize& size, bool svg)
{
    if (request.inputs.size() != 1)
        return QCoreApplication::translate("headlessexport", "--view memory takes one input: a msMemScope dump (.csv or .db)");
    std::shared_ptr<const msprobe::studio::MemoryDocument> document;
    try {
        document = msprobe::studio::loadMemoryDocument(request.inputs.front().toStdString());
    } catch (const std::exception& error) {
        return QString::fromUtf8(error.what());
    }
    MemoryPanel panel;
    panel.setAttribute(Qt::WA_DontShowOnScreen);
    panel.resize(size);
    panel.setDocument(document);
    panel.show();
    QCoreApplication::processEvents();
    return writeWidgetPicture(&panel, request.file, svg);
}

QString exportParallel(MainWindow& window, const Request& request)
{
    const QString suffix = QFileInfo(request.file).suffix().toLower();
    if (suffix != QLatin1String("png") && suffix != QLatin1String("svg"))
        return QCoreApplication::translate("headlessexport", "%1: --view parallel writes .png or .svg").arg(request.file);
    if (const QString error = applyParallelFlags(window, request.parallel); !error.isEmpty())
        return error;
    return window.exportParallelImage(request.file);
}

// --view trend: the trend panel alone at the window's size; .png/.svg its picture, .csv its heat-map cells.
QString runTrend(MainWindow& window, const Request& request, const QString& suffix)
{
    if (suffix != QLatin1String("png") && suffix != QLatin1String("svg") && suffix != QLatin1String("csv"))
        return QCoreApplication::translate("headlessexport", "%1: the trend view exports .png, .svg or .csv").arg(request.file);
    if (request.inputs.isEmpty() || request.inputs.size() > 2)
        return QCoreApplication::translate("headlessexport", "give one input (a *.trend.db, a monitor or dump folder) or two (problem, bench)");
    TrendSource* source = window.trendSource();
    bool loaded = false;
    QString loadError;
    QObject::connect(source, &TrendSource::loadFinished, &window, [&](bool ok, const QString& message) {
        loaded = ok;
        loadError = message;
    });
    window.openTrend(request.inputs);
    if (!waitFor(source, &TrendSource::loadFinished, kLoadTimeoutMs))
        return QCoreApplication::translate("headlessexport", "%1: loading took too long").arg(request.inputs.join(QStringLiteral(" ")));
    if (!loaded)
        return loadError.isEmpty() ? QCoreApplication::translate("headlessexport", "loading was cancelled") : loadError;
    window.showTrendAlone(window.size());
    return window.exportTrend(request.file);
}

} // namespace

QString applyParallelFlags(MainWindow& window, const ParallelFlags& flags)
{
    ParallelSetup* setup = window.parallelSetup();
    msprobe::parallel::ParallelConfig config = setup->hasLayout() ? setup->config() : msprobe::parallel::ParallelConfig {};
    if (flags.worldSize)
        config.worldSize = *flags.worldSize;
    if (flags.numLayers)
        config.numLayers = *flags.numLayers;
    if (flags.tensorParallel)
        config.tensorParallelSize = *flags.tensorParallel;
    if (flags.pipelineParallel)
        config.pipelineParallelSize = *flags.pipelineParallel;
    if (flags.order)
        config.order = flags.order->toStdString();
    if (flags.standaloneEmbeddingStage)
        config.standaloneEmbeddingStage = true;
    if (flags.layersPerVirtualStage)
        config.layersPerVirtualStage = *flags.layersPerVirtualStage;
    if (config.worldSize == 0 || config.numLayers == 0)
        return QCoreApplication::translate("headlessexport", "--view parallel needs --world_size and --num_layers (the inputs do not give them)");
    if (flags.virtualStages) {
        // --vpp counts virtual stages; the core takes layers per virtual stage.
        const long long stages = config.pipelineParallelSize - (config.standaloneEmbeddingStage ? 1 : 0);
        const long long vpp = *flags.virtualStages;
        if (vpp < 1 || stages < 1 || config.numLayers % (stages * vpp) != 0)
            return QCoreApplication::translate("headlessexport", "--vpp %1: the %2 layers do not split into %3 pipeline stage(s) of %1 virtual stage(s)")
                .arg(vpp)
                .arg(config.numLayers)
                .arg(stages);
        if (vpp > 1)
            config.layersPerVirtualStage = config.numLayers / (stages * vpp);
        else
            config.layersPerVirtualStage.reset();
    }
    // The dumps' TP group stays a TP group when the flags change the sizes but not the order.
    if (!flags.order && !setup->lastHints().tpGroup.empty())
        if (const auto order = msprobe::studio::orderWithTpGroup(config, setup->lastHints().tpGroup))
            config.order = *order;
    if (const QString error = setup->setConfig(config, ParallelSetup::Source::CommandLine); !error.isEmpty())
        return QCoreApplication::translate("headlessexport", "parallel configuration: %1").arg(error);
    return {};
}

bool ParallelFlags::any() const
{
    return worldSize || numLayers || tensorParallel || pipelineParallel || layersPerVirtualStage || virtualStages || order || standaloneEmbeddingStage;
}

QStringList views() { return { QStringLiteral("graph"), QStringLiteral("compare"), QStringLiteral("parallel"), QStringLiteral("trend") }; }

QStringList formats() { return { QStringLiteral("png"), QStringLiteral("svg"), QStringLiteral("html"), QStringLiteral("json"), QStringLiteral("csv") }; }

QString run(MainWindow& window, const Request& request)
{
    const QString suffix = QFileInfo(request.file).suffix().toLower();
    if (!formats().contains(suffix))
        return QCoreApplication::translate("headlessexport", "%1: unknown export format; the file name must end in .png, .svg, .html or .json (or .csv with --view trend)").arg(request.file);
    if (request.view == QLatin1String("memory")) {
        if (suffix != QLatin1String("png") && suffix != QLatin1String("svg"))
            return QCoreApplication::translate("headlessexport", "%1: the memory view exports as .png or .svg").arg(request.file);
        return writeMemoryPicture(request, window.size(), suffix == QLatin1String("svg"));
    }
    if (!views().contains(request.view))
        return QCoreApplication::translate("headlessexport", "--view %1: unknown view; use graph, compare, trend, parallel or memory").arg(request.view);
    if (request.view == QLatin1String("trend"))
        return runTrend(window, request, suffix);
    if (suffix == QLatin1String("csv"))
        return QCoreApplication::translate("headlessexport", "%1: a CSV export is the trend view's cells (--view trend)").arg(request.file);
    if (request.step.has_value() != request.rank.has_value())
        return QCoreApplication::translate("headlessexport", "--step and --rank go together");
    const bool parallel = request.view == QLatin1String("parallel");
    if (parallel && request.inputs.isEmpty())
        return exportParallel(window, request);
    if (request.inputs.isEmpty() || request.inputs.size() > 2)
        return QCoreApplication::translate("headlessexport", "give one input (a dump folder, dump.json, .vis.db or compare CSV) or two dump folders (problem, bench)");
    QString error;
    const LoadRequest load = LoadRequest::forPaths(request.inputs, &error);
    if (!error.isEmpty())
        return error;

    window.setRemembersRecent(false);
    StudioSession* session = window.session();
    bool loaded = false;
    QString loadError;
    QObject::connect(session, &StudioSession::loadFinished, &window, [&](bool ok, const QString& message) {
        loaded = ok;
        loadError = message;
    });
    window.openRequest(load);
    if (!waitFor(&window, &MainWindow::idle, kLoadTimeoutMs))
        return QCoreApplication::translate("headlessexport", "%1: loading took too long").arg(request.inputs.join(QStringLiteral(" ")));
    if (!loaded)
        return loadError.isEmpty() ? QCoreApplication::translate("headlessexport", "loading was cancelled") : loadError;

    StudioFocus* focus = window.studioFocus();
    if (request.step) {
        const auto steps = session->steps(), ranks = session->ranks();
        if (std::find(steps.begin(), steps.end(), *request.step) == steps.end()
            || std::find(ranks.begin(), ranks.end(), *request.rank) == ranks.end())
            return QCoreApplication::translate("headlessexport", "step %1, rank %2 is not in %3 (steps: %4; ranks: %5)")
                .arg(*request.step)
                .arg(*request.rank)
                .arg(request.inputs.join(QStringLiteral(" ")), joinNumbers(steps), joinNumbers(ranks));
        focus->setGraph(*request.step, *request.rank);
    }
    const int step = focus->step(), rank = focus->rank();

    if (parallel)
        return exportParallel(window, request);
    if (suffix == QLatin1String("json"))
        return writeJson(*session, request.file, request.step ? std::optional<msprobe::studio::Key>(msprobe::studio::Key { step, rank }) : std::nullopt);
    if (suffix == QLatin1String("html")) {
        if (!msprobe::studio::reportexport::canExport(*session))
            return QCoreApplication::translate("headlessexport", "%1: no comparison to report; an HTML export needs a problem/bench pair of dump folders.").arg(request.file);
        return window.exportComparison(msprobe::studio::reportexport::Format::Html, request.file);
    }
    const bool svg = suffix == QLatin1String("svg");
    if (request.view == QLatin1String("compare")) {
        if (!session->compareRows(step, rank))
            return QCoreApplication::translate("headlessexport", "%1: step %2, rank %3 has no compare table").arg(request.file).arg(step).arg(rank);
        return writeWidgetPicture(window.compareView(), request.file, svg);
    }
    if (!session->graphs(step, rank).problem)
        return QCoreApplication::translate("headlessexport", "%1: no graph for step %2, rank %3. %4").arg(request.file).arg(step).arg(rank).arg(window.noGraphText());
    GraphDiffView* graph = window.graphView();
    if (!graph->isSettled() && !waitFor(graph, &GraphDiffView::settled, kLayoutTimeoutMs))
        return QCoreApplication::translate("headlessexport", "%1: laying out the graph took too long").arg(request.file);
    return window.exportGraphImage(request.file);
}

} // namespace msprobe::studio::headlessexport
