// SPDX-License-Identifier: Apache-2.0
// libFuzzer target for the vis.db reader (graph_visualize output, read by the desktop app and manual
// matching): any SQLite file, or other bytes, gives graphs whose tree indices are in range, or a
// msprobe::Error. Seeds are vis.db files that .ci/fuzz.sh makes with graph_visualize.
#include "fuzz_file.h"
#include "graph/graph_run.h"
#include "graph/visdb/vis_db_reader.h"

namespace {

void check(const msprobe::graph::VisGraph& graph)
{
    const auto size = graph.nodes.size();
    if (graph.root() != msprobe::graph::kNoVisNode && graph.root() >= size)
        std::abort();
    for (const auto& node : graph.nodes) {
        if (node.parent != msprobe::graph::kNoVisNode && node.parent >= size)
            std::abort();
        for (auto child : node.children)
            if (child >= size)
                std::abort();
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const auto file = msprobe::fuzz::scratch().write("fuzz.vis.db", data, size);
    msprobe::fuzz::expectResultOrError("fuzz_vis_db", [&] {
        const msprobe::graph::VisDb db(file);
        std::size_t loaded = 0;
        for (const auto& key : db.graphs()) {
            if (++loaded > 4)
                break;
            const auto graph = db.load(key.step, key.rank, key.dataSource, loaded == 1);
            check(graph);
            msprobe::graph::manualPairsOf(graph);
            for (std::size_t i = 0; i < graph.nodes.size() && i < 8; ++i) {
                db.nodeData(key.step, key.rank, key.dataSource, graph.nodes[i].name);
                db.stackFrames(graph.nodes[i].stackId);
            }
        }
    });
    return 0;
}
