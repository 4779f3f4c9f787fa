// SPDX-License-Identifier: Apache-2.0
// overflow_check benchmark: a step of many small ranks (peak memory must not grow with the rank count, as
// ranks are read one at a time) and one rank whose construct.json parent chain is very deep (time must grow
// linearly with the depth). Usage: bench_overflow [ranks (2000)] [chain depth (200000)] [work dir]
#include "bench_support.h"

#include "diagnose/anomaly_check.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

namespace fs = std::filesystem;
using namespace msprobe;

namespace {

std::string leaf(const char* max)
{
    return std::string(R"({"type": "torch.Tensor", "dtype": "torch.float32", "shape": [4, 8], "Max": )") + max
        + R"(, "Min": -1.0, "Mean": 0.1, "Norm": 2.0, "requires_grad": false})";
}

void writeText(const fs::path& file, const std::string& text)
{
    fs::create_directories(file.parent_path());
    std::ofstream(file, std::ios::binary) << text;
}

// One rank of `ops` compute ops (no communication op: the cross-rank graph is another cost, see README), the
// last output of the last rank non-finite.
void writeRank(const fs::path& dir, int rank, int ranks, int ops, std::size_t depth)
{
    std::string dump = R"({"task": "statistics", "level": "mix", "framework": "pytorch", "dump_data_dir": null, "data": {)";
    std::string construct = "{";
    std::string stack = "{";
    for (int i = 0; i < ops; ++i) {
        const std::string name = "Torch.add." + std::to_string(i) + ".forward";
        const bool bad = rank == ranks - 1 && i == ops - 1;
        dump += std::string(i ? ", " : "") + "\"" + name + "\": {\"input_args\": [" + leaf("1.0") + "], \"input_kwargs\": {}, "
            + "\"output\": [" + leaf(bad ? "NaN" : "1.0") + "]}";
        construct += std::string(i ? ", " : "") + "\"" + name + "\": \"Module.m" + std::to_string(depth ? depth - 1 : 0) + "\"";
        stack += std::string(i ? ", " : "") + "\"" + std::to_string(i) + "\": [[\"" + name + "\"], [\"File model.py, line "
            + std::to_string(i) + ", in forward, \\n y = f(x)\"]]";
    }
    construct += ", \"Module.m0\": null";
    for (std::size_t m = 1; m < depth; ++m)
        construct += ", \"Module.m" + std::to_string(m) + "\": \"Module.m" + std::to_string(m - 1) + "\"";
    writeText(dir / "dump.json", dump + "}}");
    writeText(dir / "construct.json", construct + "}");
    writeText(dir / "stack.json", stack + "}");
}

struct Run {
    bool ok = false;
    double seconds = 0;
    double cpuSeconds = 0;
    std::uint64_t peakRss = 0;
    std::size_t reportBytes = 0;
};

Run measure(const fs::path& step)
{
    const auto result = bench::runInChild([&] {
        Run run;
        bench::resetPeakRss();
        const std::uint64_t before = bench::currentRssBytes();
        bench::WallTimer timer;
        bench::CpuTimer cpu;
        run.reportBytes = diagnose::analyzeOverflow(step).size();
        run.seconds = timer.seconds();
        run.cpuSeconds = cpu.seconds();
        run.peakRss = bench::vmHwmBytes() - before;
        run.ok = true;
        return run;
    });
    return result.value_or(Run {});
}

} // namespace

int main(int argc, char** argv)
{
    const int ranks = argc > 1 ? std::atoi(argv[1]) : 2000;
    const std::size_t depth = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 200000;
    const fs::path work = argc > 3 ? fs::path(argv[3]) : fs::temp_directory_path() / "msprobe_bench_overflow";
    fs::remove_all(work);

    std::printf("overflow_check: ranks of 64 ops, the anomaly on the last rank\n");
    std::printf("%8s %10s %10s %14s %12s\n", "ranks", "wall s", "CPU s", "peak RSS", "per rank");
    for (int n : { ranks / 10, ranks }) {
        const fs::path step = work / ("ranks" + std::to_string(n));
        for (int r = 0; r < n; ++r)
            writeRank(step / ("rank" + std::to_string(r)), r, n, 64, 0);
        const Run run = measure(step);
        std::printf("%8d %10.2f %10.2f %14s %12s%s\n", n, run.seconds, run.cpuSeconds, bench::formatBytes(run.peakRss).c_str(),
            bench::formatBytes(run.peakRss / std::uint64_t(n > 0 ? n : 1)).c_str(), run.ok ? "" : "  (failed)");
        fs::remove_all(step);
    }

    std::printf("\noverflow_check: one rank, the anomaly under a construct.json parent chain of this depth\n");
    std::printf("%8s %10s %10s %14s %14s\n", "depth", "wall s", "CPU s", "peak RSS", "report bytes");
    for (std::size_t d : { depth / 10, depth / 2, depth }) {
        const fs::path step = work / ("depth" + std::to_string(d));
        writeRank(step / "rank0", 0, 1, 8, d);
        const Run run = measure(step);
        std::printf("%8zu %10.2f %10.2f %14s %14zu%s\n", d, run.seconds, run.cpuSeconds, bench::formatBytes(run.peakRss).c_str(), run.reportBytes,
            run.ok ? "" : "  (failed)");
        fs::remove_all(step);
    }
    fs::remove_all(work);
    return 0;
}
