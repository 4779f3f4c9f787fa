// SPDX-License-Identifier: Apache-2.0
#include "graph/pair_writer.h"

#include "support/thread_pool.h"
#include "support/error.h"
#include "support/phase_times.h"

#include <condition_variable>
#include <future>
#include <mutex>
#include <thread>

namespace msprobe::graph {

namespace {

constexpr std::size_t kChunk = 512;

// Which chunks of a post order are final. Workers finish chunks in any order; the writer waits for the
// finished prefix. onPrefix(node) runs (under the lock) for every node the prefix passes, in order.
class ChunkPrefix {
public:
    ChunkPrefix(const std::vector<std::uint32_t>& order, std::function<void(std::uint32_t)> onPrefix = {})
        : m_order(order)
        , m_onPrefix(std::move(onPrefix))
        , m_done((order.size() + kChunk - 1) / kChunk, false)
    {
    }

    std::size_t chunks() const { return m_done.size(); }
    std::size_t begin(std::size_t chunk) const { return chunk * kChunk; }
    std::size_t end(std::size_t chunk) const { return std::min(m_order.size(), (chunk + 1) * kChunk); }

    // Returns how many positions of the order are final now.
    std::size_t finish(std::size_t chunk)
    {
        std::size_t ready = 0;
        {
            std::lock_guard lock(m_mutex);
            m_done[chunk] = true;
            while (m_prefix < m_done.size() && m_done[m_prefix]) {
                if (m_onPrefix)
                    for (std::size_t i = begin(m_prefix); i < end(m_prefix); ++i)
                        m_onPrefix(m_order[i]);
                ++m_prefix;
            }
            ready = readyLocked();
        }
        m_changed.notify_all();
        return ready;
    }

    // Unblocks the writer when the workers stop early (cancel or error).
    void abandon()
    {
        {
            std::lock_guard lock(m_mutex);
            m_abandoned = true;
        }
        m_changed.notify_all();
    }

    void waitFor(std::size_t endPosition)
    {
        std::unique_lock lock(m_mutex);
        m_changed.wait(lock, [&] { return m_abandoned || readyLocked() >= endPosition; });
        if (readyLocked() < endPosition)
            throw support::Error("cancelled");
    }

private:
    std::size_t readyLocked() const { return std::min(m_order.size(), m_prefix * kChunk); }

    const std::vector<std::uint32_t>& m_order;
    std::function<void(std::uint32_t)> m_onPrefix;
    std::mutex m_mutex;
    std::condition_variable m_changed;
    std::vector<bool> m_done;
    std::size_t m_prefix = 0;
    bool m_abandoned = false;
};

} // namespace

void compareAndWritePair(VisDbWriter& writer, Graph& npu, Graph& bench, const GraphCompareOptions& compare, int step,
    int rank, const RenderOptions& render)
{
    const std::vector<std::uint32_t> npuOrder = npu.postOrder(), benchOrder = bench.postOrder();
    const std::int64_t npuRows = writer.reserveRows(npuOrder.size());
    const std::int64_t benchRows = writer.reserveRows(benchOrder.size());
    npu.rendered.assign(npu.size(), {});
    bench.rendered.assign(bench.size(), {});
    ChunkPrefix benchRendered(benchOrder);
    // API collections take the worst precision of their APIs, all of which precede them in post order.
    ChunkPrefix npuCompared(npuOrder, [&](std::uint32_t n) {
        if (npu.node(n).op == NodeOp::ApiCollection)
            updateCollectionPrecision(npu, n);
    });
    support::PhaseTimes phases;

    // One thread inserts: the bench rows first (they need only the matching), then the NPU rows as the compare
    // finishes them. The bench rows read the NPU graph's ids and parents only, which the compare leaves alone.
    auto written = std::async(std::launch::async, [&] {
        writer.writeGraph(bench, &npu, step, rank, render, {}, benchRows, [&](std::size_t end) { benchRendered.waitFor(end); });
        writer.writeGraph(npu, &bench, step, rank, render, {}, npuRows, [&](std::size_t end) { npuCompared.waitFor(end); });
    });

    // The other threads take tasks in the order the writer needs them: render bench chunks, then compare NPU chunks.
    std::atomic<std::size_t> nextTask { 0 };
    const std::size_t tasks = benchRendered.chunks() + npuCompared.chunks();
    std::exception_ptr failure;
    std::mutex failureMutex;
    auto work = [&] {
        try {
            for (std::size_t task = nextTask++; task < tasks; task = nextTask++) {
                if (compare.cancel && compare.cancel->load())
                    return;
                if (task < benchRendered.chunks()) {
                    for (std::size_t i = benchRendered.begin(task); i < benchRendered.end(task); ++i)
                        renderNodeData(bench, benchOrder[i], render);
                    benchRendered.finish(task);
                    continue;
                }
                const std::size_t chunk = task - benchRendered.chunks();
                for (std::size_t i = npuCompared.begin(chunk); i < npuCompared.end(chunk); ++i) {
                    const std::uint32_t n = npuOrder[i];
                    npu.node(n).partner != kNoNode ? recompareNode(npu, n, bench, compare) : renderNodeData(npu, n, render);
                }
                const std::size_t ready = npuCompared.finish(chunk);
                if (compare.progress)
                    compare.progress(ready, npuOrder.size());
            }
        } catch (...) {
            std::lock_guard lock(failureMutex);
            if (!failure)
                failure = std::current_exception();
        }
    };
    {
        const std::size_t threads = std::max<std::size_t>(1, compare.threads ? compare.threads : support::defaultThreadCount());
        std::vector<std::thread> workers;
        for (std::size_t t = 1; t < threads; ++t)
            workers.emplace_back(work);
        work();
        for (auto& worker : workers)
            worker.join();
    }
    phases.mark("npu compare");
    benchRendered.abandon(); // everything is final unless a worker stopped early
    npuCompared.abandon();
    try {
        written.get();
    } catch (...) {
        if (!failure)
            failure = std::current_exception();
    }
    phases.mark("rows written");
    if (failure)
        std::rethrow_exception(failure);
    if (compare.cancel && compare.cancel->load())
        throw support::Error("cancelled");
}

} // namespace msprobe::graph
