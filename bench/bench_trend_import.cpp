// SPDX-License-Identifier: Apache-2.0
// data2db dump-import benchmark: a synthetic dump folder of `ranks` x `steps` LLaMA-like mix-level dumps
// (about `mb` MB of dump.json each) imported into dump_data.trend.db, as `msprobe data2db --format dump
// --process_num threads` does. Prints MB/s of dump.json, the ratio to the reference tool (~27 MB/s on this
// machine type: 64 ranks x 2 steps, 1.1 GB in 44 s), CPU time and the peak RSS (which must not grow with the
// rank count: ranks are read a few at a time).
// Usage: bench_trend_import [ranks (16)] [MB per dump (16)] [threads (2)] [steps (2)] [work dir]
// With MSPROBE_BENCH_DUMP=DIR set, imports that existing dump folder instead of generating one (for profiling
// the import alone: `perf record` then sees no generator). "writer" is the CPU time of the thread that writes the
// database (the import's one serial part: it bounds the wall time however many cores read).
#include "bench_support.h"
#include "dump_generator.h"

#include "trend/dump_import.h"

#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <string>

namespace fs = std::filesystem;
using namespace msprobe;

namespace {

double threadCpuSeconds()
{
    timespec ts {};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

} // namespace

int main(int argc, char** argv)
{
    const int ranks = argc > 1 ? std::atoi(argv[1]) : 16;
    const double megabytes = argc > 2 ? std::atof(argv[2]) : 16;
    const int threads = argc > 3 ? std::atoi(argv[3]) : 2;
    const int steps = argc > 4 ? std::atoi(argv[4]) : 2;
    const fs::path work = argc > 5 ? fs::path(argv[5]) : fs::temp_directory_path() / "msprobe_bench_trend_import";
    constexpr double kReferenceMBps = 27.0;

    const char* existing = std::getenv("MSPROBE_BENCH_DUMP");
    const fs::path dumpDir = existing ? fs::path(existing) : work / "dump";
    fs::remove_all(work);
    fs::create_directories(work);
    std::uint64_t generated = 0;
    for (int step = 0; step < steps && !existing; ++step)
        for (int rank = 0; rank < ranks; ++rank) {
            bench::GeneratorOptions options;
            options.targetBytes = static_cast<std::uint64_t>(megabytes * 1e6);
            options.rank = rank;
            options.seed = static_cast<std::uint64_t>(1 + rank + 1000 * step);
            options.layers = 8;
            generated += bench::writeDumpFolder(work / "dump" / ("step" + std::to_string(step)) / ("rank" + std::to_string(rank)), options).bytes;
        }
    if (!existing)
        std::printf("dump: %d ranks x %d steps, %s of dump.json\n", ranks, steps, bench::formatBytes(generated).c_str());

    for (const bool microStep : { true, false }) {
        trend::ImportOptions options;
        options.threads = static_cast<std::size_t>(threads);
        options.microStep = microStep;
        const auto result = bench::runInChild([&] {
            bench::resetPeakRss();
            bench::WallTimer wall;
            bench::CpuTimer cpu;
            const double writerStart = threadCpuSeconds(); // importDumpData writes on the calling thread
            const auto summary = trend::importDumpData(dumpDir, work / "dump_data.trend.db", options);
            struct Measured {
                double wall, cpu, writer;
                std::uint64_t bytes, rows, peak, db;
            };
            return Measured { wall.seconds(), cpu.seconds(), threadCpuSeconds() - writerStart, summary.bytes, summary.rows, bench::peakRssBytes(),
                static_cast<std::uint64_t>(fs::file_size(work / "dump_data.trend.db")) };
        });
        if (!result) {
            std::fprintf(stderr, "bench_trend_import: the import failed\n");
            return 1;
        }
        const double mbps = bench::megabytesPerSecond(result->bytes, result->wall);
        std::printf("data2db dump import (--micro_step %s, --process_num %d): %.2f s wall, %.2f s CPU, %llu rows, "
                    "%s (%.1fx the reference's ~%.0f MB/s), %.0f MB/s per CPU second, writer %.2f s CPU, peak RSS %s, db %s\n",
            microStep ? "true" : "false", threads, result->wall, result->cpu, static_cast<unsigned long long>(result->rows),
            bench::formatMBps(result->bytes, result->wall).c_str(), mbps / kReferenceMBps, kReferenceMBps,
            bench::megabytesPerSecond(result->bytes, result->cpu), result->writer, bench::formatBytes(result->peak).c_str(),
            bench::formatBytes(result->db).c_str());
    }
    fs::remove_all(work);
    return 0;
}
