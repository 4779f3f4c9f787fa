// SPDX-License-Identifier: Apache-2.0
// Compare benchmarks: two synthetic statistics dumps of 100k and 1M entries compared end to end (read, match,
// metrics, rules, CSV written), printing seconds, rows/s and peak RSS against the input size; and tensor mode on
// the reference tensor dumps (tests/data/compare), its time against reading the same .pt files with cat.
//   bench_compare [--entries N[,N...]] [--keep DIR] [--tensor-rounds R]
#include "bench_support.h"
#include "dump_generator.h"

#include "compare/compare_inputs.h"
#include "compare/compare_job.h"

#include <malloc.h>
#include <unistd.h>

#include <algorithm>

#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

using namespace msprobe;
using namespace msprobe::bench;
namespace fs = std::filesystem;

namespace {

struct Measure {
    double seconds = 0;
    std::uint64_t rows = 0;
    std::uint64_t peakRss = 0;
    std::uint64_t outputBytes = 0;
    int ok = 0;
};

Measure compareOnce(const fs::path& npu, const fs::path& bench, const fs::path& out)
{
    Measure m;
    mallopt(M_ARENA_MAX, 2); // as msprobe compare does
    resetPeakRss();
    WallTimer timer;
    compare::JobOptions options;
    options.progress = false;
    options.outputRoot = out;
    const auto pairs = compare::resolveComparePairs(npu, bench, out, false);
    const compare::JobOutcome job = compare::runCompareJob(pairs, options, nullptr);
    m.seconds = timer.seconds();
    m.peakRss = vmHwmBytes() ? vmHwmBytes() : peakRssBytes();
    for (const auto& p : job.pairs) {
        m.rows += p.rows;
        for (const auto& f : p.outputs)
            m.outputBytes += fs::file_size(f);
    }
    m.ok = 1;
    return m;
}

void statisticsBench(std::uint64_t entries, const fs::path& root)
{
    const fs::path dir = root / ("stats_" + std::to_string(entries));
    GeneratorOptions problem;
    problem.targetEntries = entries;
    problem.layers = 32;
    problem.seed = 7;
    problem.perturb = 1e-4;
    problem.divergeAt = static_cast<std::int64_t>(entries / 2);
    GeneratorOptions clean = withoutFaults(problem);
    WallTimer gen;
    const auto ps = writeDumpFolder(dir / "problem", problem);
    const auto bs = writeDumpFolder(dir / "bench", clean);
    const std::uint64_t input = ps.bytes + bs.bytes;
    std::printf("statistics %llu entries: generated 2 x %s in %.1f s\n", static_cast<unsigned long long>(entries),
        formatBytes(ps.bytes).c_str(), gen.seconds());
    // The generator's 2 x input of dirty pages would otherwise be written back during the first compare.
    ::sync();
    // Three runs in fresh processes; the median is the figure (this VM's page cache and memory vary run to run).
    std::vector<Measure> runs;
    for (int run = 0; run < 3; ++run) {
        const auto one = runInChild([&] { return compareOnce(dir / "problem" / "dump.json", dir / "bench" / "dump.json", dir / "out"); });
        if (!one || !one->ok) {
            std::printf("  compare failed\n");
            return;
        }
        std::printf("  run %d: %.2f s\n", run + 1, one->seconds);
        runs.push_back(*one);
        fs::remove_all(dir / "out");
    }
    std::sort(runs.begin(), runs.end(), [](const Measure& a, const Measure& b) { return a.seconds < b.seconds; });
    const Measure* result = &runs[1];
    std::printf("  median compare (read both, match, diff, rules, CSV %s): %.2f s, %llu rows, %.0f rows/s, %s input/s\n",
        formatBytes(result->outputBytes).c_str(), result->seconds, static_cast<unsigned long long>(result->rows),
        static_cast<double>(result->rows) / result->seconds, formatMBps(input, result->seconds).c_str());
    std::printf("  peak RSS %s = %.2f x input (%s)\n", formatBytes(result->peakRss).c_str(),
        static_cast<double>(result->peakRss) / static_cast<double>(input), formatBytes(input).c_str());
    fs::remove_all(dir / "out");
}

void tensorBench(int rounds)
{
    const fs::path data = fs::path(__FILE__).parent_path().parent_path() / "tests" / "data" / "msprobe-ref" / "dumps";
    const fs::path npu = data / "problem_mix_tensor" / "step0" / "proc14911";
    const fs::path bench = data / "bench_mix_tensor" / "step0" / "proc14868";
    if (!fs::exists(npu / "dump.json")) {
        std::printf("tensor: fixture %s not found, skipped\n", npu.string().c_str());
        return;
    }
    std::uint64_t bytes = 0;
    std::size_t files = 0;
    for (const fs::path& dir : { npu, bench })
        for (const auto& f : fs::directory_iterator(dir / "dump_tensor_data")) {
            bytes += f.file_size();
            ++files;
        }
    const std::string cat = "cat " + (npu / "dump_tensor_data").string() + "/*.pt " + (bench / "dump_tensor_data").string() + "/*.pt > /dev/null";
    WallTimer catTimer;
    for (int r = 0; r < rounds; ++r)
        if (std::system(cat.c_str()) != 0)
            std::printf("  cat failed\n");
    const double catSeconds = catTimer.seconds();
    const fs::path out = fs::temp_directory_path() / "msprobe_bench_compare_tensor";
    WallTimer timer;
    std::uint64_t rows = 0;
    for (int r = 0; r < rounds; ++r)
        rows += compareOnce(npu / "dump.json", bench / "dump.json", out).rows;
    const double seconds = timer.seconds();
    fs::remove_all(out);
    std::printf("tensor mode, %d rounds over %zu .pt files (%s per round): compare %.2f s (%s of tensor files, %.0f rows/s); "
                "cat of the same files %.2f s (%s)\n",
        rounds, files, formatBytes(bytes).c_str(), seconds, formatMBps(bytes * static_cast<std::uint64_t>(rounds), seconds).c_str(),
        static_cast<double>(rows) / seconds, catSeconds, formatMBps(bytes * static_cast<std::uint64_t>(rounds), catSeconds).c_str());
}

} // namespace

int main(int argc, char** argv)
{
    std::vector<std::uint64_t> sizes = { 100000, 1000000 };
    fs::path keep;
    int tensorRounds = 20;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--entries" && i + 1 < argc) {
            sizes.clear();
            std::string list = argv[++i];
            std::size_t start = 0;
            while (start < list.size()) {
                const std::size_t comma = list.find(',', start);
                sizes.push_back(std::stoull(list.substr(start, comma - start)));
                start = comma == std::string::npos ? list.size() : comma + 1;
            }
        } else if (arg == "--keep" && i + 1 < argc) {
            keep = argv[++i];
        } else if (arg == "--tensor-rounds" && i + 1 < argc) {
            tensorRounds = std::stoi(argv[++i]);
        } else {
            std::fprintf(stderr, "usage: bench_compare [--entries N[,N...]] [--keep DIR] [--tensor-rounds R]\n");
            return 2;
        }
    }
    const fs::path root = keep.empty() ? fs::temp_directory_path() / "msprobe_bench_compare" : keep;
    fs::create_directories(root);
    for (auto n : sizes)
        statisticsBench(n, root);
    if (tensorRounds > 0)
        tensorBench(tensorRounds);
    if (keep.empty())
        fs::remove_all(root);
    return 0;
}
