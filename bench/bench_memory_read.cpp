// SPDX-License-Identifier: Apache-2.0
// msMemScope dump reading benchmark: a generated memscope_dump CSV of about `events` rows shaped like a training
// run (bench/memscope_dump_writer.h: distinct sizes, reused addresses, owners, two threads, rows out of ID order
// as msMemScope writes them) is read, modelled, and run through every analysis. Prints the load in MB/s and
// events/s, the time of each analysis (wall and CPU seconds: the CPU time is what the code costs when the
// machine is shared) and the peak RSS of the reading process (the dump is generated in a child process).
// Usage: bench_memory_read [events (10000000)] [work dir] [keep: reuse the dump if there, leave it afterwards]
#include "bench_support.h"
#include "memscope_dump_writer.h"

#include "memory/compare.h"
#include "memory/inefficient.h"
#include "memory/leaks.h"
#include "memory/memscope_reader.h"
#include "memory/owners.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

namespace fs = std::filesystem;
using namespace msprobe;
using namespace msprobe::memory;

namespace {

struct Phase {
    bench::WallTimer wall;
    bench::CpuTimer cpu;
    std::string done()
    {
        char text[64];
        std::snprintf(text, sizeof text, "%.2f s (cpu %.2f s)", wall.seconds(), cpu.seconds());
        wall.restart();
        cpu.restart();
        return text;
    }
};

} // namespace

int main(int argc, char** argv)
{
    const std::uint64_t events = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 10000000;
    const fs::path work = argc > 2 ? fs::path(argv[2]) : fs::temp_directory_path() / "msprobe_bench_memory_read";
    const bool keep = argc > 3 && std::string(argv[3]) == "keep";
    fs::create_directories(work);
    const fs::path file = work / ("memscope_dump_" + std::to_string(events) + ".csv");
    if (!keep || !fs::exists(file)) {
        const auto rows = bench::runInChild([&] { return bench::MemScopeDumpWriter().write(file.string(), events); });
        if (!rows) {
            std::fprintf(stderr, "could not write %s\n", file.c_str());
            return 1;
        }
    }
    const auto bytes = fs::file_size(file);
    std::printf("dump: %s, %s\n", file.c_str(), bench::formatBytes(bytes).c_str());

    Phase phase;
    bench::WallTimer loadWall;
    bench::CpuTimer loadCpu;
    const auto trace = readMemScope(file);
    const double readSeconds = phase.wall.seconds();
    std::printf("read:        %zu rows, %s, %.1f M events/s: %s\n", trace.rowsRead,
        bench::formatMBps(bytes, readSeconds).c_str(), static_cast<double>(trace.rowsRead) / readSeconds / 1e6, phase.done().c_str());
    const auto model = buildModel(trace);
    std::printf("model:       %zu blocks, %zu ops, %u steps: %s\n", model.blocks.size(), model.ops.size(), model.stepCount, phase.done().c_str());
    std::printf("load+index:  %.2f s (cpu %.2f s), peak RSS so far %s\n", loadWall.seconds(), loadCpu.seconds(),
        bench::formatBytes(bench::peakRssBytes()).c_str());
    const auto leaks = findStepLeaks(trace, model);
    std::printf("leaks:       %zu step leak(s): %s\n", leaks.leaks.size(), phase.done().c_str());
    const auto inefficient = findInefficientBlocks(trace, model);
    std::printf("inefficient: %zu block(s): %s\n", inefficient.blocks.size(), phase.done().c_str());
    const auto decomposition = decompose(trace, model, { DecomposeOptions::At::Peak });
    std::printf("decompose:   %lld bytes live at the peak: %s\n", static_cast<long long>(decomposition.liveBytes), phase.done().c_str());
    const auto compared = compareMemory({ &trace, &model, 10 }, { &trace, &model, 11 }, CompareLevel::Op, CompareMode::Net);
    std::printf("compare:     steps 10 and 11, %zu rows: %s\n", compared.rows.size(), phase.done().c_str());
    const auto whole = compareMemory({ &trace, &model, 0 }, { &trace, &model, 0 }, CompareLevel::Op, CompareMode::Compat);
    std::printf("compare:     the whole dump with itself, %zu rows: %s\n", whole.rows.size(), phase.done().c_str());
    const auto marks = checkLeaksBetweenMarks(trace, "leak check", 0);
    std::printf("check-leaks: marks A, B, C, %zu leak(s): %s\n", marks.empty() ? 0 : marks[0].leaks.size(), phase.done().c_str());
    std::printf("peak RSS:    %s (%.0f bytes per row)\n", bench::formatBytes(bench::peakRssBytes()).c_str(),
        static_cast<double>(bench::peakRssBytes()) / static_cast<double>(std::max<std::size_t>(1, trace.rowsRead)));
    if (!keep)
        fs::remove_all(work);
    return 0;
}
