// SPDX-License-Identifier: Apache-2.0
// Capture overhead on the example's training step (tiny transformer, Adam, CPU, one intra-op thread):
// plain step vs the same step dumped by msprobe::PrecisionDebugger in several configurations, in one run.
//
//   bench_capture [--steps N] [--out DIR]
// Prints per-mode median step time and the ratio to the plain step; exits 1 when the statistics/mix ratio
// exceeds --max-ratio (default 1.3) and --check is given.
#include "../examples/tiny_transformer.h"
#include "bench_support.h"

#include "capture/aten_order_stats.h"
#include "capture/debugger.h"
#include "capture/seed.h"
#include "capture/tensor_stats.h"

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include <unistd.h>

namespace {

struct Mode {
    const char* label;
    const char* task;
    const char* level;
    const char* section; // inside the task section
    bool async;
    bool extraInfo = true;
    // Modes that write tensor files run in a second phase beside their own plain steps: their page-cache
    // writeback would otherwise slow the steps of whichever mode runs next.
    int phase = 0;
};

double threadCpuSeconds()
{
    timespec ts {};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v.empty() ? 0.0 : v[v.size() / 2];
}

} // namespace

int main(int argc, char** argv)
{
    int steps = 30;
    double maxRatio = 1.3;
    bool check = false;
    int only = -1;
    std::filesystem::path out = std::filesystem::temp_directory_path() / "msprobe_bench_capture";
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--steps" && i + 1 < argc)
            steps = std::stoi(argv[++i]);
        else if (arg == "--out" && i + 1 < argc)
            out = argv[++i];
        else if (arg == "--max-ratio" && i + 1 < argc)
            maxRatio = std::stod(argv[++i]);
        else if (arg == "--mode" && i + 1 < argc)
            only = std::stoi(argv[++i]);
        else if (arg == "--kernel") {
            at::set_num_threads(1);
            for (std::int64_t n : { 256, 8192, 262144, 4194304 }) {
                const auto t = torch::randn({ n });
                const int reps = static_cast<int>(std::max<std::int64_t>(3, 50000000 / n));
                msprobe::bench::WallTimer timer;
                double sink = 0;
                for (int r = 0; r < reps; ++r)
                    sink += msprobe::capture::computeRawStats(t, false).sum;
                const double fused = timer.seconds() / reps;
                timer.restart();
                for (int r = 0; r < reps; ++r)
                    sink += msprobe::capture::computeRawStats(t, true).sum;
                const double withZeros = timer.seconds() / reps;
                timer.restart();
                for (int r = 0; r < reps / 10 + 1; ++r)
                    sink += t.max().item<double>() + t.min().item<double>() + t.mean().item<double>() + t.norm().item<double>();
                const double aten = timer.seconds() / (reps / 10 + 1);
                timer.restart();
                for (int r = 0; r < reps / 10 + 1; ++r)
                    sink += msprobe::capture::torchMeanNorm(t).norm;
                const double meanNorm = timer.seconds() / (reps / 10 + 1);
                timer.restart();
                for (int r = 0; r < reps; ++r)
                    sink += msprobe::capture::atenOrderStats(t).value_or(msprobe::capture::AtenOrderStats {}).sum;
                const double atenOrder = timer.seconds() / reps;
                std::printf("stats kernel float32 n=%-8lld fused %9.2f us (%5.2f Gelem/s), with zero count %9.2f us   "
                            "ATen max+min+mean+norm %9.2f us, torchMeanNorm (dump's Mean/Norm) %9.2f us, "
                            "ATen-order pass (all four) %9.2f us %s\n",
                    static_cast<long long>(n), fused * 1e6, static_cast<double>(n) / fused * 1e-9, withZeros * 1e6, aten * 1e6,
                    meanNorm * 1e6, atenOrder * 1e6, sink == 0.123 ? "" : "");
            }
            return 0;
        } else if (arg == "--check")
            check = true;
        else {
            std::puts("usage: bench_capture [--steps N] [--out DIR] [--mode INDEX] [--max-ratio R] [--check]\n"
                      "  --mode INDEX   time the plain step and only that mode (1 = statistics mix, ...)");
            return 2;
        }
    }
    at::set_num_threads(1);
    msprobe::seed_all(1234, false, false);
    tiny::Options options;
    tiny::TinyTransformer model(options);
    torch::optim::Adam optimizer(model->parameters(), torch::optim::AdamOptions(1e-4));
    const auto [input, target] = tiny::makeBatch(options, 0);

    std::vector<Mode> modes = {
        { "plain", nullptr, nullptr, nullptr, false },
        { "statistics mix", "statistics", "mix", "", false },
        { "statistics L1", "statistics", "L1", "", false },
        { "statistics L0", "statistics", "L0", "", false },
        { "statistics mix async", "statistics", "mix", "", true },
        { "statistics mix no stack", "statistics", "mix", "", false, false },
        { "md5 mix", "statistics", "mix", "\"summary_mode\": \"md5\"", false },
        { "plain (tensor phase)", nullptr, nullptr, nullptr, false, true, 1 },
        { "tensor mix (npy)", "tensor", "mix", "", false, true, 1 },
    };
    if (only > 0 && only < static_cast<int>(modes.size())) {
        Mode chosen = modes[static_cast<std::size_t>(only)];
        chosen.phase = 0;
        modes = { modes[0], chosen };
    }
    // The plain mode of each phase: ratios are taken against it.
    std::vector<std::size_t> plainOf(modes.size(), 0);
    for (std::size_t m = 0; m < modes.size(); ++m)
        for (std::size_t p = 0; p < modes.size(); ++p)
            if (!modes[p].task && modes[p].phase == modes[m].phase) {
                plainOf[m] = p;
                break;
            }
    for (int w = 0; w < 5; ++w)
        tiny::trainStep(model, optimizer, options, input, target);

    // Rounds interleave the modes so that machine noise hits all of them alike.
    std::vector<std::vector<double>> times(modes.size()), flushTimes(modes.size());
    // CPU time is far less sensitive to a loaded machine than wall time: the main thread's (the training
    // thread's own overhead) and the process's (also the writer thread's work), both per step.
    std::vector<std::vector<double>> mainCpu(modes.size()), processCpu(modes.size());
    // The main thread's CPU in start() and stop()/step() (the step boundary), apart from the step's own ops.
    std::vector<std::vector<double>> boundaryCpu(modes.size());
    std::vector<std::unique_ptr<msprobe::PrecisionDebugger>> debuggers(modes.size());
    for (std::size_t m = 1; m < modes.size(); ++m) {
        if (!modes[m].task)
            continue;
        std::string json = std::string("{\"task\": \"") + modes[m].task + "\", \"level\": \"" + modes[m].level
            + "\", \"dump_path\": \"" + (out / std::to_string(m)).string() + "\", \"async_dump\": "
            + (modes[m].async ? "true" : "false") + ", \"extra_info\": " + (modes[m].extraInfo ? "true" : "false")
            + ", \"" + modes[m].task + "\": {" + modes[m].section + "}}";
        debuggers[m] = std::make_unique<msprobe::PrecisionDebugger>(msprobe::capture::parseDumpConfig(json, "bench"));
    }
    const int rounds = std::max(1, steps / 5);
    // MSPROBE_BENCH_MARKS=FILE: each mode's block of steps as "mode begin end" (CLOCK_MONOTONIC seconds), to split
    // a profile (perf record -k CLOCK_MONOTONIC) by mode.
    std::FILE* marks = std::getenv("MSPROBE_BENCH_MARKS") ? std::fopen(std::getenv("MSPROBE_BENCH_MARKS"), "w") : nullptr;
    const auto monotonic = [] {
        timespec ts {};
        clock_gettime(CLOCK_MONOTONIC, &ts);
        return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
    };
    for (int phase = 0; phase < 2; ++phase)
    for (int r = 0; r < rounds; ++r) {
        for (std::size_t m = 0; m < modes.size(); ++m) {
            if (modes[m].phase != phase)
                continue;
            const double blockBegin = monotonic();
            for (int s = 0; s < 5; ++s) {
                msprobe::bench::WallTimer timer;
                msprobe::bench::CpuTimer cpu;
                const double thread0 = threadCpuSeconds();
                if (debuggers[m])
                    debuggers[m]->start(*model);
                const double started = threadCpuSeconds();
                tiny::trainStep(model, optimizer, options, input, target);
                const double computed = timer.seconds();
                const double computedCpu = threadCpuSeconds();
                if (debuggers[m]) {
                    debuggers[m]->stop();
                    debuggers[m]->step();
                }
                times[m].push_back(timer.seconds());
                flushTimes[m].push_back(timer.seconds() - computed);
                const double thread1 = threadCpuSeconds();
                mainCpu[m].push_back(thread1 - thread0);
                boundaryCpu[m].push_back((started - thread0) + (thread1 - computedCpu));
                processCpu[m].push_back(cpu.seconds());
            }
            if (marks)
                std::fprintf(marks, "%zu %.9f %.9f\n", m, blockBegin, monotonic());
            // The writer thread must not spill its work into the next mode's steps, nor the kernel's writeback
            // of the files it wrote (on two cores it took the plain steps' CPU).
            if (debuggers[m]) {
                debuggers[m]->flush();
                if (modes[m].phase == 1)
                    ::sync();
            }
        }
    }
    if (marks)
        std::fclose(marks);
    for (auto& d : debuggers)
        if (d)
            d->flush();
    std::printf("capture overhead, tiny transformer training step (d_model %lld, seq %lld, batch %lld, %lld layers, "
                "Adam), %d steps per mode, 1 thread\n",
        static_cast<long long>(options.dModel), static_cast<long long>(options.seq),
        static_cast<long long>(options.batch), static_cast<long long>(options.layers), rounds * 5);
    std::printf("%-24s %10s %6s %12s %14s %6s %12s %14s %6s\n", "mode", "wall ms", "ratio", "of which", "main CPU ms",
        "ratio", "of which", "process CPU ms", "ratio");
    double mixRatio = 0;
    for (std::size_t m = 0; m < modes.size(); ++m) {
        const std::size_t p = plainOf[m];
        const double plain = median(times[p]), plainMain = median(mainCpu[p]), plainProcess = median(processCpu[p]);
        const double t = median(times[m]);
        const double main = median(mainCpu[m]), process = median(processCpu[m]);
        std::printf("%-24s %10.3f %6.2f %12.3f %14.3f %6.2f %12.3f %14.3f %6.2f\n", modes[m].label, t * 1e3, t / plain,
            median(flushTimes[m]) * 1e3, main * 1e3, main / plainMain, median(boundaryCpu[m]) * 1e3, process * 1e3,
            process / plainProcess);
        if (m == 1)
            mixRatio = t / plain;
    }
    if (!std::getenv("MSPROBE_BENCH_KEEP"))
        std::filesystem::remove_all(out);
    if (check && mixRatio > maxRatio) {
        std::printf("FAIL: statistics mix ratio %.2f > %.2f\n", mixRatio, maxRatio);
        return 1;
    }
    return 0;
}
