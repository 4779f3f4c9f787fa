// SPDX-License-Identifier: Apache-2.0
// The studio's graph diff on a synthetic ~57k-node pair (200 modules: 190 x 250 leaves, 10 x 1,000), through the
// real widget on the offscreen platform: time to first paint (setGraphs until grab() returns the drawn view),
// expanding a 250- and a 1,000-child group (layout on the worker, items, repaint), the same again from the layout
// cache, and revealing a hidden node with its match. Targets: first paint < 1 s, expand <= 200 ms.
#include "bench_support.h"

#include "graph/graphdiffview.h"
#include "graph/graphsideview.h"

#include <QApplication>
#include <QElapsedTimer>

using namespace msprobe;
using graph::kNoVisNode;
using Side = StudioFocus::Side;

namespace {

constexpr int kModules = 200, kLeaves = 250, kBigLeaves = 1000, kBigEvery = 20;

// Post-order like node_order: each module's leaves, then the module; the root last.
std::shared_ptr<graph::VisGraph> makeGraph(bool bench)
{
    auto g = std::make_shared<graph::VisGraph>();
    g->dataSource = bench ? "Bench" : "NPU";
    graph::VisNode root;
    root.name = "DefaultModel";
    std::size_t api = 0;
    for (int m = 0; m < kModules; ++m) {
        graph::VisNode module;
        module.name = "Module.layers." + std::to_string(m) + ".Block.forward.0";
        module.upNode = root.name;
        const int leaves = m % kBigEvery == 0 ? kBigLeaves : kLeaves;
        for (int l = 0; l < leaves; ++l, ++api) {
            graph::VisNode leaf;
            leaf.type = 1;
            leaf.name = "Functional.linear." + std::to_string(api) + ".forward";
            leaf.upNode = module.name;
            if (api % 50 != 7) {
                leaf.link = { root.name, module.name, leaf.name };
                if (!bench)
                    leaf.precision = api % 97 == 3 ? 1.0 : api % 31 == 5 ? 0.5 : 0.0;
            }
            module.subNodes.push_back(leaf.name);
            g->nodes.push_back(std::move(leaf));
        }
        module.link = { root.name, module.name };
        if (!bench)
            module.precision = 0;
        root.subNodes.push_back(module.name);
        g->nodes.push_back(std::move(module));
    }
    g->nodes.push_back(std::move(root));
    g->index();
    return g;
}

double waitSettled(GraphDiffView& view)
{
    QElapsedTimer timer;
    timer.start();
    while (!view.isSettled() && timer.elapsed() < 60000)
        QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents, 5);
    if (!view.isSettled())
        std::printf("  (did not settle within 60 s)\n");
    return timer.nsecsElapsed() * 1e-9;
}

struct Figure {
    double wall = 0, cpu = 0, layout = 0;
};

// One interaction: the change, the wait for the worker, then a full grab() (the paint the user would see).
template <typename Change>
Figure measure(GraphDiffView& view, Change&& change)
{
    bench::WallTimer wall;
    bench::CpuTimer cpu;
    change();
    Figure figure;
    figure.layout = waitSettled(view);
    const QPixmap shot = view.grab();
    figure.wall = wall.seconds();
    figure.cpu = cpu.seconds();
    if (shot.isNull())
        std::printf("  (grab failed)\n");
    return figure;
}

void print(const char* what, const Figure& f, double target)
{
    std::printf("%-44s %7.1f ms wall (%.1f ms waiting for layout), %7.1f ms CPU  [target %.0f ms]%s\n", what, f.wall * 1e3, f.layout * 1e3,
        f.cpu * 1e3, target * 1e3, f.wall <= target ? "" : "  OVER");
}

} // namespace

int main(int argc, char** argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);

    bench::WallTimer build;
    auto problem = makeGraph(false), bench = makeGraph(true);
    std::printf("synthetic graphs: %zu nodes per side (%d modules), built in %.2f s\n", problem->nodes.size(), kModules, build.seconds());

    graph::VisDbConfig config;
    config.graphType = "compare";
    config.task = "summary";
    StudioFocus focus;
    GraphDiffView view;
    view.setStudioFocus(&focus);
    view.setSyncExpand(true);
    view.resize(1600, 1000);
    view.show();

    print("first paint (setGraphs -> drawn)", measure(view, [&] { view.setGraphs(problem, bench, config); }), 1.0);

    GraphSideView* side = view.sideView(Side::Problem);
    const std::uint32_t small = problem->find("Module.layers.1.Block.forward.0");
    const std::uint32_t big = problem->find("Module.layers.40.Block.forward.0");
    print("expand a 250-child group (both sides)", measure(view, [&] { emit side->nodeDoubleClicked(small); }), 0.2);
    print("expand a 1,000-child group (both sides)", measure(view, [&] { emit side->nodeDoubleClicked(big); }), 0.2);
    print("collapse the 1,000-child group", measure(view, [&] { emit side->nodeDoubleClicked(big); }), 0.2);
    print("expand it again (layout cache)", measure(view, [&] { emit side->nodeDoubleClicked(big); }), 0.2);
    const std::string hidden = "Functional.linear." + std::to_string(150 * kLeaves + 10 * (kBigLeaves - kLeaves) + 17) + ".forward";
    print("select a hidden node (reveal + centre, both)", measure(view, [&] { focus.setNode(QString::fromStdString(hidden), Side::Problem); }), 0.2);
    std::printf("visible boxes per side now: %zu; peak RSS %.0f MB\n", side->layoutState().boxes().size(), bench::peakRssBytes() / 1048576.0);
    return 0;
}
