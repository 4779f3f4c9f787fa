// SPDX-License-Identifier: Apache-2.0
// Group layouts: Graphviz dot in-process (plain and tuned), the own fallback for huge flat groups, the
// worker-thread service with its cache and generation counter, concurrent callers.
#include "test_util.h"

#include "graph/layout/graph_layout.h"
#include "graph/layout/layout_service.h"

#include <chrono>
#include <future>
#include <random>

using namespace msprobe::graph::layout;

namespace {

LayoutRequest chain(std::size_t n, bool residuals = true)
{
    LayoutRequest request;
    std::mt19937 rng(3);
    for (std::size_t i = 0; i < n; ++i)
        request.nodes.push_back({ 60.0 + double(rng() % 100), 22 });
    for (std::size_t i = 1; i < n; ++i) {
        request.edges.push_back({ std::uint32_t(i - 1), std::uint32_t(i) });
        if (residuals && i % 7 == 0 && i >= 5)
            request.edges.push_back({ std::uint32_t(i - 5), std::uint32_t(i) });
    }
    return request;
}

// A fan-out like an MoE layer: router -> experts -> combine.
LayoutRequest fan(std::size_t experts)
{
    LayoutRequest request;
    request.nodes.push_back({ 80, 22 });
    for (std::size_t e = 0; e < experts; ++e) {
        request.nodes.push_back({ 70, 22 });
        request.edges.push_back({ 0, std::uint32_t(e + 1) });
        request.edges.push_back({ std::uint32_t(e + 1), std::uint32_t(experts + 1) });
    }
    request.nodes.push_back({ 80, 22 });
    return request;
}

bool overlap(const NodeBox& a, const NodeBox& b)
{
    return a.x < b.x + b.width - 0.5 && b.x < a.x + a.width - 0.5 && a.y < b.y + b.height - 0.5 && b.y < a.y + a.height - 0.5;
}

double seconds(std::chrono::steady_clock::time_point since)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count();
}

} // namespace

class TestGraphLayout : public QObject {
    Q_OBJECT

private slots:
    void dotPlacesBoxesWithoutOverlapAndRoutesEdges()
    {
        const LayoutRequest request = fan(8);
        const LayoutResult result = layoutGroup(request);
        QCOMPARE(int(result.engine), int(Engine::Dot));
        QCOMPARE(result.boxes.size(), request.nodes.size());
        for (std::size_t i = 0; i < result.boxes.size(); ++i) {
            QCOMPARE(result.boxes[i].width, request.nodes[i].width);
            QVERIFY(result.boxes[i].x >= -0.5 && result.boxes[i].x + result.boxes[i].width <= result.width + 0.5);
            for (std::size_t k = i + 1; k < result.boxes.size(); ++k)
                QVERIFY(!overlap(result.boxes[i], result.boxes[k]));
        }
        // top to bottom: router above the experts above the combine node
        QVERIFY(result.boxes[0].y < result.boxes[1].y && result.boxes[1].y < result.boxes.back().y);
        QCOMPARE(result.edges.size(), request.edges.size());
        for (const auto& edge : result.edges) {
            QVERIFY(edge.points.size() >= 2);
            const NodeBox& from = result.boxes[edge.from];
            const NodeBox& to = result.boxes[edge.to];
            auto near = [](const Point& p, const NodeBox& b) {
                return p.x > b.x - 3 && p.x < b.x + b.width + 3 && p.y > b.y - 3 && p.y < b.y + b.height + 3;
            };
            QVERIFY(near(edge.points.front(), from)); // leaves the source box
            QVERIFY(near(edge.points.back(), to)); // and reaches the target box
        }
    }

    void largeGroupsStayFast()
    {
        for (std::size_t n : { 500u, 1000u }) {
            const auto start = std::chrono::steady_clock::now();
            const LayoutResult result = layoutGroup(chain(n));
            const double took = seconds(start);
            qInfo("layout of a %zu-node group: %.3f s", n, took);
            QCOMPARE(int(result.engine), int(Engine::DotTuned));
            QCOMPARE(result.boxes.size(), n);
            // 0.3 s is the target for 500 nodes on an idle core; leave room for a loaded test machine
            QVERIFY2(took < (n == 500 ? 1.0 : 3.0), qPrintable(QString::number(took)));
        }
    }

    void hugeFlatGroupsUseTheFallback()
    {
        LayoutRequest flat;
        for (int i = 0; i < 5000; ++i)
            flat.nodes.push_back({ 50, 15 });
        const auto start = std::chrono::steady_clock::now();
        const LayoutResult result = layoutGroup(flat);
        QVERIFY(seconds(start) < 1.0);
        QCOMPARE(int(result.engine), int(Engine::Fallback));
        QCOMPARE(result.boxes.size(), std::size_t(5000));
        QVERIFY(result.width < 40 * 60 + 1); // wrapped into rows of 40
        QVERIFY(!overlap(result.boxes[0], result.boxes[1]) && !overlap(result.boxes[0], result.boxes[40]));
        const LayoutResult chained = fallbackLayout(chain(3000), {});
        for (const auto& e : chained.edges)
            QVERIFY(chained.boxes[e.from].y < chained.boxes[e.to].y); // layered downwards
    }

    void staleGenerationsAreDropped()
    {
        std::atomic<std::uint64_t> generation { 5 };
        CancelToken stale { &generation, 4 };
        QVERIFY(layoutGroup(chain(20), {}, stale).cancelled);
        QVERIFY(fallbackLayout(chain(2000), {}, stale).cancelled);
        CancelToken current { &generation, 5 };
        QVERIFY(!layoutGroup(chain(20), {}, current).cancelled);

        LayoutService service;
        std::atomic<int> done { 0 };
        // Queue many jobs, then move on: only jobs of the new generation (or already running) complete.
        for (int i = 0; i < 20; ++i)
            service.submit({ "group" + std::to_string(i), 0 }, chain(200), [&](const LayoutKey&, auto) { ++done; });
        service.newGeneration();
        service.submit({ "latest", 0 }, chain(30), [&](const LayoutKey&, auto) { ++done; });
        service.drain();
        QVERIFY(done.load() < 21);
        QVERIFY(service.cached({ "latest", 0 }));
        // the cache answers at once, and keys include the expansion state
        auto again = service.layout({ "latest", 0 }, chain(30));
        QCOMPARE(again.get(), service.cached({ "latest", 0 }).get());
        QVERIFY(!service.cached({ "latest", 1 }));
    }

    void concurrentCallersAreSerialisedSafely()
    {
        std::vector<std::future<LayoutResult>> jobs;
        for (int i = 0; i < 6; ++i)
            jobs.push_back(std::async(std::launch::async, [i] { return layoutGroup(i % 2 ? fan(10 + i) : chain(50 + i)); }));
        for (auto& job : jobs)
            QVERIFY(!job.get().boxes.empty());
    }
};

QTEST_APPLESS_MAIN(TestGraphLayout)
#include "tst_graph_layout.moc"
