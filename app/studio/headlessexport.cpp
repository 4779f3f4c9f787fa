// SPDX-License-Identifier: Apache-2.0
#include "headlessexport.h"

#include "comparetableview.h"
#include "mainwindow.h"
#include "optionalviews.h"
#include "trendsource.h"

#include "support/atomic_file.h"

#include <QCoreApplication>
#include <QEventLoop>
#include <QFileInfo>
#include <QPainter>
#include <QSvgGenerator>
#include <QTimer>

#include <algorithm>

namespace headlessexport {

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

QString writeJson(const StudioSession& session, const QString& file, std::optional<studio::Key> only)
{
    if (session.verdicts().empty())
        return QCoreApplication::translate("headlessexport", "%1: no verdict to write; a JSON export needs a problem/bench pair of dump folders (not a vis.db or a CSV).").arg(file);
    try {
        msprobe::AtomicFile out(std::filesystem::path(file.toStdString()));
        out.write(studio::verdictJson(session.verdicts(), only));
        out.commit();
    } catch (const std::exception& error) {
        return QString::fromUtf8(error.what());
    }
    return {};
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

QStringList views() { return { QStringLiteral("graph"), QStringLiteral("compare"), QStringLiteral("trend") }; }

QStringList formats() { return { QStringLiteral("png"), QStringLiteral("svg"), QStringLiteral("html"), QStringLiteral("json"), QStringLiteral("csv") }; }

QString run(MainWindow& window, const Request& request)
{
    const QString suffix = QFileInfo(request.file).suffix().toLower();
    if (!formats().contains(suffix))
        return QCoreApplication::translate("headlessexport", "%1: unknown export format; the file name must end in .png, .svg, .html or .json (or .csv with --view trend)").arg(request.file);
    if (!views().contains(request.view))
        return QCoreApplication::translate("headlessexport", "--view %1: unknown view; use graph, compare or trend").arg(request.view);
    if (request.view == QLatin1String("trend"))
        return runTrend(window, request, suffix);
    if (suffix == QLatin1String("csv"))
        return QCoreApplication::translate("headlessexport", "%1: a CSV export is the trend view's cells (--view trend)").arg(request.file);
    if (request.step.has_value() != request.rank.has_value())
        return QCoreApplication::translate("headlessexport", "--step and --rank go together");
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

    if (suffix == QLatin1String("json"))
        return writeJson(*session, request.file, request.step ? std::optional<studio::Key>(studio::Key { step, rank }) : std::nullopt);
    if (suffix == QLatin1String("html")) {
        if (!reportexport::canExport(*session))
            return QCoreApplication::translate("headlessexport", "%1: no comparison to report; an HTML export needs a problem/bench pair of dump folders.").arg(request.file);
        return window.exportComparison(reportexport::Format::Html, request.file);
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

} // namespace headlessexport
