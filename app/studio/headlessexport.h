// SPDX-License-Identifier: Apache-2.0
// msprobe-studio --export FILE [--view graph|compare|trend] [--step S --rank R] INPUT...: opens INPUT as the window
// does, waits for the load (and the graph layout), and writes FILE by its extension: .png/.svg (the view's
// picture), .html (the report), .json (the verdicts, with the field names of `msprobe compare --json`), .csv
// (--view trend: the trend heat map's cells; INPUT a *.trend.db, a monitor or dump folder, two for a pair).
// --view parallel draws the parallelism grid (.png/.svg) from the CLI's configuration flags, over what the
// inputs carry when inputs are given (none are needed). --view memory draws one msMemScope dump's timeline.
#pragma once

#include <QString>
#include <QStringList>

#include <optional>

class MainWindow;

namespace msprobe::studio::headlessexport {

// The configuration flags of `msprobe parallel_plot` (--vpp: a count of virtual stages, as graph_visualize takes it).
struct ParallelFlags {
    std::optional<long long> worldSize, numLayers, tensorParallel, pipelineParallel, layersPerVirtualStage, virtualStages;
    std::optional<QString> order;
    bool standaloneEmbeddingStage = false;
    bool any() const;
};

struct Request {
    QString file;
    QString view = QStringLiteral("graph"); // graph | compare | trend | parallel | memory
    ParallelFlags parallel;
    std::optional<int> step, rank;
    QStringList inputs;
};

// The views --view accepts, and the extensions FILE may have.
QStringList views();
QStringList formats();

// Sets the window's parallel configuration from the flags, over what it read for its inputs; an empty string on
// success, else the core's message (or what is missing).
QString applyParallelFlags(MainWindow& window, const ParallelFlags& flags);

// Runs the export in window (shown or not); an empty string on success, else what went wrong, naming the file
// or input. Spins the event loop until the load and the layout are done.
QString run(MainWindow& window, const Request& request);

} // namespace msprobe::studio::headlessexport
