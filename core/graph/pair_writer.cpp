// SPDX-License-Identifier: Apache-2.0
#include "graph/pair_writer.h"

#include "support/phase_times.h"

#include <future>

namespace msprobe::graph {

void compareAndWritePair(VisDbWriter& writer, Graph& npu, Graph& bench, const GraphCompareOptions& compare, int step,
    int rank, const RenderOptions& render)
{
    const std::int64_t npuRows = writer.reserveRows(npu.postOrder().size());
    const std::int64_t benchRows = writer.reserveRows(bench.postOrder().size());
    // The bench rows read the NPU graph's node ids and parents only, which the compare leaves alone.
    auto benchWritten = std::async(std::launch::async,
        [&] { writer.writeGraph(bench, &npu, step, rank, render, {}, benchRows); });
    PhaseTimes phases;
    try {
        compareGraphs(npu, bench, compare);
        phases.mark("npu compare");
    } catch (...) {
        benchWritten.wait();
        throw;
    }
    benchWritten.get();
    phases.mark("bench rows");
    writer.writeGraph(npu, &bench, step, rank, render, {}, npuRows);
    phases.mark("npu rows");
}

} // namespace msprobe::graph
