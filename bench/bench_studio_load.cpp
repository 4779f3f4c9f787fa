// SPDX-License-Identifier: Apache-2.0
// The studio's pair load, as StudioSession runs it on its worker: graph_visualize into a vis.db and the graphs
// read back, then the compare table of every rank pair. Timed with each dump.json parsed once and shared
// (SharedDumps, what the studio does) and parsed by each stage on its own (what it did before), alternately,
// each run in a fresh child process so that peak RSS is its own.
// bench_studio_load [--entries N] [--runs R] [--keep DIR]
#include "bench_support.h"

#include "dump_generator.h"
#include "sessionloader.h"
#include "dump/shared_dumps.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <string>
#include <unistd.h>
#include <vector>

namespace fs = std::filesystem;
using namespace msprobe;

namespace {

struct LoadTimes {
    double graphs = 0, compare = 0, wall = 0, cpu = 0;
    std::size_t parses = 0, rows = 0;
    std::uint64_t peakRss = 0;
};

LoadTimes load(const fs::path& dir, bool shared, int run)
{
    bench::resetPeakRss();
    bench::WallTimer wall;
    bench::CpuTimer cpu;
    msprobe::dump::SharedDumps dumps;
    msprobe::studio::LoadRequest request;
    const fs::path out = dir / ("out_" + std::to_string(run) + (shared ? "_shared" : "_separate"));
    fs::create_directories(out);
    LoadTimes t;
    const auto stage = msprobe::studio::sessionloader::buildGraphs(dir / "npu", dir / "bench", out, request, nullptr, {}, {}, shared ? &dumps : nullptr);
    t.graphs = wall.seconds();
    const auto tables = msprobe::studio::sessionloader::compareDumps(dir / "npu", dir / "bench", request, nullptr, {}, shared ? &dumps : nullptr);
    t.wall = wall.seconds();
    t.compare = t.wall - t.graphs;
    t.cpu = cpu.seconds();
    t.parses = shared ? dumps.parses() : 4; // two files, each read by both stages
    for (const auto& [key, rows] : tables)
        t.rows += static_cast<std::size_t>(rows->rowCount());
    t.peakRss = bench::vmHwmBytes();
    fs::remove_all(out);
    (void)stage;
    return t;
}

} // namespace

int main(int argc, char** argv)
{
    std::uint64_t entries = 100000;
    int runs = 3;
    fs::path keep;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--entries" && i + 1 < argc)
            entries = std::stoull(argv[++i]);
        else if (arg == "--runs" && i + 1 < argc)
            runs = std::stoi(argv[++i]);
        else if (arg == "--keep" && i + 1 < argc)
            keep = argv[++i];
        else {
            std::fprintf(stderr, "usage: bench_studio_load [--entries N] [--runs R] [--keep DIR]\n");
            return 2;
        }
    }
    const fs::path dir = keep.empty() ? fs::temp_directory_path() / ("bench_studio_load_" + std::to_string(::getpid())) : keep;
    if (!fs::exists(dir / "npu" / "dump.json") || !fs::exists(dir / "bench" / "dump.json")) {
        bench::GeneratorOptions problem; // bench_graph's anchor pair
        problem.targetEntries = entries;
        problem.layers = 32;
        problem.seed = 7;
        problem.perturb = 1e-4;
        problem.divergeAt = static_cast<std::int64_t>(entries / 2);
        const auto stats = bench::writeDumpFolder(dir / "npu", problem);
        bench::writeDumpFolder(dir / "bench", bench::withoutFaults(problem));
        std::printf("pair: 2 x %llu entries, %s dump.json each\n", static_cast<unsigned long long>(stats.entries),
            bench::formatBytes(stats.bytes).c_str());
    }
    std::vector<LoadTimes> separate, shared;
    for (int r = 0; r < runs; ++r)
        for (bool share : { false, true }) {
            const auto t = bench::runInChild([&] { return load(dir, share, r); });
            if (!t) {
                std::fprintf(stderr, "run %d (%s) failed\n", r, share ? "shared" : "separate");
                return 1;
            }
            std::printf("run %d %-8s graphs %.2f s + compare %.2f s = %.2f s wall, %.2f s CPU, %zu dump.json parses, %zu rows, peak RSS %s\n",
                r, share ? "shared" : "separate", t->graphs, t->compare, t->wall, t->cpu, t->parses, t->rows,
                bench::formatBytes(t->peakRss).c_str());
            (share ? shared : separate).push_back(*t);
        }
    auto median = [](std::vector<LoadTimes> v, double LoadTimes::*field) {
        std::sort(v.begin(), v.end(), [field](const auto& a, const auto& b) { return a.*field < b.*field; });
        return v[v.size() / 2].*field;
    };
    std::printf("median of %d: separate parses %.2f s wall (%.2f s CPU), shared parse %.2f s wall (%.2f s CPU); compare stage %.2f -> %.2f s\n",
        runs, median(separate, &LoadTimes::wall), median(separate, &LoadTimes::cpu), median(shared, &LoadTimes::wall),
        median(shared, &LoadTimes::cpu), median(separate, &LoadTimes::compare), median(shared, &LoadTimes::compare));
    if (keep.empty())
        fs::remove_all(dir);
    return 0;
}
